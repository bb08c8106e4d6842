package io.fluxdrm.dvm.core;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.testkit.InvariantsExtension;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Drives a {@link DvmCore} against a simulated world, as the service would: daemons come up (or
 * fail) when started, jobs launch, processes obey signals (SIGSTOP stops, SIGCONT continues, a
 * stopped process ignores SIGTERM until continued, SIGKILL always kills), timers fire only when a
 * test fires them. Every decision is logged; the invariants of {@link DvmInvariants} are checked
 * after every step through the test's {@link InvariantsExtension}.
 */
final class DvmHarness {
  final DvmCore core;
  final DvmInvariants invariants = new DvmInvariants();
  final List<DvmDecision> log = new ArrayList<>();
  final Map<Long, StatusInfos> answers = new LinkedHashMap<>();
  final Map<Long, Duration> timers = new LinkedHashMap<>();

  /** Processes per job: rank to state. */
  final Map<String, Map<Long, Proc>> procs = new LinkedHashMap<>();

  /** Hosts whose daemon fails when started. */
  final Set<String> failingHosts = new HashSet<>();

  /** Hosts whose daemon's stop cannot be sent (reported at once, scenario D20). */
  final Set<String> unsendableStops = new HashSet<>();

  /** Whether daemons report at once (else the test reports them). */
  boolean autoDaemons = true;

  /** Whether launches report at once. */
  boolean autoLaunch = true;

  /** Whether a mapped job reaches LAUNCH_APPS at once (elastic mode; else the test moves it). */
  boolean autoLaunchApps = true;

  /** Mapped jobs waiting for the test to move them to LAUNCH_APPS. */
  final List<String> mapped = new ArrayList<>();

  /** Jobs whose launch fails. */
  final Set<String> failingLaunches = new HashSet<>();

  /** Every signal sent, as "nspace SIGNAME". */
  final List<String> signals = new ArrayList<>();

  private final InvariantsExtension ext;
  private final Deque<DvmEvent> queue = new ArrayDeque<>();
  private long nextRequest = 1;
  private int step;

  static final class Proc {
    final String host;
    boolean stopped;
    boolean termPending;

    Proc(String host) {
      this.host = host;
    }
  }

  DvmHarness(DvmConfig config, InvariantsExtension ext) {
    this.core = DvmCore.of(config);
    this.ext = ext;
    ext.register("DVM invariants", () -> invariants.check(core.view()));
    ext.register(
        "free-slot index",
        () -> {
          List<String> bad = core.indexProblems();
          if (!bad.isEmpty()) {
            throw new IllegalStateException(String.join("; ", bad));
          }
        });
    settle(core.start());
    ext.check("start");
  }

  /** Four nodes node1..node4 with 2 slots, node1 the master. */
  static DvmConfig fourNodes() {
    return DvmConfig.of(
        List.of(
            new DvmConfig.NodeSpec("node1", 2),
            new DvmConfig.NodeSpec("node2", 2),
            new DvmConfig.NodeSpec("node3", 2),
            new DvmConfig.NodeSpec("node4", 2)),
        "prte-dvm",
        1000);
  }

  static Client tool(String nspace, long uid) {
    return new Client(new PmixProc(nspace, 0), uid, uid, Client.Kind.TOOL);
  }

  static Client app(String nspace, long rank) {
    return new Client(new PmixProc(nspace, rank), 1000, 1000, Client.Kind.APPLICATION);
  }

  static Client schedulerClient() {
    return new Client(new PmixProc("sched", 0), 1000, 1000, Client.Kind.SCHEDULER);
  }

  /** The master's host: requests the harness sends on a test's behalf arrive there. */
  String master() {
    return core.config().master();
  }

  long nextRequestId() {
    return nextRequest++;
  }

  /** Feeds an event and everything the world does in reply; checks the invariants. */
  List<DvmDecision> event(DvmEvent e) {
    int from = log.size();
    if (e instanceof DvmEvent.Request r) {
      invariants.requested(r.requestId());
    }
    settle(core.handle(e));
    ext.check("step " + ++step + ": " + e);
    return List.copyOf(log.subList(from, log.size()));
  }

  /** A session control from {@code c} via {@code via}; returns its answer if it came. */
  Optional<StatusInfos> sessionControl(Client c, String via, long id, Info... directives) {
    long rid = nextRequestId();
    event(new DvmEvent.SessionControl(rid, c, via, id, List.of(directives)));
    return Optional.ofNullable(answers.get(rid));
  }

  /** An allocation request; returns its answer if it came. */
  Optional<StatusInfos> alloc(Client c, AllocDirective d, Info... infos) {
    long rid = nextRequestId();
    event(new DvmEvent.AllocationRequest(rid, c, master(), d, List.of(infos)));
    return Optional.ofNullable(answers.get(rid));
  }

  /** A spawn; returns its answer if it came. */
  Optional<StatusInfos> spawn(Client c, List<App> apps, Info... jobInfos) {
    long rid = nextRequestId();
    event(new DvmEvent.Spawn(rid, c, master(), apps, List.of(jobInfos)));
    return Optional.ofNullable(answers.get(rid));
  }

  /** Registers {@code c} for every event; returns the handler reference. */
  long registerAll(Client c) {
    long rid = nextRequestId();
    event(new DvmEvent.RegisterEvents(rid, c, master(), List.of()));
    return rid;
  }

  /** Fires timer {@code id}. */
  List<DvmDecision> fire(long id) {
    timers.remove(id);
    return event(new DvmEvent.TimerFired(id));
  }

  /** Fires every armed timer. */
  void fireAll() {
    for (Long id : new ArrayList<>(timers.keySet())) {
      if (timers.containsKey(id)) {
        fire(id);
      }
    }
  }

