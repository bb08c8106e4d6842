package io.fluxdrm.rpc.reactor;

import java.util.PriorityQueue;

/** A timer queue ordered by deadline then submission; used by the loops on their own thread. */
final class Timers {
  static final class Timer implements EventLoop.Cancellable {
    final long deadline;
    final long seq;
    final Runnable task;
    volatile boolean cancelled;

    Timer(long deadline, long seq, Runnable task) {
      this.deadline = deadline;
      this.seq = seq;
      this.task = task;
    }

    @Override
    public void cancel() {
      cancelled = true;
    }
  }

  private final PriorityQueue<Timer> queue =
      new PriorityQueue<>(
          (a, b) ->
              a.deadline != b.deadline
                  ? Long.compare(a.deadline, b.deadline)
                  : Long.compare(a.seq, b.seq));
  private long seq;

  Timer add(long deadline, Runnable task) {
    Timer t = new Timer(deadline, seq++, task);
    queue.add(t);
    return t;
  }

  void add(Timer t) {
    queue.add(t);
  }

  Timer create(long deadline, Runnable task) {
    return new Timer(deadline, seq++, task);
  }

  /** Returns the next due timer not cancelled, removing it, or null. */
  Timer pollDue(long now) {
    while (!queue.isEmpty()) {
      Timer t = queue.peek();
      if (t.cancelled) {
        queue.poll();
        continue;
      }
      if (t.deadline - now > 0) {
        return null;
      }
      return queue.poll();
    }
    return null;
  }

  /** Returns the deadline of the next live timer, or Long.MAX_VALUE. */
  long nextDeadline() {
    while (!queue.isEmpty() && queue.peek().cancelled) {
      queue.poll();
    }
    return queue.isEmpty() ? Long.MAX_VALUE : queue.peek().deadline;
  }
}
