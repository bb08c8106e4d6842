package io.fluxdrm.testkit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Checks the invariants a test registers after every step it reports and once more after the test,
 * so that no test of a core can leave its state broken unnoticed.
 *
 * <p>A test class declares it as a field, {@code @RegisterExtension final InvariantsExtension
 * invariants = new InvariantsExtension();}, registers each invariant by name ({@code
 * invariants.register("conservation", pool::checkInvariants)}), and its step harness calls {@link
 * #check(String)} after every step. An invariant fails by throwing (an {@link AssertionError} or
 * any exception); the failure names every invariant that does not hold and the step after which it
 * broke. Registrations last for one test: JUnit makes a new instance per test method.
 */
public final class InvariantsExtension implements AfterEachCallback {

  /** One property that must hold between steps; it throws when it does not. */
  @FunctionalInterface
  public interface Invariant {
    void check() throws Exception;
  }

  private final Map<String, Invariant> invariants = new LinkedHashMap<>();
  private int checks;

  /**
   * Registers {@code invariant} under {@code name} (a short phrase: "free and allocated partition
   * the pool").
   *
   * @return this extension
   * @throws IllegalArgumentException when the name is taken
   */
  public InvariantsExtension register(String name, Invariant invariant) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(invariant, "invariant");
    if (invariants.putIfAbsent(name, invariant) != null) {
      throw new IllegalArgumentException("invariant already registered: " + name);
    }
    return this;
  }

  /** The names of the registered invariants, in registration order. */
  public List<String> names() {
    return List.copyOf(invariants.keySet());
  }

  /** How many times {@link #check} ran the invariants (at least once per step reported). */
  public int checks() {
    return checks;
  }

  /**
   * Runs every invariant.
   *
   * @param after what just happened (the step), for the failure message
   * @throws AssertionError naming each invariant that does not hold, with its reason
   */
  public void check(String after) {
    checks++;
    List<String> broken = new ArrayList<>();
    AssertionError first = null;
    for (Map.Entry<String, Invariant> e : invariants.entrySet()) {
      try {
        e.getValue().check();
      } catch (Exception | AssertionError t) {
        broken.add(e.getKey() + ": " + t.getMessage());
        if (first == null) {
          first = t instanceof AssertionError a ? a : new AssertionError(t.getMessage(), t);
        }
      }
    }
    if (!broken.isEmpty()) {
      AssertionError err =
          new AssertionError(
              "invariant broken after " + after + ":\n  " + String.join("\n  ", broken));
      err.addSuppressed(first);
      throw err;
    }
  }

  @Override
  public void afterEach(ExtensionContext context) {
    if (context.getExecutionException().isPresent()) {
      return; // the test failed already; its own failure is the one to read
    }
    check("the end of " + context.getDisplayName());
  }
}
