package io.fluxdrm.dvm.core;

import io.fluxdrm.dvm.core.DvmView.JobState;
import io.fluxdrm.dvm.core.DvmView.SessionFlag;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.request.InfoWriter;
import io.fluxdrm.pmix.request.NodeList;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Session control (PRRTE §7.4.4 Session Control; PRRTE §7.4.4.2 Operations): who may act on a
 * session, each directive (instantiate, pause, resume, preempt, restore, signal, terminate, extend,
 * separation), the nodes a session is given and its time limit.
 */
final class SessionControl {
  private final DvmModel m;
  private final DvmCore core;

  SessionControl(DvmModel m, DvmCore core) {
    this.m = m;
    this.core = core;
  }

  void sessionControl(DvmEvent.SessionControl r) {
    boolean fromScheduler = m.isScheduler(r.from());
    if (m.scheduler != null && !fromScheduler) {
      // PRRTE §7.4.4.1 "Who answers a request": passed up to the scheduler with PMIX_REQUESTOR
      m.forward(
          r,
          new DvmDecision.SessionControl(
              r.from().proc(),
              r.sessionId(),
              DvmModel.withRequestor(r.directives(), r.from().proc())),
          "session-control " + r.sessionId() + " (forwarded)");
      return;
    }
    SessionDirectives d = SessionDirectives.parse(r.directives());
    if (r.sessionId() < 0 || r.sessionId() > DvmModel.UINT32_MAX) {
      throw Refused.badParam(
          "session id " + r.sessionId() + ": out of range (expected: 0 to 4294967295)");
    }
    // D16: identity comes from the transport; PMIX_REQUESTOR is honoured from the scheduler only,
    // which executes a request on behalf of that requestor (decision D353)
    PmixProc actor = fromScheduler ? d.requestor().orElse(r.from().proc()) : r.from().proc();
    if (d.op() == SessionDirectives.Op.INSTANTIATE) {
      instantiate(r, d, fromScheduler, actor);
      return;
    }
    List<SessionRec> targets = new ArrayList<>();
    if (r.sessionId() == DvmModel.UINT32_MAX) {
      // PRRTE §7.4.4.2 "Operations": every session the requestor controls, never the unreserved
      // pool
      for (SessionRec s : m.sessions.values()) {
        if (m.controls(fromScheduler, r.from(), s)) {
          targets.add(s);
        }
      }
      if (targets.isEmpty()) {
        throw Refused.notFound("session UINT32_MAX: the requestor controls no session");
      }
      Refused last = null;
      for (SessionRec s : targets) {
        try {
          check(s, d);
          apply(s, d, actor);
        } catch (Refused e) {
          last = e;
        }
      }
      if (last != null) {
        m.refuse(r.requestId(), last, d.ctrlId());
      } else {
        m.answer(r.requestId(), PmixStatus.PMIX_SUCCESS, ctrlInfos(d));
      }
      return;
    }
    SessionRec s = m.sessions.get(r.sessionId());
    if (s == null) {
      throw Refused.notFound("session " + r.sessionId() + ": no such session");
    }
    if (!m.controls(fromScheduler, r.from(), s)) {
      // PRRTE §7.4.4.1 "Who answers a request": the requestor must be entitled (owner nspace or
      // user)
      throw Refused.noPermissions(
          "session "
              + r.sessionId()
              + ": "
              + r.from().proc().nspace()
              + " (uid "
              + r.from().uid()
              + ") neither owns it nor is the user it was granted to");
    }
    check(s, d);
    apply(s, d, actor);
    List<Info> infos = ctrlInfos(d);
    if (d.op() != SessionDirectives.Op.TERMINATE) {
      // PRRTE §7.4.4.2 Operations: the answer names the session, except a terminate's
      infos.addAll(sessionInfos(s));
    }
    m.answer(r.requestId(), PmixStatus.PMIX_SUCCESS, infos);
  }

