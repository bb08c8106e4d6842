package io.fluxdrm.dvm.core;

import io.fluxdrm.dvm.core.DvmView.JobState;
import io.fluxdrm.dvm.core.DvmView.SessionFlag;
import io.fluxdrm.dvm.core.DvmView.Waiting;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.request.NodeList;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The life of a job: made, mapped (by {@link Mapper}) once its session's daemons are up, launched,
 * signalled, retired; a failed map or launch; a terminate with its kill grace (PRRTE §7.4.4 Session
 * Control, PRRTE PR #1904, PRRTE elastic-DVM spec, job states).
 */
final class JobControl {
  private final DvmModel m;
  private final DvmCore core;

  JobControl(DvmModel m, DvmCore core) {
    this.m = m;
    this.core = core;
  }

  JobRec newJob(
      SessionRec s,
      List<App> apps,
      List<Info> jobInfos,
      String parent,
      boolean nohup,
      Client requester) {
    String ns = m.config.dvmNspace() + "@" + m.nextJob++;
    JobRec j = new JobRec(ns, s, apps, jobInfos, parent, nohup, requester);
    j.seq = m.nextJob;
    j.state = JobState.WAITING_FOR_DAEMONS;
    m.jobs.put(ns, j);
    s.jobs.add(j);
    m.waitingJobs.add(j);
    if (parent != null) {
      m.childrenOf.computeIfAbsent(parent, k -> new LinkedHashSet<>()).add(j);
      JobRec pj = m.jobs.get(parent);
      List<String> chain = new ArrayList<>(pj == null ? List.of() : pj.ancestors);
      chain.add(parent);
      j.ancestors = chain;
      for (String a : chain) {
        m.liveDescendants.merge(a, 1, Integer::sum);
      }
    }
    if (s.has(SessionFlag.PAUSED)) {
      j.stopped = true;
    }
    return j;
  }

  /**
   * Maps and launches {@code j} once every node it may use has its daemon up (PRRTE §7.4.4 Session
   * Control: a job waits for the daemons of newly named nodes); fails it when it cannot be mapped.
   */
  void tryLaunch(JobRec j) {
    if (j.state != JobState.WAITING_FOR_DAEMONS || m.heldAtMap.contains(j)) {
      return;
    }
    if (m.config.elastic() && m.fence > 0) {
      // PRRTE elastic-DVM spec, job states: a job reaching VM_READY → MAP while any campaign is
      // open is parked
      m.waitingJobs.remove(j);
      m.heldAtMap.add(j);
      return;
    }
    if (j.session.starting > 0) {
      return; // a node of its session is still starting its daemon
    }
    String mapBy = "slot";
    for (Info i : j.jobInfos) {
      if (i.key().equals(PmixKey.PMIX_MAPBY)) {
        mapBy = i.stringValue().toLowerCase(java.util.Locale.ROOT);
      }
    }
    List<DvmDecision.Placement> placements = new ArrayList<>();
    List<NodeRec> placedOn = new ArrayList<>();
    Refused failure = null;
    try {
      for (int a = 0; a < j.apps.size(); a++) {
        App app = j.apps.get(a);
        // first fit over the session's nodes whose daemon is up, in their order: the free-slot
        // index holds exactly those with a free slot (decision D416), the full ones are skipped
        Iterable<NodeRec> mine = j.session.free.values();
        for (Info i : app.infos()) {
          if (i.key().equals(PmixKey.PMIX_HOST)) {
            mine = restrict(i.stringValue(), j);
          }
        }
        int placed =
            Mapper.firstFit(
                mine, app.maxprocs(), mapBy.startsWith("node"), a, placedOn, placements);
        if (placed < app.maxprocs()) {
          throw new Refused(
              PmixStatus.PMIX_ERR_OUT_OF_RESOURCE,
              "job "
                  + j.nspace
                  + ": app "
                  + a
                  + " needs "
                  + app.maxprocs()
                  + " slots, "
                  + placed
                  + " free on the usable nodes of session "
                  + DvmModel.sessionName(j.session));
        }
      }
    } catch (Refused e) {
      failure = e;
    } finally {
      for (NodeRec n : placedOn) {
        n.tentative = 0;
      }
    }
    if (failure != null) {
      launchFailed(j, failure.status(), failure.getMessage());
      return;
    }
    for (int i = 0; i < placements.size(); i++) {
      NodeRec n = placedOn.get(i);
      n.claim();
      j.place(placements.get(i).rank(), n);
    }
    m.waitingJobs.remove(j);
    j.placements = placements;
    if (m.config.elastic()) {
      // PRRTE elastic-DVM spec, job states: MAP and LAUNCH_APPS are separate steps; a size change
      // may come between
      j.state = JobState.MAPPED;
      m.out.add(new DvmDecision.MapComplete(j.nspace));
      return;
    }
    launchNow(j);
  }

  /** The job passed the launch boundary: its launch data goes to its daemons. */
  void launchNow(JobRec j) {
    j.state = JobState.LAUNCHING;
    Pending p = j.answerOnLaunch >= 0 ? m.pending.get(j.answerOnLaunch) : null;
    if (p != null) {
      p.waiting = Waiting.LAUNCH;
    }
    List<DvmDecision.Placement> placements = j.placements;
    j.placements = List.of();
    m.out.add(new DvmDecision.LaunchJob(j.nspace, j.session.id, j.apps, j.jobInfos, placements));
  }

  /**
   * A mapped job reaches LAUNCH_APPS: parked while a shrink is open (PRRTE elastic-DVM spec, job
   * states, §7.3).
   */
  void onLaunchApps(String nspace) {
    JobRec j = m.jobs.get(nspace);
    if (j == null || j.state != JobState.MAPPED) {
      return;
    }
    boolean shrinking = m.open.values().stream().anyMatch(c -> !c.grow);
    if (shrinking) {
      j.state = JobState.WAITING_FOR_DAEMONS;
      m.heldAtLaunch.add(j);
      return;
    }
    boolean departed = false;
    for (NodeRec n : j.live.values()) {
      if (m.nodes.get(n.host) != n || n.daemon != DaemonState.UP) {
        departed = true;
      }
    }
    if (departed) {
      // a node of its map left between MAP and LAUNCH_APPS: mapped again (§7.3)
      unclaim(j);
      j.state = JobState.WAITING_FOR_DAEMONS;
      m.waitingJobs.add(j);
      tryLaunch(j);
      return;
    }
    launchNow(j);
  }

  /**
   * The nodes named by an app's PMIX_HOST, in the order named.
   *
   * @throws Refused (the job fails) when the list is malformed or names a node that is not one of
   *     the job's session whose daemon is up
   */
  private List<NodeRec> restrict(String hostSpec, JobRec j) {
    List<NodeList.Entry> named = Requests.nodes(PmixKey.PMIX_HOST, hostSpec, true);
    List<NodeRec> l = new ArrayList<>();
    for (NodeList.Entry e : named) {
      NodeRec n = m.nodes.get(e.host());
      if (n == null || n.member != j.session || n.daemon != DaemonState.UP) {
        // PRRTE §7.4.4.2.1 "Instantiation" / B2: a job maps only onto its session's nodes
        throw new Refused(
            PmixStatus.PMIX_ERR_OUT_OF_RESOURCE,
            "job "
                + j.nspace
                + ": PMIX_HOST "
                + e.host()
                + " is not a usable node of session "
                + DvmModel.sessionName(j.session));
      }
      l.add(n);
    }
    return l;
  }

  void onJobLaunched(String nspace) {
    JobRec j = m.jobs.get(nspace);
    if (j == null || j.state != JobState.LAUNCHING) {
      return;
    }
    j.state = JobState.RUNNING;
    if (j.answerOnLaunch >= 0) {
      // PRRTE §7.4.4.2.1 "Instantiation": a successful return means the job is running
      List<Info> infos = new ArrayList<>(j.answerInfos);
      infos.add(Info.of(PmixKey.PMIX_NSPACE, j.nspace));
      m.answer(j.answerOnLaunch, PmixStatus.PMIX_SUCCESS, infos);
      j.answerOnLaunch = -1;
    }
    if (j.terminateOnLaunch) {
      j.terminateOnLaunch = false;
      terminateJob(j);
    } else if (j.stopped) {
      m.out.add(new DvmDecision.SignalJob(j.nspace, Signal.STOP));
    }
    if (j.live.isEmpty()) {
      retire(j);
    }
  }

  void onJobLaunchFailed(String nspace, PmixStatus status, String reason) {
    JobRec j = m.jobs.get(nspace);
    if (j == null || j.state != JobState.LAUNCHING) {
      return;
    }
    launchFailed(j, status, "job " + nspace + ": launch failed: " + reason);
  }

  /**
   * A job that could not be mapped or launched: its remaining processes are dropped, its request
   * gets the error, and an allocation made for it is handed back (PRRTE §7.4.3 Flow-of-Control); a
   * session created to run it is reclaimed (PRRTE §7.4.4.2 Operations, launch failure).
   */
  void launchFailed(JobRec j, PmixStatus status, String reason) {
    for (NodeRec n : j.live.values()) {
      n.release();
    }
    j.clearLive();
    long req = j.answerOnLaunch;
    j.answerOnLaunch = -1;
    j.exitCode = j.exitCode == 0 ? 1 : j.exitCode;
    SessionRec alloc = j.spawnAllocation;
    j.state = JobState.TERMINATING;
    retire(j);
    if (alloc != null && !alloc.reclaimed) {
      alloc.handBack = true;
      core.reclaim.terminateSession(alloc);
    }
    if (req >= 0) {
      m.refuse(req, status, reason);
    }
  }

  void onProcExited(DvmEvent.ProcExited e) {
    JobRec j = m.jobs.get(e.nspace());
    if (j == null) {
      return;
    }
    NodeRec n = j.drop(e.rank());
    if (n == null) {
      return;
    }
    n.release();
    int code = e.termSignal() > 0 ? 128 + e.termSignal() : e.exitCode();
    if (j.exitCode == 0 && code != 0) {
      j.exitCode = code;
    }
    if (j.live.isEmpty() && (j.state == JobState.RUNNING || j.state == JobState.TERMINATING)) {
      retire(j);
    }
  }

  /**
   * A job retires: its status is kept for COMPLETE, its children end unless PMIX_NOHUP (PRRTE PR
   * #1904), sessions it owns follow their inheritance, and its session is reclaimed if it was
   * waiting for its last job.
   */
  private void retire(JobRec j) {
    if (!m.jobs.containsKey(j.nspace)) {
      return;
    }
    m.jobs.remove(j.nspace);
    m.waitingJobs.remove(j);
    m.heldAtMap.remove(j);
    m.heldAtLaunch.remove(j);
    for (String a : j.ancestors) {
      m.liveDescendants.computeIfPresent(a, (k, n) -> n > 1 ? n - 1 : null);
    }
    if (j.parent != null) {
      LinkedHashSet<JobRec> siblings = m.childrenOf.get(j.parent);
      if (siblings != null) {
        siblings.remove(j);
        if (siblings.isEmpty()) {
          m.childrenOf.remove(j.parent);
        }
      }
    }
    SessionRec s = j.session;
    s.jobs.remove(j);
    if (!j.nspace.equals(s.owner)) {
      s.owners.remove(j.nspace); // a retired job owns nothing (its namespace is not reused)
    }
    if (j.killTimer >= 0) {
      m.timers.remove(j.killTimer);
      m.out.add(new DvmDecision.CancelTimer(j.killTimer));
      j.killTimer = -1;
    }
    if (!s.isDefault()) {
      // PRRTE §7.4.4.2.8 "Completion": statuses accumulated as the jobs retire
      s.results.add(new DvmView.JobResult(j.nspace, j.exitCode));
    }
    if (j.answerOnLaunch >= 0) {
      long req = j.answerOnLaunch;
      j.answerOnLaunch = -1;
      m.refuse(
          req, PmixStatus.PMIX_ERR_JOB_CANCELED, "job " + j.nspace + ": terminated before launch");
    }
    for (JobRec c : new ArrayList<>(m.childrenOf.getOrDefault(j.nspace, new LinkedHashSet<>()))) {
      if (!c.nohup) {
        // PRRTE PR #1904: child jobs end with their parent unless spawned with PMIX_NOHUP
        terminateJob(c);
      }
    }
    core.reclaim.ownerEnded(j.nspace);
    core.reclaim.checkSubtrees();
    core.reclaim.maybeReclaim(s);
  }

  void terminateJob(JobRec j) {
    switch (j.state) {
      case WAITING_FOR_DAEMONS, MAPPED -> {
        unclaim(j);
        j.state = JobState.TERMINATING;
        retire(j);
      }
      case LAUNCHING -> j.terminateOnLaunch = true;
      case RUNNING -> {
        // PRRTE §7.4.4.2.5 "Terminate": a paused job is continued first
        if (j.stopped) {
          j.stopped = false;
          m.out.add(new DvmDecision.SignalJob(j.nspace, Signal.CONT));
        }
        j.state = JobState.TERMINATING;
        m.out.add(new DvmDecision.SignalJob(j.nspace, Signal.TERM));
        j.killTimer = m.nextTimer++;
        m.timers.put(j.killTimer, new Timer(null, j));
        m.out.add(new DvmDecision.ArmTimer(j.killTimer, m.config.killGrace()));
      }
      case TERMINATING -> {}
    }
  }

  void onTimer(long id) {
    Timer t = m.timers.remove(id);
    if (t == null) {
      return;
    }
    if (t.session() != null) {
      // PRRTE §7.4.4.3 "Session lifetime": expiry acts exactly as PMIX_SESSION_TERMINATE
      t.session().timerId = -1;
      core.reclaim.terminateSession(t.session());
    } else {
      JobRec j = t.job();
      j.killTimer = -1;
      if (m.jobs.containsKey(j.nspace) && !j.live.isEmpty()) {
        m.out.add(new DvmDecision.SignalJob(j.nspace, Signal.KILL));
      }
    }
  }

  /** Gives back the slots of a mapped job that has not launched. */
  void unclaim(JobRec j) {
    for (NodeRec n : j.live.values()) {
      n.release();
    }
    j.clearLive();
    j.placements = List.of();
  }
}
