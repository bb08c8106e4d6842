package io.fluxdrm.bridge.dvm;

import java.util.Objects;

/**
 * A grant whose session control was sent to the DVM and not answered yet.
 *
 * @param nodes its {@code PMIX_ALLOC_NODE_LIST}
 * @param extend true for an {@code EXTEND} of a session the DVM holds, false for an {@code
 *     INSTANTIATE}
 */
public record Pending(String nodes, boolean extend) {
  /** Checks the fields. */
  public Pending {
    Objects.requireNonNull(nodes, "nodes");
  }
}
