package io.fluxdrm.dvm.exec;

/** Linux signal numbers the DVM sends by name (signal(7)), and the range it accepts. */
public final class Signals {
  private Signals() {}

  /** SIGKILL. */
  public static final int KILL = 9;

  /** SIGTERM. */
  public static final int TERM = 15;

  /** SIGCONT. */
  public static final int CONT = 18;

  /** SIGSTOP. */
  public static final int STOP = 19;

  /** SIGRTMAX on Linux: the largest signal number. */
  public static final int MAX = 64;

  /**
   * Whether {@code n} names a signal.
   *
   * @param n a number
   * @return 1 to {@link #MAX}
   */
  public static boolean valid(int n) {
    return n >= 1 && n <= MAX;
  }

  /**
   * The signal's name, e.g. {@code SIGSTOP}, or {@code SIG<n>} for one without a fixed name here.
   *
   * @param n the number
   * @return the name
   */
  public static String name(int n) {
    return switch (n) {
      case 1 -> "SIGHUP";
      case 2 -> "SIGINT";
      case 3 -> "SIGQUIT";
      case 6 -> "SIGABRT";
      case KILL -> "SIGKILL";
      case 10 -> "SIGUSR1";
      case 12 -> "SIGUSR2";
      case 14 -> "SIGALRM";
      case TERM -> "SIGTERM";
      case CONT -> "SIGCONT";
      case STOP -> "SIGSTOP";
      case 20 -> "SIGTSTP";
      default -> "SIG" + n;
    };
  }
}
