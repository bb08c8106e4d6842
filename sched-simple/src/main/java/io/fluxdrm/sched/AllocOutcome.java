package io.fluxdrm.sched;

import io.fluxdrm.rset.ResourceSet;
import java.util.List;

/**
 * The allocator's answer to one request: allocated, insufficient now (wait), or infeasible ever
 * (deny with a note in flux-core's wording).
 */
sealed interface AllocOutcome {

  /**
   * Resources chosen (not yet given).
   *
   * @param r their R, without times or nslots
   * @param nslots slots actually allocated
   * @param picks the same per pool position, for {@link ResourcePool#grant}
   */
  record Allocated(ResourceSet r, long nslots, List<ResourcePool.Pick> picks)
      implements AllocOutcome {}

  /** Not enough free resources now; the request could be satisfied later. */
  record InsufficientNow() implements AllocOutcome {}

  /** The request could never be satisfied by this pool. */
  record Infeasible(String note) implements AllocOutcome {}
}
