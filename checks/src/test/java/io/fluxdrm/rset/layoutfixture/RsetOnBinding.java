package io.fluxdrm.rset.layoutfixture;

import org.slf4j.simple.SimpleLogger;

/** Breaks one layering rule on purpose (LayeringTest): a library that reaches slf4j-simple. */
public final class RsetOnBinding {
  private RsetOnBinding() {}

  static Class<?> reach() {
    return SimpleLogger.class;
  }
}
