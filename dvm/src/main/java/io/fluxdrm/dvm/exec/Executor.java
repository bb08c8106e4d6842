package io.fluxdrm.dvm.exec;

import java.util.List;
import java.util.Map;

/**
 * Carries out the DVM's effects: daemons, job launches and signals. Called only on its event loop;
 * results reach the {@link ExecListener} given at construction, on the loop, later.
 */
public interface Executor extends AutoCloseable {

  /**
   * Starts the daemon of {@code host}; reports {@link ExecListener#daemonUp} or {@link
   * ExecListener#daemonFailed} after the start latency.
   *
   * @param host the node
   */
  void startDaemon(String host);

  /**
   * Stops the daemon of {@code host}; reports {@link ExecListener#daemonLeft} after the stop
   * latency. Nothing when it has no daemon.
   *
   * @param host the node
   */
  void stopDaemon(String host);

  /**
   * Starts every proc of job {@code nspace}; reports {@link ExecListener#launched} or, if any proc
   * cannot start (the ones already started are killed), {@link ExecListener#launchFailed}.
   *
   * @param nspace the job, not already launched
   * @param procs its procs, at least one
   */
  void launch(String nspace, List<ProcSpec> procs);

  /**
   * Sends signal {@code signo} to every live proc of job {@code nspace}, in order with the signals
   * sent before (a SIGCONT never overtakes the SIGSTOP sent before it). Nothing for a job with no
   * live proc.
   *
   * @param nspace the job
   * @param signo the signal number, 1 to {@link Signals#MAX}
   */
  void signal(String nspace, int signo);

  /**
   * The operating-system pids of the live procs of every job, by job then rank (empty in simulated
   * mode): for the check that no proc of a reclaimed session is alive.
   *
   * @return a snapshot
   */
  Map<String, Map<Long, Long>> livePids();

  /**
   * The ranks of job {@code nspace} still alive (not yet reported as exited).
   *
   * @param nspace the job
   * @return a snapshot, empty for an unknown job
   */
  java.util.Set<Long> liveRanks(String nspace);

  /** Kills every live proc (SIGKILL) and stops every daemon, without reporting. */
  @Override
  void close();
}
