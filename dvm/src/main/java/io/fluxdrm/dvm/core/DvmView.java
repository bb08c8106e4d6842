package io.fluxdrm.dvm.core;

import io.fluxdrm.pmix.AllocInheritance;
import io.fluxdrm.pmix.port.Client;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * A read-only view of the DVM core's state, for invariant checks ({@link DvmInvariants}), tests and
 * status output. Each call builds an immutable snapshot of what it returns; nothing returned
 * changes later.
 */
public interface DvmView {

  /**
   * The id of the default session, whose nodes are the unreserved pool (PRRTE PR #1904, assumption
   * 3).
   */
  long DEFAULT_SESSION = 0xFFFF_FFFFL;

  /** The master (HNP) node's host. */
  String master();

  /**
   * The DVM's own namespace (its job runs in the default session, PRRTE PR #1904, assumption 5).
   */
  String dvmNspace();

  /** The attached scheduler, if any. */
  Optional<Client> scheduler();

  /** Every node the DVM knows, in the order it learnt of them. */
  List<NodeView> nodes();

  /** The node {@code host}, if known. */
  Optional<NodeView> node(String host);

  /** The hosts of the default session: the unreserved pool. */
  List<String> pool();

  /** The default session. */
  SessionView defaultSession();

  /** Every reserved session (never the default one), by id. */
  List<SessionView> sessions();

  /** Session {@code id}, the default one included. */
  Optional<SessionView> session(long id);

  /** Every job not yet ended, the DVM's own excluded, in launch order. */
  List<JobView> jobs();

  /** Job {@code nspace}, if not yet ended. */
  Optional<JobView> job(String nspace);

  /** The requests in flight (PRRTE PR #1904's request tracker), oldest first. */
  List<PendingRequest> pendingRequests();

  /** One node: its host, slots, daemon state and the session holding it. */
  record NodeView(String host, int slots, DaemonState daemon, long sessionId) {
    /** Checks. */
    public NodeView {
      Objects.requireNonNull(host, "host");
      Objects.requireNonNull(daemon, "daemon");
    }
  }

  /** Session flags, after PRRTE's {@code prte_session_t} flags (PRRTE's prte_session_t). */
  enum SessionFlag {
    /** Holds nodes withheld from general use. */
    RESERVED,
    /** Independent of its owner's lifetime ({@code PMIX_SESSION_SEP}). */
    DETACHED,
    /** Paused by {@code PMIX_SESSION_PAUSE}. */
    PAUSED,
    /** Instantiated by the scheduler: {@code PMIX_SESSION_COMPLETE} goes to it at the end. */
    SCHEDULER,
    /** Terminating: reclaimed when its last job retires. */
    TERMINATING,
    /** Created to run apps: reclaimed when the last of them retires. */
    AUTO_COMPLETE
  }

  /**
   * What an ended job left for {@code PMIX_SESSION_COMPLETE}: its namespace and its {@code
   * PMIX_JOB_TERM_STATUS} (0 when every process exited 0, else the first non-zero exit code, 128+N
   * for a process killed by signal N).
   */
  record JobResult(String nspace, int termStatus) {
    /** Checks. */
    public JobResult {
      Objects.requireNonNull(nspace, "nspace");
    }
  }

  /**
   * One session.
   *
   * @param id its id (u64; {@link #DEFAULT_SESSION} for the default one)
   * @param allocId its {@code PMIX_ALLOC_ID} (empty string for the default session)
   * @param reqId the {@code PMIX_ALLOC_REQ_ID} it was made with, if any
   * @param hosts the nodes it holds
   * @param jobs the namespaces of its jobs not yet ended
   * @param children sessions created by its jobs with {@code PMIX_ALLOC_NEW}
   * @param parent the session whose job created it, if any
   * @param owners namespaces allowed to act on it and map onto it
   * @param owner the namespace its inheritance follows, if any
   * @param ownerUid the user it was granted to, if recorded
   * @param inheritance what becomes of its nodes at the end
   * @param flags its flags
   * @param timeLimit its time limit, if one is armed
   * @param results ended jobs' statuses, accumulated for {@code PMIX_SESSION_COMPLETE}
   */
  record SessionView(
      long id,
      String allocId,
      Optional<String> reqId,
      List<String> hosts,
      List<String> jobs,
      List<Long> children,
      OptionalLong parent,
      Set<String> owners,
      Optional<String> owner,
      OptionalLong ownerUid,
      AllocInheritance inheritance,
      Set<SessionFlag> flags,
      Optional<Duration> timeLimit,
      List<JobResult> results) {
    /** Copies. */
    public SessionView {
      hosts = List.copyOf(hosts);
      jobs = List.copyOf(jobs);
      children = List.copyOf(children);
      owners = Set.copyOf(owners);
      flags = Set.copyOf(flags);
      results = List.copyOf(results);
    }

    /** Whether the session has {@code flag}. */
    public boolean has(SessionFlag flag) {
      return flags.contains(flag);
    }
  }

