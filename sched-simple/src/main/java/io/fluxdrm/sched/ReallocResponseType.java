package io.fluxdrm.sched;

/**
 * RFC 51 {@code sched.realloc} response types (seed 004). Not to be confused with {@link
 * AllocResponseType}: the numbers differ (D1).
 */
public enum ReallocResponseType {
  SUCCESS(0),
  DENY(1),
  CANCEL(2),
  UNSUPPORTED(3);

  private final int code;

  ReallocResponseType(int code) {
    this.code = code;
  }

  /** The value of the response's {@code type} key. */
  public int code() {
    return code;
  }
}
