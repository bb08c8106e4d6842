package io.fluxdrm.dvm.exec;

/**
 * What an {@link Executor} reports. Every call runs on the executor's event loop, after the call
 * that caused it has returned (never re-entrantly), so a service may feed each one to its core as
 * an input event.
 */
public interface ExecListener {
  /**
   * The daemon on {@code host} is up.
   *
   * @param host the node
   */
  void daemonUp(String host);

  /**
   * The daemon on {@code host} failed to start, or died.
   *
   * @param host the node
   * @param reason what happened, for the log
   */
  void daemonFailed(String host, String reason);

  /**
   * The daemon on {@code host} has left after a stop.
   *
   * @param host the node
   */
  void daemonLeft(String host);

  /**
   * Every proc of job {@code nspace} was started.
   *
   * @param nspace the job
   */
  void launched(String nspace);

  /**
   * Job {@code nspace} could not be started; none of its procs is left running and none of them
   * reports an exit.
   *
   * @param nspace the job
   * @param reason what went wrong, for the log and the answer
   */
  void launchFailed(String nspace, String reason);

  /**
   * A proc of a launched job ended.
   *
   * @param nspace the job
   * @param rank the proc's rank in the job
   * @param status its exit status as a shell reports it: the exit code, or 128 + n when signal n
   *     ended it (PRRTE's odls does the same)
   * @param termSignal the signal that ended it, 0 when it exited
   */
  void procExited(String nspace, long rank, int status, int termSignal);
}
