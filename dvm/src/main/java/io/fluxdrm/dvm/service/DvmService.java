package io.fluxdrm.dvm.service;

import io.fluxdrm.dvm.core.DvmConfig;
import io.fluxdrm.dvm.core.DvmCore;
import io.fluxdrm.dvm.core.DvmEvent;
import io.fluxdrm.dvm.core.DvmInvariants;
import io.fluxdrm.dvm.core.DvmView;
import io.fluxdrm.dvm.exec.DaemonPolicy;
import io.fluxdrm.dvm.exec.ExecListener;
import io.fluxdrm.dvm.exec.Executor;
import io.fluxdrm.dvm.exec.LocalExecutor;
import io.fluxdrm.dvm.exec.ProcSpec;
import io.fluxdrm.dvm.exec.SimulatedExecutor;
import io.fluxdrm.dvm.service.ServiceState.PendingAnswer;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.port.DvmConnector;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.SchedulerUpcalls;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.rpc.reactor.EventLoop;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
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
 * <p>Its parts (decision D523): the state they share is a {@link ServiceState}; {@link Effects}
 * carries out the decisions, {@link ServicePort} is a client's port, {@link ExecReports} feeds the
 * executor's reports back. Every input still enters through {@link #handle} on the loop.
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

  private final DvmCore core;
  private final DvmInvariants ledger;
  private final boolean everyStep;
  private long broken;

  /** What the parts share. */
  final ServiceState st;

  private final Effects effects;

  private DvmService(
      DvmConfig config,
      EventLoop loop,
      Mode mode,
      DaemonPolicy daemons,
      Predicate<ProcSpec> launchFails,
      boolean checked,
      boolean everyStep) {
    this.everyStep = everyStep;
    this.core = DvmCore.of(config);
    this.ledger = checked ? new DvmInvariants() : null;
    ExecListener l = new ExecReports(this);
    this.st =
        new ServiceState(
            loop,
            mode == Mode.REAL
                ? new LocalExecutor(loop, daemons, l)
                : new SimulatedExecutor(loop, daemons, l, launchFails));
    this.effects = new Effects(st, this, ledger);
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
    effects.execute(core.start());
  }

  // ------------------------------------------------------------------ connector

  @Override
  public CompletionStage<DvmPort> connect(Client client, String host) {
    CompletableFuture<DvmPort> f = new CompletableFuture<>();
    st.loop.execute(
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
            f.complete(new ServicePort(st, this, client, host));
          }
        });
    return f;
  }

  @Override
  public CompletionStage<DvmPort> attachScheduler(Client scheduler, SchedulerUpcalls upcalls) {
    CompletableFuture<DvmPort> f = new CompletableFuture<>();
    st.loop.execute(
        () -> {
          if (st.scheduler != null) {
            f.completeExceptionally(
                new IllegalStateException(
                    "scheduler "
                        + scheduler.proc().nspace()
                        + ": another scheduler is attached (expected: one at a time)"));
            return;
          }
          st.scheduler = upcalls;
          ServicePort p = new ServicePort(st, this, scheduler, core.view().master());
          st.schedulerPort = p;
          LOG.info("scheduler {} attached", scheduler.proc().nspace());
          handle(new DvmEvent.SchedulerAttached(scheduler));
          f.complete(p);
        });
    return f;
  }

  /**
   * An event the attached scheduler raises toward the DVM ({@code PMIx_Notify_event} from the
   * scheduler: {@code PMIX_ALLOC_TIMEOUT_WARNING} with {@code PMIX_ALLOC_ID} and {@code
   * PMIX_TIME_REMAINING}), which the core relays to the allocation's requester only (PRRTE
   * node-reservation-spec guarantee 6, B23). Ignored when no scheduler is attached. Callable from
   * any thread.
   *
   * @param code the event's status code
   * @param infos its infos
   */
  public void schedulerEvent(int code, List<Info> infos) {
    List<Info> copy = List.copyOf(infos);
    st.loop.execute(
        () -> {
          if (st.scheduler != null) {
            handle(new DvmEvent.SchedulerEvent(code, copy));
          }
        });
  }

  // ------------------------------------------------------------------ the core on the loop

  /** Feeds one event to the core and carries out its decisions; on the loop only. */
  void handle(DvmEvent e) {
    if (st.closed) {
      return;
    }
    if (ledger != null && e instanceof DvmEvent.Request r) {
      ledger.requested(r.requestId());
    }
    effects.execute(core.handle(e));
    if (!st.gone.isEmpty()) {
      effects.nodesGone();
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

  /**
   * The hosts whose daemons were told to stop and have not left yet (a shrink's, a rolled-back
   * grow's, a reclaimed session's); on the loop only.
   */
  public Set<String> departing() {
    return Set.copyOf(st.departing);
  }

  // ------------------------------------------------------------------ views and checks

  /** The core's state; on the loop only. */
  public DvmView view() {
    return core.view();
  }

  /** The executor; on the loop only (tests read the simulated one's state). */
  public Executor executor() {
    return st.exec;
  }

  /** The loop the service runs on. */
  public EventLoop loop() {
    return st.loop;
  }

  /** How many requests were answered; on the loop only. */
  public long answered() {
    return st.answered;
  }

  /** How many requests wait for their answer; on the loop only. */
  public int pendingRequests() {
    return st.pending.size();
  }

  /**
   * The service's own invariants, beyond the core's: no proc of a reclaimed session is alive (the
   * executor's live procs, and in real mode the operating system's pids), and no request waits on a
   * future the core does not know as pending. On the loop only.
   *
   * @throws AssertionError naming what is broken
   */
  public void checkInvariants() {
    for (Map.Entry<String, Map<Long, Long>> e : st.exec.livePids().entrySet()) {
      Long sid = st.jobSession.get(e.getKey());
      if (sid != null && st.reclaimed.contains(sid)) {
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
            && st.reclaimed.contains(sid)
            && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
          throw new AssertionError("pid " + pid + " of reclaimed session " + sid + " alive");
        }
      }
    }
    for (String ns : st.jobSession.keySet()) {
      Long sid = st.jobSession.get(ns);
      if (st.reclaimed.contains(sid) && !st.exec.liveRanks(ns).isEmpty()) {
        throw new AssertionError(
            "job "
                + ns
                + " of reclaimed session "
                + sid
                + ": ranks "
                + st.exec.liveRanks(ns)
                + " alive");
      }
    }
    int inFlight = core.view().pendingRequests().size();
    // once closed, the service answered what the core still tracks (PMIX_ERR_UNREACH)
    if (!st.closed && inFlight != st.pending.size()) {
      throw new AssertionError(
          st.pending.size() + " request(s) wait for an answer but the core tracks " + inFlight);
    }
  }

  /**
   * Stops: answers every request still waiting with {@code PMIX_ERR_UNREACH}, cancels the timers
   * and kills every proc. On the loop.
   */
  @Override
  public void close() {
    if (st.closed) {
      return;
    }
    st.closed = true;
    st.timers.values().forEach(EventLoop.Cancellable::cancel);
    st.timers.clear();
    st.exec.close();
    for (PendingAnswer p : List.copyOf(st.pending.values())) {
      p.answer().complete(StatusInfos.of(SHUTDOWN));
    }
    st.pending.clear();
  }
}
