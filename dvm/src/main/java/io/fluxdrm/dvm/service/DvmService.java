package io.fluxdrm.dvm.service;

import io.fluxdrm.dvm.core.DvmConfig;
import io.fluxdrm.dvm.core.DvmCore;
import io.fluxdrm.dvm.core.DvmDecision;
import io.fluxdrm.dvm.core.DvmEvent;
import io.fluxdrm.dvm.core.DvmInvariants;
import io.fluxdrm.dvm.core.DvmView;
import io.fluxdrm.dvm.exec.DaemonPolicy;
import io.fluxdrm.dvm.exec.ExecListener;
import io.fluxdrm.dvm.exec.Executor;
import io.fluxdrm.dvm.exec.LocalExecutor;
import io.fluxdrm.dvm.exec.ProcSpec;
import io.fluxdrm.dvm.exec.SimulatedExecutor;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.port.DvmConnector;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.Registration;
import io.fluxdrm.pmix.port.SchedulerUpcalls;
import io.fluxdrm.pmix.port.SpawnResult;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.rpc.reactor.EventLoop;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reference DVM as a service: the pure {@link DvmCore} on one event loop (a {@code Reactor}, or
 * a {@code ManualEventLoop} in tests and benchmarks), no lock and no {@code synchronized}. Every
 * input reaches the core on the loop, one at a time, never from inside the execution of a decision
 * (ports, executor reports, timers and scheduler answers are all queued to the loop); the decisions
 * are carried out in the order given: answers complete the request's future exactly once, daemon,
 * launch and signal decisions go to the {@link Executor}, timers to the loop's timers, upcalls to
 * the attached scheduler.
 *
 * <p>It is the in-process {@link DvmConnector}: {@link #connect} binds a port to a client and the
 * daemon it reached, {@link #attachScheduler} binds the scheduler's, whichever of the DVM and the
 * scheduler came first, and again after the scheduler went away.
 *
 * <p>Why one class: the one rule that makes the service correct, every input reaches the core on
 * the loop and decisions are carried out in the order given, is kept by the queue and the dispatch
 * loop here; ports, executor reports, timers and scheduler upcalls all enter through that queue,
 * and spreading them over classes would spread the rule with them.
 */
public final class DvmService implements DvmConnector, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DvmService.class);

  /** Applications as real processes, or simulated. */
  public enum Mode {
    /** One local process per proc ({@link LocalExecutor}). */
    REAL,
    /** No process ({@link SimulatedExecutor}). */
    SIMULATED
  }

  /** The status a request gets when the DVM stops before answering it. */
  static final PmixStatus SHUTDOWN = PmixStatus.PMIX_ERR_UNREACH;

  private final EventLoop loop;
  private final DvmCore core;
  private final Executor exec;
  private final Map<Long, Pending> pending = new HashMap<>();
  private final Map<Long, EventLoop.Cancellable> timers = new HashMap<>();
  private final Map<Long, DvmPort.EventHandler> handlers = new HashMap<>();
  private final Map<String, Long> jobSession = new HashMap<>();
  private final Set<Long> reclaimed = new HashSet<>();
  private final Map<String, Long> launchedAt = new HashMap<>();
  private final DvmInvariants ledger;
  private final boolean everyStep;
  private long broken;
  private SchedulerUpcalls scheduler;
  private Port schedulerPort;
  private long nextRequest = 1;
  private long answered;
  private boolean closed;

  private record Pending(CompletableFuture<StatusInfos> answer, DvmPort.EventHandler handler) {}

  /** An allocation request not answered yet: who asked, and its PMIX_ALLOC_REQ_ID. */
  private record Ask(PmixProc requester, Optional<String> reqId) {}

  /** Allocation requests in flight, by request id. */
  private final Map<Long, Ask> asks = new HashMap<>();

  /** Second-phase events held until the answer of the request they follow (D422). */
  private final Map<Long, List<DvmDecision.Notify>> afterAnswer = new HashMap<>();

  /** Hosts whose daemons were told to stop and have not left yet. */
  private final Set<String> departing = new java.util.LinkedHashSet<>();

  /** Hosts whose daemon went during the event being handled. */
  private final List<String> gone = new ArrayList<>();

  private DvmService(
      DvmConfig config,
      EventLoop loop,
      Mode mode,
      DaemonPolicy daemons,
      Predicate<ProcSpec> launchFails,
      boolean checked,
      boolean everyStep) {
    this.loop = loop;
    this.everyStep = everyStep;
    this.core = DvmCore.of(config);
    this.ledger = checked ? new DvmInvariants() : null;
    ExecListener l = new Reports();
    this.exec =
        mode == Mode.REAL
            ? new LocalExecutor(loop, daemons, l)
            : new SimulatedExecutor(loop, daemons, l, launchFails);
  }

  /**
   * Starts building a service.
   *
   * @param config the DVM's nodes and settings
   * @param loop the loop it runs on
   * @return a builder
   */
  public static Builder builder(DvmConfig config, EventLoop loop) {
    return new Builder(config, loop);
  }

  /** Builds a {@link DvmService}. */
  public static final class Builder {
    private final DvmConfig config;
    private final EventLoop loop;
    private Mode mode = Mode.SIMULATED;
    private DaemonPolicy daemons = DaemonPolicy.immediate();
    private Predicate<ProcSpec> launchFails = p -> false;
    private boolean checked;
    private boolean everyStep;

    private Builder(DvmConfig config, EventLoop loop) {
      this.config = config;
      this.loop = loop;
    }

    /** Real processes or simulated ones (the default). */
    public Builder mode(Mode m) {
      this.mode = m;
      return this;
    }

    /** How the daemons behave (default: at once, never failing). */
    public Builder daemons(DaemonPolicy p) {
      this.daemons = p;
      return this;
    }

    /** In simulated mode, the procs that fail to start. */
    public Builder launchFails(Predicate<ProcSpec> p) {
      this.launchFails = p;
      return this;
    }

    /**
     * Keeps the core's ledger of requests and answers ({@link DvmInvariants}) for {@link
     * #checkInvariants}: for tests; it grows with every request.
     */
    public Builder checked() {
      this.checked = true;
      return this;
    }

    /**
     * As {@link #checked()}, and checks the invariants after every input the core handles, logging
     * each violation at ERROR ({@code invariant broken after ...}) and counting it ({@link
     * #invariantViolations}): for process-level tests of {@code fluxdrm dvm}.
     */
    public Builder checkedEveryStep() {
      this.checked = true;
      this.everyStep = true;
      return this;
    }

    /**
     * Builds the service and starts it on its loop (the daemons of the initial nodes).
     *
     * @return the service
     */
    public DvmService start() {
      DvmService s = new DvmService(config, loop, mode, daemons, launchFails, checked, everyStep);
      loop.execute(s::boot);
      return s;
    }
  }

  private void boot() {
    execute(core.start());
  }

  // ------------------------------------------------------------------ connector

  @Override
  public CompletionStage<DvmPort> connect(Client client, String host) {
    CompletableFuture<DvmPort> f = new CompletableFuture<>();
    loop.execute(
        () -> {
          if (client.kind() == Client.Kind.SCHEDULER) {
            f.completeExceptionally(
                new IllegalArgumentException(
                    "client "
                        + client.proc().nspace()
                        + ": a scheduler attaches with attachScheduler (expected: a tool or an"
                        + " application)"));
          } else if (core.view().node(host).isEmpty()) {
            f.completeExceptionally(
                new IllegalArgumentException(
                    "host " + host + ": no daemon of this DVM there (expected: one of its nodes)"));
          } else {
            f.complete(new Port(client, host));
          }
        });
    return f;
  }

  @Override
  public CompletionStage<DvmPort> attachScheduler(Client scheduler, SchedulerUpcalls upcalls) {
    CompletableFuture<DvmPort> f = new CompletableFuture<>();
    loop.execute(
        () -> {
          if (this.scheduler != null) {
            f.completeExceptionally(
                new IllegalStateException(
                    "scheduler "
                        + scheduler.proc().nspace()
                        + ": another scheduler is attached (expected: one at a time)"));
            return;
          }
          this.scheduler = upcalls;
          Port p = new Port(scheduler, core.view().master());
          schedulerPort = p;
          LOG.info("scheduler {} attached", scheduler.proc().nspace());
          handle(new DvmEvent.SchedulerAttached(scheduler));
          f.complete(p);
        });
    return f;
  }

  /**
   * An event the attached scheduler raises toward the DVM ({@code PMIx_Notify_event} from the
   * scheduler: {@code PMIX_ALLOC_TIMEOUT_WARNING} with {@code PMIX_ALLOC_ID} and {@code
   * PMIX_TIME_REMAINING}), which the core relays to the allocation's requester only (spec/pmix/03
   * §8.6, B23). Ignored when no scheduler is attached. Callable from any thread.
   *
   * @param code the event's status code
   * @param infos its infos
   */
  public void schedulerEvent(int code, List<Info> infos) {
    List<Info> copy = List.copyOf(infos);
    loop.execute(
        () -> {
          if (scheduler != null) {
            handle(new DvmEvent.SchedulerEvent(code, copy));
          }
        });
  }

  // ------------------------------------------------------------------ the core on the loop

  /** Feeds one event to the core and carries out its decisions; on the loop only. */
  private void handle(DvmEvent e) {
    if (closed) {
      return;
    }
    if (ledger != null && e instanceof DvmEvent.Request r) {
      ledger.requested(r.requestId());
    }
    execute(core.handle(e));
    if (!gone.isEmpty()) {
      nodesGone();
    }
    if (everyStep) {
      try {
        checkInvariants();
      } catch (AssertionError a) {
        broken++;
        LOG.error("invariant broken after {}: {}", e.getClass().getSimpleName(), a.getMessage());
      }
    }
  }

  /** How many checks of {@link Builder#checkedEveryStep()} failed; on the loop only. */
  public long invariantViolations() {
    return broken;
  }

  private void execute(List<DvmDecision> decisions) {
    if (ledger != null) {
      ledger.decided(decisions);
    }
    for (DvmDecision d : decisions) {
      execute(d);
    }
  }

  /**
   * The hosts whose daemons went in the event just handled and that are no longer the DVM's are
   * reported to the scheduler: nothing of the DVM runs there any more (D421).
   */
  private void nodesGone() {
    List<String> released = new ArrayList<>();
    for (String h : gone) {
      departing.remove(h);
      if (core.view().node(h).isEmpty() && !released.contains(h)) {
        released.add(h);
      }
    }
    gone.clear();
    SchedulerUpcalls s = scheduler;
    if (s != null && !released.isEmpty()) {
      LOG.info("nodes released: {} (their daemons are gone)", released);
      s.nodesReleased(List.copyOf(released));
    }
  }

  /**
   * The hosts whose daemons were told to stop and have not left yet (a shrink's, a rolled-back
   * grow's, a reclaimed session's); on the loop only.
   */
  public Set<String> departing() {
    return Set.copyOf(departing);
  }

  /**
   * Whether a second-phase event must wait for the answer to its requester's allocation request:
   * the phase-one answer comes first (spec/pmix/03 §5, D422); returns the request it waits for.
   */
  private Optional<Long> waitsFor(DvmDecision.Notify n) {
    int code = n.event().status();
    if ((code != PmixStatus.PMIX_DVM_IS_READY.code() && code != PmixStatus.PMIX_ERR_DVM_MOD.code())
        || n.event().target().isEmpty()
        || asks.isEmpty()) {
      return Optional.empty();
    }
    PmixProc target = n.event().target().get();
    Optional<String> reqId =
        n.event().infos().stream()
            .filter(i -> i.key().equals(PmixKey.PMIX_ALLOC_REQ_ID))
            .map(Info::stringValue)
            .findFirst();
    for (Map.Entry<Long, Ask> a : asks.entrySet()) {
      if (a.getValue().requester().equals(target) && a.getValue().reqId().equals(reqId)) {
        return Optional.of(a.getKey());
      }
    }
    return Optional.empty();
  }

  private void deliver(DvmDecision.Notify n) {
    for (long ref : n.handlers()) {
      DvmPort.EventHandler h = handlers.get(ref);
      if (h != null) {
        h.onEvent(n.event());
      }
    }
  }

  private void execute(DvmDecision d) {
    if (d instanceof DvmDecision.Answer a) {
      answer(a.requestId(), a.result());
    } else if (d instanceof DvmDecision.ToScheduler t) {
      upcall(t);
    } else if (d instanceof DvmDecision.ReadFile r) {
      readFile(r);
    } else if (d instanceof DvmDecision.StartDaemon s) {
      exec.startDaemon(s.host());
    } else if (d instanceof DvmDecision.StopDaemon s) {
      departing.add(s.host());
      exec.stopDaemon(s.host());
    } else if (d instanceof DvmDecision.LaunchJob j) {
      launch(j);
    } else if (d instanceof DvmDecision.SignalJob s) {
      exec.signal(s.nspace(), s.signal().number());
    } else if (d instanceof DvmDecision.Notify n) {
      Optional<Long> first = waitsFor(n);
      if (first.isPresent()) {
        afterAnswer.computeIfAbsent(first.get(), k -> new ArrayList<>()).add(n);
      } else {
        deliver(n);
      }
    } else if (d instanceof DvmDecision.ArmTimer t) {
      EventLoop.Cancellable old = timers.remove(t.timerId());
      if (old != null) {
        old.cancel();
      }
      timers.put(
          t.timerId(),
          loop.schedule(
              t.after(),
              () -> {
                if (timers.remove(t.timerId()) != null) {
                  handle(new DvmEvent.TimerFired(t.timerId()));
                }
              }));
    } else if (d instanceof DvmDecision.CancelTimer t) {
      EventLoop.Cancellable c = timers.remove(t.timerId());
      if (c != null) {
        c.cancel();
      }
    } else if (d instanceof DvmDecision.SessionCreated s) {
      LOG.info("session {} (alloc id {}) created on {}", s.sessionId(), s.allocId(), s.hosts());
    } else if (d instanceof DvmDecision.MapComplete m) {
      // elastic mode: LAUNCH_APPS is a turn of its own, so a size change may come first
      loop.execute(() -> handle(new DvmEvent.LaunchApps(m.nspace())));
    } else if (d instanceof DvmDecision.ShrinkComplete s) {
      LOG.info("shrink campaign {} complete: daemons left {}", s.campaignId(), s.hosts());
    } else if (d instanceof DvmDecision.SessionReclaimed s) {
      reclaimed.add(s.sessionId());
      LOG.info(
          "session {} (alloc id {}) reclaimed; {} {}",
          s.sessionId(),
          s.allocId(),
          s.hosts(),
          s.handedBack() ? "handed back to the scheduler" : "back in the pool");
    }
  }

  /** Largest file the DVM reads for a request ({@code PMIX_HOSTFILE}). */
  static final long MAX_FILE = 1 << 20;

  /**
   * Reads a file a request names (a hostfile); small, so on the loop; reported on the next turn.
   */
  private void readFile(DvmDecision.ReadFile r) {
    java.nio.file.Path p = java.nio.file.Path.of(r.path());
    Optional<String> content = Optional.empty();
    String error = "";
    try {
      if (java.nio.file.Files.size(p) > MAX_FILE) {
        error = r.path() + ": larger than " + MAX_FILE + " bytes";
      } else {
        content =
            Optional.of(java.nio.file.Files.readString(p, java.nio.charset.StandardCharsets.UTF_8));
      }
    } catch (java.io.IOException | java.io.UncheckedIOException e) {
      error = r.path() + ": cannot read (" + e.getMessage() + ")";
    }
    Optional<String> c = content;
    String err = error;
    loop.execute(() -> handle(new DvmEvent.FileRead(r.requestId(), r.path(), c, err)));
  }

  private void answer(long id, StatusInfos result) {
    Pending p = pending.remove(id);
    if (p == null) {
      LOG.error("request {}: answered twice or never asked (a core defect): {}", id, result);
      return;
    }
    answered++;
    if (p.handler() != null && result.succeeded()) {
      handlers.put(id, p.handler());
    }
    asks.remove(id);
    p.answer().complete(result);
    List<DvmDecision.Notify> next = afterAnswer.remove(id);
    if (next != null) {
      next.forEach(this::deliver);
    }
  }

  private void upcall(DvmDecision.ToScheduler t) {
    SchedulerUpcalls s = scheduler;
    if (s == null) {
      loop.execute(
          () ->
              handle(
                  new DvmEvent.SchedulerAnswered(
                      t.callId(), StatusInfos.of(PmixStatus.PMIX_ERR_UNREACH))));
      return;
    }
    CompletionStage<StatusInfos> c;
    if (t.call() instanceof DvmDecision.Allocate a) {
      c = s.allocate(a.requester(), a.directive(), a.infos());
    } else {
      DvmDecision.SessionControl sc = (DvmDecision.SessionControl) t.call();
      c = s.sessionControl(sc.requester(), sc.sessionId(), sc.directives());
    }
    c.whenComplete(
        (a, err) -> {
          StatusInfos ans =
              err == null && a != null ? a : StatusInfos.of(PmixStatus.PMIX_ERR_UNREACH);
          loop.execute(() -> handle(new DvmEvent.SchedulerAnswered(t.callId(), ans)));
        });
  }

  private void launch(DvmDecision.LaunchJob j) {
    List<ProcSpec> procs = new ArrayList<>();
    for (DvmDecision.Placement p : j.procs()) {
      App app = j.apps().get(p.app());
      List<String> argv = new ArrayList<>();
      argv.add(app.cmd());
      if (app.argv().size() > 1) {
        argv.addAll(app.argv().subList(1, app.argv().size()));
      }
      procs.add(
          new ProcSpec(
              p.host(), p.rank(), argv, ProcSpec.standardEnv(j.nspace(), p.rank(), p.host())));
    }
    jobSession.put(j.nspace(), j.sessionId());
    launchedAt.put(j.nspace(), loop.nanoTime());
    exec.launch(j.nspace(), procs);
  }

  /** The executor's reports, each fed to the core on the loop (they already arrive there). */
  private final class Reports implements ExecListener {
    @Override
    public void daemonUp(String host) {
      handle(new DvmEvent.DaemonStarted(host));
    }

    @Override
    public void daemonFailed(String host, String reason) {
      LOG.warn("daemon on {}: {}", host, reason);
      gone.add(host);
      handle(new DvmEvent.DaemonFailed(host, reason));
    }

    @Override
    public void daemonLeft(String host) {
      gone.add(host);
      handle(new DvmEvent.DaemonLeft(host));
    }

    @Override
    public void launched(String nspace) {
      handle(new DvmEvent.JobLaunched(nspace));
    }

    @Override
    public void launchFailed(String nspace, String reason) {
      handle(
          new DvmEvent.JobLaunchFailed(nspace, PmixStatus.PMIX_ERR_JOB_FAILED_TO_LAUNCH, reason));
    }

    @Override
    public void procExited(String nspace, long rank, int status, int termSignal) {
      LOG.info(
          "job {} rank {}: exited with status {}{}",
          nspace,
          rank,
          status,
          termSignal == 0 ? "" : " (signal " + termSignal + ")");
      handle(new DvmEvent.ProcExited(nspace, rank, status, termSignal));
    }
  }

  // ------------------------------------------------------------------ ports

  /** A port bound to one client and the daemon it reached. */
  private final class Port implements DvmPort {
    private final Client client;
    private final String via;
    private boolean gone;

    Port(Client client, String via) {
      this.client = client;
      this.via = via;
    }

    /** Queues a request to the core; completes with its answer (exactly one). */
    private CompletableFuture<StatusInfos> ask(
        Function<Long, DvmEvent> request, DvmPort.EventHandler handler) {
      CompletableFuture<StatusInfos> f = new CompletableFuture<>();
      loop.execute(
          () -> {
            if (closed || gone) {
              f.complete(StatusInfos.of(closed ? SHUTDOWN : PmixStatus.PMIX_ERR_UNREACH));
              return;
            }
            long id = nextRequest++;
            pending.put(id, new Pending(f, handler));
            handle(request.apply(id));
          });
      return f;
    }

    @Override
    public CompletionStage<StatusInfos> allocationRequest(
        AllocDirective directive, List<Info> infos) {
      Optional<String> reqId =
          infos.stream()
              .filter(i -> i.key().equals(PmixKey.PMIX_ALLOC_REQ_ID) && i.value() instanceof String)
              .map(Info::stringValue)
              .findFirst();
      return ask(
          id -> {
            asks.put(id, new Ask(client.proc(), reqId));
            return new DvmEvent.AllocationRequest(id, client, via, directive, infos);
          },
          null);
    }

    @Override
    public CompletionStage<StatusInfos> sessionControl(long sessionId, List<Info> directives) {
      return ask(id -> new DvmEvent.SessionControl(id, client, via, sessionId, directives), null);
    }

    @Override
    public CompletionStage<SpawnResult> spawn(List<App> apps, List<Info> jobInfos) {
      return ask(id -> new DvmEvent.Spawn(id, client, via, apps, jobInfos), null)
          .thenApply(
              a ->
                  a.succeeded()
                      ? new SpawnResult(PmixStatus.PMIX_SUCCESS, nspaceOf(a))
                      : new SpawnResult(a.status(), Optional.empty()));
    }

    @Override
    public CompletionStage<Registration> registerEvents(List<Integer> codes, EventHandler handler) {
      long[] ref = new long[1];
      return ask(
              id -> {
                ref[0] = id;
                return new DvmEvent.RegisterEvents(id, client, via, codes);
              },
              handler)
          .thenApply(a -> new Registration(a.status(), a.succeeded() ? ref[0] : 0));
    }

    @Override
    public CompletionStage<StatusInfos> deregisterEvents(long ref) {
      return ask(id -> new DvmEvent.DeregisterEvents(id, client, via, ref), null)
          .thenApply(
              a -> {
                if (a.succeeded()) {
                  loop.execute(() -> handlers.remove(ref));
                }
                return a;
              });
    }

    @Override
    public CompletionStage<StatusInfos> disconnect() {
      CompletableFuture<StatusInfos> f = new CompletableFuture<>();
      loop.execute(
          () -> {
            if (!gone && !closed) {
              gone = true;
              if (this == schedulerPort) {
                schedulerPort = null;
                scheduler = null;
                LOG.info("scheduler {} detached", client.proc().nspace());
                handle(new DvmEvent.SchedulerDetached());
              } else {
                handle(new DvmEvent.ClientGone(client.proc()));
              }
            }
            f.complete(StatusInfos.of(PmixStatus.PMIX_SUCCESS));
          });
      return f;
    }
  }

  private static Optional<String> nspaceOf(StatusInfos a) {
    return a.infos().stream()
        .filter(i -> i.key().equals(PmixKey.PMIX_NSPACE))
        .map(Info::stringValue)
        .findFirst();
  }

  // ------------------------------------------------------------------ views and checks

  /** The core's state; on the loop only. */
  public DvmView view() {
    return core.view();
  }

  /** The executor; on the loop only (tests read the simulated one's state). */
  public Executor executor() {
    return exec;
  }

  /** The loop the service runs on. */
  public EventLoop loop() {
    return loop;
  }

  /** How many requests were answered; on the loop only. */
  public long answered() {
    return answered;
  }

  /** How many requests wait for their answer; on the loop only. */
  public int pendingRequests() {
    return pending.size();
  }

  /**
   * The service's own invariants, beyond the core's: no proc of a reclaimed session is alive (the
   * executor's live procs, and in real mode the operating system's pids), and no request waits on a
   * future the core does not know as pending. On the loop only.
   *
   * @throws AssertionError naming what is broken
   */
  public void checkInvariants() {
    for (Map.Entry<String, Map<Long, Long>> e : exec.livePids().entrySet()) {
      Long sid = jobSession.get(e.getKey());
      if (sid != null && reclaimed.contains(sid)) {
        throw new AssertionError(
            "job "
                + e.getKey()
                + " of reclaimed session "
                + sid
                + ": pids "
                + e.getValue()
                + " alive");
      }
      for (long pid : e.getValue().values()) {
        if (sid != null
            && reclaimed.contains(sid)
            && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
          throw new AssertionError("pid " + pid + " of reclaimed session " + sid + " alive");
        }
      }
    }
    for (String ns : jobSession.keySet()) {
      Long sid = jobSession.get(ns);
      if (reclaimed.contains(sid) && !exec.liveRanks(ns).isEmpty()) {
        throw new AssertionError(
            "job "
                + ns
                + " of reclaimed session "
                + sid
                + ": ranks "
                + exec.liveRanks(ns)
                + " alive");
      }
    }
    int inFlight = core.view().pendingRequests().size();
    // once closed, the service answered what the core still tracks (PMIX_ERR_UNREACH)
    if (!closed && inFlight != pending.size()) {
      throw new AssertionError(
          pending.size() + " request(s) wait for an answer but the core tracks " + inFlight);
    }
  }

  /**
   * Stops: answers every request still waiting with {@code PMIX_ERR_UNREACH}, cancels the timers
   * and kills every proc. On the loop.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    timers.values().forEach(EventLoop.Cancellable::cancel);
    timers.clear();
    exec.close();
    for (Pending p : List.copyOf(pending.values())) {
      p.answer().complete(StatusInfos.of(SHUTDOWN));
    }
    pending.clear();
  }
}
