package io.fluxdrm.cli;

import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.RpcException;
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

  /**
   * A connection that failed, as one line naming the endpoint once, as the user wrote it ({@code
   * label}, e.g. {@code --connect unix:DIR}): the transport's own locator ({@code uri}) that starts
   * its message is dropped (issue 29, finding 2, D480). When no server listens there (ENOENT,
   * ECONNREFUSED) {@code expected} follows, if not empty.
   */
  static CliError connect(String label, String uri, RpcException e, String expected) {
    String m = e.getMessage() == null ? Errno.name(e.errnum()) : e.getMessage();
    if (m.startsWith(uri + ": ")) {
      m = m.substring(uri.length() + 2);
    }
    boolean absent = e.errnum() == Errno.ENOENT || e.errnum() == Errno.ECONNREFUSED;
    return new CliError(
        label + ": " + m + (absent && !expected.isEmpty() ? " (expected: " + expected + ")" : ""));
  }

  /**
   * A file that could not be read, with why in words ({@code no such file}, {@code permission
   * denied}, the system's reason), not the bare path an {@link java.io.IOException} often carries.
   */
  static CliError cannotRead(String what, java.io.IOException e) {
    return new CliError(what + ": cannot read (" + why(e) + ")");
  }

  /** Why an I/O operation failed, in words (the words of the certificate reader). */
  static String why(java.io.IOException e) {
    return io.fluxdrm.rpc.curve.CurveFileException.why(e);
  }

  /** The exit status this failure ends the command with. */
  int status() {
    return status;
  }
}
