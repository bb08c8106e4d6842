package io.fluxdrm.pmix.layoutfixture;

import io.fluxdrm.rpc.Json;

/** Breaks one layering rule on purpose (LayeringTest): pmix that reaches the RPC layer. */
public final class PmixOnRpc {
  private PmixOnRpc() {}

  static Object reach() {
    return Json.object();
  }
}
