package io.fluxdrm.showcase.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.transcript.Normalisation;
import io.fluxdrm.rpc.transcript.Replay;
import io.fluxdrm.rpc.transcript.ReplayAssertions;
import io.fluxdrm.rpc.transcript.ReplayResult;
import io.fluxdrm.rpc.transcript.ServiceFactory;
import io.fluxdrm.rpc.transcript.Transcript;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The golden transcripts of the chain's scenarios, under {@code
 * src/test/resources/io/fluxdrm/showcase/chain}: a missing file (or {@code -Dgolden.update=true})
 * is written from the fresh recording; then both the fresh recording and the golden file are
 * replayed against a fresh world and must answer alike.
 */
final class ChainGoldens {
  static final Path DIR = Path.of("src/test/resources/io/fluxdrm/showcase/chain");

  /** Every R time the replays ignore. */
  static final List<Normalisation> NORMALISATIONS = new ShellReplayProvider().normalisations();

  private ChainGoldens() {}

  static Path path(String name) {
    return DIR.resolve(name + ".jsonl");
  }

  /**
   * Checks {@code name}: {@code recorded} and the golden file replay against {@code world} with the
   * same answers.
   *
   * @return the golden file
   */
  static Path check(String name, String recorded, ServiceFactory world) {
    return check(path(name), name, recorded, world);
  }

  /** {@link #check(String, String, ServiceFactory)} with the golden file at {@code golden}. */
  static Path check(Path golden, String name, String recorded, ServiceFactory world) {
    ReplayAssertions.golden(
        golden, recorded, "mvn -pl cli test -Dtest='ChainEndToEndTest,ShellTranscriptTest'");
    ReplayResult fresh =
        Replay.run(Transcript.parse(recorded.lines().toList(), name), world, NORMALISATIONS);
    assertThat(fresh.same())
        .as("%s: fresh recording replays:\n%s", name, fresh.unifiedDiff())
        .isTrue();
    assertThat(fresh.requests()).as("%s: requests replayed", name).isPositive();
    ReplayResult g = Replay.run(Transcript.read(golden), world, NORMALISATIONS);
    assertThat(g.same()).as("%s: golden replays:\n%s", name, g.unifiedDiff()).isTrue();
    assertThat(g.responses()).as("%s: responses", name).isEqualTo(fresh.responses());
    return golden;
  }

  /** Checks that {@code golden} replays against {@code world} (whichever endpoint it matches). */
  static void replays(Path golden, ServiceFactory world) {
    ReplayResult r = Replay.run(Transcript.read(golden), world, NORMALISATIONS);
    assertThat(r.same()).as("%s replays:\n%s", golden.getFileName(), r.unifiedDiff()).isTrue();
    assertThat(r.requests()).as("%s: requests replayed", golden.getFileName()).isPositive();
  }

  /**
   * Checks that the transcript {@code text} (named {@code name}) does not replay against {@code
   * world}: a response differs, and the replay's diff shows {@code changed}.
   */
  static void differs(String name, String text, ServiceFactory world, String changed) {
    ReplayResult r =
        Replay.run(Transcript.parse(text.lines().toList(), name), world, NORMALISATIONS);
    assertThat(r.same()).as("%s: replays although a response differs", name).isFalse();
    assertThat(r.unifiedDiff()).as("%s: diff", name).contains(changed);
  }

  /** The text of the golden file {@code name}. */
  static String read(String name) {
    try {
      return Files.readString(path(name));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
