package io.fluxdrm.dvm.core;

import io.fluxdrm.dvm.core.DvmDecision.Answer;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.pmix.request.AllocationAnswer;
import io.fluxdrm.pmix.request.InfoWriter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The reference DVM as a pure function of events: {@link #handle} takes one {@link DvmEvent},
 * updates the model (nodes, daemons, sessions, jobs, requests in flight) and returns the {@link
 * DvmDecision}s a service carries out. It reads no clock (time limits are timers the service arms),
 * opens no socket and starts no thread. Every request gets exactly one {@link Answer}; a request
 * refused for its content changes nothing.
 *
 * <p>Rules: PRRTE §7.4.4 Session Control (session control: who answers, each directive, lifetime,
 * inheritance, refusals), PRRTE §7.4.3 Flow-of-Control (allocation requests go to the scheduler and
 * back, ACTIVATE answered here, allocation on spawn), PRRTE PR #1904 (sessions own nodes, jobs and
 * child sessions; PMIX_ALLOC_ID is the decimal session id; the default session's nodes are the
 * pool; jobs spawn into their own session or a child session; child jobs end with their parent
 * unless PMIX_NOHUP), and the error table of PRRTE node-reservation spec. Where PRRTE's code and
 * its documentation disagree the documentation wins (D12); each such place is listed in
 * dvm/DIFFERENCES.md.
 *
 * <p>Where each concern lives (decision D522): every part reads and changes one shared {@link
 * DvmModel} (nodes, sessions, jobs, their indexes, the id counters and the decisions being built);
 * this class keeps the dispatch of events and requests, the relay check and the scheduler's
 * answers; {@link SessionControl} the session directives, {@link JobControl} the job life cycle
 * over the pure {@link Mapper}, {@link Reclaim} reclaim and inheritance, {@link Daemons} the
 * daemons' comings and goings, {@link Campaigns} the elastic campaigns, the launch fence and the
 * held jobs, {@link Allocations} the allocation requests, {@link Activation} ACTIVATE and {@link
 * Spawns} spawns with their allocations; parsing lives in {@link SessionDirectives} and {@link
 * io.fluxdrm.pmix.request.NodeList}, the model records in {@link NodeRec}, {@link SessionRec} and
 * {@link JobRec}.
 *
 * <p>Not thread-safe: one thread (the service's reactor) owns a core.
 */
public final class DvmCore {
  private final DvmModel m;
  final SessionControl sessionControl;
  final JobControl jobControl;
  final Reclaim reclaim;
  final Daemons daemons;
  final Campaigns campaigns;
  final Allocations allocations;
  final Activation activation;
  final Spawns spawns;

  private DvmCore(DvmConfig config) {
    this.m = new DvmModel(config);
    this.sessionControl = new SessionControl(m, this);
    this.jobControl = new JobControl(m, this);
    this.reclaim = new Reclaim(m, this);
    this.daemons = new Daemons(m, this);
    this.campaigns = new Campaigns(m, this);
    this.allocations = new Allocations(m, this);
    this.activation = new Activation(m, this);
    this.spawns = new Spawns(m, this);
  }

  /**
   * A core over {@code config}'s nodes, all in the default session, no daemon started yet.
   *
   * @param config the configuration
   * @return the core
   */
  public static DvmCore of(DvmConfig config) {
    return new DvmCore(config);
  }

  /** The configuration. */
  public DvmConfig config() {
    return m.config;
  }

  /**
   * Starts the DVM: a daemon on every node of the initial allocation that gets one (the master's
   * first). Only the first call decides anything.
   *
   * @return the decisions
   */
  public List<DvmDecision> start() {
    m.out = new ArrayList<>();
    if (!m.started) {
      NodeRec master = m.nodes.get(m.config.master());
      m.startDaemon(master);
      for (DvmConfig.NodeSpec n : m.config.nodes()) {
        if (n.daemon() && !n.host().equals(m.config.master())) {
          m.startDaemon(m.nodes.get(n.host()));
        }
      }
      m.started = true;
    }
    return m.out;
  }

  /**
   * Handles one event.
   *
   * @param event the event
   * @return the decisions, in the order to carry them out
   * @throws IllegalArgumentException for a request whose id is already in flight (a service bug,
   *     not bad input)
   */
  public List<DvmDecision> handle(DvmEvent event) {
    m.out = new ArrayList<>();
    if (event instanceof DvmEvent.Request r) {
      onRequest(r);
    } else if (event instanceof DvmEvent.DaemonStarted e) {
      daemons.onDaemonStarted(e.host());
    } else if (event instanceof DvmEvent.DaemonFailed e) {
      daemons.onDaemonGone(e.host(), true, e.reason());
    } else if (event instanceof DvmEvent.DaemonLeft e) {
      daemons.onDaemonGone(e.host(), false, "left");
    } else if (event instanceof DvmEvent.StopNotSent e) {
      daemons.onStopNotSent(e.host(), e.cause());
    } else if (event instanceof DvmEvent.JobLaunched e) {
      jobControl.onJobLaunched(e.nspace());
    } else if (event instanceof DvmEvent.JobLaunchFailed e) {
      jobControl.onJobLaunchFailed(e.nspace(), e.status(), e.reason());
    } else if (event instanceof DvmEvent.ProcExited e) {
      jobControl.onProcExited(e);
    } else if (event instanceof DvmEvent.TimerFired e) {
      jobControl.onTimer(e.timerId());
    } else if (event instanceof DvmEvent.SchedulerAttached e) {
      if (m.scheduler != null && !m.scheduler.proc().equals(e.scheduler().proc())) {
        onSchedulerDetached(); // another scheduler: the first one's calls will not be answered
      }
      m.scheduler = e.scheduler();
    } else if (event instanceof DvmEvent.SchedulerDetached) {
      onSchedulerDetached();
    } else if (event instanceof DvmEvent.SchedulerAnswered e) {
      onSchedulerAnswered(e.callId(), e.answer());
    } else if (event instanceof DvmEvent.ClientGone e) {
      onClientGone(e.proc());
    } else if (event instanceof DvmEvent.FileRead e) {
      activation.onFileRead(e);
    } else if (event instanceof DvmEvent.SchedulerEvent e) {
      onSchedulerEvent(e);
    } else if (event instanceof DvmEvent.LaunchApps e) {
      jobControl.onLaunchApps(e.nspace());
    }
    campaigns.openCampaigns();
    retryStartingDone();
    return m.out;
  }

  /**
   * The jobs waiting for the starting daemons of a session that has none left try to map again
   * (after the event's campaigns are open, so that in elastic mode they are parked at the map
   * boundary while one is, PRRTE elastic-DVM spec, job states, and mapped once the fence is 0).
   */
  private void retryStartingDone() {
    if (m.startingDone.isEmpty()) {
      return;
    }
    List<SessionRec> done = new ArrayList<>(m.startingDone);
    m.startingDone.clear();
    for (JobRec j : new ArrayList<>(m.waitingJobs)) {
      if (done.contains(j.session)) {
        jobControl.tryLaunch(j);
      }
    }
  }

  /** The read-only view of the state. */
  public DvmView view() {
    return new CoreView(m);
  }

  private void onRequest(DvmEvent.Request r) {
    if (m.pending.containsKey(r.requestId())) {
      throw new IllegalArgumentException(
          "request " + r.requestId() + " is already in flight (expected: a fresh request id)");
    }
    try {
      relay(r);
      int size = size(r);
      if (size > m.config.maxInfos()) {
        throw Refused.badParam(
            "request: "
                + size
                + " info entries (expected: at most "
                + m.config.maxInfos()
                + ", nested entries included)");
      }
      if (r instanceof DvmEvent.SessionControl s) {
        sessionControl.sessionControl(s);
      } else if (r instanceof DvmEvent.AllocationRequest a) {
        allocations.allocationRequest(a);
      } else if (r instanceof DvmEvent.Spawn s) {
        spawns.spawn(s);
      } else if (r instanceof DvmEvent.RegisterEvents g) {
        m.registrations.put(
            g.requestId(), new Registration(g.from().proc(), new LinkedHashSet<>(g.codes())));
        m.answer(g.requestId(), PmixStatus.PMIX_SUCCESS, List.of());
      } else if (r instanceof DvmEvent.DeregisterEvents d) {
        Registration reg = m.registrations.get(d.ref());
        if (reg == null || !reg.proc().equals(d.from().proc())) {
          throw Refused.notFound("event handler " + d.ref() + ": not registered by this client");
        }
        m.registrations.remove(d.ref());
        m.answer(d.requestId(), PmixStatus.PMIX_SUCCESS, List.of());
      }
    } catch (Refused e) {
      m.refuse(r.requestId(), e, ctrlIdOf(r));
    }
  }

  /**
   * PRRTE §7.4.4.1 "Who answers a request": a request that arrived at a non-master daemon is
   * relayed by that daemon to the master, which decides it by the same rules as one that arrived
   * directly (the caller gets the same answer whichever daemon it is attached to). The relay needs
   * a daemon to relay it: one that is not up (never started, still starting, leaving, failed) or a
   * host that is no node of the DVM cannot, and the request is refused with {@code
   * PMIX_ERR_UNREACH}, nothing changed.
   */
  private void relay(DvmEvent.Request r) {
    String via = r.via();
    if (via.equals(m.config.master())) {
      return;
    }
    NodeRec n = m.nodes.get(via);
    if (n == null || n.daemon != DaemonState.UP) {
      throw new Refused(
          PmixStatus.PMIX_ERR_UNREACH,
          "request via "
              + via
              + ": "
              + (n == null
                  ? "no node of this DVM"
                  : "its daemon is " + n.daemon.name().toLowerCase(java.util.Locale.ROOT))
              + ", so it cannot relay the request to the master "
              + m.config.master()
              + " (expected: a node whose daemon is up)");
    }
  }

  private static Optional<String> ctrlIdOf(DvmEvent.Request r) {
    if (r instanceof DvmEvent.SessionControl s) {
      return io.fluxdrm.pmix.request.SessionControl.ctrlIdOf(s.directives());
    }
    return Optional.empty();
  }

  private static int size(DvmEvent.Request r) {
    if (r instanceof DvmEvent.SessionControl s) {
      return count(s.directives());
    }
    if (r instanceof DvmEvent.AllocationRequest a) {
      return count(a.infos());
    }
    if (r instanceof DvmEvent.Spawn s) {
      int n = count(s.jobInfos());
      for (App a : s.apps()) {
        n += 1 + count(a.infos());
      }
      return n;
    }
    if (r instanceof DvmEvent.RegisterEvents g) {
      return g.codes().size();
    }
    return 0;
  }

  private static int count(List<Info> infos) {
    int n = 0;
    for (Info i : infos) {
      n++;
      if (i.isInfoArray()) {
        n += count(i.infosValue());
      } else if (i.isAppArray()) {
        for (App a : i.appsValue()) {
          n += 1 + count(a.infos());
        }
      }
    }
    return n;
  }

  private void onClientGone(PmixProc proc) {
    m.registrations.values().removeIf(r -> r.proc().equals(proc));
    if (m.scheduler != null && m.scheduler.proc().equals(proc)) {
      onSchedulerDetached();
      return;
    }
    if (!m.jobs.containsKey(proc.nspace())) {
      // a tool's end (PMIX_CAP_TOOL_FINALIZED); a job's end is its last process's exit
      reclaim.ownerEnded(proc.nspace());
    }
  }

  private void onSchedulerDetached() {
    m.scheduler = null;
    for (Map.Entry<Long, Call> e : new ArrayList<>(m.calls.entrySet())) {
      Call c = e.getValue();
      m.calls.remove(e.getKey());
      if (c.requestId() >= 0 && m.pending.containsKey(c.requestId())) {
        Pending p = m.pending.get(c.requestId());
        if (c.spawnAlloc()) {
          m.refuse(
              c.requestId(),
              PmixStatus.PMIX_ERR_JOB_ALLOC_FAILED,
              "spawn: the scheduler went away before answering its allocation");
        } else {
          m.refuse(
              c.requestId(),
              PmixStatus.PMIX_ERR_UNREACH,
              p.what + ": the scheduler went away before answering");
        }
      }
    }
  }

  private void onSchedulerAnswered(long callId, StatusInfos answer) {
    Call c = m.calls.remove(callId);
    if (c == null || c.requestId() < 0) {
      return;
    }
    Pending p = m.pending.get(c.requestId());
    if (p == null) {
      return;
    }
    if (c.spawnAlloc()) {
      spawns.spawnAllocAnswered((DvmEvent.Spawn) p.request, answer);
      return;
    }
    if (p.request instanceof DvmEvent.AllocationRequest a
        && a.directive() == AllocDirective.RELEASE
        && answer.succeeded()) {
      // PRRTE §7.4.3 Flow-of-Control: a granted RELEASE is completed on the scheduler's answer; its
      // PMIX_ALLOC_NODE_LIST names the nodes to shrink out, for the requester (decision D420)
      try {
        allocations.releaseGranted(a.from(), answer.infos());
      } catch (Refused e) {
        m.refuse(c.requestId(), e, Optional.empty());
        return;
      }
    }
    // PRRTE §7.4.3 Flow-of-Control: the scheduler's answer goes back to the requester as it is
    m.answer(c.requestId(), answer.status(), answer.infos());
  }

  /**
   * A timeout warning from the scheduler is relayed to the allocation's requester only, with
   * ALLOC_ID, REQ_ID (if any) and TIME_REMAINING; it changes nothing (PRRTE node-reservation spec
   * guarantee 6, B23).
   */
  private void onSchedulerEvent(DvmEvent.SchedulerEvent e) {
    if (m.scheduler == null || e.code() != PmixStatus.PMIX_ALLOC_TIMEOUT_WARNING.code()) {
      return;
    }
    SessionRec s = AllocationAnswer.allocIdOf(e.infos()).map(m.byAllocId::get).orElse(null);
    Info remaining = null;
    for (Info i : e.infos()) {
      if (i.key().equals(PmixKey.PMIX_TIME_REMAINING)) {
        remaining = i;
      }
    }
    if (s == null || s.requestor == null) {
      return;
    }
    InfoWriter infos = InfoWriter.create().allocId(s.allocId).reqId(s.reqId);
    if (remaining != null) {
      infos.info(remaining);
    }
    m.notify(e.code(), infos.infos(), s.requestor);
  }

  /**
   * {@link Mapper#firstFit}, for the core's tests.
   *
   * @return how many were placed
   */
  static int firstFit(
      Iterable<NodeRec> order,
      int np,
      boolean byNode,
      int app,
      List<NodeRec> placedOn,
      List<DvmDecision.Placement> placements) {
    return Mapper.firstFit(order, np, byNode, app, placedOn, placements);
  }

  /**
   * Where the free-slot index of a session differs from a plain scan of its nodes (decision D416):
   * for the core's tests, which check it after every step. Empty when the index is right.
   *
   * @return one line per difference
   */
  List<String> indexProblems() {
    return m.indexProblems();
  }
}
