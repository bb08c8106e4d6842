package io.fluxdrm.shell;

import java.util.Optional;

/**
 * The response types of RFC 51's {@code sched.realloc} as the job manager passes them back (seed
 * 004): not RFC 27's alloc types, whose DENY and CANCEL carry other numbers.
 */
public enum ReallocType {
  /** The request was satisfied: {@code R_delta_add} and/or {@code R_delta_sub}. */
  SUCCESS(0),
  /** The request can never be satisfied. */
  DENY(1),
  /** The request was canceled. */
  CANCEL(2),
  /** The scheduler does not implement dynamic allocation. */
  UNSUPPORTED(3);

  private final int code;

  ReallocType(int code) {
    this.code = code;
  }

  /** The number on the wire. */
  public int code() {
    return code;
  }

  /** The type numbered {@code code}, if any. */
  public static Optional<ReallocType> of(int code) {
    for (ReallocType t : values()) {
      if (t.code == code) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }
}