  private static List<Info> ctrlInfos(SessionDirectives d) {
    InfoWriter w = InfoWriter.create();
    d.ctrlId().ifPresent(w::ctrlId);
    return w.infos();
  }

  private static List<Info> sessionInfos(SessionRec s) {
    return InfoWriter.create().sessionId(s.id).allocId(s.allocId).reqId(s.reqId).infos();
  }

  /** The checks of one session's operation that need state; nothing is changed. */
  private void check(SessionRec s, SessionDirectives d) {
    switch (d.op()) {
      case PREEMPT, RESTORE, SIGNAL -> namedJobs(s, d);
      case EXTEND -> {
        if (!d.extendsSomething()) {
          // PRRTE §7.4.4.2.6 "Extend": an extend that extends nothing is an error
          throw Refused.badParam(
              "PMIX_SESSION_EXTEND of session "
                  + s.id
                  + ": nothing to extend (expected: PMIX_ALLOC_NODE_LIST, PMIX_ALLOC_TIME,"
                  + " PMIX_TIMEOUT or PMIX_ALLOC_INHERITANCE)");
        }
        checkNodesFree(d.nodes(), s);
      }
      default -> {}
    }
  }

  /** The jobs named by PMIX_NSPACE (all when none is named); every name must be in {@code s}. */
  private List<JobRec> namedJobs(SessionRec s, SessionDirectives d) {
    if (d.nspaces().isEmpty()) {
      return new ArrayList<>(s.jobs);
    }
    List<JobRec> l = new ArrayList<>();
    for (String ns : d.nspaces()) {
      JobRec j = m.jobs.get(ns);
      if (j == null || j.session != s) {
        // PRRTE §7.4.4.2 Operations: named jobs absent → NOT_FOUND; no partial effect (03 §8.3)
        throw Refused.notFound("PMIX_NSPACE " + ns + ": no such job in session " + s.id);
      }
      if (!l.contains(j)) {
        l.add(j);
      }
    }
    return l;
  }

  private void apply(SessionRec s, SessionDirectives d, PmixProc actor) {
    switch (d.op()) {
      case PAUSE -> {
        // PRRTE §7.4.4.2.2 "Pause and resume": SIGSTOP every job not already stopped
        s.flags.add(SessionFlag.PAUSED);
        for (JobRec j : s.jobs) {
          stop(j);
        }
      }
      case RESUME -> {
        s.flags.remove(SessionFlag.PAUSED);
        for (JobRec j : s.jobs) {
          cont(j);
        }
      }
      case PREEMPT -> {
        // PRRTE §7.4.4.2.3 "Preempt and restore": suspension; the jobs keep their resources
        for (JobRec j : namedJobs(s, d)) {
          stop(j);
        }
      }
      case RESTORE -> {
        for (JobRec j : namedJobs(s, d)) {
          cont(j);
        }
      }
      case SIGNAL -> {
        Signal sig = new Signal(d.signal());
        for (JobRec j : namedJobs(s, d)) {
          if (j.state == JobState.RUNNING || j.state == JobState.TERMINATING) {
            m.out.add(new DvmDecision.SignalJob(j.nspace, sig));
          }
        }
      }
      case TERMINATE -> core.reclaim.terminateSession(s);
      case EXTEND -> extend(s, d, actor);
      default -> {}
    }
    // PRRTE §7.4.4.2.7 "Separation": may accompany any operation, or stand alone
    d.sep()
        .ifPresent(
            sep -> {
              if (sep) {
                s.flags.add(SessionFlag.DETACHED);
              } else {
                s.flags.remove(SessionFlag.DETACHED);
              }
            });
  }

  private void stop(JobRec j) {
    if (j.stopped) {
      return;
    }
    j.stopped = true;
    if (j.state == JobState.RUNNING) {
      m.out.add(new DvmDecision.SignalJob(j.nspace, Signal.STOP));
    }
  }

