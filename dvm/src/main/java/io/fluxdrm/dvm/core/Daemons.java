package io.fluxdrm.dvm.core;

import io.fluxdrm.dvm.core.DvmView.JobState;
import io.fluxdrm.pmix.PmixStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A daemon comes up, fails or leaves, or its stop could not be sent: the nodes, the jobs on them
 * and the campaigns waiting for them follow (PRRTE's elastic-DVM spec, failure semantics and
 * guarantees).
 */
final class Daemons {
  private final DvmModel m;
  private final DvmCore core;

  Daemons(DvmModel m, DvmCore core) {
    this.m = m;
    this.core = core;
  }

  void onDaemonStarted(String host) {
    NodeRec n = m.nodes.get(host);
    if (n == null || n.daemon != DaemonState.STARTING) {
      return;
    }
    n.setDaemon(DaemonState.UP);
    if (m.config.elastic()) {
      Campaign c = m.campaignOf.get(n.rank);
      if (c != null && c.grow && c.pending.remove(n.rank) && c.pending.isEmpty()) {
        // PRRTE elastic-DVM spec, launch fence and campaigns: a grow completes once every daemon it
        // launched is up and wired
        core.campaigns.growEnded(c, null);
      }
    }
    for (JobRec j : new ArrayList<>(m.waitingJobs)) {
      if (j.session.nodes.contains(n)) {
        core.jobControl.tryLaunch(j);
      }
    }
  }

  void onDaemonGone(String host, boolean failed, String reason) {
    NodeRec n = m.leaving.remove(host);
    boolean wasLeaving = n != null;
    if (n == null) {
      n = m.nodes.get(host);
      if (n == null || n.daemon == DaemonState.NONE || n.daemon == DaemonState.FAILED) {
        return;
      }
      n.setDaemon(failed ? DaemonState.FAILED : DaemonState.NONE);
    } else {
      n.setDaemon(DaemonState.NONE);
      n.beforeLeaving = null;
      n.leftFrom = null;
    }
    // the node's processes are gone with its daemon (counted killed); the jobs on it in the order
    // they were made, as in the job list
    for (JobRec j : DvmModel.jobsOn(n)) {
      if (j.state == JobState.MAPPED || m.heldAtLaunch.contains(j)) {
        if (n.jobsOn.containsKey(j)) {
          // mapped, not launched: nothing runs there; mapped again (PRRTE elastic-DVM spec
          // guarantee 3)
          m.heldAtLaunch.remove(j);
          core.jobControl.unclaim(j);
          j.state = JobState.WAITING_FOR_DAEMONS;
          m.waitingJobs.add(j);
          core.jobControl.tryLaunch(j);
        }
        continue;
      }
      List<Long> lost = new ArrayList<>();
      for (Map.Entry<Long, NodeRec> e : j.live.entrySet()) {
        if (e.getValue() == n) {
          lost.add(e.getKey());
        }
      }
      for (Long rank : lost) {
        core.jobControl.onProcExited(
            new DvmEvent.ProcExited(j.nspace, rank, 0, Signal.KILL.number()));
      }
    }
    if (m.config.elastic()) {
      Campaign c = m.campaignOf.get(n.rank);
      if (c != null && !c.grow && wasLeaving) {
        // PRRTE elastic-DVM spec guarantee 6: a departure counts once per rank, a crash the same as
        // a clean exit
        if (c.pending.remove(n.rank) && c.pending.isEmpty()) {
          core.campaigns.shrinkEnded(c);
        }
      } else if (c != null && c.grow && !wasLeaving) {
        // PRRTE elastic-DVM spec, failure semantics: a grow target lost before its grow completes
        // fails that grow only
        core.campaigns.growEnded(
            c, "daemon on " + host + (failed ? " failed: " + reason : " left"));
      }
      // PRRTE elastic-DVM spec guarantee 4: an unrelated loss neither releases nor aborts parked
      // jobs
    }
    for (JobRec j : new ArrayList<>(m.waitingJobs)) {
      if (j.session.nodes.contains(n)) {
        core.jobControl.tryLaunch(j);
      }
    }
  }

  /**
   * The stop of a leaving daemon could not be sent (scenario D20, decision D415): the daemon never
   * got it, so the node stays in the DVM, back in the session a release took it from (the pool if
   * that session is gone, or for a node handed back or rolled back), with its daemon as it was. A
   * shrink campaign targeting it drops it from its targets and contribution and, once its other
   * targets have departed or failed to be sent the same way, ends with PMIX_ERR_DVM_MOD carrying
   * the cause; jobs held for it are then released as after any campaign.
   */
  void onStopNotSent(String host, PmixStatus cause) {
    NodeRec n = m.leaving.get(host);
    if (n == null || n.daemon != DaemonState.LEAVING || n.beforeLeaving == null) {
      return; // gone already, or a stale report
    }
    m.leaving.remove(host);
    SessionRec back =
        n.leftFrom != null && !n.leftFrom.reclaimed && m.sessions.get(n.leftFrom.id) == n.leftFrom
            ? n.leftFrom
            : m.dflt;
    n.session = back;
    m.nodes.put(host, n);
    back.addNode(n);
    n.setDaemon(n.beforeLeaving);
    n.beforeLeaving = null;
    n.leftFrom = null;
    if (m.config.elastic()) {
      Campaign c = m.campaignOf.get(n.rank);
      if (c != null && !c.grow) {
        m.campaignOf.remove(n.rank);
        c.targets.remove(n.rank);
        c.pending.remove(n.rank);
        c.contribution--;
        m.fence--;
        if (c.failure == null) {
          c.failure = cause;
        }
        if (c.pending.isEmpty()) {
          core.campaigns.shrinkEnded(c);
        }
      }
    }
    if (n.daemon == DaemonState.UP) {
      for (JobRec j : new ArrayList<>(m.waitingJobs)) {
        if (j.session == back) {
          core.jobControl.tryLaunch(j);
        }
      }
    }
  }
}
