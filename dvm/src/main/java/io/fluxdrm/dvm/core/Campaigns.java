package io.fluxdrm.dvm.core;

import io.fluxdrm.dvm.core.DvmView.JobState;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.request.InfoWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The elastic DVM's grow and shrink campaigns (PRRTE's elastic-DVM spec, launch fence and
 * campaigns): opened at the end of each event over the daemons it started or stopped, the launch
 * fence they add up to, their ends with the requesters' events, the releases deferred behind a grow
 * and the jobs held at the map and launch boundaries.
 */
final class Campaigns {
  private final DvmModel m;
  private final DvmCore core;

  Campaigns(DvmModel m, DvmCore core) {
    this.m = m;
    this.core = core;
  }

  /**
   * Records the requester of the daemons the current request starts (outside elastic mode: nothing,
   * PRRTE elastic-DVM spec, prte_elastic_mode). The grow campaign itself is opened at the end of
   * the event.
   */
  void growCampaign(
      PmixProc requester, Optional<String> allocId, Optional<String> reqId, List<String> hosts) {
    if (m.config.elastic() && !hosts.isEmpty()) {
      m.batchRequester = new Requester(requester, allocId, reqId);
    }
  }

  /**
   * Opens the campaigns of the daemons started and stopped by the event just handled: one grow over
   * the started, one shrink over the stopped (PRRTE's elastic-DVM spec: +n per grow of n, +m per
   * shrink of m), with the event's requester if it had one (B15, decision D403: none otherwise).
   */
  void openCampaigns() {
    Requester req = m.batchRequester;
    m.batchRequester = null;
    if (!m.config.elastic()) {
      m.unclaimedStarts.clear();
      m.unclaimedStops.clear();
      return;
    }
    if (!m.unclaimedStarts.isEmpty()) {
      Campaign c = new Campaign(m.nextCampaign++, true);
      for (NodeRec n : m.unclaimedStarts) {
        c.targets.put(n.rank, n);
        c.pending.add(n.rank);
        m.campaignOf.put(n.rank, c);
      }
      m.unclaimedStarts.clear();
      if (req != null) {
        c.addRequester(req);
      }
      openCampaign(c);
    }
    if (!m.unclaimedStops.isEmpty()) {
      Campaign c = new Campaign(m.nextCampaign++, false);
      for (NodeRec n : m.unclaimedStops) {
        Campaign before = m.campaignOf.get(n.rank);
        if (before != null && before.grow) {
          // a grow target stopped before it was up: it leaves that grow, not counted there
          before.pending.remove(n.rank);
          before.targets.remove(n.rank);
          before.contribution--;
          m.fence--;
        }
        c.targets.put(n.rank, n);
        c.pending.add(n.rank);
        m.campaignOf.put(n.rank, c);
      }
      m.unclaimedStops.clear();
      if (req != null) {
        c.addRequester(req);
      }
      openCampaign(c);
    }
    for (Campaign c : new ArrayList<>(m.open.values())) {
      if (c.grow && c.pending.isEmpty() && m.open.containsKey(c.id)) {
        growEnded(c, null);
      }
    }
  }

  private void openCampaign(Campaign c) {
    c.contribution = c.targets.size();
    m.fence += c.contribution;
    m.open.put(c.id, c);
  }

  private void closeCampaign(Campaign c) {
    m.open.remove(c.id);
    m.fence -= c.contribution;
    c.contribution = 0;
    for (Long r : c.targets.keySet()) {
      m.campaignOf.remove(r, c);
    }
  }

  /**
   * A grow ends: on success its requesters hear PMIX_DVM_IS_READY; on failure it is rolled back as
   * a whole (PRRTE elastic-DVM spec, launch fence and campaigns, guarantee 5: started daemons told
   * to leave, never-started ones uncounted, nodes detached from any reservation), its requesters
   * hear PMIX_ERR_DVM_MOD with the cause, and the jobs parked at the map boundary are aborted
   * (§7.1) while those parked at the launch boundary stay (D19).
   */
  void growEnded(Campaign c, String failure) {
    closeCampaign(c);
    if (failure == null) {
      for (Requester r : c.requesters) {
        m.notify(PmixStatus.PMIX_DVM_IS_READY.code(), requesterInfos(r), r.proc());
      }
    } else {
      Set<SessionRec> shrunk = new java.util.HashSet<>();
      for (NodeRec n : c.targets.values()) {
        if (m.nodes.get(n.host) != n) {
          continue;
        }
        shrunk.add(n.session);
        m.takeOut(n.session, n);
        m.nodes.remove(n.host);
        m.stopDaemon(n, null);
      }
      for (Requester r : c.requesters) {
        List<Info> infos = requesterInfos(r);
        infos.add(
            Info.of(PmixKey.PMIX_JOB_TERM_STATUS, PmixStatus.PMIX_ERR_PROC_FAILED_TO_START.code()));
        m.notify(PmixStatus.PMIX_ERR_DVM_MOD.code(), infos, r.proc());
      }
      List<JobRec> dependent = new ArrayList<>(m.heldAtMap);
      for (JobRec j : m.waitingJobs) {
        if (shrunk.contains(j.session)) {
          dependent.add(j); // waited for this grow's daemons: its grow dependency failed (§7.1)
        }
      }
      for (JobRec j : dependent) {
        m.heldAtMap.remove(j);
        if (m.jobs.containsKey(j.nspace)) {
          core.jobControl.launchFailed(
              j,
              PmixStatus.PMIX_ERR_JOB_FAILED_TO_LAUNCH,
              "job "
                  + j.nspace
                  + ": never launched, the grow it waited for failed ("
                  + failure
                  + ")");
        }
      }
    }
    campaignEnded();
  }

