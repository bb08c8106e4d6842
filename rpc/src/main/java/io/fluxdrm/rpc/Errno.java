package io.fluxdrm.rpc;

/** The Linux errno values Flux messages carry (RFC 6 error responses). */
public final class Errno {
  /** Operation not permitted. */
  public static final int EPERM = 1;

  /** No such file or directory. */
  public static final int ENOENT = 2;

  /** Input/output error. */
  public static final int EIO = 5;

  /** Out of memory (a message over the size limit). */
  public static final int ENOMEM = 12;

  /** File exists (service already registered). */
  public static final int EEXIST = 17;

  /** Invalid argument. */
  public static final int EINVAL = 22;

  /** Function not implemented: unknown service or method. */
  public static final int ENOSYS = 38;

  /** No data available: the normal end of a streaming RPC. */
  public static final int ENODATA = 61;

  /** Protocol error: malformed message. */
  public static final int EPROTO = 71;

  /** Connection reset by peer. */
  public static final int ECONNRESET = 104;

  /** Connection refused. */
  public static final int ECONNREFUSED = 111;

  /** Connection timed out (an RPC's own timeout). */
  public static final int ETIMEDOUT = 110;

  /** No route to host. */
  public static final int EHOSTUNREACH = 113;

  /** Value too large: a request that could never be satisfied (the scheduler's feasibility). */
  public static final int EOVERFLOW = 75;

  /** Permission denied (a file mode; the PMIx facade maps it like EPERM). */
  public static final int EACCES = 13;

  /** Device or resource busy. */
  public static final int EBUSY = 16;

  /** No space left on device. */
  public static final int ENOSPC = 28;

  /** Operation canceled. */
  public static final int ECANCELED = 125;

  private Errno() {}

  /** Returns the symbolic name of a known errno, or "errno" otherwise. */
  public static String name(int errnum) {
    return switch (errnum) {
      case EPERM -> "EPERM";
      case ENOENT -> "ENOENT";
      case EIO -> "EIO";
      case ENOMEM -> "ENOMEM";
      case EACCES -> "EACCES";
      case EBUSY -> "EBUSY";
      case EEXIST -> "EEXIST";
      case EINVAL -> "EINVAL";
      case ENOSPC -> "ENOSPC";
      case ENOSYS -> "ENOSYS";
      case ENODATA -> "ENODATA";
      case EPROTO -> "EPROTO";
      case EOVERFLOW -> "EOVERFLOW";
      case ECONNRESET -> "ECONNRESET";
      case ECONNREFUSED -> "ECONNREFUSED";
      case ETIMEDOUT -> "ETIMEDOUT";
      case EHOSTUNREACH -> "EHOSTUNREACH";
      case ECANCELED -> "ECANCELED";
      default -> "errno";
    };
  }
}
