package io.fluxdrm.rpc.transcript;

import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.RpcException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The services transcripts can be replayed against, by service name.
 *
 * <p>Stable: user tests may rely on it; it changes only with a decision that says so
 * (docs/transcripts.md, "What is stable").
 */
public final class ReplayRegistry {
  private final Map<String, ReplayProvider> providers;

  private ReplayRegistry(Map<String, ReplayProvider> providers) {
    this.providers = providers;
  }

  /** Returns a registry of the given providers. */
  public static ReplayRegistry of(List<ReplayProvider> list) {
    Map<String, ReplayProvider> m = new TreeMap<>();
    for (ReplayProvider p : list) {
      if (m.putIfAbsent(p.serviceName(), p) != null) {
        throw new IllegalArgumentException("service " + p.serviceName() + ": provided twice");
      }
    }
    return new ReplayRegistry(m);
  }

  /** Returns a registry of the providers found with {@link ServiceLoader}. */
  public static ReplayRegistry load() {
    return of(
        ServiceLoader.load(ReplayProvider.class).stream()
            .map(ServiceLoader.Provider::get)
            .toList());
  }

  /** Returns the registered service names, sorted. */
  public List<String> names() {
    return List.copyOf(providers.keySet());
  }

  /**
   * The normalisations of the named service's replays; none for a service no provider names (a live
   * replay against another implementation of it may still be run).
   */
  public List<Normalisation> normalisations(String service) {
    ReplayProvider p = providers.get(service);
    return p == null ? List.of() : p.normalisations();
  }

  /**
   * Replays a transcript file against a fresh instance of the named service.
   *
   * @throws RpcException ENOENT for an unknown service, EINVAL/EIO for a bad transcript
   */
  public ReplayResult run(String service, Path transcript) {
    ReplayProvider p = providers.get(service);
    if (p == null) {
      throw new RpcException(
          Errno.ENOENT,
          "service \""
              + service
              + "\": not registered for replay (known: "
              + String.join(", ", providers.keySet())
              + ")");
    }
    return Replay.run(Transcript.read(transcript), p);
  }
}