  private void cont(JobRec j) {
    if (!j.stopped) {
      return;
    }
    j.stopped = false;
    if (j.state == JobState.RUNNING || j.state == JobState.TERMINATING) {
      m.out.add(new DvmDecision.SignalJob(j.nspace, Signal.CONT));
    }
  }

  private void extend(SessionRec s, SessionDirectives d, PmixProc actor) {
    List<String> added = addNodes(s, d.nodes());
    d.timeLimitSeconds().ifPresent(t -> armLimit(s, t));
    d.inheritance().ifPresent(i -> s.inheritance = i);
    s.requestor = actor;
    // the extension's own PMIX_ALLOC_REQ_ID names its events, else the reservation's
    core.campaigns.growCampaign(actor, Optional.of(s.allocId), d.reqId().or(() -> s.reqId), added);
  }

  /** Refuses (RESOURCE_BUSY) when a named node is held by another reserved session or leaving. */
  void checkNodesFree(List<NodeList.Entry> entries, SessionRec into) {
    for (NodeList.Entry e : entries) {
      NodeRec n = m.nodes.get(e.host());
      if (n != null && !n.session.isDefault() && n.session != into) {
        throw new Refused(
            PmixStatus.PMIX_ERR_RESOURCE_BUSY,
            "node " + e.host() + ": held by session " + n.session.id + " (decision D352)");
      }
      if (n == null && m.leaving.containsKey(e.host())) {
        throw new Refused(
            PmixStatus.PMIX_ERR_RESOURCE_BUSY,
            "node " + e.host() + ": its daemon is still leaving the DVM");
      }
    }
  }

  /**
   * Puts the named nodes into {@code s} (withheld from general use, PRRTE §7.4.4.2.1
   * "Instantiation"), extending the DVM across new ones; returns the hosts whose daemons were
   * started.
   */
  List<String> addNodes(SessionRec s, List<NodeList.Entry> entries) {
    List<String> startedHosts = new ArrayList<>();
    for (NodeList.Entry e : entries) {
      NodeRec n = m.nodes.get(e.host());
      if (n == null) {
        n = new NodeRec(e.host(), e.slots().orElse(1), DaemonState.NONE, s);
        m.nodes.put(e.host(), n);
      } else {
        m.takeOut(n.session, n);
        n.session = s;
        e.slots().ifPresent(v -> setSlots(e.host(), v));
      }
      s.addNode(n);
      if (n.daemon == DaemonState.NONE || n.daemon == DaemonState.FAILED) {
        m.startDaemon(n);
        startedHosts.add(n.host);
      }
    }
    return startedHosts;
  }

  private void setSlots(String host, int slots) {
    NodeRec n = m.nodes.get(host);
    n.setSlots(Math.max(slots, n.used));
  }

  void armLimit(SessionRec s, long seconds) {
    if (s.timerId >= 0) {
      m.timers.remove(s.timerId);
      m.out.add(new DvmDecision.CancelTimer(s.timerId));
      s.timerId = -1;
      s.timeLimit = null;
    }
    if (seconds > 0) {
      // PRRTE §7.4.4.3 "Session lifetime": a limit only when asked for; 0 disarms (PRRTE §7.4.4.2
      // Operations)
      s.timeLimit = Duration.ofSeconds(seconds);
      s.timerId = m.nextTimer++;
      m.timers.put(s.timerId, new Timer(s, null));
      m.out.add(new DvmDecision.ArmTimer(s.timerId, s.timeLimit));
    }
  }

