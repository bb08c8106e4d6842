package io.fluxdrm.rpc.net;

import java.time.Duration;
import java.util.ArrayDeque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A deterministic event loop for tests: tasks run only when the test calls {@link #runPending()}
 * and time moves only by {@link #advance(Duration)}. Use it from a single thread.
 */
public final class ManualEventLoop implements EventLoop {
  private static final Logger LOG = LoggerFactory.getLogger(ManualEventLoop.class);

  private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
  private final Timers timers = new Timers();
  private long now;
  private boolean running;

  /** Creates a loop whose clock starts at zero. */
  public ManualEventLoop() {}

  @Override
  public void execute(Runnable task) {
    tasks.add(task);
  }

  @Override
  public Cancellable schedule(Duration delay, Runnable task) {
    return timers.add(now + delay.toNanos(), task);
  }

  @Override
  public boolean inLoop() {
    return running;
  }

  @Override
  public long nanoTime() {
    return now;
  }

  /**
   * Runs tasks until none is left (tasks may submit more).
   *
   * @return the number of tasks run
   */
  public int runPending() {
    int n = 0;
    boolean was = running;
    running = true;
    try {
      Runnable t;
      while ((t = tasks.poll()) != null) {
        n++;
        try {
          t.run();
        } catch (RuntimeException e) {
          LOG.error("task failed", e);
          throw e;
        }
      }
    } finally {
      running = was;
    }
    return n;
  }

  /** Moves the clock forward, firing due timers in order and running the tasks they submit. */
  public void advance(Duration d) {
    long target = now + d.toNanos();
    runPending();
    while (true) {
      long next = timers.nextDeadline();
      if (next == Long.MAX_VALUE || next - target > 0) {
        break;
      }
      now = Math.max(now, next);
      Timers.Timer t = timers.pollDue(now);
      if (t != null) {
        boolean was = running;
        running = true;
        try {
          t.task.run();
        } finally {
          running = was;
        }
      }
      runPending();
    }
    now = target;
    runPending();
  }
}
