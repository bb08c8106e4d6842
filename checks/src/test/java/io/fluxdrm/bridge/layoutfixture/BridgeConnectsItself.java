package io.fluxdrm.bridge.layoutfixture;

import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.reactor.Reactor;
import java.time.Duration;

/**
 * Breaks one layering rule on purpose (LayeringTest): code outside rpc that picks its connector by
 * scheme itself instead of through rpc.endpoint.Connectors.
 */
public final class BridgeConnectsItself {
  private BridgeConnectsItself() {}

  static FluxHandle open(Reactor reactor, String uri) {
    return uri.startsWith("tcp://")
        ? FluxHandle.connectZmq(reactor, uri, null)
        : FluxHandle.connect(reactor, uri, Duration.ofSeconds(1));
  }
}
