package io.fluxdrm.rpc.transport.layoutfixture;

import io.fluxdrm.rpc.hub.Hub;

/** Breaks one layering rule on purpose (LayeringTest): a transport that reaches the hub. */
public final class TransportOnTheHub {
  private TransportOnTheHub() {}

  static Class<?> reach() {
    return Hub.class;
  }
}
