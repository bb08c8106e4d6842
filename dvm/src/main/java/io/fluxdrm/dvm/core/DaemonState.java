package io.fluxdrm.dvm.core;

/** Where a node's daemon ({@code prted}) is in its life; a node has at most one daemon. */
public enum DaemonState {
  /** No daemon: the node is known (named by a session or the configuration) but not spanned. */
  NONE,
  /** A start was decided ({@link DvmDecision.StartDaemon}); not reported up yet. */
  STARTING,
  /** Reported up ({@link DvmEvent.DaemonStarted}): jobs may be launched on the node. */
  UP,
  /** A stop was decided ({@link DvmDecision.StopDaemon}); not reported gone yet. */
  LEAVING,
  /** Reported failed ({@link DvmEvent.DaemonFailed}); nothing runs there until restarted. */
  FAILED
}
