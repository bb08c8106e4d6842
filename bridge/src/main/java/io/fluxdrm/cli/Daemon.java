package io.fluxdrm.cli;

import io.fluxdrm.rpc.net.Reactor;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;

/**
 * What the long-running commands ({@code bridge}, {@code sched}) share once started: running until
 * SIGINT or SIGTERM, and closing what they opened without a stack trace.
 */
final class Daemon {
  private Daemon() {}

  /**
   * Runs until SIGINT or SIGTERM. The shutdown hook (thread {@code <name>-shutdown}) logs
   * "stopping", runs {@code beforeClose}, then stops the reactor.
   *
   * @return 0, once the hook has finished
   */
  static int serve(Logger log, String name, Reactor reactor, Runnable beforeClose)
      throws InterruptedException {
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  log.info("stopping");
                  beforeClose.run();
                  reactor.close();
                  stopped.countDown();
                },
                name + "-shutdown"));
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
