package io.fluxdrm.dvm.core;

import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.port.Client;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** A job as the core keeps it (mutable, core-confined). */
final class JobRec {
  final String nspace;
  SessionRec session;
  final List<App> apps;
  final List<Info> jobInfos;
  DvmView.JobState state;

  /**
   * Live (or mapped, not yet launched) processes: rank to node. Changed only through {@link
   * #place}, {@link #drop} and {@link #clearLive}, which keep each node's {@link NodeRec#jobsOn}.
   */
  final TreeMap<Long, NodeRec> live = new TreeMap<>();

  /** Its place in the order jobs were made (the core's job list is in that order). */
  long seq;

  boolean stopped;
  final String parent;
  final boolean nohup;
  final Client requester;

  /** The request answered when the launch completes, or -1. */
  long answerOnLaunch = -1;

  /** What that answer carries on success, besides {@code PMIX_NSPACE}. */
  List<Info> answerInfos = List.of();

  /** The first non-zero exit code (128+N for signal N), or 0. */
  int exitCode;

  /**
   * Its map while mapped and not yet launched (elastic mode, PRRTE elastic-DVM spec, job states).
   */
  List<DvmDecision.Placement> placements = List.of();

  long killTimer = -1;

  /** A termination asked before the launch was reported: sent once it is. */
  boolean terminateOnLaunch;

  /** The namespaces it descends from, its parent last (empty for a job a tool spawned). */
  List<String> ancestors = List.of();

  /** The allocation made for this spawn (allocation-on-spawn), handed back if the launch fails. */
  SessionRec spawnAllocation;

  JobRec(
      String nspace,
      SessionRec session,
      List<App> apps,
      List<Info> jobInfos,
      String parent,
      boolean nohup,
      Client requester) {
    this.nspace = nspace;
    this.session = session;
    this.apps = apps;
    this.jobInfos = jobInfos;
    this.parent = parent;
    this.nohup = nohup;
    this.requester = requester;
  }

  /** Process {@code rank} is on {@code n}. */
  void place(long rank, NodeRec n) {
    live.put(rank, n);
    n.jobsOn.merge(this, 1, Integer::sum);
  }

  /** Process {@code rank} is gone; returns its node, null if it was not live. */
  NodeRec drop(long rank) {
    NodeRec n = live.remove(rank);
    if (n != null) {
      n.jobsOn.computeIfPresent(this, (k, c) -> c > 1 ? c - 1 : null);
    }
    return n;
  }

  /** Every process is gone (or the map undone). */
  void clearLive() {
    for (NodeRec n : live.values()) {
      n.jobsOn.remove(this);
    }
    live.clear();
  }

  DvmView.JobView view() {
    Map<String, Integer> perNode = new LinkedHashMap<>();
    for (NodeRec n : live.values()) {
      perNode.merge(n.host, 1, Integer::sum);
    }
    return new DvmView.JobView(
        nspace,
        session.id,
        state,
        perNode,
        live.size(),
        stopped,
        Optional.ofNullable(parent),
        nohup);
  }
}
