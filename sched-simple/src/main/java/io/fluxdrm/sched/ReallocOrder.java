package io.fluxdrm.sched;

/**
 * Which queue a scheduling pass serves first: the RFC 51 realloc FIFO (requests of running jobs) or
 * the RFC 27 pending allocs (D4). Within each queue head-of-line blocking applies.
 */
public enum ReallocOrder {
  /**
   * Reallocs first, then allocs; a realloc that must wait does not hold up the allocs (D4, the
   * default).
   */
  REALLOC_FIRST,
  /** Reallocs first, and a realloc that must wait holds up the allocs as well. */
  REALLOC_FIRST_BLOCKING,
  /** Allocs first, then reallocs. */
  ALLOC_FIRST
}
