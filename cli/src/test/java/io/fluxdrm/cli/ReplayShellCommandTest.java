package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code fluxdrm replay --service shell|pmix|job-manager} on the chain's golden transcripts, in
 * process: the same answers give exit 0 and no output, a changed one the diff and exit 1.
 */
@Timeout(30)
class ReplayShellCommandTest {
  private static final Path CHAIN =
      Path.of("../showcase/src/test/resources/io/fluxdrm/showcase/chain");

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          shell       | shell-service.jsonl
          pmix        | grow-granted.pmix.jsonl
          pmix        | shrink-release.pmix.jsonl
          pmix        | req-cancel.pmix.jsonl
          job-manager | grow-waits-then-granted.job-manager.jsonl
          """)
  void replay_chainGolden_sameExit0(String service, String file) {
    CliRun r = CliRun.run("", "replay", CHAIN.resolve(file).toString(), "--service", service);
    assertThat(r.err()).isEmpty();
    assertThat(r.out())
        .matches(
            "replay: (\\d+) of \\1 responses matched \\(transcript .*"
                + file
                + ", service "
                + service
                + "\\)\n");
    assertThat(r.status()).isZero();
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          shell | shell-service.jsonl     | "type":1         | "type":3
          pmix  | grow-granted.pmix.jsonl | "value":"node2:4" | "value":"node9:4"
          """)
  void replay_changedResponse_diffExit1(
      String service, String file, String from, String to, @TempDir Path dir) throws Exception {
    Path changed = dir.resolve(file);
    String text = Files.readString(CHAIN.resolve(file));
    assertThat(text).contains(from);
    Files.writeString(changed, text.replace(from, to));
    CliRun r = CliRun.run("", "replay", changed.toString(), "--service", service);
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).startsWith("--- recorded\n+++ replayed\n").contains("+{").contains(to);
  }
}
