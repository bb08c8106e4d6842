package io.fluxdrm.cli;

import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.reactor.Reactor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;

/**
 * What the long-running commands ({@code bridge}, {@code sched}) share: waiting for their start-up
 * steps, running until SIGINT or SIGTERM, and closing what they opened without a stack trace.
 */
final class Daemon {
  /** How long a start-up step (connect, register, hello) may take. */
  static final Duration START_TIMEOUT = Duration.ofSeconds(30);

  private Daemon() {}

  /** This process's Unix user id. */
  static int uid() {
    try {
      return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    } catch (IOException | UnsupportedOperationException e) {
      throw new CliError("cannot tell this process's user id (" + e.getMessage() + ")");
    }
  }

  /**
   * Waits for the start-up step {@code what}.
   *
   * @param timeoutHint appended to the timeout text ("" for none)
   * @throws RpcException the step's own error; EIO {@code <what>: <cause>} for another failure;
   *     ETIMEDOUT {@code <what>: no answer in 30 s<hint>} when it takes longer than {@link
   *     #START_TIMEOUT}
   */
  static void await(CompletableFuture<Void> f, String what, String timeoutHint)
      throws InterruptedException {
    try {
      f.get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      throw c instanceof RpcException r
          ? r
          : new RpcException(Errno.EIO, what + ": " + c.getMessage());
    } catch (TimeoutException e) {
      throw new RpcException(
          Errno.ETIMEDOUT,
          what + ": no answer in " + START_TIMEOUT.toSeconds() + " s" + timeoutHint);
    }
  }

  /**
   * Runs until SIGINT or SIGTERM. The shutdown hook (thread {@code <name>-shutdown}) logs
   * "stopping", runs {@code beforeClose}, then stops the reactor; a signal that came while the
   * command was still starting (the JVM already shutting down) gets the same on this thread.
   *
   * @return 0, once the hook has finished
   */
  static int serve(Logger log, String name, Reactor reactor, Runnable beforeClose)
      throws InterruptedException {
    // a reactor that dies (OutOfMemoryError, another Error) serves nothing: exit 70 with one line
    // on stderr rather than stay up and silent (issue 12, finding 1)
    Reactor.onFatal(
        (r, cause) -> {
          System.err.println("fluxdrm " + name + ": fatal: reactor " + r + " stopped: " + cause);
          LogOutput.drain();
          Runtime.getRuntime().halt(Reactor.FATAL_EXIT);
        });
    CountDownLatch stopped = new CountDownLatch(1);
    Runnable stop =
        () -> {
          log.info("stopping");
          beforeClose.run();
          reactor.close();
          LogOutput.drain();
          stopped.countDown();
        };
    try {
      Runtime.getRuntime().addShutdownHook(new Thread(stop, name + "-shutdown"));
    } catch (IllegalStateException shutdownInProgress) {
      // the signal came while the command was starting: stop here, as the hook would have
      stop.run();
    }
    stopped.await();
    return 0;
  }

  /** Closes {@code c} (none when null); a failure is logged as a warning, not thrown. */
  static void closeQuietly(Logger log, AutoCloseable c) {
    if (c == null) {
      return;
    }
    try {
      c.close();
    } catch (Exception e) {
      log.warn("close: {}", e.getMessage());
    }
  }
}
