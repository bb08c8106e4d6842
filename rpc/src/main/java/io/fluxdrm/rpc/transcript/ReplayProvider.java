package io.fluxdrm.rpc.transcript;

import java.util.List;

/**
 * A service that {@code fluxdrm replay --service NAME} can replay transcripts against. Modules
 * provide one through {@code META-INF/services/io.fluxdrm.rpc.transcript.ReplayProvider}.
 *
 * <p>Stable: user tests may rely on it; it changes only with a decision that says so
 * (docs/transcripts.md, "What is stable").
 */
public interface ReplayProvider {
  /** Returns the service name (the first component of its topics). */
  String serviceName();

  /** Returns a fresh service. */
  ServiceFactory factory();

  /** Returns the normalisations its transcripts need (times, generated ids). */
  List<Normalisation> normalisations();
}
