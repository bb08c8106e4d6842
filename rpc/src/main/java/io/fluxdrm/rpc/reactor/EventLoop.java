package io.fluxdrm.rpc.reactor;

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

  /**
   * Starts {@code work} on this loop (at once when called on it) and returns a future completed as
   * the one {@code work} returns, with the cause itself rather than a {@code CompletionException}
   * when it fails: for APIs that other threads call.
   */
  default <T> java.util.concurrent.CompletableFuture<T> submit(
      java.util.function.Supplier<java.util.concurrent.CompletableFuture<T>> work) {
    if (inLoop()) {
      return work.get();
    }
    java.util.concurrent.CompletableFuture<T> out = new java.util.concurrent.CompletableFuture<>();
    execute(
        () ->
            work.get()
                .whenComplete(
                    (v, err) -> {
                      if (err != null) {
                        out.completeExceptionally(
                            err instanceof java.util.concurrent.CompletionException
                                    && err.getCause() != null
                                ? err.getCause()
                                : err);
                      } else {
                        out.complete(v);
                      }
                    }));
    return out;
  }
}
