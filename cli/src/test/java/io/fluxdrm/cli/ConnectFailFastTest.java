package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 29, finding 2: a client command pointed at an endpoint where no server listens fails at
 * once with one line naming the endpoint as given and why, not after its timeout (D480).
 */
class ConnectFailFastTest {
  /**
   * Far below the commands' 60 s timeout that the old connector waited out, and generous for a
   * loaded machine: the run must complete, its duration is not measured.
   */
  private static final long BOUND_S = 20;

  @TempDir Path dir;

  private static CliRun runBounded(String... args) throws Exception {
    return CompletableFuture.supplyAsync(() -> CliRun.run("", args)).get(BOUND_S, TimeUnit.SECONDS);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "fluxdrm alloc new, alloc new --num-nodes 1",
    "fluxdrm sessionctrl pause, sessionctrl pause 1"
  })
  void dvmClient_noSocket_oneLineAtOnce(String prefix, String line) throws Exception {
    Path none = dir.resolve("does-not-exist");
    CliRun r = runBounded(CliRun.words(line + " --connect unix:" + none));
    r.assertOneLineError(
        prefix
            + ": --connect unix:"
            + none
            + ": no server listens there (the socket "
            + none.resolve("local")
            + " does not exist) (expected: 'fluxdrm dvm' listening there)");
    assertThat(r.out()).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "fluxdrm alloc new, alloc new --num-nodes 1",
    "fluxdrm sessionctrl pause, sessionctrl pause 1"
  })
  void dvmClient_tcpRefused_oneLineAtOnce(String prefix, String line) throws Exception {
    String endpoint = "tcp://127.0.0.1:" + freePort();
    CliRun r = runBounded(CliRun.words(line + " --connect " + endpoint));
    r.assertOneLineError(
        prefix
            + ": --connect "
            + endpoint
            + ": no server listens there (connect: connection refused) (expected: 'fluxdrm dvm'"
            + " listening there)");
  }

  @Test
  void plotLive_noSocket_oneLineAtOnce() throws Exception {
    Path none = dir.resolve("no-hub");
    CliRun r = runBounded("plot", "--live", "--connect", "unix:" + none);
    r.assertOneLineError(
        "fluxdrm plot: --connect unix:"
            + none
            + ": no server listens there (the socket "
            + none.resolve("local")
            + " does not exist) (expected: 'fluxdrm sched' listening there)");
  }

  @Test
  void plotLive_tcpRefused_oneLineAtOnce() throws Exception {
    String endpoint = "tcp://127.0.0.1:" + freePort();
    CliRun r = runBounded("plot", "--live", "--connect", endpoint);
    r.assertOneLineError(
        "fluxdrm plot: --connect "
            + endpoint
            + ": no server listens there (connect: connection refused) (expected: 'fluxdrm sched'"
            + " listening there)");
  }

  /** A port free a moment ago: nothing listens there, so a connection is refused. */
  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
