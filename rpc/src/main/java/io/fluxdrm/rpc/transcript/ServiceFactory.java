package io.fluxdrm.rpc.transcript;

import io.fluxdrm.rpc.reactor.EventLoop;
import io.fluxdrm.rpc.service.Service;

/**
 * Makes a fresh service for a replay; the loop gives it the replay's clock and timers.
 *
 * <p>Stable: user tests may rely on it; it changes only with a decision that says so
 * (docs/transcripts.md, "What is stable").
 */
@FunctionalInterface
public interface ServiceFactory {
  /** Returns a new service instance. */
  Service create(EventLoop loop);
}
