package io.fluxdrm.dvm.core;

import io.fluxdrm.dvm.core.DvmDecision.Answer;
import io.fluxdrm.dvm.core.DvmView.JobState;
import io.fluxdrm.dvm.core.DvmView.Waiting;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixDataType;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.port.Event;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.pmix.request.InfoWriter;
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
 * The state every part of a {@link DvmCore} reads and changes (decision D522): the nodes, the
 * sessions and jobs with their indexes, the requests, calls, timers and registrations in flight,
 * the id counters, the elastic state (PRRTE's elastic-DVM spec) and the decisions of the event
 * being handled, with the few operations all parts share (answers and refusals, events, daemons
 * started and stopped, taking a node out of its session). It calls no part.
 */
final class DvmModel {
  static final long UINT32_MAX = 0xFFFF_FFFFL;

  final DvmConfig config;
  final PmixProc self;
  final LinkedHashMap<String, NodeRec> nodes = new LinkedHashMap<>();

  /** Handed-back nodes whose daemon has not left yet: in neither the pool nor a session. */
  final LinkedHashMap<String, NodeRec> leaving = new LinkedHashMap<>();

  final SessionRec dflt;
  final TreeMap<Long, SessionRec> sessions = new TreeMap<>(Long::compareUnsigned);
  final Map<String, SessionRec> byAllocId = new HashMap<>();
  final LinkedHashMap<String, JobRec> jobs = new LinkedHashMap<>();
  final LinkedHashMap<Long, Pending> pending = new LinkedHashMap<>();
  final Map<Long, Call> calls = new HashMap<>();
  final Map<Long, Timer> timers = new HashMap<>();
  final LinkedHashMap<Long, Registration> registrations = new LinkedHashMap<>();

  /** Live jobs by the namespace that spawned them (kept until each retires). */
  final Map<String, LinkedHashSet<JobRec>> childrenOf = new HashMap<>();

  /** Sessions by owner namespace. */
  final Map<String, LinkedHashSet<SessionRec>> ownedBy = new HashMap<>();

  /** Sessions whose owner is gone, waiting for its descendants (CHILD, CHILD_DEFAULT). */
  final LinkedHashSet<SessionRec> subtreeWaiting = new LinkedHashSet<>();

  /** How many live jobs descend from each namespace (spawned by it or its descendants). */
  final Map<String, Integer> liveDescendants = new HashMap<>();

  /** Jobs waiting for daemons. */
  final LinkedHashSet<JobRec> waitingJobs = new LinkedHashSet<>();

  Client scheduler;
  boolean started;
  long nextCall = 1;
  long nextTimer = 1;
  long nextJob = 1;
  long nextSession = 1;

  /** The decisions of the event being handled. */
  List<DvmDecision> out = new ArrayList<>();

  // elastic state (PRRTE's elastic-DVM spec)

  /**
   * The launch fence: the sum of the open campaigns' contributions (PRRTE elastic-DVM spec, launch
   * fence and campaigns).
   */
  int fence;

  long nextCampaign = 1;
  long nextRank;

  /** Open campaigns by id, oldest first. */
  final LinkedHashMap<Long, Campaign> open = new LinkedHashMap<>();

  /** Campaigns by target daemon rank. */
  final Map<Long, Campaign> campaignOf = new HashMap<>();

  /** Jobs parked at the map boundary (VM_READY → MAP). */
  final LinkedHashSet<JobRec> heldAtMap = new LinkedHashSet<>();

  /** Jobs parked at the launch boundary (LAUNCH_APPS), their map kept. */
  final LinkedHashSet<JobRec> heldAtLaunch = new LinkedHashSet<>();

  /** Releases that arrived while a grow was open, replayed once no grow is (B14, D24, D402). */
  final List<DvmEvent.AllocationRequest> deferredReleases = new ArrayList<>();

  /** Daemons started by the event being handled, not yet in a campaign. */
  final List<NodeRec> unclaimedStarts = new ArrayList<>();

  /** Daemons stopped by the event being handled, not yet in a campaign. */
  final List<NodeRec> unclaimedStops = new ArrayList<>();

  /** Sessions that lost their last starting daemon during the event being handled. */
  final Set<SessionRec> startingDone = new java.util.HashSet<>();

  /** Requester of the daemons started or stopped by the event being handled, if any. */
  Requester batchRequester;

  DvmModel(DvmConfig config) {
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
   * Takes {@code n} out of {@code s}; when it was the last node of {@code s} whose daemon was still
   * starting, the jobs of {@code s} waiting for daemons are tried again at the end of the event: a
   * daemon that leaves before it ever came up (a release, a rollback, a reclaim) is no longer
   * waited for.
   */
  void takeOut(SessionRec s, NodeRec n) {
    int before = s.starting;
    s.removeNode(n);
    if (before > 0 && s.starting == 0) {
      startingDone.add(s);
    }
  }

  void answer(long requestId, PmixStatus status, List<Info> infos) {
    pending.remove(requestId);
    out.add(new Answer(requestId, new StatusInfos(status, infos)));
  }

  void refuse(long requestId, Refused e, Optional<String> ctrlId) {
    InfoWriter infos = InfoWriter.create();
    ctrlId.ifPresent(infos::ctrlId);
    infos.info(new Info(DvmKeys.REASON, PmixDataType.PMIX_STRING, e.getMessage()));
    answer(requestId, e.status(), infos.infos());
  }

  void refuse(long requestId, PmixStatus status, String reason) {
    refuse(requestId, new Refused(status, reason), Optional.empty());
  }

  boolean isScheduler(Client c) {
    return scheduler != null
        && c.kind() == Client.Kind.SCHEDULER
        && c.proc().equals(scheduler.proc());
  }

  void forward(DvmEvent.Request r, DvmDecision.Upcall call, String what) {
    long id = nextCall++;
    calls.put(id, new Call(r.requestId(), false));
    pending.put(r.requestId(), new Pending(r, what, Waiting.SCHEDULER));
    out.add(new DvmDecision.ToScheduler(id, OptionalLong.of(r.requestId()), call));
  }

  static List<Info> withRequestor(List<Info> infos, PmixProc requester) {
    List<Info> l = new ArrayList<>(infos.size() + 1);
    for (Info i : infos) {
      if (!i.key().equals(PmixKey.PMIX_REQUESTOR)) {
        l.add(i);
      }
    }
    l.add(Info.of(PmixKey.PMIX_REQUESTOR, requester));
    return l;
  }

  /**
   * Whether {@code c} may act on {@code s}: the scheduler, an owner namespace, or a tool of the
   * user the session was granted to (PRRTE §7.4.4.1 "Who answers a request"; PRRTE's
   * prte_session_is_owned_by).
   */
  boolean controls(boolean fromScheduler, Client c, SessionRec s) {
    if (fromScheduler || s.owners.contains(c.proc().nspace())) {
      return true;
    }
    return c.kind() == Client.Kind.TOOL && s.ownerUid != null && s.ownerUid == c.uid();
  }

  void startDaemon(NodeRec n) {
    n.setDaemon(DaemonState.STARTING);
    // PRRTE's elastic-DVM spec: campaigns record the exact daemon ranks they launch (a re-grown
    // node gets a new
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
  boolean stopDaemon(NodeRec n, SessionRec returnTo) {
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

  static Waiting waitOf(JobRec j) {
    return j.state == JobState.WAITING_FOR_DAEMONS ? Waiting.DAEMONS : Waiting.LAUNCH;
  }

  void register(SessionRec s) {
    sessions.put(s.id, s);
    byAllocId.put(s.allocId, s);
    if (s.owner != null) {
      ownedBy.computeIfAbsent(s.owner, k -> new LinkedHashSet<>()).add(s);
    }
  }

  static List<String> hosts(SessionRec s) {
    List<String> l = new ArrayList<>(s.nodes.size());
    for (NodeRec n : s.nodes) {
      l.add(n.host);
    }
    return l;
  }

  static String sessionName(SessionRec s) {
    return s.isDefault() ? "default" : Long.toUnsignedString(s.id);
  }

  /** The jobs with processes on {@code n}, in the order they were made. */
  static List<JobRec> jobsOn(NodeRec n) {
    List<JobRec> l = new ArrayList<>(n.jobsOn.keySet());
    l.sort(java.util.Comparator.comparingLong(j -> j.seq));
    return l;
  }

  /** An event directed to {@code target}, delivered to its handlers registered for the code. */
  void notify(int code, List<Info> infos, PmixProc target) {
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

  long freshSessionId() {
    while (nextSession == UINT32_MAX || sessions.containsKey(nextSession)) {
      nextSession = nextSession >= UINT32_MAX ? 1 : nextSession + 1;
    }
    return nextSession++;
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
}
