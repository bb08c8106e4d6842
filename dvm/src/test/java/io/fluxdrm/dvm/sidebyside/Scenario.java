package io.fluxdrm.dvm.sidebyside;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * One scenario of docs/scenarios.md sections B, C and D, written once against the {@link World}.
 *
 * @param id the spec's id (B1, C7, D2...)
 * @param title a short description for the table
 * @param group the world it runs in (scenarios of a group share one DVM, in order)
 * @param body what it does and observes; empty when it is not written yet
 * @param cannotRun why it cannot run against PRRTE through the port, when it cannot
 */
public record Scenario(
    String id,
    String title,
    World.Group group,
    Optional<Function<World, Outcome>> body,
    Optional<String> cannotRun) {
  /** Checks. */
  public Scenario {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(cannotRun, "cannotRun");
  }
}
