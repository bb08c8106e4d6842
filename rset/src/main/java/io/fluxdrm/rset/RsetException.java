package io.fluxdrm.rset;

import java.io.Serial;

/**
 * Bad input to an idset, hostlist or R operation. The message locates the problem and states the
 * rule, for example {@code idset "3,2": "2" is out of order (expected: ascending)}; {@link
 * #reason()} classifies it the way flux-core's errno does.
 */
public final class RsetException extends IllegalArgumentException {
  @Serial private static final long serialVersionUID = 1L;

  /** Classification of the failure, after the errno flux-core's librlist would set. */
  public enum Reason {
    /** Malformed or semantically invalid input (EINVAL). */
    INVALID,
    /** Resources overlap where they must be disjoint (EEXIST). */
    EXISTS,
    /** A named host, rank or resource is not there (ENOENT). */
    NOT_FOUND,
    /** Fewer hosts than ranks (ENOSPC). */
    TOO_FEW,
    /** More hosts than ranks (EOVERFLOW). */
    TOO_MANY,
    /** A number or an expansion beyond a limit (ERANGE). */
    RANGE
  }

  private final Reason reason;

  public RsetException(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  public RsetException(String message) {
    this(Reason.INVALID, message);
  }

  public Reason reason() {
    return reason;
  }
}
