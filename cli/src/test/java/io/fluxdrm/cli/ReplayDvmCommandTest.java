package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code fluxdrm replay --service dvm} on every golden transcript of the elastic bridge (issue 14
 * scope 6): each replays the same (exit 0); one whose event was changed shows the diff (exit 1).
 */
class ReplayDvmCommandTest {
  static final Path ELASTIC = Path.of("../showcase/src/test/resources/io/fluxdrm/showcase/elastic");

  @TempDir Path dir;

  static Stream<String> goldens() throws IOException {
    try (Stream<Path> s = Files.list(ELASTIC)) {
      return s
          .map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".jsonl"))
          .sorted()
          .toList()
          .stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("goldens")
  void replay_elasticGolden_sameExit0(String file) {
    CliRun r = CliRun.run("", "replay", ELASTIC.resolve(file).toString(), "--service", "dvm");
    assertThat(r.status()).as(r.out() + r.err()).isZero();
    assertThat(r.out())
        .matches("replay: (\\d+) of \\1 responses matched \\(transcript .*, service dvm\\)\\R");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("goldens")
  void replay_changedStatus_diffExit1(String file) throws IOException {
    String text = Files.readString(ELASTIC.resolve(file));
    // every golden answers at least one request with a status; change the first
    String changed = text.replaceFirst("\"status\":(-?\\d+)", "\"status\":-9999");
    assertThat(changed).isNotEqualTo(text);
    Path p = dir.resolve(file);
    Files.writeString(p, changed);
    CliRun r = CliRun.run("", "replay", p.toString(), "--service", "dvm");
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).startsWith("--- recorded\n+++ replayed\n").contains("-9999");
  }

  @org.junit.jupiter.api.Test
  void replay_emptyFile_orAnotherServicesTranscript_isAnErrorNotAPass() throws IOException {
    Path empty = dir.resolve("empty.jsonl");
    Files.writeString(empty, "");
    CliRun r = CliRun.run("", "replay", empty.toString(), "--service", "dvm");
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .contains(empty + ": no request to service dvm in it")
        .contains("expected: a transcript recorded at dvm's endpoint");
    // a transcript of the DVM's endpoint replayed as the scheduler's: nothing matches
    Path dvm = goldens().map(ELASTIC::resolve).findFirst().orElseThrow();
    CliRun other = CliRun.run("", "replay", dvm.toString(), "--service", "sched");
    assertThat(other.status()).as(other.out() + other.err()).isEqualTo(1);
    assertThat(other.out()).doesNotContain("matched");
  }
}
