package io.fluxdrm.shell;

/**
 * A request the shell plugin refuses, or an error answer it passes on: an errno (RFC 6 errnum) and
 * a message that says where and why.
 */
public final class ShellException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int errnum;

  /** An error with {@code errnum} and {@code message}. */
  public ShellException(int errnum, String message) {
    super(message);
    this.errnum = errnum;
  }

  /** The errno the service answers with. */
  public int errnum() {
    return errnum;
  }
}
