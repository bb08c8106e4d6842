package io.fluxdrm.dvm.core;

import io.fluxdrm.dvm.core.DvmDecision.Answer;
import io.fluxdrm.dvm.core.DvmView.JobState;
import io.fluxdrm.dvm.core.DvmView.SessionFlag;
import io.fluxdrm.dvm.core.DvmView.Waiting;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.AllocInheritance;
import io.fluxdrm.pmix.AllocTime;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixDataType;
import io.fluxdrm.pmix.PmixException;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.port.Event;
import io.fluxdrm.pmix.port.StatusInfos;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

/**
 * The reference DVM as a pure function of events: {@link #handle} takes one {@link DvmEvent},
 * updates the model (nodes, daemons, sessions, jobs, requests in flight) and returns the {@link
 * DvmDecision}s a service carries out. It reads no clock (time limits are timers the service arms),
 * opens no socket and starts no thread. Every request gets exactly one {@link Answer}; a request
 * refused for its content changes nothing.
 *
 * <p>Rules: seed 000 (session control: who answers, each directive, lifetime, inheritance,
 * refusals), seed 001 (allocation requests go to the scheduler and back, ACTIVATE answered here,
 * allocation on spawn), seed 002 (sessions own nodes, jobs and child sessions; PMIX_ALLOC_ID is the
 * decimal session id; the default session's nodes are the pool; jobs spawn into their own session
 * or a child session; child jobs end with their parent unless PMIX_NOHUP), and the error table of
 * spec/pmix/03 §8. Where PRRTE's code and the seeds disagree the seeds win (D12); each such place
 * is listed in dvm/DIFFERENCES.md.
 *
 * <p>Why one class: every request reads and changes the same graph of nodes, sessions and jobs (a
 * terminate signals jobs, whose last exit reclaims the session, whose reclaim moves nodes and sends
 * COMPLETE, which may end an owner's reservations), so the handlers share private state that split
 * apart would have to be exposed; parsing lives in {@link SessionDirectives} and {@link NodeList},
 * the model records in {@link NodeRec}, {@link SessionRec} and {@link JobRec}.
 *
 * <p>Not thread-safe: one thread (the service's reactor) owns a core.
 */
public final class DvmCore {
  private static final long UINT32_MAX = 0xFFFF_FFFFL;

  private final DvmConfig config;
  private final PmixProc self;
  private final LinkedHashMap<String, NodeRec> nodes = new LinkedHashMap<>();

  /** Handed-back nodes whose daemon has not left yet: in neither the pool nor a session. */
  private final LinkedHashMap<String, NodeRec> leaving = new LinkedHashMap<>();

  private final SessionRec dflt;
  private final TreeMap<Long, SessionRec> sessions = new TreeMap<>(Long::compareUnsigned);
  private final Map<String, SessionRec> byAllocId = new HashMap<>();
  private final LinkedHashMap<String, JobRec> jobs = new LinkedHashMap<>();
  private final LinkedHashMap<Long, Pending> pending = new LinkedHashMap<>();
  private final Map<Long, Call> calls = new HashMap<>();
  private final Map<Long, Timer> timers = new HashMap<>();
  private final LinkedHashMap<Long, Registration> registrations = new LinkedHashMap<>();

  /** Live jobs by the namespace that spawned them (kept until each retires). */
  private final Map<String, LinkedHashSet<JobRec>> childrenOf = new HashMap<>();

  /** Sessions by owner namespace. */
  private final Map<String, LinkedHashSet<SessionRec>> ownedBy = new HashMap<>();

  /** Sessions whose owner is gone, waiting for its descendants (CHILD, CHILD_DEFAULT). */
  private final LinkedHashSet<SessionRec> subtreeWaiting = new LinkedHashSet<>();

  /** How many live jobs descend from each namespace (spawned by it or its descendants). */
  private final Map<String, Integer> liveDescendants = new HashMap<>();

  /** Jobs waiting for daemons. */
  private final LinkedHashSet<JobRec> waitingJobs = new LinkedHashSet<>();

  private Client scheduler;
  private boolean started;
  private long nextCall = 1;
  private long nextTimer = 1;
  private long nextJob = 1;
  private long nextSession = 1;

  /** The decisions of the event being handled. */
  private List<DvmDecision> out = new ArrayList<>();

  private static final class Pending {
    final DvmEvent.Request request;
    final String what;
    Waiting waiting;

    /** Files an activation still waits for, with the text of those read. */
    LinkedHashMap<String, String> files;

    Pending(DvmEvent.Request request, String what, Waiting waiting) {
      this.request = request;
      this.what = what;
      this.waiting = waiting;
    }
  }

  /** A call to the scheduler: a forwarded request, a spawn's allocation, or a notice. */
  private record Call(long requestId, boolean spawnAlloc) {}

  /** A timer: a session's time limit or a job's kill grace. */
  private record Timer(SessionRec session, JobRec job) {}

  private record Registration(PmixProc proc, Set<Integer> codes) {}

  /** Who waits for a campaign's second-phase event (seed 003 "two-phase", D12). */
  private record Requester(PmixProc proc, Optional<String> allocId, Optional<String> reqId) {}

  /**
   * A grow or shrink campaign of the elastic DVM (seed 003, spec/pmix/03 §4): the exact daemon
   * ranks it launches or removes, those not yet up (grow) or not yet departed (shrink), every
   * distinct requester, and its contribution to the launch fence (its target count).
   */
  private static final class Campaign {
    final long id;
    final boolean grow;
    final LinkedHashMap<Long, NodeRec> targets = new LinkedHashMap<>();
    final LinkedHashSet<Long> pending = new LinkedHashSet<>();
    final List<Requester> requesters = new ArrayList<>();
    int contribution;

    /** A shrink a stop of which could not be sent: the cause its requesters hear (D415). */
    PmixStatus failure;

    Campaign(long id, boolean grow) {
      this.id = id;
      this.grow = grow;
    }

    void addRequester(Requester r) {
      // spec/pmix/03 §4: every distinct requester among the targets
      if (!requesters.contains(r)) {
        requesters.add(r);
      }
    }
  }

  // ---------------------------------------------------------------- elastic state (seed 003)

  /** The launch fence: the sum of the open campaigns' contributions (spec/pmix/03 §4). */
  private int fence;

  private long nextCampaign = 1;
  private long nextRank;

  /** Open campaigns by id, oldest first. */
  private final LinkedHashMap<Long, Campaign> open = new LinkedHashMap<>();

  /** Campaigns by target daemon rank. */
  private final Map<Long, Campaign> campaignOf = new HashMap<>();

  /** Jobs parked at the map boundary (VM_READY → MAP). */
  private final LinkedHashSet<JobRec> heldAtMap = new LinkedHashSet<>();

  /** Jobs parked at the launch boundary (LAUNCH_APPS), their map kept. */
  private final LinkedHashSet<JobRec> heldAtLaunch = new LinkedHashSet<>();

  /** Releases that arrived while a grow was open, replayed once no grow is (B14, D24, D402). */
  private final List<DvmEvent.AllocationRequest> deferredReleases = new ArrayList<>();

  /** Daemons started by the event being handled, not yet in a campaign. */
  private final List<NodeRec> unclaimedStarts = new ArrayList<>();

  /** Daemons stopped by the event being handled, not yet in a campaign. */
  private final List<NodeRec> unclaimedStops = new ArrayList<>();

  private DvmCore(DvmConfig config) {
    this.config = config;
    this.self = config.dvmProc();
    this.dflt = new SessionRec(DvmView.DEFAULT_SESSION, "", Optional.empty());
    for (DvmConfig.NodeSpec n : config.nodes()) {
      NodeRec r = new NodeRec(n.host(), n.slots(), DaemonState.NONE, dflt);
      nodes.put(n.host(), r);
      dflt.addNode(r);
    }
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
    return config;
  }

  /**
   * Starts the DVM: a daemon on every node of the initial allocation that gets one (the master's
   * first). Only the first call decides anything.
   *
   * @return the decisions
   */
  public List<DvmDecision> start() {
    out = new ArrayList<>();
    if (!started) {
      NodeRec master = nodes.get(config.master());
      startDaemon(master);
      for (DvmConfig.NodeSpec n : config.nodes()) {
        if (n.daemon() && !n.host().equals(config.master())) {
          startDaemon(nodes.get(n.host()));
        }
      }
      started = true;
    }
    return out;
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
    out = new ArrayList<>();
    if (event instanceof DvmEvent.Request r) {
      onRequest(r);
    } else if (event instanceof DvmEvent.DaemonStarted e) {
      onDaemonStarted(e.host());
    } else if (event instanceof DvmEvent.DaemonFailed e) {
      onDaemonGone(e.host(), true, e.reason());
    } else if (event instanceof DvmEvent.DaemonLeft e) {
      onDaemonGone(e.host(), false, "left");
    } else if (event instanceof DvmEvent.StopNotSent e) {
      onStopNotSent(e.host(), e.cause());
    } else if (event instanceof DvmEvent.JobLaunched e) {
      onJobLaunched(e.nspace());
    } else if (event instanceof DvmEvent.JobLaunchFailed e) {
      onJobLaunchFailed(e.nspace(), e.status(), e.reason());
    } else if (event instanceof DvmEvent.ProcExited e) {
      onProcExited(e);
    } else if (event instanceof DvmEvent.TimerFired e) {
      onTimer(e.timerId());
    } else if (event instanceof DvmEvent.SchedulerAttached e) {
      if (scheduler != null && !scheduler.proc().equals(e.scheduler().proc())) {
        onSchedulerDetached(); // another scheduler: the first one's calls will not be answered
      }
      scheduler = e.scheduler();
    } else if (event instanceof DvmEvent.SchedulerDetached) {
      onSchedulerDetached();
    } else if (event instanceof DvmEvent.SchedulerAnswered e) {
      onSchedulerAnswered(e.callId(), e.answer());
    } else if (event instanceof DvmEvent.ClientGone e) {
      onClientGone(e.proc());
    } else if (event instanceof DvmEvent.FileRead e) {
      onFileRead(e);
    } else if (event instanceof DvmEvent.SchedulerEvent e) {
      onSchedulerEvent(e);
    } else if (event instanceof DvmEvent.LaunchApps e) {
      onLaunchApps(e.nspace());
    }
    openCampaigns();
    retryStartingDone();
    return out;
  }

  /** Sessions that lost their last starting daemon during the event being handled. */
  private final Set<SessionRec> startingDone = new java.util.HashSet<>();

  /**
   * Takes {@code n} out of {@code s}; when it was the last node of {@code s} whose daemon was still
   * starting, the jobs of {@code s} waiting for daemons are tried again at the end of the event: a
   * daemon that leaves before it ever came up (a release, a rollback, a reclaim) is no longer
   * waited for.
   */
  private void takeOut(SessionRec s, NodeRec n) {
    int before = s.starting;
    s.removeNode(n);
    if (before > 0 && s.starting == 0) {
      startingDone.add(s);
    }
  }

  /**
   * The jobs waiting for the starting daemons of a session that has none left try to map again
   * (after the event's campaigns are open, so that in elastic mode they are parked at the map
   * boundary while one is, spec/pmix/03 §3, and mapped once the fence is 0).
   */
  private void retryStartingDone() {
    if (startingDone.isEmpty()) {
      return;
    }
    List<SessionRec> done = new ArrayList<>(startingDone);
    startingDone.clear();
    for (JobRec j : new ArrayList<>(waitingJobs)) {
      if (done.contains(j.session)) {
        tryLaunch(j);
      }
    }
  }

  /** The read-only view of the state. */
  public DvmView view() {
    return new CoreView();
  }

  // ---------------------------------------------------------------- requests

  private void onRequest(DvmEvent.Request r) {
    if (pending.containsKey(r.requestId())) {
      throw new IllegalArgumentException(
          "request " + r.requestId() + " is already in flight (expected: a fresh request id)");
    }
    try {
      relay(r);
      int size = size(r);
      if (size > config.maxInfos()) {
        throw Refused.badParam(
            "request: "
                + size
                + " info entries (expected: at most "
                + config.maxInfos()
                + ", nested entries included)");
      }
      if (r instanceof DvmEvent.SessionControl s) {
        sessionControl(s);
      } else if (r instanceof DvmEvent.AllocationRequest a) {
        allocationRequest(a);
      } else if (r instanceof DvmEvent.Spawn s) {
        spawn(s);
      } else if (r instanceof DvmEvent.RegisterEvents g) {
        registrations.put(
            g.requestId(), new Registration(g.from().proc(), new LinkedHashSet<>(g.codes())));
        answer(g.requestId(), PmixStatus.PMIX_SUCCESS, List.of());
      } else if (r instanceof DvmEvent.DeregisterEvents d) {
        Registration reg = registrations.get(d.ref());
        if (reg == null || !reg.proc().equals(d.from().proc())) {
          throw Refused.notFound("event handler " + d.ref() + ": not registered by this client");
        }
        registrations.remove(d.ref());
        answer(d.requestId(), PmixStatus.PMIX_SUCCESS, List.of());
      }
    } catch (Refused e) {
      refuse(r.requestId(), e, ctrlIdOf(r));
    }
  }

