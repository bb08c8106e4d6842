package io.fluxdrm.cli;

import java.io.Serial;

/**
 * A failure a command reports as one line on stderr before exiting: status 1 for an error, 2 for a
 * usage error ({@link #usage}), whose line also names the command's help.
 */
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

  /**
   * A usage error: the command line itself is wrong (options that exclude or need each other, a
   * value not of its form or range, a missing subcommand or argument), found before the command
   * reads, writes or connects to anything.
   */
  static CliError usage(String message) {
    return new CliError(message, Main.EXIT_USAGE);
  }

  /** The exit status this failure ends the command with. */
  int status() {
    return status;
  }
}
