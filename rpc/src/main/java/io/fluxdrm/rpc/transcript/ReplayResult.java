package io.fluxdrm.rpc.transcript;

/**
 * The outcome of a replay.
 *
 * @param same whether every response matched the recorded one (after normalisation)
 * @param unifiedDiff the differences, recorded ("---") against replayed ("+++"); "" when same
 * @param requests the number of recorded requests fed to the service
 * @param responses the number of responses the service produced
 * @param regenerated the transcript with the recorded responses replaced by the replayed ones
 *     <p>Stable: user tests may rely on it; it changes only with a decision that says so
 *     (docs/transcripts.md, "What is stable").
 */
public record ReplayResult(
    boolean same,
    String unifiedDiff,
    int requests,
    int responses,
    java.util.List<TranscriptLine> regenerated) {
  /** Copies the regenerated lines. */
  public ReplayResult {
    regenerated = java.util.List.copyOf(regenerated);
  }
}
