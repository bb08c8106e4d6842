package io.fluxdrm.dvm.exec;

import io.fluxdrm.rpc.reactor.EventLoop;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The executor of the simulated mode (issue 13 scope 2): no process is started. A proc runs until a
 * test ends it with {@link #exit} or a signal ends it as it would end {@code /bin/sleep}: SIGSTOP
 * (and SIGTSTP, SIGTTIN, SIGTTOU) stop it, SIGCONT continues it, SIGCHLD, SIGURG and SIGWINCH are
 * ignored, SIGKILL ends it at once, and any other signal ends it, once it runs (a stopped proc
 * keeps it pending until SIGCONT, as the kernel does), with status 128 + n.
 */
public final class SimulatedExecutor implements Executor {
  private static final Set<Integer> IGNORED = Set.of(17, 23, 28);
  private static final Set<Integer> STOPPING = Set.of(Signals.STOP, 20, 21, 22);

  /** One signal sent: for tests. */
  public record Sent(String nspace, int signo) {}

  private static final class Proc {
    boolean stopped;
    int pending;
  }

  private final EventLoop loop;
  private final ExecListener listener;
  private final Daemons daemons;
  private final Predicate<ProcSpec> launchFails;
  private final Map<String, Map<Long, Proc>> jobs = new HashMap<>();
  private final List<Sent> sent = new ArrayList<>();
  private boolean closed;
  private boolean recording = true;

  /**
   * A simulated executor whose launches all succeed.
   *
   * @param loop the loop
   * @param daemons how daemons behave
   * @param listener where results go
   */
  public SimulatedExecutor(EventLoop loop, DaemonPolicy daemons, ExecListener listener) {
    this(loop, daemons, listener, p -> false);
  }

  /**
   * A simulated executor.
   *
   * @param loop the loop
   * @param daemons how daemons behave
   * @param listener where results go
   * @param launchFails the procs that fail to start (their job's launch fails)
   */
  public SimulatedExecutor(
      EventLoop loop,
      DaemonPolicy daemons,
      ExecListener listener,
      Predicate<ProcSpec> launchFails) {
    this.loop = loop;
    this.listener = listener;
    this.daemons = new Daemons(loop, daemons, listener);
    this.launchFails = launchFails;
  }

  @Override
  public void startDaemon(String host) {
    daemons.start(host);
  }

  @Override
  public void stopDaemon(String host) {
    daemons.stop(host);
  }

  @Override
  public void launch(String nspace, List<ProcSpec> procs) {
    if (procs.isEmpty()) {
      throw new IllegalArgumentException("procs: empty (expected: at least one)");
    }
    if (jobs.containsKey(nspace)) {
      throw new IllegalStateException("job " + nspace + ": already launched");
    }
    for (ProcSpec p : procs) {
      if (launchFails.test(p)) {
        String reason =
            "job "
                + nspace
                + " rank "
                + p.rank()
                + " on "
                + p.host()
                + ": "
                + p.argv().get(0)
                + ": cannot start (injected)";
        loop.execute(() -> listener.launchFailed(nspace, reason));
        return;
      }
    }
    Map<Long, Proc> m = new HashMap<>();
    for (ProcSpec p : procs) {
      m.put(p.rank(), new Proc());
    }
    jobs.put(nspace, m);
    loop.execute(() -> listener.launched(nspace));
  }

  /**
   * Ends a live proc with an exit status (reported on the loop's next turn).
   *
   * @param nspace the job
   * @param rank the rank
   * @param status the status to report
   * @return whether the proc was alive
   */
  public boolean exit(String nspace, long rank, int status) {
    return end(nspace, rank, status, 0);
  }

  private boolean end(String nspace, long rank, int status, int termSignal) {
    Map<Long, Proc> m = jobs.get(nspace);
    if (m == null || m.remove(rank) == null) {
      return false;
    }
    if (m.isEmpty()) {
      jobs.remove(nspace);
    }
    loop.execute(
        () -> {
          if (!closed) {
            listener.procExited(nspace, rank, status, termSignal);
          }
        });
    return true;
  }

  @Override
  public void signal(String nspace, int signo) {
    if (!Signals.valid(signo)) {
      throw new IllegalArgumentException(
          "signal: " + signo + " (expected: 1 to " + Signals.MAX + ")");
    }
    Map<Long, Proc> m = jobs.get(nspace);
    if (m == null) {
      return;
    }
    if (recording) {
      sent.add(new Sent(nspace, signo));
    }
    for (Long rank : new TreeSet<>(m.keySet())) {
      Proc p = m.get(rank);
      if (signo == Signals.KILL) {
        end(nspace, rank, 128 + signo, signo);
      } else if (STOPPING.contains(signo)) {
        p.stopped = true;
      } else if (signo == Signals.CONT) {
        p.stopped = false;
        if (p.pending != 0) {
          end(nspace, rank, 128 + p.pending, p.pending);
        }
      } else if (!IGNORED.contains(signo)) {
        if (p.stopped) {
          p.pending = p.pending == 0 ? signo : p.pending;
        } else {
          end(nspace, rank, 128 + signo, signo);
        }
      }
    }
  }

  /**
   * Whether a live proc is stopped.
   *
   * @param nspace the job
   * @param rank the rank
   * @return true when it is alive and stopped
   */
  public boolean isStopped(String nspace, long rank) {
    Map<Long, Proc> m = jobs.get(nspace);
    Proc p = m == null ? null : m.get(rank);
    return p != null && p.stopped;
  }

  /**
   * Stops recording signals for {@link #sent()} (benchmarks send millions).
   *
   * @return this executor
   */
  public SimulatedExecutor withoutRecording() {
    recording = false;
    sent.clear();
    return this;
  }

  /** Every signal sent to a job with live procs, in order. */
  public List<Sent> sent() {
    return List.copyOf(sent);
  }

  @Override
  public Map<String, Map<Long, Long>> livePids() {
    return Map.of();
  }

  @Override
  public Set<Long> liveRanks(String nspace) {
    Map<Long, Proc> m = jobs.get(nspace);
    return m == null ? Set.of() : new TreeSet<>(m.keySet());
  }

  /** The jobs with a live proc. */
  public Set<String> liveJobs() {
    return new TreeSet<>(jobs.keySet());
  }

  @Override
  public void close() {
    closed = true;
    daemons.close();
    jobs.clear();
  }
}
