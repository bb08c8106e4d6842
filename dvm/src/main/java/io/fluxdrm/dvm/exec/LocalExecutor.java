package io.fluxdrm.dvm.exec;

import io.fluxdrm.rpc.reactor.EventLoop;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applications as real local processes: one process per proc, started with {@link ProcessBuilder}
 * on a {@link Lifeline} (in a process group of its own, killed with it when the DVM dies, however)
 * with the environment of {@link ProcSpec#standardEnv}, standard input from {@code /dev/null},
 * output and errors to the DVM's own. Signals go through {@code kill -s N PID...} (JDK 17 has no
 * API for an arbitrary signal), one at a time in the order they were asked for; SIGTERM and SIGKILL
 * through {@link ProcessHandle}. Exit statuses are the process's: the exit code, or 128 + n when
 * signal n ended it (what {@link Process#exitValue()} gives on Linux, see {@link #signalOf}).
 *
 * <p>All state is touched on the loop only; the JDK's process reaper completes {@link
 * Process#onExit()} on its own thread, whose callbacks only submit to the loop.
 */
public final class LocalExecutor implements Executor {
  private static final Logger LOG = LoggerFactory.getLogger(LocalExecutor.class);

  private final EventLoop loop;
  private final ExecListener listener;
  private final Daemons daemons;
  private final String killCommand;
  private final Lifeline lifeline;
  private final Map<String, Map<Long, Process>> jobs = new HashMap<>();
  private final Deque<Runnable> signalQueue = new ArrayDeque<>();
  private boolean signalling;
  private boolean closed;

  /**
   * An executor of real processes.
   *
   * @param loop the loop everything runs on
   * @param daemons how the daemons behave
   * @param listener where results go
   */
  public LocalExecutor(EventLoop loop, DaemonPolicy daemons, ExecListener listener) {
    this.loop = loop;
    this.listener = listener;
    this.daemons = new Daemons(loop, daemons, listener);
    this.killCommand = Files.isExecutable(Path.of("/bin/kill")) ? "/bin/kill" : "kill";
    this.lifeline = Lifeline.here();
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
    Map<Long, Process> started = new LinkedHashMap<>();
    for (ProcSpec p : procs) {
      try {
        ProcessBuilder b =
            lifeline
                .builder(p.argv())
                .redirectOutput(ProcessBuilder.Redirect.INHERIT)
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        b.environment().putAll(p.env());
        started.put(p.rank(), b.start());
      } catch (IOException | RuntimeException e) {
        started.values().forEach(LocalExecutor::kill);
        String reason =
            "job " + nspace + " rank " + p.rank() + " on " + p.host() + ": " + e.getMessage();
        LOG.info("launch failed: {}", reason);
        loop.execute(() -> listener.launchFailed(nspace, reason));
        return;
      }
    }
    jobs.put(nspace, started);
    LOG.info(
        "job {}: launched {} proc(s), pids {}",
        nspace,
        started.size(),
        started.values().stream().map(Process::pid).toList());
    loop.execute(() -> listener.launched(nspace));
    // registered after launched() was queued: every exit report comes after it
    started.forEach(
        (rank, proc) ->
            proc.onExit().thenAccept(ph -> loop.execute(() -> exited(nspace, rank, proc))));
  }

  private void exited(String nspace, long rank, Process proc) {
    Map<Long, Process> procs = jobs.get(nspace);
    if (closed || procs == null || procs.get(rank) != proc) {
      return;
    }
    procs.remove(rank);
    if (procs.isEmpty()) {
      jobs.remove(nspace);
    }
    int status = proc.exitValue();
    LOG.debug("job {} rank {} pid {}: exited with status {}", nspace, rank, proc.pid(), status);
    listener.procExited(nspace, rank, status, signalOf(status));
  }

  /**
   * The signal that ended a process, from the status {@link Process#exitValue()} gives: 128 + n for
   * signal n. The JDK keeps no raw wait status, so an exit code of 129 to 192 is read as a signal,
   * as a shell's {@code $?} is (decision D371).
   */
  static int signalOf(int status) {
    return status > 128 && status - 128 <= Signals.MAX ? status - 128 : 0;
  }

  @Override
  public void signal(String nspace, int signo) {
    if (!Signals.valid(signo)) {
      throw new IllegalArgumentException(
          "signal: " + signo + " (expected: 1 to " + Signals.MAX + ")");
    }
    signalQueue.add(() -> send(nspace, signo));
    if (!signalling) {
      next();
    }
  }

  private void next() {
    Runnable r = signalQueue.poll();
    signalling = r != null;
    if (r != null) {
      r.run();
    }
  }

  /** Sends one signal; calls {@link #next()} once it is delivered (or failed). */
  private void send(String nspace, int signo) {
    Map<Long, Process> procs = jobs.get(nspace);
    if (closed || procs == null || procs.isEmpty()) {
      next();
      return;
    }
    List<Long> pids = procs.values().stream().map(Process::pid).toList();
    LOG.info("job {}: {} to pids {}", nspace, Signals.name(signo), pids);
    if (signo == Signals.KILL || signo == Signals.TERM) {
      for (Process p : procs.values()) {
        if (signo == Signals.KILL) {
          p.destroyForcibly();
        } else {
          p.destroy();
        }
      }
      next();
      return;
    }
    List<String> cmd = new ArrayList<>(List.of(killCommand, "-s", Integer.toString(signo)));
    pids.forEach(p -> cmd.add(Long.toString(p)));
    Process kill;
    try {
      kill =
          new ProcessBuilder(cmd)
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
    } catch (IOException e) {
      LOG.warn("job {}: cannot run {} ({})", nspace, killCommand, e.getMessage());
      next();
      return;
    }
    kill.onExit()
        .thenAccept(
            k ->
                loop.execute(
                    () -> {
                      if (k.exitValue() != 0) {
                        // a proc that exited meanwhile: kill reports "No such process" for it
                        LOG.debug(
                            "job {}: kill -s {} exited {} (a proc already gone)",
                            nspace,
                            signo,
                            k.exitValue());
                      }
                      next();
                    }));
  }

  /** Kills a proc and, through its lifeline, whatever it started. */
  private static void kill(Process p) {
    p.destroyForcibly();
    Lifeline.cut(p);
  }

  @Override
  public Map<String, Map<Long, Long>> livePids() {
    Map<String, Map<Long, Long>> out = new TreeMap<>();
    jobs.forEach(
        (ns, procs) -> {
          Map<Long, Long> m = new TreeMap<>();
          procs.forEach((r, p) -> m.put(r, p.pid()));
          out.put(ns, m);
        });
    return out;
  }

  @Override
  public Set<Long> liveRanks(String nspace) {
    Map<Long, Process> procs = jobs.get(nspace);
    return procs == null ? Set.of() : new TreeSet<>(procs.keySet());
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    daemons.close();
    signalQueue.clear();
    int n = 0;
    for (Map<Long, Process> procs : jobs.values()) {
      for (Process p : procs.values()) {
        kill(p);
        n++;
      }
    }
    jobs.clear();
    if (n > 0) {
      LOG.info("closed: killed {} proc(s)", n);
    }
  }
}
