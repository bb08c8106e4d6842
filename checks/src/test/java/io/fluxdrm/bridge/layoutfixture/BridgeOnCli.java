package io.fluxdrm.bridge.layoutfixture;

import io.fluxdrm.cli.Main;

/** Breaks one layering rule on purpose (LayeringTest): a library that reaches the application. */
public final class BridgeOnCli {
  private BridgeOnCli() {}

  static Class<?> reach() {
    return Main.class;
  }
}
