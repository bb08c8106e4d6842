package io.fluxdrm.rpc.transcript;

import io.fluxdrm.rpc.net.EventLoop;
import io.fluxdrm.rpc.net.Service;

/** Makes a fresh service for a replay; the loop gives it the replay's clock and timers. */
@FunctionalInterface
public interface ServiceFactory {
  /** Returns a new service instance. */
  Service create(EventLoop loop);
}
