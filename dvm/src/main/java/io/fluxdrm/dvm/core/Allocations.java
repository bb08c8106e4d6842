package io.fluxdrm.dvm.core;

import io.fluxdrm.dvm.core.DvmView.SessionFlag;
import io.fluxdrm.dvm.core.DvmView.Waiting;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.request.AllocationAnswer;
import io.fluxdrm.pmix.request.AllocationRequest;
import io.fluxdrm.pmix.request.InfoWriter;
import io.fluxdrm.pmix.request.NodeList;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Allocation requests (PRRTE §7.4.3 Flow-of-Control; PRRTE's ras base completing a grant):
 * forwarded to the scheduler when one is attached, else NEW, EXTEND, RELEASE and REQ_CANCEL served
 * here; a release the scheduler granted.
 */
final class Allocations {
  private final DvmModel m;
  private final DvmCore core;

  Allocations(DvmModel m, DvmCore core) {
    this.m = m;
    this.core = core;
  }

  /**
   * The nodes of a RELEASE the scheduler granted, those the DVM holds, leave it as a release by
   * node list from {@code from} (a shrink campaign in elastic mode); nothing when the answer names
   * no node list (a whole reservation is the scheduler's session control, decision D376).
   */
  void releaseGranted(Client from, List<Info> grant) {
    AllocInfos a = allocInfos(grant);
    List<NodeList.Entry> held = new ArrayList<>();
    for (NodeList.Entry e : a.nodes) {
      if (m.nodes.containsKey(e.host())) {
        held.add(e);
      }
    }
    if (held.isEmpty()) {
      return;
    }
    a.nodes = held;
    a.allocId = Optional.empty();
    release(from, a);
  }

  void allocationRequest(DvmEvent.AllocationRequest r) {
    if (r.directive() == AllocDirective.ACTIVATE) {
      // PRRTE §7.4.3 Flow-of-Control: ACTIVATE is answered by the DVM itself, even under a
      // scheduler
      core.activation.activate(r);
      return;
    }
    if (m.isScheduler(r.from())) {
      // PMIx Standard v5.0, PMIx_Allocation_request: a scheduler cannot ask itself for an
      // allocation
      throw Refused.notSupported("allocation request from the scheduler itself");
    }
    if (m.scheduler != null) {
      if (r.from().kind() == Client.Kind.APPLICATION
          && (r.directive() == AllocDirective.NEW || r.directive() == AllocDirective.EXTEND)
          && AllocationAnswer.namesTarget(r.infos())) {
        // B5, PRRTE node-reservation spec: an application may not name an owner; refused before the
        // scheduler grants what the DVM would not apply (D477)
        throw Refused.noPermissions("PMIX_ALLOC_TARGET: an application may not name an owner");
      }
      if (r.directive() == AllocDirective.EXTEND) {
        // B8: an EXTEND of a reservation this DVM holds is for its owners to ask; refused here,
        // before the scheduler grants what the DVM would not apply (D477)
        for (Info i : r.infos()) {
          Optional<String> id = AllocationAnswer.allocIdOf(List.of(i));
          SessionRec held = id.map(m.byAllocId::get).orElse(null);
          if (held != null && !m.controls(false, r.from(), held)) {
            throw Refused.noPermissions(
                "PMIX_ALLOC_EXTEND of "
                    + id.get()
                    + ": "
                    + r.from().proc().nspace()
                    + " does not own it");
          }
        }
      }
      // PRRTE §7.4.3 Flow-of-Control: requests go to the scheduler, with PMIX_REQUESTOR, and the
      // answer comes back
      m.forward(
          r,
          new DvmDecision.Allocate(
              r.from().proc(), r.directive(), DvmModel.withRequestor(r.infos(), r.from().proc())),
          "alloc " + r.directive().name() + " (forwarded)");
      return;
    }
    if (m.config.elastic()
        && r.directive() == AllocDirective.RELEASE
        && m.open.values().stream().anyMatch(c -> c.grow)) {
      // B14: a release during a grow is parked, not refused, and replayed once no grow is open
      // (D24, decision D402: also when the grow fails); malformed input is refused at once
      allocInfos(r.infos());
      m.pending.put(
          r.requestId(), new Pending(r, "alloc RELEASE (deferred behind a grow)", Waiting.DAEMONS));
      m.deferredReleases.add(r);
      return;
    }
    List<Info> result = serveLocally(r.from(), r.directive(), r.infos());
    m.answer(r.requestId(), PmixStatus.PMIX_SUCCESS, result);
  }

  static AllocInfos allocInfos(List<Info> infos) {
    AllocationRequest r = Requests.allocation(infos);
    r.firstSelection()
        .ifPresent(
            name -> {
              // decision D355: without a scheduler nobody can choose machines (B16)
              throw Refused.notSupported(
                  name
                      + ": no scheduler is attached to choose resources (expected:"
                      + " PMIX_ALLOC_NODE_LIST)");
            });
    return AllocInfos.of(r);
  }

  /**
   * Serves NEW/EXTEND/RELEASE/REQ_CANCEL without a scheduler (PRRTE's ras base completing a grant,
   * the error table of PRRTE node-reservation spec); returns the success infos or throws {@link
   * Refused} with nothing changed.
   */
  List<Info> serveLocally(Client from, AllocDirective dir, List<Info> infos) {
    AllocInfos a = allocInfos(infos);
    switch (dir) {
      case NEW, EXTEND -> {
        return grow(from, dir, a);
      }
      case RELEASE -> {
        return release(from, a);
      }
      case REQ_CANCEL -> {
        if (a.reqId.isEmpty()) {
          throw Refused.badParam("PMIX_ALLOC_REQ_CANCEL without PMIX_ALLOC_REQ_ID");
        }
        // without a scheduler every request is answered at once: nothing is outstanding
        throw Refused.notFound(
            "PMIX_ALLOC_REQ_CANCEL " + a.reqId.get() + ": no outstanding request has that id");
      }
      default ->
          throw Refused.notSupported(
              dir.pmixName() + ": not supported by the reference DVM without a scheduler");
    }
  }

  private List<Info> grow(Client from, AllocDirective dir, AllocInfos a) {
    PmixProc req = from.proc();
    boolean app = from.kind() == Client.Kind.APPLICATION;
    if (a.target.isPresent() && app) {
      // PRRTE node-reservation spec: an application may not name an owner with PMIX_ALLOC_TARGET
      throw Refused.noPermissions("PMIX_ALLOC_TARGET: an application may not name an owner");
    }
    if (a.share) {
      // PRRTE's ras base completing a grant: SHARE puts the nodes into the default pool, no
      // reservation id
      if (a.nodes.isEmpty()) {
        throw Refused.badParam(dir.pmixName() + " with PMIX_ALLOC_SHARE: no PMIX_ALLOC_NODE_LIST");
      }
      core.sessionControl.checkNodesFree(a.nodes, m.dflt);
      List<String> started = core.sessionControl.addNodes(m.dflt, a.nodes);
      core.campaigns.growCampaign(req, Optional.empty(), a.reqId, started);
      return InfoWriter.create().reqId(a.reqId).infos();
    }
    SessionRec s;
    if (dir == AllocDirective.EXTEND) {
      s = ownedReservation(from, a, "PMIX_ALLOC_EXTEND");
      if (a.nodes.isEmpty() && a.time.isEmpty() && a.inheritance.isEmpty()) {
        throw Refused.badParam("PMIX_ALLOC_EXTEND of " + s.allocId + ": nothing to extend");
      }
      core.sessionControl.checkNodesFree(a.nodes, s);
      List<String> started = core.sessionControl.addNodes(s, a.nodes);
      a.time.ifPresent(t -> core.sessionControl.armLimit(s, t));
      a.inheritance.ifPresent(i -> s.inheritance = i);
      s.requestor = req;
      core.campaigns.growCampaign(req, Optional.of(s.allocId), a.reqId, started);
    } else {
      if (a.allocId.isPresent()) {
        throw Refused.notSupported("PMIX_ALLOC_NEW with PMIX_ALLOC_ID: names no new allocation");
      }
      if (a.nodes.isEmpty()) {
        throw Refused.badParam("PMIX_ALLOC_NEW without PMIX_ALLOC_NODE_LIST: names no nodes");
      }
      core.sessionControl.checkNodesFree(a.nodes, null);
      long id = m.freshSessionId();
      s = new SessionRec(id, Long.toUnsignedString(id), a.reqId);
      s.flags.add(SessionFlag.RESERVED);
      s.owner = a.target.orElse(req.nspace());
      s.owners.add(s.owner);
      s.ownerUid = a.userId.orElse(from.uid());
      a.inheritance.ifPresent(i -> s.inheritance = i);
      s.requestor = req;
      JobRec parentJob = m.jobs.get(req.nspace());
      if (parentJob != null && !parentJob.session.isDefault()) {
        // PRRTE PR #1904: a job's PMIX_ALLOC_NEW makes a child session of its own
        s.parent = parentJob.session;
        parentJob.session.children.add(id);
      }
      m.register(s);
      List<String> started = core.sessionControl.addNodes(s, a.nodes);
      m.out.add(new DvmDecision.SessionCreated(s.id, s.allocId, DvmModel.hosts(s)));
      a.time.ifPresent(t -> core.sessionControl.armLimit(s, t));
      core.campaigns.growCampaign(req, Optional.of(s.allocId), a.reqId, started);
    }
    return InfoWriter.create().allocId(s.allocId).reqId(a.reqId).infos();
  }

  /**
   * The reservation an EXTEND/RELEASE names, checked for ownership (PRRTE node-reservation spec).
   */
  private SessionRec ownedReservation(Client from, AllocInfos a, String what) {
    SessionRec s;
    if (a.allocId.isPresent()) {
      s = m.byAllocId.get(a.allocId.get());
      if (s == null) {
        throw Refused.notFound(what + ": PMIX_ALLOC_ID " + a.allocId.get() + " names nothing");
      }
    } else if (a.reqId.isPresent()) {
      s = null;
      for (SessionRec c : m.sessions.values()) {
        if (c.reqId.equals(a.reqId) && m.controls(false, from, c)) {
          s = c;
          break;
        }
      }
      if (s == null) {
        throw Refused.notFound(
            what + ": PMIX_ALLOC_REQ_ID " + a.reqId.get() + " names no reservation of yours");
      }
    } else {
      throw Refused.badParam(what + " without PMIX_ALLOC_ID or PMIX_ALLOC_REQ_ID");
    }
    if (!m.controls(false, from, s)) {
      throw Refused.noPermissions(
          what + " of " + s.allocId + ": " + from.proc().nspace() + " does not own it");
    }
    return s;
  }

  List<Info> release(Client from, AllocInfos a) {
    if (a.allocId.isPresent()) {
      SessionRec s = ownedReservation(from, a, "PMIX_ALLOC_RELEASE");
      // PRRTE's ras base completing a RELEASE: torn down, handed back (never the master's node), no
      // DVM event
      s.handBack = true;
      core.reclaim.terminateSession(s);
      return InfoWriter.create().allocId(s.allocId).infos();
    }
    if (a.nodes.isEmpty()) {
      // B13: nothing named
      throw Refused.notFound("PMIX_ALLOC_RELEASE: names no allocation and no nodes");
    }
    List<NodeRec> named = new ArrayList<>();
    for (NodeList.Entry e : a.nodes) {
      NodeRec n = m.nodes.get(e.host());
      if (n == null) {
        // B12
        throw Refused.notFound("PMIX_ALLOC_RELEASE: node " + e.host() + " is not in the DVM");
      }
      if (!n.session.isDefault() && !m.controls(false, from, n.session)) {
        throw Refused.noPermissions(
            "PMIX_ALLOC_RELEASE: node "
                + e.host()
                + " is held by session "
                + n.session.id
                + ", not yours");
      }
      if (e.host().equals(m.config.master())) {
        throw Refused.badParam(
            "PMIX_ALLOC_RELEASE: node " + e.host() + " is the master's (never shrunk)");
      }
      if (!m.config.elastic() && !n.jobsOn.isEmpty()) {
        // decision D401: in elastic mode a busy node may be shrunk; its processes end with its
        // daemon (D4) and a job mapped there, not launched, is remapped (PRRTE elastic-DVM spec
        // guarantee 3)
        throw new Refused(
            PmixStatus.PMIX_ERR_RESOURCE_BUSY,
            "PMIX_ALLOC_RELEASE: node "
                + e.host()
                + " runs job "
                + DvmModel.jobsOn(n).get(0).nspace);
      }
      named.add(n);
    }
    List<String> departing = new ArrayList<>();
    for (NodeRec n : named) {
      SessionRec held = n.session;
      m.takeOut(held, n);
      m.nodes.remove(n.host);
      if (m.stopDaemon(n, held)) {
        departing.add(n.host);
        m.unclaimedStops.add(n);
      }
    }
    core.campaigns.growCampaign(from.proc(), a.allocId, a.reqId, departing);
    return InfoWriter.create().reqId(a.reqId).infos();
  }
}
