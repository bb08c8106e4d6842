package io.fluxdrm.protocol;

import java.util.Optional;

/**
 * The response types of RFC 51 {@code sched.realloc} (RFC 51 §Realloc, decision D001). Not the RFC
 * 27 {@code sched.alloc} numbers: DENY is 1 here and 2 there.
 */
public enum ReallocResponseType {
  /** The scheduler decided on a reallocation ({@code R_delta_add} and/or {@code R_delta_sub}). */
  SUCCESS(0),
  /** The scheduler will not consider the request. */
  DENY(1),
  /** The request was cancelled. */
  CANCEL(2),
  /** The scheduler has no dynamic resource management. */
  UNSUPPORTED(3);

  private final int code;

  ReallocResponseType(int code) {
    this.code = code;
  }

  /** The value of the response's {@code type}. */
  public int code() {
    return code;
  }

  /**
   * The type with this value.
   *
   * @param code a {@code type} value
   * @return the type, or empty outside 0..3
   */
  public static Optional<ReallocResponseType> of(long code) {
    for (ReallocResponseType t : values()) {
      if (t.code == code) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }
}
