package io.fluxdrm.rpc.transcript;

/**
 * The outcome of a replay.
 *
 * @param same whether every response matched the recorded one (after normalisation)
 * @param unifiedDiff the differences, recorded ("---") against replayed ("+++"); "" when same
 * @param requests the number of recorded requests fed to the service
 * @param responses the number of responses the service produced
 */
public record ReplayResult(boolean same, String unifiedDiff, int requests, int responses) {}
