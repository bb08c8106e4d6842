package io.fluxdrm.protocol;

import io.fluxdrm.rpc.JobId;

/**
 * The job shell's RFC 51 methods, on the service {@code <uid>-shell-<id>} that each job's shell
 * registers: the userid in decimal and the job id in F58 with an ASCII {@code f} ({@link
 * JobId#f58plain}), as flux-core's job shell names its service.
 */
public final class ShellTopics {

  /** The shell asks for its job to grow or shrink (forwarded as {@code job-manager.realloc}). */
  public static final String REALLOC_METHOD = "realloc";

  /** Cancel of a pending shell realloc, {@code {"matchtag": N}}. */
  public static final String REALLOC_CANCEL_METHOD = "realloc_cancel";

  /**
   * The shell's release of ranks a shrink took away (RFC 51 "Background": {@code shell.release}).
   */
  public static final String RELEASE_METHOD = "release";

  /** The tasks on some ranks have exited (the shrink's departure). */
  public static final String TASK_EXIT_METHOD = "task-exit";

  /** The service name of job {@code jobId}'s shell, run by {@code uid}. */
  public static String service(int uid, long jobId) {
    return Integer.toUnsignedString(uid) + "-shell-" + JobId.f58plain(jobId);
  }

  /** The full topic of {@code method} on job {@code jobId}'s shell. */
  public static String topic(int uid, long jobId, String method) {
    return service(uid, jobId) + "." + method;
  }

  private ShellTopics() {}
}
