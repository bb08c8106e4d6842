package io.fluxdrm.rpc.client.layoutfixture;

import io.fluxdrm.rpc.hub.Hub;

/** Breaks one layering rule on purpose (LayeringTest): the client handle that reaches the hub. */
public final class ClientOnTheHub {
  private ClientOnTheHub() {}

  static Class<?> reach() {
    return Hub.class;
  }
}
