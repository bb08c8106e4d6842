package io.fluxdrm.sched;

/**
 * How many {@code sched.alloc} requests the job manager may have outstanding (RFC 27 {@code
 * sched-ready} mode): {@code limited} with a limit, or {@code unlimited}.
 *
 * @param limit the limit, or {@link #UNLIMITED}
 */
public record QueueDepth(int limit) {

  /** The limit value that stands for {@code unlimited}. */
  public static final int UNLIMITED = 0;

  /** flux-core sched-simple's default, {@code limited=8}. */
  public static final QueueDepth DEFAULT = new QueueDepth(8);

  public QueueDepth {
    if (limit < 0) {
      throw new SchedException("queue-depth: " + limit + " (expected: >= 1 or unlimited)");
    }
  }

  public static QueueDepth unlimited() {
    return new QueueDepth(UNLIMITED);
  }

  public static QueueDepth limited(int n) {
    if (n < 1) {
      throw new SchedException("queue-depth: " + n + " (expected: >= 1 or unlimited)");
    }
    return new QueueDepth(n);
  }

  /**
   * Reads a queue depth as sched-simple's module options spell it: {@code N}, {@code unlimited},
   * {@code limited=N}.
   */
  public static QueueDepth parse(String text) {
    if (text == null) {
      throw new SchedException("queue-depth: missing (expected: N >= 1 or unlimited)");
    }
    if (text.equals("unlimited")) {
      return unlimited();
    }
    String n = text.startsWith("limited=") ? text.substring("limited=".length()) : text;
    if (n.matches("-[0-9]{1,10}")) {
      // a number, but below 1
      throw new SchedException(
          "queue-depth: " + text + " (expected: 1 to " + Integer.MAX_VALUE + " or unlimited)");
    }
    if (!n.matches("[0-9]{1,10}")) {
      throw new SchedException(
          "queue-depth: \""
              + text
              + "\" is not a number (expected: N >= 1, limited=N or unlimited)");
    }
    long v = Long.parseLong(n);
    if (v < 1 || v > Integer.MAX_VALUE) {
      throw new SchedException(
          "queue-depth: " + v + " (expected: 1 to " + Integer.MAX_VALUE + " or unlimited)");
    }
    return limited((int) v);
  }

  public boolean isUnlimited() {
    return limit == UNLIMITED;
  }

  /** The {@code mode} of the {@code job-manager.sched-ready} request. */
  public String mode() {
    return isUnlimited() ? "unlimited" : "limited";
  }

  /** As sched-simple logs it: {@code unlimited} or the number. */
  @Override
  public String toString() {
    return isUnlimited() ? "unlimited" : Integer.toString(limit);
  }
}
