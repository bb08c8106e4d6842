package io.fluxdrm.sched;

/** A job of a {@link SchedulerCore} holding an allocation: its user and its expiration. */
final class Running {
  final long userid;
  double expiration;

  Running(long userid, double expiration) {
    this.userid = userid;
    this.expiration = expiration;
  }
}
