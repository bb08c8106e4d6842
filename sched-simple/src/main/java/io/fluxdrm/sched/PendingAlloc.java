package io.fluxdrm.sched;

/** A pending alloc of a {@link SchedulerCore}: its request, its place in the policy's order. */
final class PendingAlloc implements SchedulingPolicy.Pending {
  final long id;
  long priority;
  final long userid;
  final double tSubmit;
  final ResourceRequest request;
  boolean feasibilityKnown;

  /** The {@code jobs_ahead} last annotated, or -1 when never annotated. */
  long annotated = -1;

  PendingAlloc(long id, long priority, long userid, double tSubmit, ResourceRequest request) {
    this.id = id;
    this.priority = priority;
    this.userid = userid;
    this.tSubmit = tSubmit;
    this.request = request;
  }

  @Override
  public long id() {
    return id;
  }

  @Override
  public long priority() {
    return priority;
  }

  @Override
  public long userid() {
    return userid;
  }

  @Override
  public double tSubmit() {
    return tSubmit;
  }

  @Override
  public ResourceRequest request() {
    return request;
  }
}
