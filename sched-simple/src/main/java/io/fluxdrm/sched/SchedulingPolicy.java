package io.fluxdrm.sched;

import java.util.Comparator;

/**
 * What a scheduling pass of {@link SchedulerCore} does with the pending {@code sched.alloc}
 * requests: the order in which it tries them, and whether one that must wait for resources holds
 * back the ones behind it. This is the seam flux-core's Python {@code Scheduler} offers as its one
 * {@code schedule()} override; {@link FifoPolicy} (RFC 27 order, head-of-line blocking) is the one
 * implementation and the default ({@link SchedulerOptions#policy()}).
 *
 * <p>The rest is the core's and the same under every policy: a request the pool can never satisfy
 * is DENIED when a pass tries it; the queue depth refuses allocs beyond the limit announced in
 * {@code sched-ready}; the RFC 51 realloc FIFO is served before or after the allocs as {@link
 * ReallocOrder} says; placement is the pool's {@link AllocMode}.
 */
public interface SchedulingPolicy {

  /** A pending alloc as a policy sees it. */
  interface Pending {
    /** The job id (unsigned 64-bit). */
    long id();

    /** RFC 27 priority, 0 to 4294967295; a {@code sched.prioritize} changes it. */
    long priority();

    /** The job's user. */
    long userid();

    /** The job's submit time (seconds since the epoch), as the job manager gave it. */
    double tSubmit();

    /** What the job asks for. */
    ResourceRequest request();
  }

  /**
   * The order in which a pass tries the pending allocs, which is also their {@code jobs_ahead}. It
   * must be a total order (ties broken, for example by id) that does not change while an alloc is
   * pending except through its priority: the core keeps the allocs sorted by it, and re-sorts one
   * whose priority changed.
   */
  Comparator<Pending> order();

  /**
   * Whether the pass ends at {@code waiting}, an alloc the pool could satisfy but not now: {@code
   * true} holds back every alloc behind it (head-of-line blocking); {@code false} lets the pass try
   * them, so they may start first (backfill without a reservation).
   */
  boolean blocks(Pending waiting);

  /** The policy's name, for logs and docs ({@code fifo}). */
  String name();
}
