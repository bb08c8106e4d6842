package io.fluxdrm.rpc.service.layoutfixture;

import io.fluxdrm.rpc.client.FluxHandle;

/**
 * Breaks one layering rule on purpose (LayeringTest): the service API that reaches the client
 * handle.
 */
public final class ServiceOnTheClient {
  private ServiceOnTheClient() {}

  static Class<?> reach() {
    return FluxHandle.class;
  }
}
