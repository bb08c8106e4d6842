package io.fluxdrm.showcase.demo;

import io.fluxdrm.rpc.reactor.Reactor;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * How the story waits: on an answer (a future), or on a condition read on the loop, each bounded by
 * {@link #STEP_TIMEOUT}; when that passes, the story {@link Stopped stops}.
 */
final class Waits {
  /** How long any one answer or event may take before the story stops. */
  static final Duration STEP_TIMEOUT = Duration.ofSeconds(30);

  private Waits() {}

  /** The story could not go on (an answer never came, a job was never allocated). */
  static final class Stopped extends RuntimeException {
    @java.io.Serial private static final long serialVersionUID = 1L;

    Stopped(String message) {
      super(message, null, false, false);
    }
  }

  /** Runs {@code f} on the loop and returns its value. */
  static <T> T onLoop(Reactor reactor, Supplier<T> f) {
    return await("loop", reactor.submit(() -> CompletableFuture.completedFuture(f.get())));
  }

  /** Polls {@code cond} on the loop until it holds or {@link #STEP_TIMEOUT} passes. */
  static boolean until(Reactor reactor, BooleanSupplier cond) {
    long deadline = System.nanoTime() + STEP_TIMEOUT.toNanos();
    while (true) {
      if (onLoop(reactor, cond::getAsBoolean)) {
        return true;
      }
      if (System.nanoTime() > deadline) {
        return false;
      }
      pause();
    }
  }

  /** Polls {@code cond} (off the loop) until it holds or {@link #STEP_TIMEOUT} passes. */
  static boolean until(BooleanSupplier cond) {
    long deadline = System.nanoTime() + STEP_TIMEOUT.toNanos();
    while (!cond.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      pause();
    }
    return true;
  }

  private static void pause() {
    try {
      Thread.sleep(2);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Stopped("interrupted");
    }
  }

  static <T> T await(String what, CompletionStage<T> f) {
    return await(what, f, STEP_TIMEOUT);
  }

  static <T> T await(String what, CompletionStage<T> f, Duration limit) {
    try {
      return f.toCompletableFuture().get(limit.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new Stopped(what + ": no answer within " + limit.toSeconds() + " s");
    } catch (ExecutionException e) {
      Throwable c = e.getCause() == null ? e : e.getCause();
      throw new Stopped(what + ": " + c.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Stopped(what + ": interrupted");
    }
  }
}