  /**
   * Seed 000 "Who answers a request": a request that arrived at a non-master daemon is relayed by
   * that daemon to the master, which decides it by the same rules as one that arrived directly (the
   * caller gets the same answer whichever daemon it is attached to). The relay needs a daemon to
   * relay it: one that is not up (never started, still starting, leaving, failed) or a host that is
   * no node of the DVM cannot, and the request is refused with {@code PMIX_ERR_UNREACH}, nothing
   * changed.
   */
  private void relay(DvmEvent.Request r) {
    String via = r.via();
    if (via.equals(config.master())) {
      return;
    }
    NodeRec n = nodes.get(via);
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
              + config.master()
              + " (expected: a node whose daemon is up)");
    }
  }

  private static Optional<String> ctrlIdOf(DvmEvent.Request r) {
    if (r instanceof DvmEvent.SessionControl s) {
      for (Info i : s.directives()) {
        if (i.key().equals(PmixKey.PMIX_SESSION_CTRL_ID)) {
          return Optional.of(i.stringValue());
        }
      }
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

  private void answer(long requestId, PmixStatus status, List<Info> infos) {
    pending.remove(requestId);
    out.add(new Answer(requestId, new StatusInfos(status, infos)));
  }

  private void refuse(long requestId, Refused e, Optional<String> ctrlId) {
    List<Info> infos = new ArrayList<>();
    ctrlId.ifPresent(c -> infos.add(Info.of(PmixKey.PMIX_SESSION_CTRL_ID, c)));
    infos.add(new Info(DvmKeys.REASON, PmixDataType.PMIX_STRING, e.getMessage()));
    answer(requestId, e.status(), infos);
  }

  private void refuse(long requestId, PmixStatus status, String reason) {
    refuse(requestId, new Refused(status, reason), Optional.empty());
  }

  private boolean isScheduler(Client c) {
    return scheduler != null
        && c.kind() == Client.Kind.SCHEDULER
        && c.proc().equals(scheduler.proc());
  }

  private void forward(DvmEvent.Request r, DvmDecision.Upcall call, String what) {
    long id = nextCall++;
    calls.put(id, new Call(r.requestId(), false));
    pending.put(r.requestId(), new Pending(r, what, Waiting.SCHEDULER));
    out.add(new DvmDecision.ToScheduler(id, OptionalLong.of(r.requestId()), call));
  }

  private static List<Info> withRequestor(List<Info> infos, PmixProc requester) {
    List<Info> l = new ArrayList<>(infos.size() + 1);
    for (Info i : infos) {
      if (!i.key().equals(PmixKey.PMIX_REQUESTOR)) {
        l.add(i);
      }
    }
    l.add(Info.of(PmixKey.PMIX_REQUESTOR, requester));
    return l;
  }

  // ---------------------------------------------------------------- session control

  private void sessionControl(DvmEvent.SessionControl r) {
    boolean fromScheduler = isScheduler(r.from());
    if (scheduler != null && !fromScheduler) {
      // seed 000 "Who answers a request": passed up to the scheduler with PMIX_REQUESTOR
      forward(
          r,
          new DvmDecision.SessionControl(
              r.from().proc(), r.sessionId(), withRequestor(r.directives(), r.from().proc())),
          "session-control " + r.sessionId() + " (forwarded)");
      return;
    }
    SessionDirectives d = SessionDirectives.parse(r.directives());
    if (r.sessionId() < 0 || r.sessionId() > UINT32_MAX) {
      throw Refused.badParam(
          "session id " + r.sessionId() + ": out of range (expected: 0 to 4294967295)");
    }
    // D16: identity comes from the transport; PMIX_REQUESTOR is honoured from the scheduler only,
    // which executes a request on behalf of that requestor (decision D353)
    PmixProc actor = fromScheduler ? d.requestor().orElse(r.from().proc()) : r.from().proc();
    if (d.op() == SessionDirectives.Op.INSTANTIATE) {
      instantiate(r, d, fromScheduler, actor);
      return;
    }
    List<SessionRec> targets = new ArrayList<>();
    if (r.sessionId() == UINT32_MAX) {
      // seed 000 "Operations": every session the requestor controls, never the unreserved pool
      for (SessionRec s : sessions.values()) {
        if (controls(fromScheduler, r.from(), s)) {
          targets.add(s);
        }
      }
      if (targets.isEmpty()) {
        throw Refused.notFound("session UINT32_MAX: the requestor controls no session");
      }
      Refused last = null;
      for (SessionRec s : targets) {
        try {
          check(s, d);
          apply(s, d, actor);
        } catch (Refused e) {
          last = e;
        }
      }
      if (last != null) {
        refuse(r.requestId(), last, d.ctrlId());
      } else {
        answer(r.requestId(), PmixStatus.PMIX_SUCCESS, ctrlInfos(d));
      }
      return;
    }
    SessionRec s = sessions.get(r.sessionId());
    if (s == null) {
      throw Refused.notFound("session " + r.sessionId() + ": no such session");
    }
    if (!controls(fromScheduler, r.from(), s)) {
      // seed 000 "Who answers a request": the requestor must be entitled (owner nspace or user)
      throw Refused.noPermissions(
          "session "
              + r.sessionId()
              + ": "
              + r.from().proc().nspace()
              + " (uid "
              + r.from().uid()
              + ") neither owns it nor is the user it was granted to");
    }
    check(s, d);
    apply(s, d, actor);
    List<Info> infos = ctrlInfos(d);
    if (d.op() != SessionDirectives.Op.TERMINATE) {
      // spec/pmix/02 §4.3: the answer names the session, except a terminate's
      infos.addAll(sessionInfos(s));
    }
    answer(r.requestId(), PmixStatus.PMIX_SUCCESS, infos);
  }

  private static List<Info> ctrlInfos(SessionDirectives d) {
    List<Info> l = new ArrayList<>();
    d.ctrlId().ifPresent(c -> l.add(Info.of(PmixKey.PMIX_SESSION_CTRL_ID, c)));
    return l;
  }

  private static List<Info> sessionInfos(SessionRec s) {
    List<Info> l = new ArrayList<>();
    l.add(Info.of(PmixKey.PMIX_SESSION_ID, s.id));
    l.add(Info.of(PmixKey.PMIX_ALLOC_ID, s.allocId));
    s.reqId.ifPresent(q -> l.add(Info.of(PmixKey.PMIX_ALLOC_REQ_ID, q)));
    return l;
  }

  /**
   * Whether {@code c} may act on {@code s}: the scheduler, an owner namespace, or a tool of the
   * user the session was granted to (seed 000 "Who answers a request"; spec/pmix/02 §3.2).
   */
  private boolean controls(boolean fromScheduler, Client c, SessionRec s) {
    if (fromScheduler || s.owners.contains(c.proc().nspace())) {
      return true;
    }
    return c.kind() == Client.Kind.TOOL && s.ownerUid != null && s.ownerUid == c.uid();
  }

  /** The checks of one session's operation that need state; nothing is changed. */
  private void check(SessionRec s, SessionDirectives d) {
    switch (d.op()) {
      case PREEMPT, RESTORE, SIGNAL -> namedJobs(s, d);
      case EXTEND -> {
        if (!d.extendsSomething()) {
          // seed 000 "Extend": an extend that extends nothing is an error
          throw Refused.badParam(
              "PMIX_SESSION_EXTEND of session "
                  + s.id
                  + ": nothing to extend (expected: PMIX_ALLOC_NODE_LIST, PMIX_ALLOC_TIME,"
                  + " PMIX_TIMEOUT or PMIX_ALLOC_INHERITANCE)");
        }
        checkNodesFree(d.nodes(), s);
      }
      default -> {}
    }
  }

  /** The jobs named by PMIX_NSPACE (all when none is named); every name must be in {@code s}. */
  private List<JobRec> namedJobs(SessionRec s, SessionDirectives d) {
    if (d.nspaces().isEmpty()) {
      return new ArrayList<>(s.jobs);
    }
    List<JobRec> l = new ArrayList<>();
    for (String ns : d.nspaces()) {
      JobRec j = jobs.get(ns);
      if (j == null || j.session != s) {
        // spec/pmix/02 §4.3: named jobs absent → NOT_FOUND; no partial effect (03 §8.3)
        throw Refused.notFound("PMIX_NSPACE " + ns + ": no such job in session " + s.id);
      }
      if (!l.contains(j)) {
        l.add(j);
      }
    }
    return l;
  }

  private void apply(SessionRec s, SessionDirectives d, PmixProc actor) {
    switch (d.op()) {
      case PAUSE -> {
        // seed 000 "Pause and resume": SIGSTOP every job not already stopped
        s.flags.add(SessionFlag.PAUSED);
        for (JobRec j : s.jobs) {
          stop(j);
        }
      }
      case RESUME -> {
        s.flags.remove(SessionFlag.PAUSED);
        for (JobRec j : s.jobs) {
          cont(j);
        }
      }
      case PREEMPT -> {
        // seed 000 "Preempt and restore": suspension; the jobs keep their resources
        for (JobRec j : namedJobs(s, d)) {
          stop(j);
        }
      }
      case RESTORE -> {
        for (JobRec j : namedJobs(s, d)) {
          cont(j);
        }
      }
      case SIGNAL -> {
        Signal sig = new Signal(d.signal());
        for (JobRec j : namedJobs(s, d)) {
          if (j.state == JobState.RUNNING || j.state == JobState.TERMINATING) {
            out.add(new DvmDecision.SignalJob(j.nspace, sig));
          }
        }
      }
      case TERMINATE -> terminateSession(s);
      case EXTEND -> extend(s, d, actor);
      default -> {}
    }
    // seed 000 "Separation": may accompany any operation, or stand alone
    d.sep()
        .ifPresent(
            sep -> {
              if (sep) {
                s.flags.add(SessionFlag.DETACHED);
              } else {
                s.flags.remove(SessionFlag.DETACHED);
              }
            });
  }

  private void stop(JobRec j) {
    if (j.stopped) {
      return;
    }
    j.stopped = true;
    if (j.state == JobState.RUNNING) {
      out.add(new DvmDecision.SignalJob(j.nspace, Signal.STOP));
    }
  }

  private void cont(JobRec j) {
    if (!j.stopped) {
      return;
    }
    j.stopped = false;
    if (j.state == JobState.RUNNING || j.state == JobState.TERMINATING) {
      out.add(new DvmDecision.SignalJob(j.nspace, Signal.CONT));
    }
  }

  private void extend(SessionRec s, SessionDirectives d, PmixProc actor) {
    List<String> added = addNodes(s, d.nodes());
    d.timeLimitSeconds().ifPresent(t -> armLimit(s, t));
    d.inheritance().ifPresent(i -> s.inheritance = i);
    s.requestor = actor;
    // the extension's own PMIX_ALLOC_REQ_ID names its events, else the reservation's
    growCampaign(actor, Optional.of(s.allocId), d.reqId().or(() -> s.reqId), added);
  }

  /** Refuses (RESOURCE_BUSY) when a named node is held by another reserved session or leaving. */
  private void checkNodesFree(List<NodeList.Entry> entries, SessionRec into) {
    for (NodeList.Entry e : entries) {
      NodeRec n = nodes.get(e.host());
      if (n != null && !n.session.isDefault() && n.session != into) {
        throw new Refused(
            PmixStatus.PMIX_ERR_RESOURCE_BUSY,
            "node " + e.host() + ": held by session " + n.session.id + " (decision D352)");
      }
      if (n == null && leaving.containsKey(e.host())) {
        throw new Refused(
            PmixStatus.PMIX_ERR_RESOURCE_BUSY,
            "node " + e.host() + ": its daemon is still leaving the DVM");
      }
    }
  }

  /**
   * Puts the named nodes into {@code s} (withheld from general use, seed 000 "Instantiation"),
   * extending the DVM across new ones; returns the hosts whose daemons were started.
   */
  private List<String> addNodes(SessionRec s, List<NodeList.Entry> entries) {
    List<String> startedHosts = new ArrayList<>();
    for (NodeList.Entry e : entries) {
      NodeRec n = nodes.get(e.host());
      if (n == null) {
        n = new NodeRec(e.host(), e.slots().orElse(1), DaemonState.NONE, s);
        nodes.put(e.host(), n);
      } else {
        takeOut(n.session, n);
        n.session = s;
        e.slots().ifPresent(v -> setSlots(e.host(), v));
      }
      s.addNode(n);
      if (n.daemon == DaemonState.NONE || n.daemon == DaemonState.FAILED) {
        startDaemon(n);
        startedHosts.add(n.host);
      }
    }
    return startedHosts;
  }

  private void setSlots(String host, int slots) {
    NodeRec n = nodes.get(host);
    n.setSlots(Math.max(slots, n.used));
  }

  private void startDaemon(NodeRec n) {
    n.setDaemon(DaemonState.STARTING);
    // seed 003: campaigns record the exact daemon ranks they launch (a re-grown node gets a new
    // one)
    n.rank = nextRank++;
    if (started) {
      unclaimedStarts.add(n);
    }
    out.add(new DvmDecision.StartDaemon(n.host, n.slots));
  }

  /**
   * Tells the daemon of {@code n}, just taken out of its session and the DVM, to leave, when it has
   * one up or starting; returns whether it had. {@code returnTo} is the session it goes back to if
   * the stop cannot be sent (null: the pool; scenario D20, decision D415).
   */
  private boolean stopDaemon(NodeRec n, SessionRec returnTo) {
    if (n.daemon != DaemonState.UP && n.daemon != DaemonState.STARTING) {
      return false;
    }
    n.beforeLeaving = n.daemon;
    n.leftFrom = returnTo;
    n.setDaemon(DaemonState.LEAVING);
    n.session = dflt;
    leaving.put(n.host, n);
    out.add(new DvmDecision.StopDaemon(n.host));
    return true;
  }

  private void armLimit(SessionRec s, long seconds) {
    if (s.timerId >= 0) {
      timers.remove(s.timerId);
      out.add(new DvmDecision.CancelTimer(s.timerId));
      s.timerId = -1;
      s.timeLimit = null;
    }
    if (seconds > 0) {
      // seed 000 "Session lifetime": a limit only when asked for; 0 disarms (spec/pmix/02 §4.3)
      s.timeLimit = Duration.ofSeconds(seconds);
      s.timerId = nextTimer++;
      timers.put(s.timerId, new Timer(s, null));
      out.add(new DvmDecision.ArmTimer(s.timerId, s.timeLimit));
    }
  }

  private void instantiate(
      DvmEvent.SessionControl r, SessionDirectives d, boolean fromScheduler, PmixProc actor) {
    long id = r.sessionId();
    if (id == UINT32_MAX) {
      throw Refused.badParam("PMIX_SESSION_INSTANTIATE of session UINT32_MAX (expected: one id)");
    }
    if (sessions.containsKey(id)) {
      throw new Refused(PmixStatus.PMIX_ERR_EXISTS, "session " + id + ": exists already");
    }
    if (!d.apps().isEmpty() && d.nodes().isEmpty()) {
      // seed 000 "Instantiation": a session given apps must be given resources
      throw Refused.badParam(
          "PMIX_SESSION_APP without PMIX_ALLOC_NODE_LIST: a session with apps needs nodes");
    }
    if (d.nodes().isEmpty()) {
      // decision D497: a session holds nodes; PRRTE creates one on none, as it
      // makes an empty reservation of a NEW without nodes, which the reference refuses too (D355)
      throw Refused.badParam(
          "PMIX_SESSION_INSTANTIATE without PMIX_ALLOC_NODE_LIST: names no nodes (expected: the"
              + " session's nodes)");
    }
    String allocId = d.allocId().orElse(Long.toUnsignedString(id));
    if (byAllocId.containsKey(allocId)) {
      throw new Refused(
          PmixStatus.PMIX_ERR_EXISTS,
          "PMIX_ALLOC_ID " + allocId + ": names session " + byAllocId.get(allocId).id);
    }
    checkNodesFree(d.nodes(), null);
    int np = 0;
    for (App a : d.apps()) {
      np += a.maxprocs();
    }
    if (np > 0) {
      long slots = 0;
      for (NodeList.Entry e : d.nodes()) {
        NodeRec n = nodes.get(e.host());
        slots += e.slots().orElse(n == null ? 1 : n.slots);
      }
      if (np > slots) {
        throw new Refused(
            PmixStatus.PMIX_ERR_OUT_OF_RESOURCE,
            "PMIX_SESSION_APP: " + np + " processes for " + slots + " slots (decision D354)");
      }
    }
    SessionRec s = new SessionRec(id, allocId, d.reqId());
    s.flags.add(SessionFlag.RESERVED);
    if (fromScheduler) {
      s.flags.add(SessionFlag.SCHEDULER);
    }
    // seed 000 "Separation": detached by default; SEP=false opts back into requester lifetime
    if (d.sep().orElse(true)) {
      s.flags.add(SessionFlag.DETACHED);
    }
    if (!d.apps().isEmpty()) {
      s.flags.add(SessionFlag.AUTO_COMPLETE);
    }
    s.instantiated = true;
    s.owner = actor.nspace();
    s.owners.add(actor.nspace());
    // seed 000 "Credentials": PMIX_USERID recorded as the user the session is granted to
    s.ownerUid = d.userId().orElse(r.from().uid());
    d.inheritance().ifPresent(i -> s.inheritance = i);
    s.requestor = actor;
    register(s);
    List<String> startedHosts = addNodes(s, d.nodes());
    out.add(new DvmDecision.SessionCreated(s.id, s.allocId, hosts(s)));
    d.timeLimitSeconds().ifPresent(t -> armLimit(s, t));
    List<Info> infos = ctrlInfos(d);
    infos.addAll(sessionInfos(s));
    growCampaign(actor, Optional.of(s.allocId), s.reqId, startedHosts);
    if (d.apps().isEmpty()) {
      // seed 000 "Instantiation": a standing reservation, answered at once
      answer(r.requestId(), PmixStatus.PMIX_SUCCESS, infos);
      return;
    }
    JobRec j = newJob(s, d.apps(), d.jobInfos(), null, false, r.from());
    s.owners.add(j.nspace);
    j.answerOnLaunch = r.requestId();
    j.answerInfos = infos;
    pending.put(r.requestId(), new Pending(r, "session-control " + id + " INSTANTIATE", waitOf(j)));
    tryLaunch(j);
  }

  private static Waiting waitOf(JobRec j) {
    return j.state == JobState.WAITING_FOR_DAEMONS ? Waiting.DAEMONS : Waiting.LAUNCH;
  }

  private void register(SessionRec s) {
    sessions.put(s.id, s);
    byAllocId.put(s.allocId, s);
    if (s.owner != null) {
      ownedBy.computeIfAbsent(s.owner, k -> new LinkedHashSet<>()).add(s);
    }
  }

  private static List<String> hosts(SessionRec s) {
    List<String> l = new ArrayList<>(s.nodes.size());
    for (NodeRec n : s.nodes) {
      l.add(n.host);
    }
    return l;
  }

  // ---------------------------------------------------------------- jobs

  private JobRec newJob(
      SessionRec s,
      List<App> apps,
      List<Info> jobInfos,
      String parent,
      boolean nohup,
      Client requester) {
    String ns = config.dvmNspace() + "@" + nextJob++;
    JobRec j = new JobRec(ns, s, apps, jobInfos, parent, nohup, requester);
    j.seq = nextJob;
    j.state = JobState.WAITING_FOR_DAEMONS;
    jobs.put(ns, j);
    s.jobs.add(j);
    waitingJobs.add(j);
    if (parent != null) {
      childrenOf.computeIfAbsent(parent, k -> new LinkedHashSet<>()).add(j);
      JobRec pj = jobs.get(parent);
      List<String> chain = new ArrayList<>(pj == null ? List.of() : pj.ancestors);
      chain.add(parent);
      j.ancestors = chain;
      for (String a : chain) {
        liveDescendants.merge(a, 1, Integer::sum);
      }
    }
    if (s.has(SessionFlag.PAUSED)) {
      j.stopped = true;
    }
    return j;
  }

  /**
   * Maps and launches {@code j} once every node it may use has its daemon up (seed 000: a job waits
   * for the daemons of newly named nodes); fails it when it cannot be mapped.
   */
  private void tryLaunch(JobRec j) {
    if (j.state != JobState.WAITING_FOR_DAEMONS || heldAtMap.contains(j)) {
      return;
    }
    if (config.elastic() && fence > 0) {
      // spec/pmix/03 §3: a job reaching VM_READY → MAP while any campaign is open is parked
      waitingJobs.remove(j);
      heldAtMap.add(j);
      return;
    }
    if (j.session.starting > 0) {
      return; // a node of its session is still starting its daemon
    }
    String mapBy = "slot";
    for (Info i : j.jobInfos) {
      if (i.key().equals(PmixKey.PMIX_MAPBY)) {
        mapBy = i.stringValue().toLowerCase(java.util.Locale.ROOT);
      }
    }
    List<DvmDecision.Placement> placements = new ArrayList<>();
    List<NodeRec> placedOn = new ArrayList<>();
    Refused failure = null;
    try {
      for (int a = 0; a < j.apps.size(); a++) {
        App app = j.apps.get(a);
        // first fit over the session's nodes whose daemon is up, in their order: the free-slot
        // index holds exactly those with a free slot (decision D416), the full ones are skipped
        Iterable<NodeRec> mine = j.session.free.values();
        for (Info i : app.infos()) {
          if (i.key().equals(PmixKey.PMIX_HOST)) {
            mine = restrict(i.stringValue(), j);
          }
        }
        int placed =
            firstFit(mine, app.maxprocs(), mapBy.startsWith("node"), a, placedOn, placements);
        if (placed < app.maxprocs()) {
          throw new Refused(
              PmixStatus.PMIX_ERR_OUT_OF_RESOURCE,
              "job "
                  + j.nspace
                  + ": app "
                  + a
                  + " needs "
                  + app.maxprocs()
                  + " slots, "
                  + placed
                  + " free on the usable nodes of session "
                  + sessionName(j.session));
        }
      }
    } catch (Refused e) {
      failure = e;
    } finally {
      for (NodeRec n : placedOn) {
        n.tentative = 0;
      }
    }
    if (failure != null) {
      launchFailed(j, failure.status(), failure.getMessage());
      return;
    }
    for (int i = 0; i < placements.size(); i++) {
      NodeRec n = placedOn.get(i);
      n.claim();
      j.place(placements.get(i).rank(), n);
    }
    waitingJobs.remove(j);
    j.placements = placements;
    if (config.elastic()) {
      // spec/pmix/03 §3: MAP and LAUNCH_APPS are separate steps; a size change may come between
      j.state = JobState.MAPPED;
      out.add(new DvmDecision.MapComplete(j.nspace));
      return;
    }
    launchNow(j);
  }

  /** The job passed the launch boundary: its launch data goes to its daemons. */
  private void launchNow(JobRec j) {
    j.state = JobState.LAUNCHING;
    Pending p = j.answerOnLaunch >= 0 ? pending.get(j.answerOnLaunch) : null;
    if (p != null) {
      p.waiting = Waiting.LAUNCH;
    }
    List<DvmDecision.Placement> placements = j.placements;
    j.placements = List.of();
    out.add(new DvmDecision.LaunchJob(j.nspace, j.session.id, j.apps, j.jobInfos, placements));
  }

  /** A mapped job reaches LAUNCH_APPS: parked while a shrink is open (spec/pmix/03 §3, §7.3). */
  private void onLaunchApps(String nspace) {
    JobRec j = jobs.get(nspace);
    if (j == null || j.state != JobState.MAPPED) {
      return;
    }
    boolean shrinking = open.values().stream().anyMatch(c -> !c.grow);
    if (shrinking) {
      j.state = JobState.WAITING_FOR_DAEMONS;
      heldAtLaunch.add(j);
      return;
    }
    boolean departed = false;
    for (NodeRec n : j.live.values()) {
      if (nodes.get(n.host) != n || n.daemon != DaemonState.UP) {
        departed = true;
      }
    }
    if (departed) {
      // a node of its map left between MAP and LAUNCH_APPS: mapped again (§7.3)
      unclaim(j);
      j.state = JobState.WAITING_FOR_DAEMONS;
      waitingJobs.add(j);
      tryLaunch(j);
      return;
    }
    launchNow(j);
  }

  private static String sessionName(SessionRec s) {
    return s.isDefault() ? "default" : Long.toUnsignedString(s.id);
  }

  /**
   * The nodes named by an app's PMIX_HOST, in the order named.
   *
   * @throws Refused (the job fails) when the list is malformed or names a node that is not one of
   *     the job's session whose daemon is up
   */
  private List<NodeRec> restrict(String hostSpec, JobRec j) {
    List<NodeList.Entry> named = NodeList.parse("PMIX_HOST", hostSpec, true);
    List<NodeRec> l = new ArrayList<>();
    for (NodeList.Entry e : named) {
      NodeRec n = nodes.get(e.host());
      if (n == null || n.member != j.session || n.daemon != DaemonState.UP) {
        // seed 000 "Instantiation" / B2: a job maps only onto its session's nodes
        throw new Refused(
            PmixStatus.PMIX_ERR_OUT_OF_RESOURCE,
            "job "
                + j.nspace
                + ": PMIX_HOST "
                + e.host()
                + " is not a usable node of session "
                + sessionName(j.session));
      }
      l.add(n);
    }
    return l;
  }

  /**
   * Places up to {@code np} processes of app {@code app} first fit over {@code order}: by slot,
   * each node filled in turn; by node, one per node per round. Each placement is added to {@code
   * placements} (ranks continue from its size) and its node to {@code placedOn}, and counted in the
   * node's {@link NodeRec#tentative}, which the caller resets to 0 for every node of {@code
   * placedOn} once the job is mapped or has failed.
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
    int placed = 0;
    if (byNode) {
      boolean progress = true;
      while (placed < np && progress) {
        progress = false;
        for (NodeRec n : order) {
          if (placed == np) {
            break;
          }
          if (free(n) > 0) {
            n.tentative++;
            placedOn.add(n);
            placements.add(new DvmDecision.Placement(placements.size(), app, n.host));
            placed++;
            progress = true;
          }
        }
      }
    } else {
      for (NodeRec n : order) {
        if (placed == np) {
          break;
        }
        while (placed < np && free(n) > 0) {
          n.tentative++;
          placedOn.add(n);
          placements.add(new DvmDecision.Placement(placements.size(), app, n.host));
          placed++;
        }
      }
    }
    return placed;
  }

  private static int free(NodeRec n) {
    return n.slots - n.used - n.tentative;
  }

  private void onJobLaunched(String nspace) {
    JobRec j = jobs.get(nspace);
    if (j == null || j.state != JobState.LAUNCHING) {
      return;
    }
    j.state = JobState.RUNNING;
    if (j.answerOnLaunch >= 0) {
      // seed 000 "Instantiation": a successful return means the job is running
      List<Info> infos = new ArrayList<>(j.answerInfos);
      infos.add(Info.of(PmixKey.PMIX_NSPACE, j.nspace));
      answer(j.answerOnLaunch, PmixStatus.PMIX_SUCCESS, infos);
      j.answerOnLaunch = -1;
    }
    if (j.terminateOnLaunch) {
      j.terminateOnLaunch = false;
      terminateJob(j);
    } else if (j.stopped) {
      out.add(new DvmDecision.SignalJob(j.nspace, Signal.STOP));
    }
    if (j.live.isEmpty()) {
      retire(j);
    }
  }

  private void onJobLaunchFailed(String nspace, PmixStatus status, String reason) {
    JobRec j = jobs.get(nspace);
    if (j == null || j.state != JobState.LAUNCHING) {
      return;
    }
    launchFailed(j, status, "job " + nspace + ": launch failed: " + reason);
  }

  /**
   * A job that could not be mapped or launched: its remaining processes are dropped, its request
   * gets the error, and an allocation made for it is handed back (seed 001); a session created to
   * run it is reclaimed (spec/pmix/02 §4.3, launch failure).
   */
  private void launchFailed(JobRec j, PmixStatus status, String reason) {
    for (NodeRec n : j.live.values()) {
      n.release();
    }
    j.clearLive();
    long req = j.answerOnLaunch;
    j.answerOnLaunch = -1;
    j.exitCode = j.exitCode == 0 ? 1 : j.exitCode;
    SessionRec alloc = j.spawnAllocation;
    j.state = JobState.TERMINATING;
    retire(j);
    if (alloc != null && !alloc.reclaimed) {
      alloc.handBack = true;
      terminateSession(alloc);
    }
    if (req >= 0) {
      refuse(req, status, reason);
    }
  }

  private void onProcExited(DvmEvent.ProcExited e) {
    JobRec j = jobs.get(e.nspace());
    if (j == null) {
      return;
    }
    NodeRec n = j.drop(e.rank());
    if (n == null) {
      return;
    }
    n.release();
    int code = e.termSignal() > 0 ? 128 + e.termSignal() : e.exitCode();
    if (j.exitCode == 0 && code != 0) {
      j.exitCode = code;
    }
    if (j.live.isEmpty() && (j.state == JobState.RUNNING || j.state == JobState.TERMINATING)) {
      retire(j);
    }
  }

  /**
   * A job retires: its status is kept for COMPLETE, its children end unless PMIX_NOHUP (seed 002),
   * sessions it owns follow their inheritance, and its session is reclaimed if it was waiting for
   * its last job.
   */
  private void retire(JobRec j) {
    if (!jobs.containsKey(j.nspace)) {
      return;
    }
    jobs.remove(j.nspace);
    waitingJobs.remove(j);
    heldAtMap.remove(j);
    heldAtLaunch.remove(j);
    for (String a : j.ancestors) {
      liveDescendants.computeIfPresent(a, (k, n) -> n > 1 ? n - 1 : null);
    }
    if (j.parent != null) {
      LinkedHashSet<JobRec> siblings = childrenOf.get(j.parent);
      if (siblings != null) {
        siblings.remove(j);
        if (siblings.isEmpty()) {
          childrenOf.remove(j.parent);
        }
      }
    }
    SessionRec s = j.session;
    s.jobs.remove(j);
    if (!j.nspace.equals(s.owner)) {
      s.owners.remove(j.nspace); // a retired job owns nothing (its namespace is not reused)
    }
    if (j.killTimer >= 0) {
      timers.remove(j.killTimer);
      out.add(new DvmDecision.CancelTimer(j.killTimer));
      j.killTimer = -1;
    }
    if (!s.isDefault()) {
      // seed 000 "Completion": statuses accumulated as the jobs retire
      s.results.add(new DvmView.JobResult(j.nspace, j.exitCode));
    }
    if (j.answerOnLaunch >= 0) {
      long req = j.answerOnLaunch;
      j.answerOnLaunch = -1;
      refuse(
          req, PmixStatus.PMIX_ERR_JOB_CANCELED, "job " + j.nspace + ": terminated before launch");
    }
    for (JobRec c : new ArrayList<>(childrenOf.getOrDefault(j.nspace, new LinkedHashSet<>()))) {
      if (!c.nohup) {
        // seed 002: child jobs end with their parent unless spawned with PMIX_NOHUP
        terminateJob(c);
      }
    }
    ownerEnded(j.nspace);
    checkSubtrees();
    maybeReclaim(s);
  }

  private void maybeReclaim(SessionRec s) {
    if (s.isDefault() || s.reclaimed || !s.jobs.isEmpty()) {
      return;
    }
    if (s.has(SessionFlag.TERMINATING) || s.has(SessionFlag.AUTO_COMPLETE) || s.releaseWhenEmpty) {
      reclaim(s);
    }
  }

  private void terminateJob(JobRec j) {
    switch (j.state) {
      case WAITING_FOR_DAEMONS, MAPPED -> {
        unclaim(j);
        j.state = JobState.TERMINATING;
        retire(j);
      }
      case LAUNCHING -> j.terminateOnLaunch = true;
      case RUNNING -> {
        // seed 000 "Terminate": a paused job is continued first
        if (j.stopped) {
          j.stopped = false;
          out.add(new DvmDecision.SignalJob(j.nspace, Signal.CONT));
        }
        j.state = JobState.TERMINATING;
        out.add(new DvmDecision.SignalJob(j.nspace, Signal.TERM));
        j.killTimer = nextTimer++;
        timers.put(j.killTimer, new Timer(null, j));
        out.add(new DvmDecision.ArmTimer(j.killTimer, config.killGrace()));
      }
      case TERMINATING -> {}
    }
  }

  /**
   * Terminates every job of {@code s} and reclaims it once the last has retired, at once when it
   * has none (seed 000 "Terminate").
   */
  private void terminateSession(SessionRec s) {
    if (s.reclaimed) {
      return;
    }
    s.flags.add(SessionFlag.TERMINATING);
    for (JobRec j : new ArrayList<>(s.jobs)) {
      terminateJob(j);
    }
    maybeReclaim(s);
  }

  private void onTimer(long id) {
    Timer t = timers.remove(id);
    if (t == null) {
      return;
    }
    if (t.session() != null) {
      // seed 000 "Session lifetime": expiry acts exactly as PMIX_SESSION_TERMINATE
      t.session().timerId = -1;
      terminateSession(t.session());
    } else {
      JobRec j = t.job();
      j.killTimer = -1;
      if (jobs.containsKey(j.nspace) && !j.live.isEmpty()) {
        out.add(new DvmDecision.SignalJob(j.nspace, Signal.KILL));
      }
    }
  }

  // ---------------------------------------------------------------- reclaim and inheritance

  /**
   * Reclaims {@code s}: disarms its limit, returns its nodes to the pool or hands them back (never
   * the master's node), then, for a scheduler-instantiated session, sends COMPLETE (seed 000
   * "Completion": the teardown is complete before the notice).
   */
  private void reclaim(SessionRec s) {
    s.reclaimed = true;
    if (s.timerId >= 0) {
      timers.remove(s.timerId);
      out.add(new DvmDecision.CancelTimer(s.timerId));
      s.timerId = -1;
    }
    boolean handBack =
        s.handBack
            || s.inheritance == AllocInheritance.NONE
            || s.inheritance == AllocInheritance.CHILD;
    List<String> hosts = hosts(s);
    for (NodeRec n : new ArrayList<>(s.nodes)) {
      takeOut(s, n);
      if (handBack && !n.host.equals(config.master())) {
        // seed 000 "Session lifetime": NONE/CHILD hand the nodes back to the scheduler
        nodes.remove(n.host);
        if (stopDaemon(n, null)) {
          unclaimedStops.add(n);
        }
      } else {
        n.session = dflt;
        dflt.addNode(n);
      }
    }
    sessions.remove(s.id);
    byAllocId.remove(s.allocId);
    subtreeWaiting.remove(s);
    if (s.owner != null) {
      LinkedHashSet<SessionRec> owned = ownedBy.get(s.owner);
      if (owned != null) {
        owned.remove(s);
        if (owned.isEmpty()) {
          ownedBy.remove(s.owner);
        }
      }
    }
    if (s.parent != null) {
      s.parent.children.remove(s.id);
    }
    for (Long c : s.children) {
      SessionRec child = sessions.get(c);
      if (child != null) {
        child.parent = null;
      }
    }
    out.add(new DvmDecision.SessionReclaimed(s.id, s.allocId, hosts, handBack));
    if (s.has(SessionFlag.SCHEDULER) && scheduler != null) {
      List<Info> infos = new ArrayList<>();
      infos.add(Info.of(PmixKey.PMIX_SESSION_COMPLETE, true));
      infos.add(Info.of(PmixKey.PMIX_SESSION_ID, s.id));
      infos.add(Info.of(PmixKey.PMIX_ALLOC_ID, s.allocId));
      for (DvmView.JobResult r : s.results) {
        infos.add(
            Info.of(
                PmixKey.PMIX_JOB_INFO_ARRAY,
                List.of(
                    Info.of(PmixKey.PMIX_NSPACE, r.nspace()),
                    Info.of(PmixKey.PMIX_JOB_TERM_STATUS, r.termStatus()))));
      }
      long id = nextCall++;
      calls.put(id, new Call(-1, false));
      out.add(
          new DvmDecision.ToScheduler(
              id, OptionalLong.empty(), new DvmDecision.SessionControl(self, s.id, infos)));
    }
  }

  /**
   * The namespace {@code nspace} ended (a job retired or a tool left): each attached session it
   * owns follows its inheritance (seed 002; spec/pmix/02 §2.3): NONE hands the nodes back at once,
   * DEFAULT unreserves them (a session instantiated to follow its requester is terminated), CHILD
   * and CHILD_DEFAULT wait for the owner's spawned descendants to end.
   */
  private void ownerEnded(String nspace) {
    LinkedHashSet<SessionRec> owned = ownedBy.get(nspace);
    if (owned == null) {
      checkSubtrees();
      return;
    }
    for (SessionRec s : new ArrayList<>(owned)) {
      if (s.reclaimed || s.has(SessionFlag.DETACHED) || s.ownerGone) {
        continue;
      }
      s.ownerGone = true;
      switch (s.inheritance) {
        case NONE -> {
          s.handBack = true;
          terminateSession(s);
        }
        case DEFAULT -> {
          if (s.instantiated) {
            terminateSession(s);
          } else {
            s.releaseWhenEmpty = true;
            maybeReclaim(s);
          }
        }
        case CHILD, CHILD_DEFAULT -> subtreeWaiting.add(s);
      }
    }
    checkSubtrees();
  }

  /** Reclaims CHILD/CHILD_DEFAULT sessions whose gone owner has no live descendant left. */
  private void checkSubtrees() {
    if (subtreeWaiting.isEmpty()) {
      return;
    }
    for (SessionRec s : new ArrayList<>(subtreeWaiting)) {
      if (s.reclaimed) {
        subtreeWaiting.remove(s);
      } else if (!hasLiveDescendant(s.owner)) {
        subtreeWaiting.remove(s);
        s.releaseWhenEmpty = true;
        maybeReclaim(s);
      }
    }
  }

  /** Whether a job spawned by {@code nspace}, or by one of its descendants, is alive. */
  private boolean hasLiveDescendant(String nspace) {
    return liveDescendants.containsKey(nspace);
  }

  private void onClientGone(PmixProc proc) {
    registrations.values().removeIf(r -> r.proc().equals(proc));
    if (scheduler != null && scheduler.proc().equals(proc)) {
      onSchedulerDetached();
      return;
    }
    if (!jobs.containsKey(proc.nspace())) {
      // a tool's end (PMIX_CAP_TOOL_FINALIZED); a job's end is its last process's exit
      ownerEnded(proc.nspace());
    }
  }

  // ---------------------------------------------------------------- daemons

  private void onDaemonStarted(String host) {
    NodeRec n = nodes.get(host);
    if (n == null || n.daemon != DaemonState.STARTING) {
      return;
    }
    n.setDaemon(DaemonState.UP);
    if (config.elastic()) {
      Campaign c = campaignOf.get(n.rank);
      if (c != null && c.grow && c.pending.remove(n.rank) && c.pending.isEmpty()) {
        // spec/pmix/03 §4: a grow completes once every daemon it launched is up and wired
        growEnded(c, null);
      }
    }
    for (JobRec j : new ArrayList<>(waitingJobs)) {
      if (j.session.nodes.contains(n)) {
        tryLaunch(j);
      }
    }
  }

  private void onDaemonGone(String host, boolean failed, String reason) {
    NodeRec n = leaving.remove(host);
    boolean wasLeaving = n != null;
    if (n == null) {
      n = nodes.get(host);
      if (n == null || n.daemon == DaemonState.NONE || n.daemon == DaemonState.FAILED) {
        return;
      }
      n.setDaemon(failed ? DaemonState.FAILED : DaemonState.NONE);
    } else {
      n.setDaemon(DaemonState.NONE);
      n.beforeLeaving = null;
      n.leftFrom = null;
    }
    // the node's processes are gone with its daemon (counted killed); the jobs on it in the order
    // they were made, as in the job list
    for (JobRec j : jobsOn(n)) {
      if (j.state == JobState.MAPPED || heldAtLaunch.contains(j)) {
        if (n.jobsOn.containsKey(j)) {
          // mapped, not launched: nothing runs there; mapped again (spec/pmix/03 §7.3)
          heldAtLaunch.remove(j);
          unclaim(j);
          j.state = JobState.WAITING_FOR_DAEMONS;
          waitingJobs.add(j);
          tryLaunch(j);
        }
        continue;
      }
      List<Long> lost = new ArrayList<>();
      for (Map.Entry<Long, NodeRec> e : j.live.entrySet()) {
        if (e.getValue() == n) {
          lost.add(e.getKey());
        }
      }
      for (Long rank : lost) {
        onProcExited(new DvmEvent.ProcExited(j.nspace, rank, 0, Signal.KILL.number()));
      }
    }
    if (config.elastic()) {
      Campaign c = campaignOf.get(n.rank);
      if (c != null && !c.grow && wasLeaving) {
        // spec/pmix/03 §7.6: a departure counts once per rank, a crash the same as a clean exit
        if (c.pending.remove(n.rank) && c.pending.isEmpty()) {
          shrinkEnded(c);
        }
      } else if (c != null && c.grow && !wasLeaving) {
        // spec/pmix/03 §6: a grow target lost before its grow completes fails that grow only
        growEnded(c, "daemon on " + host + (failed ? " failed: " + reason : " left"));
      }
      // spec/pmix/03 §7.4: an unrelated loss neither releases nor aborts parked jobs
    }
    for (JobRec j : new ArrayList<>(waitingJobs)) {
      if (j.session.nodes.contains(n)) {
        tryLaunch(j);
      }
    }
  }

  /**
   * The stop of a leaving daemon could not be sent (scenario D20, decision D415): the daemon never
   * got it, so the node stays in the DVM, back in the session a release took it from (the pool if
   * that session is gone, or for a node handed back or rolled back), with its daemon as it was. A
   * shrink campaign targeting it drops it from its targets and contribution and, once its other
   * targets have departed or failed to be sent the same way, ends with PMIX_ERR_DVM_MOD carrying
   * the cause; jobs held for it are then released as after any campaign.
   */
  private void onStopNotSent(String host, PmixStatus cause) {
    NodeRec n = leaving.get(host);
    if (n == null || n.daemon != DaemonState.LEAVING || n.beforeLeaving == null) {
      return; // gone already, or a stale report
    }
    leaving.remove(host);
    SessionRec back =
        n.leftFrom != null && !n.leftFrom.reclaimed && sessions.get(n.leftFrom.id) == n.leftFrom
            ? n.leftFrom
            : dflt;
    n.session = back;
    nodes.put(host, n);
    back.addNode(n);
    n.setDaemon(n.beforeLeaving);
    n.beforeLeaving = null;
    n.leftFrom = null;
    if (config.elastic()) {
      Campaign c = campaignOf.get(n.rank);
      if (c != null && !c.grow) {
        campaignOf.remove(n.rank);
        c.targets.remove(n.rank);
        c.pending.remove(n.rank);
        c.contribution--;
        fence--;
        if (c.failure == null) {
          c.failure = cause;
        }
        if (c.pending.isEmpty()) {
          shrinkEnded(c);
        }
      }
    }
    if (n.daemon == DaemonState.UP) {
      for (JobRec j : new ArrayList<>(waitingJobs)) {
        if (j.session == back) {
          tryLaunch(j);
        }
      }
    }
  }

  /** The jobs with processes on {@code n}, in the order they were made. */
  private static List<JobRec> jobsOn(NodeRec n) {
    List<JobRec> l = new ArrayList<>(n.jobsOn.keySet());
    l.sort(java.util.Comparator.comparingLong(j -> j.seq));
    return l;
  }

  /**
   * Records the requester of the daemons the current request starts (outside elastic mode: nothing,
   * spec/pmix/03 §1). The grow campaign itself is opened at the end of the event.
   */
  private void growCampaign(
      PmixProc requester, Optional<String> allocId, Optional<String> reqId, List<String> hosts) {
    if (config.elastic() && !hosts.isEmpty()) {
      batchRequester = new Requester(requester, allocId, reqId);
    }
  }

  /** Requester of the daemons started or stopped by the event being handled, if any. */
  private Requester batchRequester;

  /**
   * Opens the campaigns of the daemons started and stopped by the event just handled: one grow over
   * the started, one shrink over the stopped (seed 003: +n per grow of n, +m per shrink of m), with
   * the event's requester if it had one (B15, decision D403: none otherwise).
   */
  private void openCampaigns() {
    Requester req = batchRequester;
    batchRequester = null;
    if (!config.elastic()) {
      unclaimedStarts.clear();
      unclaimedStops.clear();
      return;
    }
    if (!unclaimedStarts.isEmpty()) {
      Campaign c = new Campaign(nextCampaign++, true);
      for (NodeRec n : unclaimedStarts) {
        c.targets.put(n.rank, n);
        c.pending.add(n.rank);
        campaignOf.put(n.rank, c);
      }
      unclaimedStarts.clear();
      if (req != null) {
        c.addRequester(req);
      }
      openCampaign(c);
    }
    if (!unclaimedStops.isEmpty()) {
      Campaign c = new Campaign(nextCampaign++, false);
      for (NodeRec n : unclaimedStops) {
        Campaign before = campaignOf.get(n.rank);
        if (before != null && before.grow) {
          // a grow target stopped before it was up: it leaves that grow, not counted there
          before.pending.remove(n.rank);
          before.targets.remove(n.rank);
          before.contribution--;
          fence--;
        }
        c.targets.put(n.rank, n);
        c.pending.add(n.rank);
        campaignOf.put(n.rank, c);
      }
      unclaimedStops.clear();
      if (req != null) {
        c.addRequester(req);
      }
      openCampaign(c);
    }
    for (Campaign c : new ArrayList<>(open.values())) {
      if (c.grow && c.pending.isEmpty() && open.containsKey(c.id)) {
        growEnded(c, null);
      }
    }
  }

  private void openCampaign(Campaign c) {
    c.contribution = c.targets.size();
    fence += c.contribution;
    open.put(c.id, c);
  }

  private void closeCampaign(Campaign c) {
    open.remove(c.id);
    fence -= c.contribution;
    c.contribution = 0;
    for (Long r : c.targets.keySet()) {
      campaignOf.remove(r, c);
    }
  }

  /**
   * A grow ends: on success its requesters hear PMIX_DVM_IS_READY; on failure it is rolled back as
   * a whole (spec/pmix/03 §4, §7.5: started daemons told to leave, never-started ones uncounted,
   * nodes detached from any reservation), its requesters hear PMIX_ERR_DVM_MOD with the cause, and
   * the jobs parked at the map boundary are aborted (§7.1) while those parked at the launch
   * boundary stay (D19).
   */
  private void growEnded(Campaign c, String failure) {
    closeCampaign(c);
    if (failure == null) {
      for (Requester r : c.requesters) {
        notify(PmixStatus.PMIX_DVM_IS_READY.code(), requesterInfos(r), r.proc());
      }
    } else {
      Set<SessionRec> shrunk = new java.util.HashSet<>();
      for (NodeRec n : c.targets.values()) {
        if (nodes.get(n.host) != n) {
          continue;
        }
        shrunk.add(n.session);
        takeOut(n.session, n);
        nodes.remove(n.host);
        stopDaemon(n, null);
      }
      for (Requester r : c.requesters) {
        List<Info> infos = requesterInfos(r);
        infos.add(
            Info.of(PmixKey.PMIX_JOB_TERM_STATUS, PmixStatus.PMIX_ERR_PROC_FAILED_TO_START.code()));
        notify(PmixStatus.PMIX_ERR_DVM_MOD.code(), infos, r.proc());
      }
      List<JobRec> dependent = new ArrayList<>(heldAtMap);
      for (JobRec j : waitingJobs) {
        if (shrunk.contains(j.session)) {
          dependent.add(j); // waited for this grow's daemons: its grow dependency failed (§7.1)
        }
      }
      for (JobRec j : dependent) {
        heldAtMap.remove(j);
        if (jobs.containsKey(j.nspace)) {
          launchFailed(
              j,
              PmixStatus.PMIX_ERR_JOB_FAILED_TO_LAUNCH,
              "job "
                  + j.nspace
                  + ": never launched, the grow it waited for failed ("
                  + failure
                  + ")");
        }
      }
    }
    campaignEnded();
  }

  /**
   * A shrink ends once every target has departed: the nodes are gone, the completion hook runs
   * ({@link DvmDecision.ShrinkComplete}), then its requesters hear PMIX_DVM_IS_READY (spec/pmix/03
   * §4, §5: hooks before the event). When a stop could not be sent (D20, decision D415) the hook
   * runs on the targets that did depart, if any, and the requesters hear PMIX_ERR_DVM_MOD with the
   * cause under PMIX_JOB_TERM_STATUS.
   */
  private void shrinkEnded(Campaign c) {
    closeCampaign(c);
    List<String> hosts = new ArrayList<>();
    for (NodeRec n : c.targets.values()) {
      hosts.add(n.host);
    }
    if (!hosts.isEmpty()) {
      out.add(new DvmDecision.ShrinkComplete(c.id, hosts));
    }
    for (Requester r : c.requesters) {
      if (c.failure == null) {
        notify(PmixStatus.PMIX_DVM_IS_READY.code(), requesterInfos(r), r.proc());
      } else {
        List<Info> infos = requesterInfos(r);
        infos.add(Info.of(PmixKey.PMIX_JOB_TERM_STATUS, c.failure.code()));
        notify(PmixStatus.PMIX_ERR_DVM_MOD.code(), infos, r.proc());
      }
    }
    campaignEnded();
  }

  /**
   * After a campaign ends: once no grow is open the deferred releases are replayed (D24, decision
   * D402, whether the grow succeeded or failed); once the fence is 0 the held jobs are released.
   */
  private void campaignEnded() {
    if (!deferredReleases.isEmpty() && open.values().stream().noneMatch(c -> c.grow)) {
      List<DvmEvent.AllocationRequest> replay = new ArrayList<>(deferredReleases);
      deferredReleases.clear();
      for (DvmEvent.AllocationRequest r : replay) {
        pending.remove(r.requestId());
        try {
          List<Info> result = release(r.from(), allocInfos(r.infos()));
          answer(r.requestId(), PmixStatus.PMIX_SUCCESS, result);
        } catch (Refused e) {
          refuse(r.requestId(), e, Optional.empty());
        }
        openCampaigns();
      }
    }
    if (fence == 0) {
      releaseHolds();
    }
  }

  /**
   * The fence dropped to 0 (spec/pmix/03 §4 fence_release): jobs held at the launch boundary go on
   * to launch, remapped onto survivors first when a process sat on a departed node (§7.3); jobs
   * held at the map boundary are mapped onto the post-change node set (§7.1).
   */
  private void releaseHolds() {
    List<JobRec> launch = new ArrayList<>(heldAtLaunch);
    heldAtLaunch.clear();
    List<JobRec> map = new ArrayList<>(heldAtMap);
    heldAtMap.clear();
    for (JobRec j : launch) {
      if (!jobs.containsKey(j.nspace)) {
        continue;
      }
      boolean departed = false;
      for (NodeRec n : j.live.values()) {
        if (nodes.get(n.host) != n || n.daemon != DaemonState.UP) {
          departed = true;
        }
      }
      if (departed) {
        unclaim(j);
        j.state = JobState.WAITING_FOR_DAEMONS;
        waitingJobs.add(j);
        tryLaunch(j);
      } else {
        launchNow(j);
      }
    }
    for (JobRec j : map) {
      if (jobs.containsKey(j.nspace)) {
        waitingJobs.add(j);
        tryLaunch(j);
      }
    }
  }

  /** Gives back the slots of a mapped job that has not launched. */
  private void unclaim(JobRec j) {
    for (NodeRec n : j.live.values()) {
      n.release();
    }
    j.clearLive();
    j.placements = List.of();
  }

  private static List<Info> requesterInfos(Requester r) {
    List<Info> l = new ArrayList<>();
    r.allocId().ifPresent(a -> l.add(Info.of(PmixKey.PMIX_ALLOC_ID, a)));
    r.reqId().ifPresent(q -> l.add(Info.of(PmixKey.PMIX_ALLOC_REQ_ID, q)));
    return l;
  }

  /** An event directed to {@code target}, delivered to its handlers registered for the code. */
  private void notify(int code, List<Info> infos, PmixProc target) {
    List<Long> handlers = new ArrayList<>();
    for (Map.Entry<Long, Registration> e : registrations.entrySet()) {
      Registration r = e.getValue();
      if (r.proc().equals(target) && (r.codes().isEmpty() || r.codes().contains(code))) {
        handlers.add(e.getKey());
      }
    }
    if (!handlers.isEmpty()) {
      out.add(
          new DvmDecision.Notify(
              new Event(code, self, infos, Optional.of(target), Event.Range.PMIX_RANGE_CUSTOM),
              handlers));
    }
  }

  // ---------------------------------------------------------------- scheduler

  private void onSchedulerDetached() {
    scheduler = null;
    for (Map.Entry<Long, Call> e : new ArrayList<>(calls.entrySet())) {
      Call c = e.getValue();
      calls.remove(e.getKey());
      if (c.requestId() >= 0 && pending.containsKey(c.requestId())) {
        Pending p = pending.get(c.requestId());
        if (c.spawnAlloc()) {
          refuse(
              c.requestId(),
              PmixStatus.PMIX_ERR_JOB_ALLOC_FAILED,
              "spawn: the scheduler went away before answering its allocation");
        } else {
          refuse(
              c.requestId(),
              PmixStatus.PMIX_ERR_UNREACH,
              p.what + ": the scheduler went away before answering");
        }
      }
    }
  }

  private void onSchedulerAnswered(long callId, StatusInfos answer) {
    Call c = calls.remove(callId);
    if (c == null || c.requestId() < 0) {
      return;
    }
    Pending p = pending.get(c.requestId());
    if (p == null) {
      return;
    }
    if (c.spawnAlloc()) {
      spawnAllocAnswered((DvmEvent.Spawn) p.request, answer);
      return;
    }
    if (p.request instanceof DvmEvent.AllocationRequest a
        && a.directive() == AllocDirective.RELEASE
        && answer.succeeded()) {
      // spec/pmix/02 §1.3: a granted RELEASE is completed on the scheduler's answer; its
      // PMIX_ALLOC_NODE_LIST names the nodes to shrink out, for the requester (decision D420)
      try {
        releaseGranted(a.from(), answer.infos());
      } catch (Refused e) {
        refuse(c.requestId(), e, Optional.empty());
        return;
      }
    }
    // seed 001: the scheduler's answer goes back to the requester as it is
    answer(c.requestId(), answer.status(), answer.infos());
  }

  /**
   * The nodes of a RELEASE the scheduler granted, those the DVM holds, leave it as a release by
   * node list from {@code from} (a shrink campaign in elastic mode); nothing when the answer names
   * no node list (a whole reservation is the scheduler's session control, decision D376).
   */
  private void releaseGranted(Client from, List<Info> grant) {
    AllocInfos a = allocInfos(grant);
    List<NodeList.Entry> held = new ArrayList<>();
    for (NodeList.Entry e : a.nodes) {
      if (nodes.containsKey(e.host())) {
        held.add(e);
      }
    }
    if (held.isEmpty()) {
      return;
    }
    a.nodes = held;
    a.allocId = Optional.empty();
    release(from, a);
  }

  /**
   * A timeout warning from the scheduler is relayed to the allocation's requester only, with
   * ALLOC_ID, REQ_ID (if any) and TIME_REMAINING; it changes nothing (spec/pmix/03 §8.6, B23).
   */
  private void onSchedulerEvent(DvmEvent.SchedulerEvent e) {
    if (scheduler == null || e.code() != PmixStatus.PMIX_ALLOC_TIMEOUT_WARNING.code()) {
      return;
    }
    SessionRec s = null;
    Info remaining = null;
    for (Info i : e.infos()) {
      if (i.key().equals(PmixKey.PMIX_ALLOC_ID)) {
        s = byAllocId.get(i.stringValue());
      } else if (i.key().equals(PmixKey.PMIX_TIME_REMAINING)) {
        remaining = i;
      }
    }
    if (s == null || s.requestor == null) {
      return;
    }
    List<Info> infos = new ArrayList<>();
    infos.add(Info.of(PmixKey.PMIX_ALLOC_ID, s.allocId));
    s.reqId.ifPresent(q -> infos.add(Info.of(PmixKey.PMIX_ALLOC_REQ_ID, q)));
    if (remaining != null) {
      infos.add(remaining);
    }
    notify(e.code(), infos, s.requestor);
  }

  // ---------------------------------------------------------------- allocation requests

  private void allocationRequest(DvmEvent.AllocationRequest r) {
    if (r.directive() == AllocDirective.ACTIVATE) {
      // seed 001: ACTIVATE is answered by the DVM itself, even under a scheduler
      activate(r);
      return;
    }
    if (isScheduler(r.from())) {
      // spec/pmix/01 §1.1: a scheduler cannot ask itself for an allocation
      throw Refused.notSupported("allocation request from the scheduler itself");
    }
    if (scheduler != null) {
      if (r.from().kind() == Client.Kind.APPLICATION
          && (r.directive() == AllocDirective.NEW || r.directive() == AllocDirective.EXTEND)
          && r.infos().stream().anyMatch(i -> i.key().equals(PmixKey.PMIX_ALLOC_TARGET))) {
        // B5, spec/pmix/03 §8: an application may not name an owner; refused before the
        // scheduler grants what the DVM would not apply (D477)
        throw Refused.noPermissions("PMIX_ALLOC_TARGET: an application may not name an owner");
      }
      if (r.directive() == AllocDirective.EXTEND) {
        // B8: an EXTEND of a reservation this DVM holds is for its owners to ask; refused here,
        // before the scheduler grants what the DVM would not apply (D477)
        for (Info i : r.infos()) {
          if (i.key().equals(PmixKey.PMIX_ALLOC_ID) && i.value() instanceof String id) {
            SessionRec held = byAllocId.get(id);
            if (held != null && !controls(false, r.from(), held)) {
              throw Refused.noPermissions(
                  "PMIX_ALLOC_EXTEND of "
                      + id
                      + ": "
                      + r.from().proc().nspace()
                      + " does not own it");
            }
          }
        }
      }
      // seed 001: requests go to the scheduler, with PMIX_REQUESTOR, and the answer comes back
      forward(
          r,
          new DvmDecision.Allocate(
              r.from().proc(), r.directive(), withRequestor(r.infos(), r.from().proc())),
          "alloc " + r.directive().name() + " (forwarded)");
      return;
    }
    if (config.elastic()
        && r.directive() == AllocDirective.RELEASE
        && open.values().stream().anyMatch(c -> c.grow)) {
      // B14: a release during a grow is parked, not refused, and replayed once no grow is open
      // (D24, decision D402: also when the grow fails); malformed input is refused at once
      allocInfos(r.infos());
      pending.put(
          r.requestId(), new Pending(r, "alloc RELEASE (deferred behind a grow)", Waiting.DAEMONS));
      deferredReleases.add(r);
      return;
    }
    List<Info> result = serveLocally(r.from(), r.directive(), r.infos());
    answer(r.requestId(), PmixStatus.PMIX_SUCCESS, result);
  }

  /** Parsed allocation infos. */
  private static final class AllocInfos {
    List<NodeList.Entry> nodes = List.of();
    Optional<String> allocId = Optional.empty();
    Optional<String> reqId = Optional.empty();
    Optional<String> target = Optional.empty();
    boolean share;
    Optional<AllocInheritance> inheritance = Optional.empty();
    Optional<Long> time = Optional.empty();
    Optional<Long> userId = Optional.empty();
  }

  private static AllocInfos allocInfos(List<Info> infos) {
    AllocInfos a = new AllocInfos();
    for (Info i : infos) {
      switch (i.key()) {
        case PmixKey.PMIX_ALLOC_NODE_LIST ->
            a.nodes = NodeList.parse("PMIX_ALLOC_NODE_LIST", i, true);
        case PmixKey.PMIX_ALLOC_ID -> a.allocId = Optional.of(i.stringValue());
        case PmixKey.PMIX_ALLOC_REQ_ID -> a.reqId = Optional.of(i.stringValue());
        case PmixKey.PMIX_ALLOC_TARGET -> a.target = Optional.of(i.stringValue());
        case PmixKey.PMIX_ALLOC_SHARE -> a.share = i.boolValue();
        case PmixKey.PMIX_ALLOC_INHERITANCE ->
            a.inheritance = Optional.of((AllocInheritance) i.value());
        case PmixKey.PMIX_USERID -> a.userId = Optional.of(i.longValue());
        case PmixKey.PMIX_ALLOC_TIME -> {
          try {
            a.time = Optional.of(AllocTime.parseSeconds(i.stringValue()));
          } catch (PmixException e) {
            throw Refused.badParam(e.getMessage());
          }
        }
        case PmixKey.PMIX_ALLOC_NUM_NODES,
            PmixKey.PMIX_ALLOC_NUM_CPUS,
            PmixKey.PMIX_ALLOC_NUM_CPU_LIST,
            PmixKey.PMIX_ALLOC_CPU_LIST,
            PmixKey.PMIX_ALLOC_MEM_SIZE,
            PmixKey.PMIX_ALLOC_FABRIC,
            PmixKey.PMIX_ALLOC_QUEUE ->
            // decision D355: without a scheduler nobody can choose machines (B16)
            throw Refused.notSupported(
                PmixKey.nameOf(i.key()).orElseThrow()
                    + ": no scheduler is attached to choose resources (expected:"
                    + " PMIX_ALLOC_NODE_LIST)");
        default -> {}
      }
    }
    return a;
  }

  /**
   * Serves NEW/EXTEND/RELEASE/REQ_CANCEL without a scheduler (spec/pmix/02 §2, the error table of
   * spec/pmix/03 §8); returns the success infos or throws {@link Refused} with nothing changed.
   */
  private List<Info> serveLocally(Client from, AllocDirective dir, List<Info> infos) {
    AllocInfos a = allocInfos(infos);
    switch (dir) {
      case NEW, EXTEND -> {
        return grow(from, dir, a);
      }
      case RELEASE -> {
        return release(from, a);
      }
      case REQ_CANCEL -> {
        if (a.reqId.isEmpty()) {
          throw Refused.badParam("PMIX_ALLOC_REQ_CANCEL without PMIX_ALLOC_REQ_ID");
        }
        // without a scheduler every request is answered at once: nothing is outstanding
        throw Refused.notFound(
            "PMIX_ALLOC_REQ_CANCEL " + a.reqId.get() + ": no outstanding request has that id");
      }
      default ->
          throw Refused.notSupported(
              dir.pmixName() + ": not supported by the reference DVM without a scheduler");
    }
  }

  private List<Info> grow(Client from, AllocDirective dir, AllocInfos a) {
    PmixProc req = from.proc();
    boolean app = from.kind() == Client.Kind.APPLICATION;
    if (a.target.isPresent() && app) {
      // spec/pmix/03 §8: an application may not name an owner with PMIX_ALLOC_TARGET
      throw Refused.noPermissions("PMIX_ALLOC_TARGET: an application may not name an owner");
    }
    List<Info> res = new ArrayList<>();
    if (a.share) {
      // spec/pmix/02 §2.1: SHARE puts the nodes into the default pool, no reservation id
      if (a.nodes.isEmpty()) {
        throw Refused.badParam(dir.pmixName() + " with PMIX_ALLOC_SHARE: no PMIX_ALLOC_NODE_LIST");
      }
      checkNodesFree(a.nodes, dflt);
      List<String> started = addNodes(dflt, a.nodes);
      growCampaign(req, Optional.empty(), a.reqId, started);
      a.reqId.ifPresent(q -> res.add(Info.of(PmixKey.PMIX_ALLOC_REQ_ID, q)));
      return res;
    }
    SessionRec s;
    if (dir == AllocDirective.EXTEND) {
      s = ownedReservation(from, a, "PMIX_ALLOC_EXTEND");
      if (a.nodes.isEmpty() && a.time.isEmpty() && a.inheritance.isEmpty()) {
        throw Refused.badParam("PMIX_ALLOC_EXTEND of " + s.allocId + ": nothing to extend");
      }
      checkNodesFree(a.nodes, s);
      List<String> started = addNodes(s, a.nodes);
      a.time.ifPresent(t -> armLimit(s, t));
      a.inheritance.ifPresent(i -> s.inheritance = i);
      s.requestor = req;
      growCampaign(req, Optional.of(s.allocId), a.reqId, started);
    } else {
      if (a.allocId.isPresent()) {
        throw Refused.notSupported("PMIX_ALLOC_NEW with PMIX_ALLOC_ID: names no new allocation");
      }
      if (a.nodes.isEmpty()) {
        throw Refused.badParam("PMIX_ALLOC_NEW without PMIX_ALLOC_NODE_LIST: names no nodes");
      }
      checkNodesFree(a.nodes, null);
      long id = freshSessionId();
      s = new SessionRec(id, Long.toUnsignedString(id), a.reqId);
      s.flags.add(SessionFlag.RESERVED);
      s.owner = a.target.orElse(req.nspace());
      s.owners.add(s.owner);
      s.ownerUid = a.userId.orElse(from.uid());
      a.inheritance.ifPresent(i -> s.inheritance = i);
      s.requestor = req;
      JobRec parentJob = jobs.get(req.nspace());
      if (parentJob != null && !parentJob.session.isDefault()) {
        // seed 002: a job's PMIX_ALLOC_NEW makes a child session of its own
        s.parent = parentJob.session;
        parentJob.session.children.add(id);
      }
      register(s);
      List<String> started = addNodes(s, a.nodes);
      out.add(new DvmDecision.SessionCreated(s.id, s.allocId, hosts(s)));
      a.time.ifPresent(t -> armLimit(s, t));
      growCampaign(req, Optional.of(s.allocId), a.reqId, started);
    }
    res.add(Info.of(PmixKey.PMIX_ALLOC_ID, s.allocId));
    a.reqId.ifPresent(q -> res.add(Info.of(PmixKey.PMIX_ALLOC_REQ_ID, q)));
    return res;
  }

  private long freshSessionId() {
    while (nextSession == UINT32_MAX || sessions.containsKey(nextSession)) {
      nextSession = nextSession >= UINT32_MAX ? 1 : nextSession + 1;
    }
    return nextSession++;
  }

  /** The reservation an EXTEND/RELEASE names, checked for ownership (spec/pmix/03 §8). */
  private SessionRec ownedReservation(Client from, AllocInfos a, String what) {
    SessionRec s;
    if (a.allocId.isPresent()) {
      s = byAllocId.get(a.allocId.get());
      if (s == null) {
        throw Refused.notFound(what + ": PMIX_ALLOC_ID " + a.allocId.get() + " names nothing");
      }
    } else if (a.reqId.isPresent()) {
      s = null;
      for (SessionRec c : sessions.values()) {
        if (c.reqId.equals(a.reqId) && controls(false, from, c)) {
          s = c;
          break;
        }
      }
      if (s == null) {
        throw Refused.notFound(
            what + ": PMIX_ALLOC_REQ_ID " + a.reqId.get() + " names no reservation of yours");
      }
    } else {
      throw Refused.badParam(what + " without PMIX_ALLOC_ID or PMIX_ALLOC_REQ_ID");
    }
    if (!controls(false, from, s)) {
      throw Refused.noPermissions(
          what + " of " + s.allocId + ": " + from.proc().nspace() + " does not own it");
    }
    return s;
  }

  private List<Info> release(Client from, AllocInfos a) {
    if (a.allocId.isPresent()) {
      SessionRec s = ownedReservation(from, a, "PMIX_ALLOC_RELEASE");
      // spec/pmix/02 §2.2: torn down, handed back (never the master's node), no DVM event
      s.handBack = true;
      terminateSession(s);
      return new ArrayList<>(List.of(Info.of(PmixKey.PMIX_ALLOC_ID, s.allocId)));
    }
    if (a.nodes.isEmpty()) {
      // B13: nothing named
      throw Refused.notFound("PMIX_ALLOC_RELEASE: names no allocation and no nodes");
    }
    List<NodeRec> named = new ArrayList<>();
    for (NodeList.Entry e : a.nodes) {
      NodeRec n = nodes.get(e.host());
      if (n == null) {
        // B12
        throw Refused.notFound("PMIX_ALLOC_RELEASE: node " + e.host() + " is not in the DVM");
      }
      if (!n.session.isDefault() && !controls(false, from, n.session)) {
        throw Refused.noPermissions(
            "PMIX_ALLOC_RELEASE: node "
                + e.host()
                + " is held by session "
                + n.session.id
                + ", not yours");
      }
      if (e.host().equals(config.master())) {
        throw Refused.badParam(
            "PMIX_ALLOC_RELEASE: node " + e.host() + " is the master's (never shrunk)");
      }
      if (!config.elastic() && !n.jobsOn.isEmpty()) {
        // decision D401: in elastic mode a busy node may be shrunk; its processes end with its
        // daemon (D4) and a job mapped there, not launched, is remapped (spec/pmix/03 §7.3)
        throw new Refused(
            PmixStatus.PMIX_ERR_RESOURCE_BUSY,
            "PMIX_ALLOC_RELEASE: node " + e.host() + " runs job " + jobsOn(n).get(0).nspace);
      }
      named.add(n);
    }
    List<String> departing = new ArrayList<>();
    for (NodeRec n : named) {
      SessionRec held = n.session;
      takeOut(held, n);
      nodes.remove(n.host);
      if (stopDaemon(n, held)) {
        departing.add(n.host);
        unclaimedStops.add(n);
      }
    }
    growCampaign(from.proc(), a.allocId, a.reqId, departing);
    List<Info> res = new ArrayList<>();
    a.reqId.ifPresent(q -> res.add(Info.of(PmixKey.PMIX_ALLOC_REQ_ID, q)));
    return res;
  }

  // ---------------------------------------------------------------- activation

  private void activate(DvmEvent.AllocationRequest r) {
    List<String> specs = new ArrayList<>();
    List<String> files = new ArrayList<>();
    for (Info i : r.infos()) {
      if (i.key().equals(PmixKey.PMIX_HOST)) {
        for (String part : NodeList.splitTopLevel(i.stringValue())) {
          String p = part.strip();
          if (p.startsWith("file=")) {
            files.add(p.substring(5));
          } else {
            specs.add(p);
          }
        }
      } else if (i.key().equals(PmixKey.PMIX_HOSTFILE)) {
        files.add(i.stringValue());
      }
    }
    if (specs.isEmpty() && files.isEmpty()) {
      throw Refused.badParam("PMIX_ALLOC_ACTIVATE without PMIX_HOST or PMIX_HOSTFILE");
    }
    List<NodeRec> chosen = resolveActivation(r.from(), specs);
    if (files.isEmpty()) {
      finishActivation(r, chosen);
      return;
    }
    Pending p = new Pending(r, "alloc ACTIVATE", Waiting.FILE);
    p.files = new LinkedHashMap<>();
    for (String f : files) {
      if (f.isEmpty()) {
        throw Refused.badParam("PMIX_HOSTFILE \"\": empty path");
      }
      p.files.put(f, null);
    }
    pending.put(r.requestId(), p);
    for (String f : p.files.keySet()) {
      out.add(new DvmDecision.ReadFile(r.requestId(), f));
    }
  }

  /** The nodes held by {@code from}: the pool and the sessions it controls, in DVM order. */
  private List<NodeRec> held(Client from) {
    List<NodeRec> l = new ArrayList<>();
    for (NodeRec n : nodes.values()) {
      if (n.session.isDefault() || controls(isScheduler(from), from, n.session)) {
        l.add(n);
      }
    }
    return l;
  }

  /**
   * Resolves PRRTE {@code --activate} entries: names, {@code +all}, {@code +n<K>}; slot suffixes
   * and {@code +e} are refused (spec/pmix/02 §6); all or nothing.
   */
  private List<NodeRec> resolveActivation(Client from, List<String> specs) {
    List<NodeRec> held = held(from);
    LinkedHashSet<NodeRec> chosen = new LinkedHashSet<>();
    for (String s : specs) {
      if (s.isEmpty()) {
        throw Refused.badParam("PMIX_HOST: an empty entry");
      }
      if (s.equals("+all")) {
        for (NodeRec n : held) {
          if (n.daemon == DaemonState.NONE || n.daemon == DaemonState.FAILED) {
            chosen.add(n);
          }
        }
      } else if (s.startsWith("+e")) {
        throw Refused.badParam("PMIX_HOST " + s + ": empty nodes (+e) cannot be activated");
      } else if (s.startsWith("+n")) {
        String k = s.substring(2);
        if (k.isEmpty() || k.length() > 6 || !k.chars().allMatch(c -> c >= '0' && c <= '9')) {
          throw Refused.badParam("PMIX_HOST " + s + ": expected +n<index>");
        }
        int idx = Integer.parseInt(k);
        if (idx >= held.size()) {
          throw Refused.notFound("PMIX_HOST " + s + ": only " + held.size() + " nodes are held");
        }
        chosen.add(held.get(idx));
      } else {
        for (NodeList.Entry e : NodeList.parse("PMIX_HOST", s, false)) {
          chosen.add(heldNode(from, held, e.host()));
        }
      }
    }
    return new ArrayList<>(chosen);
  }

  private NodeRec heldNode(Client from, List<NodeRec> held, String host) {
    NodeRec n = nodes.get(host);
    if (n == null) {
      throw Refused.notFound("PMIX_ALLOC_ACTIVATE: node " + host + " is not allocated to the DVM");
    }
    if (!held.contains(n)) {
      throw Refused.noPermissions(
          "PMIX_ALLOC_ACTIVATE: node "
              + host
              + " is held by session "
              + n.session.id
              + ", not by "
              + from.proc().nspace());
    }
    return n;
  }

  private void onFileRead(DvmEvent.FileRead e) {
    Pending p = pending.get(e.requestId());
    if (p == null
        || p.files == null
        || !p.files.containsKey(e.path())
        || p.files.get(e.path()) != null) {
      return;
    }
    DvmEvent.AllocationRequest r = (DvmEvent.AllocationRequest) p.request;
    if (e.content().isEmpty()) {
      refuse(
          r.requestId(),
          PmixStatus.PMIX_ERR_NOT_FOUND,
          "PMIX_HOSTFILE " + e.path() + ": cannot be read: " + e.error());
      return;
    }
    p.files.put(e.path(), e.content().get());
    if (p.files.containsValue(null)) {
      return;
    }
    try {
      List<String> specs = new ArrayList<>();
      for (Info i : r.infos()) {
        if (i.key().equals(PmixKey.PMIX_HOST)) {
          for (String part : NodeList.splitTopLevel(i.stringValue())) {
            if (!part.strip().startsWith("file=")) {
              specs.add(part.strip());
            }
          }
        }
      }
      for (Map.Entry<String, String> f : p.files.entrySet()) {
        specs.addAll(hostfileNames(f.getKey(), f.getValue()));
      }
      finishActivation(r, resolveActivation(r.from(), specs));
    } catch (Refused ex) {
      refuse(r.requestId(), ex, Optional.empty());
    }
  }

  /** The host names of a hostfile: one per line, {@code slots=} and comments ignored. */
  private static List<String> hostfileNames(String path, String text) {
    List<String> l = new ArrayList<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      int hash = line.indexOf('#');
      if (hash >= 0) {
        line = line.substring(0, hash);
      }
      line = line.strip();
      if (line.isEmpty()) {
        continue;
      }
      String name = line.split("\\s+")[0];
      if (name.contains(":") || name.startsWith("+")) {
        throw Refused.badParam(
            "PMIX_HOSTFILE " + path + " line " + (i + 1) + ": \"" + name + "\" is not a host name");
      }
      l.add(name);
    }
    if (l.isEmpty()) {
      throw Refused.badParam("PMIX_HOSTFILE " + path + ": names no host");
    }
    return l;
  }

  private void finishActivation(DvmEvent.AllocationRequest r, List<NodeRec> chosen) {
    List<String> started = new ArrayList<>();
    for (NodeRec n : chosen) {
      if (n.daemon == DaemonState.NONE || n.daemon == DaemonState.FAILED) {
        startDaemon(n);
        started.add(n.host);
      }
    }
    AllocInfos a = new AllocInfos();
    for (Info i : r.infos()) {
      if (i.key().equals(PmixKey.PMIX_ALLOC_REQ_ID)) {
        a.reqId = Optional.of(i.stringValue());
      }
    }
    growCampaign(r.from().proc(), Optional.empty(), a.reqId, started);
    List<Info> res = new ArrayList<>();
    a.reqId.ifPresent(q -> res.add(Info.of(PmixKey.PMIX_ALLOC_REQ_ID, q)));
    answer(r.requestId(), PmixStatus.PMIX_SUCCESS, res);
  }

  // ---------------------------------------------------------------- spawn

  private void spawn(DvmEvent.Spawn r) {
    if (r.apps().isEmpty()) {
      throw Refused.badParam("spawn: no app (expected: at least one)");
    }
    Info spawnAlloc = null;
    for (Info i : r.jobInfos()) {
      if (i.key().equals(DvmKeys.SPAWN_ALLOC)) {
        spawnAlloc = i;
      }
    }
    if (spawnAlloc == null) {
      SessionRec target = spawnTarget(r);
      launchSpawn(r, target, null);
      return;
    }
    // seed 001: an allocation request carried on the spawn is served first
    if (!spawnAlloc.isInfoArray()) {
      throw Refused.badParam("PMIX_SPAWN_ALLOC: not a data array of info");
    }
    AllocDirective dir = null;
    List<Info> req = new ArrayList<>();
    for (Info i : spawnAlloc.infosValue()) {
      if (i.key().equals(DvmKeys.ALLOC_REQ_DIRECTIVE)) {
        if (i.type() != PmixDataType.PMIX_ALLOC_DIRECTIVE) {
          throw Refused.badParam(
              "PMIX_ALLOC_REQ_DIRECTIVE: " + i.type() + " (expected: PMIX_ALLOC_DIRECTIVE)");
        }
        dir = AllocDirective.of((Integer) i.value()).orElse(null);
        if (dir == null) {
          throw Refused.badParam("PMIX_ALLOC_REQ_DIRECTIVE " + i.value() + ": unknown directive");
        }
      } else {
        req.add(i);
      }
    }
    if (dir == null) {
      throw Refused.badParam("PMIX_SPAWN_ALLOC without PMIX_ALLOC_REQ_DIRECTIVE");
    }
    if (dir != AllocDirective.NEW && dir != AllocDirective.EXTEND) {
      throw Refused.badParam(
          "PMIX_SPAWN_ALLOC with " + dir.pmixName() + " (expected: PMIX_ALLOC_NEW or EXTEND)");
    }
    if (scheduler != null) {
      long id = nextCall++;
      calls.put(id, new Call(r.requestId(), true));
      pending.put(r.requestId(), new Pending(r, "spawn (allocation)", Waiting.SCHEDULER));
      out.add(
          new DvmDecision.ToScheduler(
              id,
              OptionalLong.of(r.requestId()),
              new DvmDecision.Allocate(r.from().proc(), dir, withRequestor(req, r.from().proc()))));
      return;
    }
    List<Info> granted;
    try {
      granted = serveLocally(r.from(), dir, req);
    } catch (Refused e) {
      // seed 001: a refused allocation fails the spawn with JOB_ALLOC_FAILED, nothing launched
      throw new Refused(
          PmixStatus.PMIX_ERR_JOB_ALLOC_FAILED,
          "PMIX_SPAWN_ALLOC refused (" + e.status() + "): " + e.getMessage());
    }
    grantedSpawn(r, granted, dir == AllocDirective.NEW);
  }

  private void spawnAllocAnswered(DvmEvent.Spawn r, StatusInfos answer) {
    if (!answer.succeeded()) {
      refuse(
          r.requestId(),
          PmixStatus.PMIX_ERR_JOB_ALLOC_FAILED,
          "PMIX_SPAWN_ALLOC refused by the scheduler (" + answer.status() + ")");
      return;
    }
    pending.remove(r.requestId());
    try {
      grantedSpawn(r, answer.infos(), false);
    } catch (Refused e) {
      refuse(r.requestId(), e, Optional.empty());
    }
  }

  /** Launches a spawn into the session its allocation answer names (seed 001). */
  private void grantedSpawn(DvmEvent.Spawn r, List<Info> granted, boolean ownAllocation) {
    String allocId = null;
    for (Info i : granted) {
      if (i.key().equals(PmixKey.PMIX_ALLOC_ID)) {
        allocId = i.stringValue();
      }
    }
    SessionRec s = allocId == null ? dflt : byAllocId.get(allocId);
    if (s == null) {
      throw new Refused(
          PmixStatus.PMIX_ERR_JOB_ALLOC_FAILED,
          "PMIX_SPAWN_ALLOC: the grant names allocation " + allocId + ", unknown to the DVM");
    }
    launchSpawn(r, s, ownAllocation && !s.isDefault() ? s : null);
  }

  /**
   * The session a spawn runs in: PMIX_SPAWN_TARGET, else PMIX_ALLOC_ID, else the parent job's
   * session (an application), else the default session (a tool); spec/pmix/02 §3.1 and seed 002 (a
   * job spawns only into its own session or a child session it created).
   */
  private SessionRec spawnTarget(DvmEvent.Spawn r) {
    List<String> targets = new ArrayList<>();
    for (Info i : r.jobInfos()) {
      if (i.key().equals(PmixKey.PMIX_SPAWN_TARGET)) {
        if (i.type() == PmixDataType.PMIX_STRING) {
          targets.add(i.stringValue());
        } else {
          if (!i.isInfoArray()) {
            throw Refused.badParam("PMIX_SPAWN_TARGET: a data array of apps");
          }
          for (Info t : i.infosValue()) {
            if (t.type() != PmixDataType.PMIX_STRING) {
              throw Refused.badParam(
                  "PMIX_SPAWN_TARGET element " + t.key() + ": " + t.type() + " (expected: string)");
            }
            targets.add(t.stringValue());
          }
        }
      } else if (i.key().equals(PmixKey.PMIX_ALLOC_ID) && targets.isEmpty()) {
        targets.add(i.stringValue());
      }
    }
    JobRec parent = jobs.get(r.from().proc().nspace());
    if (targets.isEmpty()) {
      return parent != null && r.from().kind() == Client.Kind.APPLICATION ? parent.session : dflt;
    }
    SessionRec chosen = null;
    for (String t : targets) {
      SessionRec s = byAllocId.get(t);
      if (s == null) {
        // spec/pmix/03 §8: SPAWN_TARGET unresolved → NOT_FOUND
        throw Refused.notFound("PMIX_SPAWN_TARGET " + t + ": no such allocation");
      }
      if (!spawnAllowed(r.from(), parent, s)) {
        throw Refused.noPermissions(
            "PMIX_SPAWN_TARGET " + t + ": " + r.from().proc().nspace() + " may not spawn into it");
      }
      if (chosen == null) {
        chosen = s;
      }
    }
    return chosen;
  }

  private boolean spawnAllowed(Client from, JobRec parent, SessionRec s) {
    if (isScheduler(from)) {
      return true;
    }
    if (from.kind() == Client.Kind.APPLICATION && parent != null) {
      // seed 002 assumption 2: its own session, or a child session it created
      return s == parent.session || s.owners.contains(parent.nspace);
    }
    return controls(false, from, s);
  }

  private void launchSpawn(DvmEvent.Spawn r, SessionRec s, SessionRec ownAllocation) {
    boolean nohup = false;
    for (Info i : r.jobInfos()) {
      if (i.key().equals(PmixKey.PMIX_NOHUP)) {
        nohup = i.boolValue();
      }
    }
    JobRec parent =
        r.from().kind() == Client.Kind.APPLICATION ? jobs.get(r.from().proc().nspace()) : null;
    JobRec j =
        newJob(s, r.apps(), r.jobInfos(), parent == null ? null : parent.nspace, nohup, r.from());
    j.spawnAllocation = ownAllocation;
    if (!s.isDefault()) {
      // spec/pmix/02 §3.1: every job spawned into a session becomes one of its owners
      s.owners.add(j.nspace);
    }
    j.answerOnLaunch = r.requestId();
    j.answerInfos = List.of();
    pending.put(r.requestId(), new Pending(r, "spawn", waitOf(j)));
    tryLaunch(j);
  }

  /**
   * Where the free-slot index of a session differs from a plain scan of its nodes (decision D416):
   * for the core's tests, which check it after every step. Empty when the index is right.
   *
   * @return one line per difference
   */
  List<String> indexProblems() {
    List<String> p = new ArrayList<>();
    List<SessionRec> all = new ArrayList<>();
    all.add(dflt);
    all.addAll(sessions.values());
    for (SessionRec s : all) {
      List<NodeRec> scan = new ArrayList<>();
      int starting = 0;
      for (NodeRec n : s.nodes) {
        if (n.member != s || n.session != s) {
          p.add("node " + n.host + " of session " + s.id + " is indexed elsewhere");
        }
        checkJobsOn(n, p);
        if (n.tentative != 0) {
          p.add("node " + n.host + " keeps " + n.tentative + " tentative placements between jobs");
        }
        if (n.hasFreeSlot()) {
          scan.add(n);
        }
        if (n.daemon == DaemonState.STARTING) {
          starting++;
        }
      }
      if (!scan.equals(new ArrayList<>(s.free.values()))) {
        p.add(
            "session "
                + s.id
                + ": free-slot index "
                + s.free.values().stream().map(n -> n.host).toList()
                + ", a scan finds "
                + scan.stream().map(n -> n.host).toList());
      }
      if (starting != s.starting) {
        p.add("session " + s.id + ": " + s.starting + " starting daemons counted, " + starting);
      }
    }
    for (NodeRec n : leaving.values()) {
      checkJobsOn(n, p);
      if (n.member != null) {
        p.add("leaving node " + n.host + " is still indexed in session " + n.member.id);
      }
    }
    return p;
  }

  /** Whether {@code n}'s jobs with their process counts are what the jobs' maps say. */
  private void checkJobsOn(NodeRec n, List<String> p) {
    Map<JobRec, Integer> counted = new HashMap<>();
    for (JobRec j : jobs.values()) {
      for (NodeRec m : j.live.values()) {
        if (m == n) {
          counted.merge(j, 1, Integer::sum);
        }
      }
    }
    if (!counted.equals(n.jobsOn)) {
      p.add("node " + n.host + ": jobs on it " + n.jobsOn.size() + ", the maps say " + counted);
    }
  }

  // ---------------------------------------------------------------- the view

  private final class CoreView implements DvmView {
    @Override
    public ElasticView elastic() {
      List<CampaignView> cs = new ArrayList<>();
      for (Campaign c : open.values()) {
        Map<Long, String> t = new LinkedHashMap<>();
        c.targets.forEach((r, n) -> t.put(r, n.host));
        List<String> rids = new ArrayList<>();
        c.requesters.forEach(r -> r.reqId().ifPresent(rids::add));
        cs.add(
            new CampaignView(
                c.id, c.grow, t, c.pending, c.requesters.size(), rids, c.contribution));
      }
      List<String> m = new ArrayList<>();
      heldAtMap.forEach(j -> m.add(j.nspace));
      List<String> l = new ArrayList<>();
      heldAtLaunch.forEach(j -> l.add(j.nspace));
      return new ElasticView(fence, cs, m, l, deferredReleases.size());
    }

    @Override
    public String master() {
      return config.master();
    }

    @Override
    public String dvmNspace() {
      return config.dvmNspace();
    }

    @Override
    public Optional<Client> scheduler() {
      return Optional.ofNullable(scheduler);
    }

    @Override
    public List<NodeView> nodes() {
      List<NodeView> l = new ArrayList<>(nodes.size());
      for (NodeRec n : nodes.values()) {
        l.add(n.view());
      }
      return l;
    }

    @Override
    public Optional<NodeView> node(String host) {
      NodeRec n = nodes.get(host);
      return n == null ? Optional.empty() : Optional.of(n.view());
    }

    @Override
    public List<String> pool() {
      return hosts(dflt);
    }

    @Override
    public SessionView defaultSession() {
      return dflt.view();
    }

    @Override
    public List<SessionView> sessions() {
      List<SessionView> l = new ArrayList<>(sessions.size());
      for (SessionRec s : sessions.values()) {
        l.add(s.view());
      }
      return l;
    }

    @Override
    public Optional<SessionView> session(long id) {
      if (id == DEFAULT_SESSION) {
        return Optional.of(dflt.view());
      }
      SessionRec s = sessions.get(id);
      return s == null ? Optional.empty() : Optional.of(s.view());
    }

    @Override
    public List<JobView> jobs() {
      List<JobView> l = new ArrayList<>(jobs.size());
      for (JobRec j : jobs.values()) {
        l.add(j.view());
      }
      return l;
    }

    @Override
    public Optional<JobView> job(String nspace) {
      JobRec j = jobs.get(nspace);
      return j == null ? Optional.empty() : Optional.of(j.view());
    }

    @Override
    public List<PendingRequest> pendingRequests() {
      List<PendingRequest> l = new ArrayList<>(pending.size());
      for (Map.Entry<Long, Pending> e : pending.entrySet()) {
        Pending p = e.getValue();
        l.add(new PendingRequest(e.getKey(), p.request.from(), p.request.via(), p.what, p.waiting));
      }
      return l;
    }
  }
}
