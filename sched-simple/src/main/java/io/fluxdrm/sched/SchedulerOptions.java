package io.fluxdrm.sched;

/**
 * How a {@link SchedulerCore} behaves.
 *
 * @param queueDepth the limit on pending {@code sched.alloc} requests announced in {@code
 *     sched-ready}
 * @param realloc whether RFC 51 dynamic allocation is on; when off every {@code sched.realloc} is
 *     answered UNSUPPORTED at once ({@code --no-realloc})
 * @param reallocOrder which queue a scheduling pass serves first
 * @param instanceOwner the user id of the instance owner, who may send reallocs for any job; -1 for
 *     none
 * @param firstAllocId the first RFC 51 {@code alloc_id} to hand out (a restarted service passes one
 *     past the last it gave); ids are unsigned 64-bit
 * @param annotatePending whether allocs left pending after a scheduling pass are annotated (RFC 27
 *     ANNOTATE) with {@code sched.reason_pending} and {@code sched.jobs_ahead}, as flux-core's
 *     sched-simple does with debug bit 2; off by default, as there
 * @param policy which pending alloc a scheduling pass tries next, and whether one that must wait
 *     holds back the others ({@link FifoPolicy} by default)
 * @param allocMode the order in which ranks are chosen ({@link AllocMode#WORST_FIT} by default, as
 *     flux-core's sched-simple; {@code alloc-mode})
 */
public record SchedulerOptions(
    QueueDepth queueDepth,
    boolean realloc,
    ReallocOrder reallocOrder,
    long instanceOwner,
    long firstAllocId,
    boolean annotatePending,
    SchedulingPolicy policy,
    AllocMode allocMode) {

  public SchedulerOptions {
    if (queueDepth == null) {
      throw new SchedException("options: queue depth is missing");
    }
    if (reallocOrder == null) {
      throw new SchedException("options: realloc order is missing");
    }
    if (firstAllocId == 0) {
      throw new SchedException("options: first alloc id 0 (expected: >= 1)");
    }
    if (policy == null) {
      throw new SchedException("options: scheduling policy is missing");
    }
    if (allocMode == null) {
      throw new SchedException("options: alloc mode is missing");
    }
  }

  /**
   * sched-simple's defaults: {@code limited=8}, realloc on, reallocs first, ids from 1, no pending
   * annotations, FIFO, worst fit.
   */
  public static SchedulerOptions defaults() {
    return new SchedulerOptions(
        QueueDepth.DEFAULT,
        true,
        ReallocOrder.REALLOC_FIRST,
        -1,
        1,
        false,
        FifoPolicy.INSTANCE,
        AllocMode.WORST_FIT);
  }

  public SchedulerOptions withQueueDepth(QueueDepth q) {
    return new SchedulerOptions(
        q, realloc, reallocOrder, instanceOwner, firstAllocId, annotatePending, policy, allocMode);
  }

  public SchedulerOptions withRealloc(boolean on) {
    return new SchedulerOptions(
        queueDepth,
        on,
        reallocOrder,
        instanceOwner,
        firstAllocId,
        annotatePending,
        policy,
        allocMode);
  }

  public SchedulerOptions withReallocOrder(ReallocOrder o) {
    return new SchedulerOptions(
        queueDepth, realloc, o, instanceOwner, firstAllocId, annotatePending, policy, allocMode);
  }

  public SchedulerOptions withInstanceOwner(long uid) {
    return new SchedulerOptions(
        queueDepth, realloc, reallocOrder, uid, firstAllocId, annotatePending, policy, allocMode);
  }

  public SchedulerOptions withFirstAllocId(long id) {
    return new SchedulerOptions(
        queueDepth, realloc, reallocOrder, instanceOwner, id, annotatePending, policy, allocMode);
  }

  public SchedulerOptions withAnnotatePending(boolean on) {
    return new SchedulerOptions(
        queueDepth, realloc, reallocOrder, instanceOwner, firstAllocId, on, policy, allocMode);
  }

  public SchedulerOptions withPolicy(SchedulingPolicy p) {
    return new SchedulerOptions(
        queueDepth,
        realloc,
        reallocOrder,
        instanceOwner,
        firstAllocId,
        annotatePending,
        p,
        allocMode);
  }

  public SchedulerOptions withAllocMode(AllocMode m) {
    return new SchedulerOptions(
        queueDepth, realloc, reallocOrder, instanceOwner, firstAllocId, annotatePending, policy, m);
  }
}
