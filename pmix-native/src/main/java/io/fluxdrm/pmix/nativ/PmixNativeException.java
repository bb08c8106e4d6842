package io.fluxdrm.pmix.nativ;

/** libpmix is missing or unusable, or a value cannot be laid out for it; the message says why. */
public final class PmixNativeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * An exception.
   *
   * @param message where and why
   */
  public PmixNativeException(String message) {
    super(message);
  }

  /**
   * An exception with its cause.
   *
   * @param message where and why
   * @param cause the cause
   */
  public PmixNativeException(String message, Throwable cause) {
    super(message, cause);
  }
}