  /** Where a job is in its life. */
  enum JobState {
    /**
     * Waiting for the daemons of its nodes to come up before it is mapped (PRRTE §7.4.4 Session
     * Control).
     */
    WAITING_FOR_DAEMONS,
    /**
     * Mapped, its processes placed, not past the launch boundary yet (elastic mode: MAP and
     * LAUNCH_APPS are separate steps, PRRTE elastic-DVM spec, job states).
     */
    MAPPED,
    /** A launch was decided; not reported launched yet. */
    LAUNCHING,
    /** Launched: its processes run (or are stopped). */
    RUNNING,
    /** Being terminated: signalled, its last processes not yet reported gone. */
    TERMINATING
  }

  /**
   * One job.
   *
   * @param nspace its namespace
   * @param sessionId the session it runs in
   * @param state where it is
   * @param procsPerNode how many of its processes each node runs (empty before mapping)
   * @param liveProcs processes not yet reported ended
   * @param stopped whether the DVM stopped it (pause or preempt) and has not continued it
   * @param parent the namespace that spawned it, if any
   * @param nohup whether it outlives its parent ({@code PMIX_NOHUP})
   */
  record JobView(
      String nspace,
      long sessionId,
      JobState state,
      Map<String, Integer> procsPerNode,
      int liveProcs,
      boolean stopped,
      Optional<String> parent,
      boolean nohup) {
    /** Copies. */
    public JobView {
      Objects.requireNonNull(nspace, "nspace");
      Objects.requireNonNull(state, "state");
      procsPerNode = Map.copyOf(procsPerNode);
    }
  }

  /** What a request in flight waits for. */
  enum Waiting {
    /** The scheduler's answer to the forwarded request. */
    SCHEDULER,
    /** Its job's launch (an instantiation or spawn with apps). */
    LAUNCH,
    /** Daemons of the nodes it named to come up. */
    DAEMONS,
    /** The text of a file it names ({@code PMIX_HOSTFILE}). */
    FILE
  }

  /**
   * One request in flight.
   *
   * @param requestId the service's id
   * @param from who asked
   * @param via the daemon it came through
   * @param what a short description ({@code session-control 42 PAUSE}, {@code alloc NEW})
   * @param waiting what it waits for
   */
  record PendingRequest(long requestId, Client from, String via, String what, Waiting waiting) {
    /** Checks. */
    public PendingRequest {
      Objects.requireNonNull(from, "from");
      Objects.requireNonNull(via, "via");
      Objects.requireNonNull(what, "what");
      Objects.requireNonNull(waiting, "waiting");
    }
  }

  /**
   * The elastic DVM's state (PRRTE's elastic-DVM spec): the launch fence, the open campaigns, the
   * held jobs. Empty (fence 0, nothing open or held) outside elastic mode.
   */
  default ElasticView elastic() {
    return new ElasticView(0, List.of(), List.of(), List.of(), 0);
  }

  /**
   * One open campaign.
   *
   * @param id its id
   * @param grow a grow (else a shrink)
   * @param targets its target daemon ranks with their hosts
   * @param pending the ranks not yet up (grow) or not yet departed (shrink)
   * @param requesters how many distinct requesters wait for its event
   * @param reqIds the PMIX_ALLOC_REQ_IDs of those requesters' requests that carried one
   * @param contribution what it adds to the fence
   */
  record CampaignView(
      long id,
      boolean grow,
      Map<Long, String> targets,
      Set<Long> pending,
      int requesters,
      List<String> reqIds,
      int contribution) {
    /** Copies. */
    public CampaignView {
      targets = Map.copyOf(targets);
      pending = Set.copyOf(pending);
      reqIds = List.copyOf(reqIds);
    }
  }

  /**
   * The elastic state.
   *
   * @param fence the launch fence
   * @param campaigns the open campaigns, oldest first
   * @param heldAtMap jobs parked at the map boundary
   * @param heldAtLaunch jobs parked at the launch boundary
   * @param deferredReleases releases parked behind a grow
   */
  record ElasticView(
      int fence,
      List<CampaignView> campaigns,
      List<String> heldAtMap,
      List<String> heldAtLaunch,
      int deferredReleases) {
    /** Copies. */
    public ElasticView {
      campaigns = List.copyOf(campaigns);
      heldAtMap = List.copyOf(heldAtMap);
      heldAtLaunch = List.copyOf(heldAtLaunch);
    }
  }
}
