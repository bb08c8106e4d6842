package io.fluxdrm.rpc.transcript;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A test helper: replays a golden transcript and fails with the unified diff when a response
 * differs. Works in any test framework (it throws {@link AssertionError}). With {@code
 * -Dgolden.update=true} it rewrites the transcript with the fresh service's responses instead.
 *
 * <p>Stable: user tests may rely on it; it changes only with a decision that says so
 * (docs/transcripts.md, "What is stable").
 */
public final class ReplayAssertions {
  private ReplayAssertions() {}

  /** The system property that has goldens recorded: {@code -Dgolden.update=true}. */
  public static final String UPDATE_PROPERTY = "golden.update";

  /**
   * A test's golden file: written with {@code recorded} only when {@code -Dgolden.update=true} is
   * set; otherwise it must be there, and a missing one fails the test with the command that records
   * it (a golden never writes itself, so deleting one cannot make its test pass).
   *
   * @param golden the golden file
   * @param recorded what the test recorded now
   * @param recordWith the command that records it, without the property (e.g. {@code mvn -pl cli
   *     test -Dtest=SomeTest})
   * @return the golden file
   * @throws AssertionError when it is missing and recording was not asked for
   */
  public static Path golden(Path golden, String recorded, String recordWith) {
    if (Boolean.getBoolean(UPDATE_PROPERTY)) {
      try {
        Path dir = golden.toAbsolutePath().getParent();
        if (dir != null) {
          Files.createDirectories(dir);
        }
        Files.writeString(golden, recorded, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException("recording " + golden + ": " + e.getMessage(), e);
      }
      return golden;
    }
    if (!Files.isRegularFile(golden)) {
      throw new AssertionError(
          "golden file "
              + golden
              + " is missing: record it with "
              + recordWith
              + " -D"
              + UPDATE_PROPERTY
              + "=true, check the diff, and commit it");
    }
    return golden;
  }

  /**
   * Asserts that a fresh service answers the transcript's requests as recorded.
   *
   * @throws AssertionError with the unified diff when it does not
   */
  public static ReplayResult assertReplays(
      Path transcript, ServiceFactory service, Normalisation... normalisations) {
    if (Boolean.getBoolean("golden.update")) {
      return Replay.update(transcript, service, List.of(normalisations));
    }
    ReplayResult r = Replay.run(Transcript.read(transcript), service, List.of(normalisations));
    if (!r.same()) {
      throw new AssertionError(
          "replay of " + transcript.getFileName() + " differs:\n" + r.unifiedDiff());
    }
    if (r.requests() == 0) {
      throw new AssertionError("replay of " + transcript.getFileName() + ": no requests found");
    }
    return r;
  }
}
