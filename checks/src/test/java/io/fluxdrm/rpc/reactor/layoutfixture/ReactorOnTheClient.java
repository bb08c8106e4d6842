package io.fluxdrm.rpc.reactor.layoutfixture;

import io.fluxdrm.rpc.client.FluxHandle;

/**
 * Breaks one layering rule on purpose (LayeringTest): the event loop that reaches the client
 * handle.
 */
public final class ReactorOnTheClient {
  private ReactorOnTheClient() {}

  static Class<?> reach() {
    return FluxHandle.class;
  }
}
