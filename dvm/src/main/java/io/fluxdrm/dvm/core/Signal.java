package io.fluxdrm.dvm.core;

/**
 * A POSIX signal number as the DVM sends it to a job's processes (PRRTE §7.4.4.2.2 "Pause and
 * resume", "Signal", "Terminate"). Numbers are Linux's; {@link #MAX} bounds what {@code
 * PMIX_SESSION_SIGNAL} may ask for.
 *
 * @param number the signal number, 1 to {@link #MAX}
 */
public record Signal(int number) {
  /** The highest signal number accepted (Linux {@code SIGRTMAX}). */
  public static final int MAX = 64;

  /** {@code SIGKILL}: the end of a termination's grace. */
  public static final Signal KILL = new Signal(9);

  /** {@code SIGTERM}: a termination order. */
  public static final Signal TERM = new Signal(15);

  /** {@code SIGCONT}: resume and restore. */
  public static final Signal CONT = new Signal(18);

  /** {@code SIGSTOP}: pause and preempt. */
  public static final Signal STOP = new Signal(19);

  /** Checks the range. */
  public Signal {
    if (number < 1 || number > MAX) {
      throw new IllegalArgumentException("signal: " + number + " (expected: 1 to " + MAX + ")");
    }
  }

  /** The usual name ({@code SIGSTOP}), or {@code SIG<n>} for one without a name here. */
  public String signalName() {
    return switch (number) {
      case 1 -> "SIGHUP";
      case 2 -> "SIGINT";
      case 9 -> "SIGKILL";
      case 10 -> "SIGUSR1";
      case 12 -> "SIGUSR2";
      case 15 -> "SIGTERM";
      case 18 -> "SIGCONT";
      case 19 -> "SIGSTOP";
      default -> "SIG" + number;
    };
  }
}
