package io.fluxdrm.rpc.net;

import java.time.Duration;

/** The single thread of control that owns sockets and state; everything else submits to it. */
public interface EventLoop {
  /** Runs a task on the loop, after the tasks already submitted. Callable from any thread. */
  void execute(Runnable task);

  /** Runs a task on the loop after a delay. Callable from any thread. */
  Cancellable schedule(Duration delay, Runnable task);

  /** Returns whether the caller runs on the loop. */
  boolean inLoop();

  /** Returns the loop's monotonic time in nanoseconds. */
  long nanoTime();

  /** A scheduled task that can be called off. */
  interface Cancellable {
    /** Cancels the task if it has not run; idempotent. */
    void cancel();
  }
}
