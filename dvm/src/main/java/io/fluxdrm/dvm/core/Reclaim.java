package io.fluxdrm.dvm.core;

import io.fluxdrm.dvm.core.DvmView.SessionFlag;
import io.fluxdrm.pmix.AllocInheritance;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.OptionalLong;

/**
 * The end of sessions: terminate, reclaim (nodes back to the pool or handed back, COMPLETE to the
 * scheduler) and the inheritance a session follows when its owner ends (PRRTE §7.4.4 Session
 * Control "Session lifetime", PRRTE PR #1904).
 */
final class Reclaim {
  private final DvmModel m;
  private final DvmCore core;

  Reclaim(DvmModel m, DvmCore core) {
    this.m = m;
    this.core = core;
  }

  void maybeReclaim(SessionRec s) {
    if (s.isDefault() || s.reclaimed || !s.jobs.isEmpty()) {
      return;
    }
    if (s.has(SessionFlag.TERMINATING) || s.has(SessionFlag.AUTO_COMPLETE) || s.releaseWhenEmpty) {
      reclaim(s);
    }
  }

  /**
   * Terminates every job of {@code s} and reclaims it once the last has retired, at once when it
   * has none (PRRTE §7.4.4.2.5 "Terminate").
   */
  void terminateSession(SessionRec s) {
    if (s.reclaimed) {
      return;
    }
    s.flags.add(SessionFlag.TERMINATING);
    for (JobRec j : new ArrayList<>(s.jobs)) {
      core.jobControl.terminateJob(j);
    }
    maybeReclaim(s);
  }

  /**
   * Reclaims {@code s}: disarms its limit, returns its nodes to the pool or hands them back (never
   * the master's node), then, for a scheduler-instantiated session, sends COMPLETE (PRRTE §7.4.4
   * Session Control "Completion": the teardown is complete before the notice).
   */
  private void reclaim(SessionRec s) {
    s.reclaimed = true;
    if (s.timerId >= 0) {
      m.timers.remove(s.timerId);
      m.out.add(new DvmDecision.CancelTimer(s.timerId));
      s.timerId = -1;
    }
    boolean handBack =
        s.handBack
            || s.inheritance == AllocInheritance.NONE
            || s.inheritance == AllocInheritance.CHILD;
    List<String> hosts = DvmModel.hosts(s);
    for (NodeRec n : new ArrayList<>(s.nodes)) {
      m.takeOut(s, n);
      if (handBack && !n.host.equals(m.config.master())) {
        // PRRTE §7.4.4.3 "Session lifetime": NONE/CHILD hand the nodes back to the scheduler
        m.nodes.remove(n.host);
        if (m.stopDaemon(n, null)) {
          m.unclaimedStops.add(n);
        }
      } else {
        n.session = m.dflt;
        m.dflt.addNode(n);
      }
    }
    m.sessions.remove(s.id);
    m.byAllocId.remove(s.allocId);
    m.subtreeWaiting.remove(s);
    if (s.owner != null) {
      LinkedHashSet<SessionRec> owned = m.ownedBy.get(s.owner);
      if (owned != null) {
        owned.remove(s);
        if (owned.isEmpty()) {
          m.ownedBy.remove(s.owner);
        }
      }
    }
    if (s.parent != null) {
      s.parent.children.remove(s.id);
    }
    for (Long c : s.children) {
      SessionRec child = m.sessions.get(c);
      if (child != null) {
        child.parent = null;
      }
    }
    m.out.add(new DvmDecision.SessionReclaimed(s.id, s.allocId, hosts, handBack));
    if (s.has(SessionFlag.SCHEDULER) && m.scheduler != null) {
      List<Info> results = new ArrayList<>();
      for (DvmView.JobResult r : s.results) {
        results.add(
            Info.of(
                PmixKey.PMIX_JOB_INFO_ARRAY,
                List.of(
                    Info.of(PmixKey.PMIX_NSPACE, r.nspace()),
                    Info.of(PmixKey.PMIX_JOB_TERM_STATUS, r.termStatus()))));
      }
      long id = m.nextCall++;
      m.calls.put(id, new Call(-1, false));
      m.out.add(
          new DvmDecision.ToScheduler(
              id,
              OptionalLong.empty(),
              new DvmDecision.SessionControl(
                  m.self,
                  s.id,
                  io.fluxdrm.pmix.request.SessionControl.completion(s.id, s.allocId, results))));
    }
  }

  /**
   * The namespace {@code nspace} ended (a job retired or a tool left): each attached session it
   * owns follows its inheritance (PRRTE PR #1904; PRRTE node-reservation spec guarantee 4): NONE
   * hands the nodes back at once, DEFAULT unreserves them (a session instantiated to follow its
   * requester is terminated), CHILD and CHILD_DEFAULT wait for the owner's spawned descendants to
   * end.
   */
  void ownerEnded(String nspace) {
    LinkedHashSet<SessionRec> owned = m.ownedBy.get(nspace);
    if (owned == null) {
      checkSubtrees();
      return;
    }
    for (SessionRec s : new ArrayList<>(owned)) {
      if (s.reclaimed || s.has(SessionFlag.DETACHED) || s.ownerGone) {
        continue;
      }
      s.ownerGone = true;
      switch (s.inheritance) {
        case NONE -> {
          s.handBack = true;
          terminateSession(s);
        }
        case DEFAULT -> {
          if (s.instantiated) {
            terminateSession(s);
          } else {
            s.releaseWhenEmpty = true;
            maybeReclaim(s);
          }
        }
        case CHILD, CHILD_DEFAULT -> m.subtreeWaiting.add(s);
      }
    }
    checkSubtrees();
  }

  /** Reclaims CHILD/CHILD_DEFAULT sessions whose gone owner has no live descendant left. */
  void checkSubtrees() {
    if (m.subtreeWaiting.isEmpty()) {
      return;
    }
    for (SessionRec s : new ArrayList<>(m.subtreeWaiting)) {
      if (s.reclaimed) {
        m.subtreeWaiting.remove(s);
      } else if (!hasLiveDescendant(s.owner)) {
        m.subtreeWaiting.remove(s);
        s.releaseWhenEmpty = true;
        maybeReclaim(s);
      }
    }
  }

  /** Whether a job spawned by {@code nspace}, or by one of its descendants, is alive. */
  private boolean hasLiveDescendant(String nspace) {
    return m.liveDescendants.containsKey(nspace);
  }
}
