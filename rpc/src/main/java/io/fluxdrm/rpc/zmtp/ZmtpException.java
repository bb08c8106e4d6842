package io.fluxdrm.rpc.zmtp;

/**
 * A ZMTP protocol violation or a refused handshake: the connection it happened on must be closed.
 * The text is short, lower case, and says where and why.
 */
public final class ZmtpException extends Exception {
  private static final long serialVersionUID = 1L;

  /** Creates the error with its text. */
  public ZmtpException(String text) {
    super(text, null, false, false);
  }
}
