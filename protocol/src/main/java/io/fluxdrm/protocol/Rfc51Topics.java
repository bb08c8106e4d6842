package io.fluxdrm.protocol;

/**
 * The topics of RFC 51 (dynamic allocation, RFC 51 §Realloc and §Realloc Cancel): a running job's
 * requests to grow or shrink go to the scheduler as {@code sched.realloc}, through the job
 * manager's {@code job-manager.realloc}; a shrink's resources come back through {@code
 * job-manager.release} and RFC 27's {@code sched.free} with {@code final:false}.
 */
public final class Rfc51Topics {

  /** RFC 51 "Realloc": grow or shrink a running job's allocation. */
  public static final String REALLOC_METHOD = "realloc";

  /**
   * RFC 51 "Realloc Cancel" (as RFC 6 cancels): cancel a pending realloc, {@code {"matchtag": N}},
   * sent without a response.
   */
  public static final String REALLOC_CANCEL_METHOD = "realloc_cancel";

  /**
   * RFC 51 "Background": the job manager's release of ranks a shrink took away, once they are
   * vacated.
   */
  public static final String RELEASE_METHOD = "release";

  public static final String SCHED_REALLOC = Rfc27Topics.SCHED + "." + REALLOC_METHOD;
  public static final String SCHED_REALLOC_CANCEL = Rfc27Topics.SCHED + "." + REALLOC_CANCEL_METHOD;
  public static final String JOB_MANAGER_REALLOC = Rfc27Topics.JOB_MANAGER + "." + REALLOC_METHOD;
  public static final String JOB_MANAGER_REALLOC_CANCEL =
      Rfc27Topics.JOB_MANAGER + "." + REALLOC_CANCEL_METHOD;
  public static final String JOB_MANAGER_RELEASE = Rfc27Topics.JOB_MANAGER + "." + RELEASE_METHOD;

  /**
   * Not RFC 51 (D473): a scheduler that has just attached to a flux-core instance tells the realloc
   * jobtap plugin, before it serves {@code sched.realloc}, that the requests forwarded to the
   * scheduler before it are lost; the plugin answers them EAGAIN.
   */
  public static final String JOB_MANAGER_REALLOC_RESET = Rfc27Topics.JOB_MANAGER + ".realloc_reset";

  private Rfc51Topics() {}
}