  private void instantiate(
      DvmEvent.SessionControl r, SessionDirectives d, boolean fromScheduler, PmixProc actor) {
    long id = r.sessionId();
    if (id == DvmModel.UINT32_MAX) {
      throw Refused.badParam("PMIX_SESSION_INSTANTIATE of session UINT32_MAX (expected: one id)");
    }
    if (m.sessions.containsKey(id)) {
      throw new Refused(PmixStatus.PMIX_ERR_EXISTS, "session " + id + ": exists already");
    }
    if (!d.apps().isEmpty() && d.nodes().isEmpty()) {
      // PRRTE §7.4.4.2.1 "Instantiation": a session given apps must be given resources
      throw Refused.badParam(
          "PMIX_SESSION_APP without PMIX_ALLOC_NODE_LIST: a session with apps needs nodes");
    }
    if (d.nodes().isEmpty()) {
      // decision D497: a session holds nodes; PRRTE creates one on none, as it
      // makes an empty reservation of a NEW without nodes, which the reference refuses too (D355)
      throw Refused.badParam(
          "PMIX_SESSION_INSTANTIATE without PMIX_ALLOC_NODE_LIST: names no nodes (expected: the"
              + " session's nodes)");
    }
    String allocId = d.allocId().orElse(Long.toUnsignedString(id));
    if (m.byAllocId.containsKey(allocId)) {
      throw new Refused(
          PmixStatus.PMIX_ERR_EXISTS,
          "PMIX_ALLOC_ID " + allocId + ": names session " + m.byAllocId.get(allocId).id);
    }
    checkNodesFree(d.nodes(), null);
    int np = 0;
    for (App a : d.apps()) {
      np += a.maxprocs();
    }
    if (np > 0) {
      long slots = 0;
      for (NodeList.Entry e : d.nodes()) {
        NodeRec n = m.nodes.get(e.host());
        slots += e.slots().orElse(n == null ? 1 : n.slots);
      }
      if (np > slots) {
        throw new Refused(
            PmixStatus.PMIX_ERR_OUT_OF_RESOURCE,
            "PMIX_SESSION_APP: " + np + " processes for " + slots + " slots (decision D354)");
      }
    }
    SessionRec s = new SessionRec(id, allocId, d.reqId());
    s.flags.add(SessionFlag.RESERVED);
    if (fromScheduler) {
      s.flags.add(SessionFlag.SCHEDULER);
    }
    // PRRTE §7.4.4.2.7 "Separation": detached by default; SEP=false opts back into requester
    // lifetime
    if (d.sep().orElse(true)) {
      s.flags.add(SessionFlag.DETACHED);
    }
    if (!d.apps().isEmpty()) {
      s.flags.add(SessionFlag.AUTO_COMPLETE);
    }
    s.instantiated = true;
    s.owner = actor.nspace();
    s.owners.add(actor.nspace());
    // PRRTE §7.4.4.4 "Credentials": PMIX_USERID recorded as the user the session is granted to
    s.ownerUid = d.userId().orElse(r.from().uid());
    d.inheritance().ifPresent(i -> s.inheritance = i);
    s.requestor = actor;
    m.register(s);
    List<String> startedHosts = addNodes(s, d.nodes());
    m.out.add(new DvmDecision.SessionCreated(s.id, s.allocId, DvmModel.hosts(s)));
    d.timeLimitSeconds().ifPresent(t -> armLimit(s, t));
    List<Info> infos = ctrlInfos(d);
    infos.addAll(sessionInfos(s));
    core.campaigns.growCampaign(actor, Optional.of(s.allocId), s.reqId, startedHosts);
    if (d.apps().isEmpty()) {
      // PRRTE §7.4.4.2.1 "Instantiation": a standing reservation, answered at once
      m.answer(r.requestId(), PmixStatus.PMIX_SUCCESS, infos);
      return;
    }
    JobRec j = core.jobControl.newJob(s, d.apps(), d.jobInfos(), null, false, r.from());
    s.owners.add(j.nspace);
    j.answerOnLaunch = r.requestId();
    j.answerInfos = infos;
    m.pending.put(
        r.requestId(),
        new Pending(r, "session-control " + id + " INSTANTIATE", DvmModel.waitOf(j)));
    core.jobControl.tryLaunch(j);
  }
}
