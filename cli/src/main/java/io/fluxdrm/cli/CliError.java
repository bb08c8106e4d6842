package io.fluxdrm.cli;

import java.io.Serial;

/** A failure a command reports as one line on stderr before exiting with status 1. */
final class CliError extends RuntimeException {
  @Serial private static final long serialVersionUID = 1L;

  private final int status;

  CliError(String message) {
    this(message, Main.EXIT_ERROR);
  }

  CliError(String message, int status) {
    super(message, null, false, false);
    this.status = status;
  }

  /** The exit status this failure ends the command with. */
  int status() {
    return status;
  }
}
