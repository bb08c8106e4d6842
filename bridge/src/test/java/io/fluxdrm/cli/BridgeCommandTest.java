package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code fluxdrm bridge} refusing bad command lines, in process, before connecting anywhere. */
@Timeout(30)
class BridgeCommandTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          no connect        | bridge --state-dir s                                | fluxdrm bridge: --connect: missing (expected: tcp://127.0.0.1:PORT, unix:DIR or local://PATH)
          unknown scheme    | bridge --connect foo:bar --state-dir s              | fluxdrm bridge: --connect: "foo:bar" (expected: tcp://127.0.0.1:PORT, unix:DIR or local://PATH)
          empty unix        | bridge --connect unix: --state-dir s                | fluxdrm bridge: --connect: "unix:" (expected: tcp://127.0.0.1:PORT, unix:DIR or local://PATH)
          empty local       | bridge --connect local:// --state-dir s             | fluxdrm bridge: --connect: "local://" (expected: tcp://127.0.0.1:PORT, unix:DIR or local://PATH)
          tcp off loopback  | bridge --connect tcp://10.1.2.3:5000 --state-dir s  | fluxdrm bridge: --connect: "tcp://10.1.2.3:5000" (expected: tcp://HOST:PORT on loopback; 'fluxdrm sched' listens without CURVE, on loopback only)
          tcp without port  | bridge --connect tcp://127.0.0.1 --state-dir s      | fluxdrm bridge: --connect: "tcp://127.0.0.1" (expected: tcp://HOST:PORT on loopback; 'fluxdrm sched' listens without CURVE, on loopback only)
          no state dir      | bridge --connect tcp://127.0.0.1:5000               | fluxdrm bridge: --state-dir: missing (expected: a directory for the jobs' eventlogs)
          unknown option    | bridge --connect tcp://127.0.0.1:5000 --nosuch      | fluxdrm bridge: Unknown option: '--nosuch' (see 'fluxdrm bridge --help')
          option no value   | bridge --connect                                    | fluxdrm bridge: Missing required parameter for option '--connect' (ENDPOINT) (see 'fluxdrm bridge --help')
          """)
  void bridge_badCommandLine_oneLineExit2(String name, String args, String err) {
    CliRun r = CliRun.run("", CliRun.words(args));
    assertThat(r.err().strip()).isEqualTo(err);
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
  }

  @Test
  void bridge_stateDirIsAFile_oneLineExit2(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("file"), "x");
    CliRun r =
        CliRun.run(
            "", "bridge", "--connect", "tcp://127.0.0.1:5000", "--state-dir", file.toString());
    assertThat(r.err().strip())
        .isEqualTo(
            "fluxdrm bridge: --state-dir: "
                + file
                + ": not a directory (expected: a directory for eventlogs)");
    assertThat(r.status()).isEqualTo(2);
  }
}
