package io.fluxdrm.rpc.hub;

import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.transport.ZmqClientKeys;
import io.fluxdrm.rpc.transport.ZmqConnector;

/**
 * For the hub soak (cli tests): a ZeroMQ handle with a routing identity the test chooses, so the
 * soak's identity-takeover and forged-route attacks can aim at a well-behaved client's route.
 */
public final class SoakZmq {
  private SoakZmq() {}

  /** As {@link FluxHandle#connectZmq} but with routing identity {@code identity}. */
  public static FluxHandle connect(
      Reactor reactor, String endpoint, String identity, ZmqClientKeys keys) {
    return FluxHandle.open(reactor, new ZmqConnector(reactor, endpoint, identity, keys));
  }
}
