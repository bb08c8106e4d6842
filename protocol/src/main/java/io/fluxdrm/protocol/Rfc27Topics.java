package io.fluxdrm.protocol;

/**
 * The topics of RFC 27 (Flux Resource Allocation Protocol Version 1), as the RFC names them; the
 * sections cited are those of RFC 27: the scheduler's service {@code sched} and the job manager's
 * side of the handshake. A service registers methods by their name within the service ({@link
 * #ALLOC_METHOD}); a client addresses the full topic ({@link #ALLOC}).
 */
public final class Rfc27Topics {

  /** The scheduler's service name (RFC 27 digest §1, roles and service names). */
  public static final String SCHED = "sched";

  /** The job manager's service name (the hello and ready handshake of RFC 27 digest §3). */
  public static final String JOB_MANAGER = "job-manager";

  /** RFC 27 digest §4: the job manager asks for resources for one job. */
  public static final String ALLOC_METHOD = "alloc";

  /**
   * RFC 27 digest §7: the job manager frees a job's resources (all, or part with {@code final}).
   */
  public static final String FREE_METHOD = "free";

  /** RFC 27 digest §5: the job manager cancels a pending alloc. */
  public static final String CANCEL_METHOD = "cancel";

  /** RFC 27 digest §6: the job manager changes pending jobs' priorities. */
  public static final String PRIORITIZE_METHOD = "prioritize";

  /** RFC 27 digest §8: the job manager changes a running job's expiration. */
  public static final String EXPIRATION_METHOD = "expiration";

  /** The scheduler's resource status query, flux-core's and not RFC 27's (RFC 27 digest §10). */
  public static final String RESOURCE_STATUS_METHOD = "resource-status";

  /**
   * RFC 27 digest §3.1: the scheduler's hello to the job manager, answered with the running jobs.
   */
  public static final String SCHED_HELLO_METHOD = "sched-hello";

  /** RFC 27 digest §3.2: the scheduler's ready, with its mode and queue limit. */
  public static final String SCHED_READY_METHOD = "sched-ready";

  /** flux-core's {@code job-manager.raise}: an exception raised on a job (RFC 27 digest §10). */
  public static final String RAISE_METHOD = "raise";

  public static final String ALLOC = SCHED + "." + ALLOC_METHOD;
  public static final String FREE = SCHED + "." + FREE_METHOD;
  public static final String CANCEL = SCHED + "." + CANCEL_METHOD;
  public static final String PRIORITIZE = SCHED + "." + PRIORITIZE_METHOD;
  public static final String EXPIRATION = SCHED + "." + EXPIRATION_METHOD;
  public static final String RESOURCE_STATUS = SCHED + "." + RESOURCE_STATUS_METHOD;
  public static final String SCHED_HELLO = JOB_MANAGER + "." + SCHED_HELLO_METHOD;
  public static final String SCHED_READY = JOB_MANAGER + "." + SCHED_READY_METHOD;
  public static final String RAISE = JOB_MANAGER + "." + RAISE_METHOD;

  private Rfc27Topics() {}
}
