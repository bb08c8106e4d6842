package io.fluxdrm.dvm.wire;

/**
 * The topics of the DVM's protocol on a hub. The DVM registers {@link #SERVICE}; an attached
 * scheduler registers {@link #SCHED_SERVICE} and serves the upcalls the DVM sends it.
 */
public final class DvmTopics {
  private DvmTopics() {}

  /** The DVM's service name. */
  public static final String SERVICE = "dvm";

  /** {@code PMIx_Allocation_request}: {@code {directive, infos}} → {@code {status, infos}}. */
  public static final String ALLOC = "dvm.alloc";

  /** {@code PMIx_Session_control}: {@code {session_id, directives}} → {@code {status, infos}}. */
  public static final String SESSION_CONTROL = "dvm.session-control";

  /** {@code PMIx_Spawn}: {@code {apps, job_infos}} → {@code {status, nspace?}}. */
  public static final String SPAWN = "dvm.spawn";

  /**
   * {@code PMIx_Register_event_handler}, streaming: {@code {codes}} → first {@code {status, ref}},
   * then one {@code {event}} per event, until {@link #EVENT_DEREGISTER} ends it with ENODATA.
   */
  public static final String EVENT_REGISTER = "dvm.event-register";

  /** {@code PMIx_Deregister_event_handler}: {@code {ref}} → {@code {status}}. */
  public static final String EVENT_DEREGISTER = "dvm.event-deregister";

  /**
   * The scheduler attaches (instance owner only): {@code {}} → {@code {}}. Its connection is then
   * the scheduler's: its own requests are executed, the DVM's upcalls go to {@link #SCHED_SERVICE}.
   */
  public static final String SCHEDULER_ATTACH = "dvm.scheduler-attach";

  /**
   * An event the attached scheduler raises toward the DVM ({@code PMIX_ALLOC_TIMEOUT_WARNING}):
   * {@code {status, infos}} → {@code {}}; from the scheduler's connection only (EPERM otherwise).
   */
  public static final String SCHEDULER_EVENT = "dvm.scheduler-event";

  /** The scheduler's service name. */
  public static final String SCHED_SERVICE = "dvm-sched";

  /**
   * The DVM tells a scheduler already running that it is up: {@code {}} → {@code {}}; the scheduler
   * then sends {@link #SCHEDULER_ATTACH}.
   */
  public static final String SCHED_HELLO = "dvm-sched.hello";

  /**
   * The {@code allocate} upcall: {@code {requester, directive, infos}} → {@code {status, infos}}.
   */
  public static final String SCHED_ALLOCATE = "dvm-sched.allocate";

  /**
   * The {@code session_control} upcall (a forwarded request, or the DVM's {@code
   * PMIX_SESSION_COMPLETE}): {@code {requester, session_id, directives}} → {@code {status, infos}}.
   */
  public static final String SCHED_SESSION_CONTROL = "dvm-sched.session-control";

  /**
   * The release hook ({@link io.fluxdrm.pmix.port.SchedulerUpcalls#nodesReleased}): {@code {hosts}}
   * → {@code {}}; the hosts have left the DVM, their daemons gone (D421).
   */
  public static final String SCHED_NODES_RELEASED = "dvm-sched.nodes-released";
}
