package io.fluxdrm.sched;

/** The Linux errno values the scheduler answers bad requests with (RFC 27, RFC 51 and D2). */
public enum Errno {
  /** The caller may not act on the job. */
  EPERM(1),
  /** Unknown job. */
  ENOENT(2),
  /** A request that is well formed but makes no sense in the current state. */
  EINVAL(22),
  /** A malformed request, or one that breaks the protocol's rules. */
  EPROTO(71),
  /** A request that could never be satisfied ({@code feasibility.check}). */
  EOVERFLOW(75);

  private final int code;

  Errno(int code) {
    this.code = code;
  }

  /** The numeric value sent as a response's errnum. */
  public int code() {
    return code;
  }
}
