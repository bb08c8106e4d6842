package io.fluxdrm.rpc.transcript;

import java.nio.file.Path;
import java.util.List;

/**
 * A test helper: replays a golden transcript and fails with the unified diff when a response
 * differs. Works in any test framework (it throws {@link AssertionError}). With {@code
 * -Dgolden.update=true} it rewrites the transcript with the fresh service's responses instead.
 */
public final class ReplayAssertions {
  private ReplayAssertions() {}

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