  /**
   * A shrink ends once every target has departed: the nodes are gone, the completion hook runs
   * ({@link DvmDecision.ShrinkComplete}), then its requesters hear PMIX_DVM_IS_READY (PRRTE
   * elastic-DVM spec, two-phase answer: hooks before the event). When a stop could not be sent
   * (D20, decision D415) the hook runs on the targets that did depart, if any, and the requesters
   * hear PMIX_ERR_DVM_MOD with the cause under PMIX_JOB_TERM_STATUS.
   */
  void shrinkEnded(Campaign c) {
    closeCampaign(c);
    List<String> hosts = new ArrayList<>();
    for (NodeRec n : c.targets.values()) {
      hosts.add(n.host);
    }
    if (!hosts.isEmpty()) {
      m.out.add(new DvmDecision.ShrinkComplete(c.id, hosts));
    }
    for (Requester r : c.requesters) {
      if (c.failure == null) {
        m.notify(PmixStatus.PMIX_DVM_IS_READY.code(), requesterInfos(r), r.proc());
      } else {
        List<Info> infos = requesterInfos(r);
        infos.add(Info.of(PmixKey.PMIX_JOB_TERM_STATUS, c.failure.code()));
        m.notify(PmixStatus.PMIX_ERR_DVM_MOD.code(), infos, r.proc());
      }
    }
    campaignEnded();
  }

  /**
   * After a campaign ends: once no grow is open the deferred releases are replayed (D24, decision
   * D402, whether the grow succeeded or failed); once the fence is 0 the held jobs are released.
   */
  private void campaignEnded() {
    if (!m.deferredReleases.isEmpty() && m.open.values().stream().noneMatch(c -> c.grow)) {
      List<DvmEvent.AllocationRequest> replay = new ArrayList<>(m.deferredReleases);
      m.deferredReleases.clear();
      for (DvmEvent.AllocationRequest r : replay) {
        m.pending.remove(r.requestId());
        try {
          List<Info> result = core.allocations.release(r.from(), Allocations.allocInfos(r.infos()));
          m.answer(r.requestId(), PmixStatus.PMIX_SUCCESS, result);
        } catch (Refused e) {
          m.refuse(r.requestId(), e, Optional.empty());
        }
        openCampaigns();
      }
    }
    if (m.fence == 0) {
      releaseHolds();
    }
  }

  /**
   * The fence dropped to 0 (PRRTE elastic-DVM spec, fence release): jobs held at the launch
   * boundary go on to launch, remapped onto survivors first when a process sat on a departed node
   * (§7.3); jobs held at the map boundary are mapped onto the post-change node set (§7.1).
   */
  private void releaseHolds() {
    List<JobRec> launch = new ArrayList<>(m.heldAtLaunch);
    m.heldAtLaunch.clear();
    List<JobRec> map = new ArrayList<>(m.heldAtMap);
    m.heldAtMap.clear();
    for (JobRec j : launch) {
      if (!m.jobs.containsKey(j.nspace)) {
        continue;
      }
      boolean departed = false;
      for (NodeRec n : j.live.values()) {
        if (m.nodes.get(n.host) != n || n.daemon != DaemonState.UP) {
          departed = true;
        }
      }
      if (departed) {
        core.jobControl.unclaim(j);
        j.state = JobState.WAITING_FOR_DAEMONS;
        m.waitingJobs.add(j);
        core.jobControl.tryLaunch(j);
      } else {
        core.jobControl.launchNow(j);
      }
    }
    for (JobRec j : map) {
      if (m.jobs.containsKey(j.nspace)) {
        m.waitingJobs.add(j);
        core.jobControl.tryLaunch(j);
      }
    }
  }

  private static List<Info> requesterInfos(Requester r) {
    InfoWriter w = InfoWriter.create();
    r.allocId().ifPresent(w::allocId);
    return w.reqId(r.reqId()).infos();
  }
}
