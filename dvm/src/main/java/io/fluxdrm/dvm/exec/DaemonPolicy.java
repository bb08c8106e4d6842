package io.fluxdrm.dvm.exec;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * How the nodes' daemons behave: the time a start and a stop take, and which starts fail (issue 13
 * scope 2: "start/stop latency and failures injectable"). On one machine a daemon is not a process
 * of its own; it is this policy's timers.
 *
 * @param startLatency from {@link Executor#startDaemon} to its report
 * @param stopLatency from {@link Executor#stopDaemon} to {@link ExecListener#daemonLeft}
 * @param failsToStart the hosts whose daemon start is reported as failed
 */
public record DaemonPolicy(
    Duration startLatency, Duration stopLatency, Predicate<String> failsToStart) {
  /** Checks. */
  public DaemonPolicy {
    Objects.requireNonNull(startLatency, "startLatency");
    Objects.requireNonNull(stopLatency, "stopLatency");
    Objects.requireNonNull(failsToStart, "failsToStart");
    if (startLatency.isNegative() || stopLatency.isNegative()) {
      throw new IllegalArgumentException("latency: negative (expected: >= 0)");
    }
  }

  /** Daemons that start and stop at once (on the loop's next turn) and never fail. */
  public static DaemonPolicy immediate() {
    return new DaemonPolicy(Duration.ZERO, Duration.ZERO, h -> false);
  }

  /**
   * This policy with other latencies.
   *
   * @param start the start latency
   * @param stop the stop latency
   * @return a new policy
   */
  public DaemonPolicy withLatency(Duration start, Duration stop) {
    return new DaemonPolicy(start, stop, failsToStart);
  }

  /**
   * This policy with the daemons of these hosts failing to start.
   *
   * @param hosts the hosts
   * @return a new policy
   */
  public DaemonPolicy failing(Set<String> hosts) {
    Set<String> copy = Set.copyOf(hosts);
    return new DaemonPolicy(startLatency, stopLatency, copy::contains);
  }
}
