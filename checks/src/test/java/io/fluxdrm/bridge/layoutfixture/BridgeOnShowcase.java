package io.fluxdrm.bridge.layoutfixture;

import io.fluxdrm.showcase.demo.Demo;

/** Breaks one layering rule on purpose (LayeringTest): a library that reaches the demo. */
public final class BridgeOnShowcase {
  private BridgeOnShowcase() {}

  static Class<?> reach() {
    return Demo.class;
  }
}
