package io.fluxdrm.rpc;

/**
 * The one exception of this module: a Flux error number with a short text.
 *
 * <p>Bad bytes on the wire give {@link Errno#EPROTO}; a failed RPC carries the errnum and the error
 * text of the response that ended it.
 */
public final class RpcException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int errnum;

  /**
   * Creates an error.
   *
   * @param errnum a Linux errno value
   * @param text a short lower-case text saying where and why
   */
  public RpcException(int errnum, String text) {
    super(text, null, false, false);
    this.errnum = errnum;
  }

  /** Returns a protocol error (EPROTO) with the given text. */
  public static RpcException proto(String text) {
    return new RpcException(Errno.EPROTO, text);
  }

  /** Returns the Linux errno value. */
  public int errnum() {
    return errnum;
  }

  @Override
  public String toString() {
    return "RpcException[" + Errno.name(errnum) + " " + errnum + ": " + getMessage() + "]";
  }
}
