package io.fluxdrm.sched;

import io.fluxdrm.rset.Constraint;

/**
 * What the scheduler needs from a jobspec, as flux-core's {@code ResourceRequest}: an optional node
 * count, a slot count, the cores and GPUs of one slot, whether nodes are exclusive, the duration
 * and an optional RFC 31 constraint.
 *
 * <p>With a node count, {@code slots} counts the slots on each node (one number, not a range);
 * without one, it counts all slots, which may then lie on any ranks but never span two. Exclusive
 * without a node count makes each slot a whole node, as in flux-core.
 *
 * @param nodes the node count, or null when the request names no node
 * @param slots slots per node with a node count, all slots without
 * @param slotSize cores per slot
 * @param gpusPerSlot GPUs per slot (0 for none)
 * @param exclusive whether every chosen node is given whole
 * @param duration seconds; 0 for none
 * @param constraint RFC 31 constraint the chosen ranks must match, or null for any
 */
public record ResourceRequest(
    Count nodes,
    Count slots,
    int slotSize,
    int gpusPerSlot,
    boolean exclusive,
    double duration,
    Constraint constraint) {

  /**
   * A count range {@code min..max}; {@code max} is {@link #UNBOUNDED} when the jobspec gives no
   * maximum.
   */
  public record Count(int min, int max) {

    /** The {@code max} of a count without an upper bound. */
    public static final int UNBOUNDED = Integer.MAX_VALUE;

    public Count {
      if (min < 1) {
        throw new SchedException("count: min " + min + " (expected: >= 1)");
      }
      if (max < min) {
        throw new SchedException("count: max " + max + " is less than min " + min);
      }
    }

    public static Count exactly(int n) {
      return new Count(n, n);
    }

    public static Count atLeast(int n) {
      return new Count(n, UNBOUNDED);
    }

    public boolean bounded() {
      return max != UNBOUNDED;
    }

    /** {@code 2}, {@code 2-4} or {@code 2+}. */
    @Override
    public String toString() {
      return min == max ? Integer.toString(min) : min + (bounded() ? "-" + max : "+");
    }
  }

  public ResourceRequest {
    if (slots == null) {
      throw new SchedException("request: slot count is missing (expected: a count >= 1)");
    }
    if (nodes != null && slots.min() != slots.max()) {
      throw new SchedException(
          "request: slots per node "
              + slots
              + " is a range (expected: one count when a node count is given)");
    }
    if (slotSize < 1) {
      throw new SchedException("request: slot size " + slotSize + " (expected: >= 1)");
    }
    if (gpusPerSlot < 0) {
      throw new SchedException("request: gpus per slot " + gpusPerSlot + " (expected: >= 0)");
    }
    if (!(duration >= 0) || Double.isInfinite(duration)) {
      throw new SchedException("request: duration " + duration + " (expected: finite, >= 0)");
    }
  }

  /** {@code nslots} slots of {@code slotSize} cores anywhere ({@code flux run -n N -c C}). */
  public static ResourceRequest slots(int nslots, int slotSize) {
    return new ResourceRequest(null, Count.exactly(nslots), slotSize, 0, false, 0, null);
  }

  /** {@code nnodes} nodes with {@code slotsPerNode} slots of {@code slotSize} cores each. */
  public static ResourceRequest nodes(int nnodes, int slotsPerNode, int slotSize) {
    return new ResourceRequest(
        Count.exactly(nnodes), Count.exactly(slotsPerNode), slotSize, 0, false, 0, null);
  }

  public ResourceRequest withNodes(Count n) {
    return new ResourceRequest(n, slots, slotSize, gpusPerSlot, exclusive, duration, constraint);
  }

  public ResourceRequest withSlots(Count s) {
    return new ResourceRequest(nodes, s, slotSize, gpusPerSlot, exclusive, duration, constraint);
  }

  public ResourceRequest withGpusPerSlot(int g) {
    return new ResourceRequest(nodes, slots, slotSize, g, exclusive, duration, constraint);
  }

  public ResourceRequest withExclusive(boolean x) {
    return new ResourceRequest(nodes, slots, slotSize, gpusPerSlot, x, duration, constraint);
  }

  public ResourceRequest withDuration(double d) {
    return new ResourceRequest(nodes, slots, slotSize, gpusPerSlot, exclusive, d, constraint);
  }

  public ResourceRequest withConstraint(Constraint c) {
    return new ResourceRequest(nodes, slots, slotSize, gpusPerSlot, exclusive, duration, c);
  }

  /**
   * The node count the allocator works with: the given one, or one node per slot when the request
   * is exclusive without a node count; null for a slot-only request.
   */
  Count effectiveNodes() {
    if (nodes != null) {
      return nodes;
    }
    return exclusive ? slots : null;
  }

  /** Slots on each node of a node-count request. */
  int effectiveSlotsPerNode() {
    return nodes != null ? slots.min() : 1;
  }

  /** Whether a rank matches the constraint (always, without one). */
  boolean matches(int rank, String host, Constraint.PropertyLookup props) {
    return constraint == null || constraint.matches(rank, host, props);
  }
}
