package io.fluxdrm.bridge.translate;

import io.fluxdrm.rset.ResourceSet;
import java.util.Map;

/**
 * What a translation needs to know about the job a request comes from: its Flux id, its current R,
 * the requester's own allocation, and the job's reservations (PMIx allocations) with their R. The
 * job manager builds it; the translation only reads it. Whether the requester may act on the job
 * (D16) is the job manager's check, made before translating.
 *
 * @param jobId the Flux job id, an unsigned 64-bit value
 * @param r the job's current R; every reservation is part of it
 * @param ownAllocId the {@code PMIX_ALLOC_ID} of the requester's own allocation (found from {@code
 *     PMIX_REQUESTOR}), or null when the requester runs in the job's initial allocation
 * @param reservations {@code PMIX_ALLOC_ID} to the R of that reservation
 */
public record JobView(
    long jobId, ResourceSet r, String ownAllocId, Map<String, ResourceSet> reservations) {
  /** Copies the map. */
  public JobView {
    if (r == null) {
      throw new IllegalArgumentException("job view: R is missing");
    }
    reservations = Map.copyOf(reservations);
  }

  /**
   * A view of a job with no reservation.
   *
   * @param jobId the Flux job id (unsigned)
   * @param r its current R
   * @return the view
   */
  public static JobView of(long jobId, ResourceSet r) {
    return new JobView(jobId, r, null, Map.of());
  }

  /** The job id as unsigned decimal text. */
  public String jobIdText() {
    return Long.toUnsignedString(jobId);
  }
}
