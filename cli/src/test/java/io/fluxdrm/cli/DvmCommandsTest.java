package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Bad command lines of the DVM commands, found before anything is sent or served: one line, a usage
 * error (exit 2), no trace; an unreachable DVM is an error (exit 1).
 */
class DvmCommandsTest {
  @TempDir static Path dir;

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "sessionctrl pause x|fluxdrm sessionctrl pause: ID: \"x\" (expected: a session id 0 to"
            + " 4294967294, or 'all')",
        "sessionctrl pause 4294967295|fluxdrm sessionctrl pause: ID: 4294967295 (expected: a"
            + " session id 0 to 4294967294, or 'all')",
        "sessionctrl signal 42 TERM|fluxdrm sessionctrl signal: N: \"TERM\" (expected: a signal"
            + " number 1 to 64)",
        "sessionctrl instantiate 42 --time 1::2|fluxdrm sessionctrl instantiate: --time:"
            + " pmix.alloc.time \"1::2\"",
        "sessionctrl pause 1 --info [1]|fluxdrm sessionctrl pause: --info: ",
        "sessionctrl|fluxdrm sessionctrl: missing subcommand",
        "alloc cancel|fluxdrm alloc cancel: --req-id: missing",
        "alloc activate|fluxdrm alloc activate: --host: missing",
        "sessionctrl pause 1 --connect ftp://x|fluxdrm sessionctrl pause: --connect: \"ftp://x\"",
        "dvm --hosts n[1-2],n1|fluxdrm dvm: --hosts: n1 twice (expected: each host once)",
        "dvm --slots 0|fluxdrm dvm: --slots: 0 (expected: at least 1)",
        "dvm --listen tcp://127.0.0.1:0 --tcp-loopback-role root|fluxdrm dvm:"
            + " --tcp-loopback-role: \"root\" (expected: guest or owner)",
        "dvm --listen unix:/nonexistent/x --tcp-loopback-role owner|fluxdrm dvm:"
            + " --tcp-loopback-role: not with --listen unix:/nonexistent/x",
      })
  void badCommandLine_oneLineUsageExit2BeforeConnecting(String line, String expected) {
    CliRun r = CliRun.run("", CliRun.words(line));
    assertThat(r.status()).as(r.err()).isEqualTo(2);
    assertThat(r.err()).contains(" --help')");
    assertThat(r.err()).startsWith(expected).doesNotContain("Exception").doesNotContain("\tat ");
    assertThat(r.err().strip().lines()).hasSize(1);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"sessionctrl pause 1", "alloc new --hosts n1"})
  void unreachableDvm_oneLineExit1(String line) {
    String[] words = CliRun.words(line + " --timeout 1 --connect unix:" + dir.resolve("none"));
    CliRun r = CliRun.run("", words);
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.err())
        .contains("--connect unix:" + dir.resolve("none") + ": no server listens there")
        .contains("(expected: 'fluxdrm dvm' listening there)")
        .doesNotContain("Exception");
  }
}
