package io.fluxdrm.dvm.core;

import io.fluxdrm.dvm.core.DvmView.Waiting;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixDataType;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.pmix.request.AllocationAnswer;
import io.fluxdrm.pmix.request.RequestException;
import io.fluxdrm.pmix.request.SpawnAllocation;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Spawns (PRRTE's prte_session_t, PRRTE §7.4.3 Flow-of-Control and PR #1904): the session a job
 * runs in, an allocation carried on the spawn served first (by the scheduler or here), and the job
 * made and tried.
 */
final class Spawns {
  private final DvmModel m;
  private final DvmCore core;

  Spawns(DvmModel m, DvmCore core) {
    this.m = m;
    this.core = core;
  }

  void spawn(DvmEvent.Spawn r) {
    if (r.apps().isEmpty()) {
      throw Refused.badParam("spawn: no app (expected: at least one)");
    }
    Optional<SpawnAllocation> carried;
    try {
      carried = SpawnAllocation.find(r.jobInfos());
    } catch (RequestException e) {
      throw Refused.badParam(e.getMessage());
    }
    if (carried.isEmpty()) {
      SessionRec target = spawnTarget(r);
      launchSpawn(r, target, null);
      return;
    }
    // PRRTE §7.4.3 Flow-of-Control: an allocation request carried on the spawn is served first
    SpawnAllocation alloc = carried.get();
    AllocDirective dir = alloc.directive();
    List<Info> req = alloc.infos();
    if (dir != AllocDirective.NEW && dir != AllocDirective.EXTEND) {
      throw Refused.badParam(
          "PMIX_SPAWN_ALLOC with " + dir.pmixName() + " (expected: PMIX_ALLOC_NEW or EXTEND)");
    }
    if (m.scheduler != null) {
      long id = m.nextCall++;
      m.calls.put(id, new Call(r.requestId(), true));
      m.pending.put(r.requestId(), new Pending(r, "spawn (allocation)", Waiting.SCHEDULER));
      m.out.add(
          new DvmDecision.ToScheduler(
              id,
              OptionalLong.of(r.requestId()),
              new DvmDecision.Allocate(
                  r.from().proc(), dir, DvmModel.withRequestor(req, r.from().proc()))));
      return;
    }
    List<Info> granted;
    try {
      granted = core.allocations.serveLocally(r.from(), dir, req);
    } catch (Refused e) {
      // PRRTE §7.4.3 Flow-of-Control: a refused allocation fails the spawn with JOB_ALLOC_FAILED,
      // nothing launched
      throw new Refused(
          PmixStatus.PMIX_ERR_JOB_ALLOC_FAILED,
          "PMIX_SPAWN_ALLOC refused (" + e.status() + "): " + e.getMessage());
    }
    grantedSpawn(r, granted, dir == AllocDirective.NEW);
  }

  void spawnAllocAnswered(DvmEvent.Spawn r, StatusInfos answer) {
    if (!answer.succeeded()) {
      m.refuse(
          r.requestId(),
          PmixStatus.PMIX_ERR_JOB_ALLOC_FAILED,
          "PMIX_SPAWN_ALLOC refused by the scheduler (" + answer.status() + ")");
      return;
    }
    m.pending.remove(r.requestId());
    try {
      grantedSpawn(r, answer.infos(), false);
    } catch (Refused e) {
      m.refuse(r.requestId(), e, Optional.empty());
    }
  }

  /**
   * Launches a spawn into the session its allocation answer names (PRRTE §7.4.3 Flow-of-Control).
   */
  private void grantedSpawn(DvmEvent.Spawn r, List<Info> granted, boolean ownAllocation) {
    String allocId = AllocationAnswer.allocIdOf(granted).orElse(null);
    SessionRec s = allocId == null ? m.dflt : m.byAllocId.get(allocId);
    if (s == null) {
      throw new Refused(
          PmixStatus.PMIX_ERR_JOB_ALLOC_FAILED,
          "PMIX_SPAWN_ALLOC: the grant names allocation " + allocId + ", unknown to the DVM");
    }
    launchSpawn(r, s, ownAllocation && !s.isDefault() ? s : null);
  }

  /**
   * The session a spawn runs in: PMIX_SPAWN_TARGET, else PMIX_ALLOC_ID, else the parent job's
   * session (an application), else the default session (a tool); PRRTE's prte_session_t and PRRTE
   * PR #1904 (a job spawns only into its own session or a child session it created).
   */
  private SessionRec spawnTarget(DvmEvent.Spawn r) {
    List<String> targets = new ArrayList<>();
    for (Info i : r.jobInfos()) {
      if (i.key().equals(PmixKey.PMIX_SPAWN_TARGET)) {
        if (i.type() == PmixDataType.PMIX_STRING) {
          targets.add(i.stringValue());
        } else {
          if (!i.isInfoArray()) {
            throw Refused.badParam("PMIX_SPAWN_TARGET: a data array of apps");
          }
          for (Info t : i.infosValue()) {
            if (t.type() != PmixDataType.PMIX_STRING) {
              throw Refused.badParam(
                  "PMIX_SPAWN_TARGET element " + t.key() + ": " + t.type() + " (expected: string)");
            }
            targets.add(t.stringValue());
          }
        }
      } else if (targets.isEmpty()) {
        // PMIX_ALLOC_ID names the session unless a PMIX_SPAWN_TARGET came before it
        AllocationAnswer.allocIdOf(List.of(i)).ifPresent(targets::add);
      }
    }
    JobRec parent = m.jobs.get(r.from().proc().nspace());
    if (targets.isEmpty()) {
      return parent != null && r.from().kind() == Client.Kind.APPLICATION ? parent.session : m.dflt;
    }
    SessionRec chosen = null;
    for (String t : targets) {
      SessionRec s = m.byAllocId.get(t);
      if (s == null) {
        // PRRTE node-reservation spec: SPAWN_TARGET unresolved → NOT_FOUND
        throw Refused.notFound("PMIX_SPAWN_TARGET " + t + ": no such allocation");
      }
      if (!spawnAllowed(r.from(), parent, s)) {
        throw Refused.noPermissions(
            "PMIX_SPAWN_TARGET " + t + ": " + r.from().proc().nspace() + " may not spawn into it");
      }
      if (chosen == null) {
        chosen = s;
      }
    }
    return chosen;
  }

  private boolean spawnAllowed(Client from, JobRec parent, SessionRec s) {
    if (m.isScheduler(from)) {
      return true;
    }
    if (from.kind() == Client.Kind.APPLICATION && parent != null) {
      // PRRTE PR #1904 assumption 2: its own session, or a child session it created
      return s == parent.session || s.owners.contains(parent.nspace);
    }
    return m.controls(false, from, s);
  }

  private void launchSpawn(DvmEvent.Spawn r, SessionRec s, SessionRec ownAllocation) {
    boolean nohup = false;
    for (Info i : r.jobInfos()) {
      if (i.key().equals(PmixKey.PMIX_NOHUP)) {
        nohup = i.boolValue();
      }
    }
    JobRec parent =
        r.from().kind() == Client.Kind.APPLICATION ? m.jobs.get(r.from().proc().nspace()) : null;
    JobRec j =
        core.jobControl.newJob(
            s, r.apps(), r.jobInfos(), parent == null ? null : parent.nspace, nohup, r.from());
    j.spawnAllocation = ownAllocation;
    if (!s.isDefault()) {
      // PRRTE's prte_session_t: every job spawned into a session becomes one of its owners
      s.owners.add(j.nspace);
    }
    j.answerOnLaunch = r.requestId();
    j.answerInfos = List.of();
    m.pending.put(r.requestId(), new Pending(r, "spawn", DvmModel.waitOf(j)));
    core.jobControl.tryLaunch(j);
  }
}
