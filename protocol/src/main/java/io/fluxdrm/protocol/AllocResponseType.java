package io.fluxdrm.protocol;

/**
 * RFC 27 {@code sched.alloc} response types. Not to be confused with {@link ReallocResponseType}:
 * the numbers differ (D1).
 */
public enum AllocResponseType {
  SUCCESS(0),
  ANNOTATE(1),
  DENY(2),
  CANCEL(3);

  private final int code;

  AllocResponseType(int code) {
    this.code = code;
  }

  /** The value of the response's {@code type} key. */
  public int code() {
    return code;
  }
}
