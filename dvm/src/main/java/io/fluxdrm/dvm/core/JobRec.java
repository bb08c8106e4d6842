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

  /** Live processes: rank to node. */
  final TreeMap<Long, NodeRec> live = new TreeMap<>();

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

  /** Its map while mapped and not yet launched (elastic mode, spec/pmix/03 §3). */
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
