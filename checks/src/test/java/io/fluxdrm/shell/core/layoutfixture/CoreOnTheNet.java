package io.fluxdrm.shell.core.layoutfixture;

import io.fluxdrm.rpc.hub.Hub;

/** Breaks one layering rule on purpose (LayeringTest): a pure core that reaches the hub. */
public final class CoreOnTheNet {
  private CoreOnTheNet() {}

  static Class<?> reach() {
    return Hub.class;
  }
}
