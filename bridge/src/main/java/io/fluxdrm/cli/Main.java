package io.fluxdrm.cli;

/** Entry point of the {@code fluxdrm} command line. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    System.out.println("fluxdrm");
  }
}
