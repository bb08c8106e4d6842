package io.fluxdrm.rpc.reactor;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
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
   * Returns a clock in UTC that reads {@code start} plus this loop's time, so that timestamps (a
   * {@link io.fluxdrm.rpc.transcript.TranscriptRecorder}'s, a service's) follow {@link #advance}.
   */
  public Clock clock(Instant start) {
    return new LoopClock(this, start, ZoneOffset.UTC);
  }

  private static final class LoopClock extends Clock {
    private final ManualEventLoop loop;
    private final Instant start;
    private final ZoneId zone;

    LoopClock(ManualEventLoop loop, Instant start, ZoneId zone) {
      this.loop = loop;
      this.start = start;
      this.zone = zone;
    }

    @Override
    public ZoneId getZone() {
      return zone;
    }

    @Override
    public Clock withZone(ZoneId z) {
      return z.equals(zone) ? this : new LoopClock(loop, start, z);
    }

    @Override
    public Instant instant() {
      return start.plusNanos(loop.nanoTime());
    }
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
