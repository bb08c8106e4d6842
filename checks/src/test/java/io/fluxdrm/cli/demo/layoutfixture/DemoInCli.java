package io.fluxdrm.cli.demo.layoutfixture;

/** Breaks one layering rule on purpose (LayeringTest): demo code back in a package of cli. */
public final class DemoInCli {
  private DemoInCli() {}
}
