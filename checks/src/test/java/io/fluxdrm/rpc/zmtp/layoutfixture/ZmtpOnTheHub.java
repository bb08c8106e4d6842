package io.fluxdrm.rpc.zmtp.layoutfixture;

import io.fluxdrm.rpc.hub.Hub;

/** Breaks one layering rule on purpose (LayeringTest): the wire codec that reaches the hub. */
public final class ZmtpOnTheHub {
  private ZmtpOnTheHub() {}

  static Class<?> reach() {
    return Hub.class;
  }
}
