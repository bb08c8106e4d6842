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

  /**
   * Returns the fresh services of one replay (D518): by default the one of {@link #factory()}; a
   * world whose services call others through the replay's hub makes them on {@code server}, the
   * replay's connection to it as the instance owner, on which the replay registers them.
   *
   * @param loop the replay's loop
   * @param server the replay's connection to its hub (instance owner)
   * @return the services to replay requests to
   */
  default List<io.fluxdrm.rpc.service.Service> services(
      io.fluxdrm.rpc.reactor.EventLoop loop, io.fluxdrm.rpc.client.FluxHandle server) {
    return List.of(factory().create(loop));
  }

  /**
   * Returns the services whose part the replay plays (D518): the replayed services' requests to
   * them, made on the replay's hub, are answered with the responses the transcript recorded, each
   * where the transcript has it. None by default.
   */
  default java.util.Set<String> played() {
    return java.util.Set.of();
  }
}
