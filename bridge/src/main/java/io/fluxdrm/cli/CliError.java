package io.fluxdrm.cli;

import java.io.Serial;

/** A failure a command reports as one line on stderr before exiting with status 1. */
final class CliError extends RuntimeException {
  @Serial private static final long serialVersionUID = 1L;

  CliError(String message) {
    super(message, null, false, false);
  }
}
