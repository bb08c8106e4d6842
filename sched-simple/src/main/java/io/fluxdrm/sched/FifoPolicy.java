package io.fluxdrm.sched;

import java.util.Comparator;

/**
 * RFC 27's and flux-core sched-simple's policy: pending allocs by priority (higher first), then job
 * id (lower first, unsigned); a pass serves them in that order and stops at the first that must
 * wait (head-of-line blocking, no backfill). The default {@link SchedulingPolicy}.
 */
public final class FifoPolicy implements SchedulingPolicy {

  /** The one instance. */
  public static final FifoPolicy INSTANCE = new FifoPolicy();

  private static final Comparator<Pending> ORDER =
      Comparator.comparingLong((Pending p) -> -p.priority())
          .thenComparing((a, b) -> Long.compareUnsigned(a.id(), b.id()));

  private FifoPolicy() {}

  @Override
  public Comparator<Pending> order() {
    return ORDER;
  }

  @Override
  public boolean blocks(Pending waiting) {
    return true;
  }

  @Override
  public String name() {
    return "fifo";
  }

  @Override
  public String toString() {
    return name();
  }
}