  /** The processes of job {@code nspace} exit with {@code code}. */
  void exitAll(String nspace, int code) {
    Map<Long, Proc> ps = procs.getOrDefault(nspace, Map.of());
    for (Long rank : new ArrayList<>(ps.keySet())) {
      ps.remove(rank);
      event(new DvmEvent.ProcExited(nspace, rank, code, 0));
    }
  }

  <T extends DvmDecision> List<T> decisions(Class<T> type) {
    List<T> l = new ArrayList<>();
    for (DvmDecision d : log) {
      if (type.isInstance(d)) {
        l.add(type.cast(d));
      }
    }
    return l;
  }

  <T extends DvmDecision> List<T> decisions(Class<T> type, Predicate<T> p) {
    return decisions(type).stream().filter(p).toList();
  }

  /** Whether every process of the job is stopped. */
  boolean allStopped(String nspace) {
    Map<Long, Proc> ps = procs.getOrDefault(nspace, Map.of());
    return !ps.isEmpty() && ps.values().stream().allMatch(p -> p.stopped);
  }

  int liveProcs(String nspace) {
    return procs.getOrDefault(nspace, Map.of()).size();
  }

  private void settle(List<DvmDecision> first) {
    react(first);
    while (!queue.isEmpty()) {
      DvmEvent e = queue.poll();
      react(core.handle(e));
    }
  }

  private void react(List<DvmDecision> ds) {
    invariants.decided(ds);
    List<String> bad = DvmInvariants.launchProblems(ds, core.view());
    if (!bad.isEmpty()) {
      throw new IllegalStateException("after step " + step + ": " + String.join("; ", bad));
    }
    log.addAll(ds);
    for (DvmDecision d : ds) {
      if (d instanceof DvmDecision.Answer a) {
        answers.put(a.requestId(), a.result());
      } else if (d instanceof DvmDecision.StartDaemon s && autoDaemons) {
        queue.add(
            failingHosts.contains(s.host())
                ? new DvmEvent.DaemonFailed(s.host(), "injected failure")
                : new DvmEvent.DaemonStarted(s.host()));
      } else if (d instanceof DvmDecision.StopDaemon s && unsendableStops.contains(s.host())) {
        queue.add(
            new DvmEvent.StopNotSent(s.host(), PmixStatus.PMIX_ERR_UNREACH, "injected failure"));
      } else if (d instanceof DvmDecision.StopDaemon s && autoDaemons) {
        queue.add(new DvmEvent.DaemonLeft(s.host()));
      } else if (d instanceof DvmDecision.LaunchJob l) {
        Map<Long, Proc> ps = new LinkedHashMap<>();
        for (DvmDecision.Placement p : l.procs()) {
          ps.put(p.rank(), new Proc(p.host()));
        }
        procs.put(l.nspace(), ps);
        if (autoLaunch) {
          queue.add(
              failingLaunches.contains(l.nspace())
                  ? new DvmEvent.JobLaunchFailed(
                      l.nspace(), PmixStatus.PMIX_ERR_JOB_FAILED_TO_LAUNCH, "injected failure")
                  : new DvmEvent.JobLaunched(l.nspace()));
          if (failingLaunches.contains(l.nspace())) {
            procs.remove(l.nspace());
          }
        }
      } else if (d instanceof DvmDecision.MapComplete m) {
        if (autoLaunchApps) {
          queue.add(new DvmEvent.LaunchApps(m.nspace()));
        } else {
          mapped.add(m.nspace());
        }
      } else if (d instanceof DvmDecision.SignalJob s) {
        signals.add(s.nspace() + " " + s.signal().signalName());
        deliver(s.nspace(), s.signal());
      } else if (d instanceof DvmDecision.ArmTimer t) {
        timers.put(t.timerId(), t.after());
      } else if (d instanceof DvmDecision.CancelTimer t) {
        timers.remove(t.timerId());
      }
    }
  }

  /** What the processes of a job do with a signal (POSIX default actions). */
  private void deliver(String nspace, Signal sig) {
    Map<Long, Proc> ps = procs.get(nspace);
    if (ps == null) {
      return;
    }
    for (Map.Entry<Long, Proc> e : new ArrayList<>(ps.entrySet())) {
      Proc p = e.getValue();
      switch (sig.number()) {
        case 19 -> p.stopped = true;
        case 18 -> {
          p.stopped = false;
          if (p.termPending) {
            ps.remove(e.getKey());
            queue.add(new DvmEvent.ProcExited(nspace, e.getKey(), 0, 15));
          }
        }
        case 9 -> {
          ps.remove(e.getKey());
          queue.add(new DvmEvent.ProcExited(nspace, e.getKey(), 0, 9));
        }
        case 17, 20, 23, 28 -> {
          // ignored by default
        }
        default -> {
          if (p.stopped) {
            p.termPending = true;
          } else {
            ps.remove(e.getKey());
            queue.add(new DvmEvent.ProcExited(nspace, e.getKey(), 0, sig.number()));
          }
        }
      }
    }
  }

  /** The info of {@code key} in an answer, if any. */
  static Optional<Info> info(StatusInfos a, String key) {
    return a.infos().stream().filter(i -> i.key().equals(key)).findFirst();
  }

  static App sleep(int np) {
    return new App("/bin/sleep", List.of("sleep", "300"), np, List.of());
  }

  /** A copy of the HashMap-free parts of the view, for before/after comparisons. */
  static String snapshot(DvmView v) {
    Map<String, Object> m = new HashMap<>();
    m.put("nodes", v.nodes());
    m.put("pool", v.pool());
    m.put("sessions", v.sessions());
    m.put("jobs", v.jobs());
    m.put("pending", v.pendingRequests());
    m.put("scheduler", v.scheduler());
    return new java.util.TreeMap<>(m).toString();
  }
}
