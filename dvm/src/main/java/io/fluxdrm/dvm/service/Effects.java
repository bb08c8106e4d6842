package io.fluxdrm.dvm.service;

import io.fluxdrm.dvm.core.DvmDecision;
import io.fluxdrm.dvm.core.DvmEvent;
import io.fluxdrm.dvm.core.DvmInvariants;
import io.fluxdrm.dvm.exec.Executor;
import io.fluxdrm.dvm.exec.ProcSpec;
import io.fluxdrm.dvm.service.ServiceState.Ask;
import io.fluxdrm.dvm.service.ServiceState.PendingAnswer;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.SchedulerUpcalls;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.pmix.request.AllocationAnswer;
import io.fluxdrm.rpc.reactor.EventLoop;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out the core's decisions for a {@link DvmService}, in the order given (decision D523):
 * answers complete the request's future exactly once, daemon, launch and signal decisions go to the
 * {@link Executor}, timers to the loop's timers, upcalls to the attached scheduler; events wait for
 * the answer they follow. Every input it causes (a timer, a file read, a scheduler's answer, the
 * next turn of a mapped job) goes back through {@code DvmService.handle} on the loop. On the loop
 * only.
 */
final class Effects {
  private static final Logger LOG = LoggerFactory.getLogger(DvmService.class);

  private final ServiceState st;
  private final DvmService service;
  private final DvmInvariants ledger;

  Effects(ServiceState st, DvmService service, DvmInvariants ledger) {
    this.st = st;
    this.service = service;
    this.ledger = ledger;
  }

  void execute(List<DvmDecision> decisions) {
    if (ledger != null) {
      ledger.decided(decisions);
    }
    for (DvmDecision d : decisions) {
      execute(d);
    }
  }

  /**
   * The hosts whose daemons went in the event just handled and that are no longer the DVM's are
   * reported to the scheduler: nothing of the DVM runs there any more (D421).
   */
  void nodesGone() {
    List<String> released = new ArrayList<>();
    for (String h : st.gone) {
      st.departing.remove(h);
      if (service.view().node(h).isEmpty() && !released.contains(h)) {
        released.add(h);
      }
    }
    st.gone.clear();
    SchedulerUpcalls s = st.scheduler;
    if (s != null && !released.isEmpty()) {
      LOG.info("nodes released: {} (their daemons are gone)", released);
      s.nodesReleased(List.copyOf(released));
    }
  }

  /**
   * The hosts whose daemons were told to stop and have not left yet (a shrink's, a rolled-back
   * grow's, a reclaimed session's); on the loop only.
   */
  public Set<String> departing() {
    return Set.copyOf(st.departing);
  }

  /**
   * Whether a second-phase event must wait for the answer to its requester's allocation request:
   * the phase-one answer comes first (PRRTE elastic-DVM spec, two-phase answer, D422); returns the
   * request it waits for.
   */
  private Optional<Long> waitsFor(DvmDecision.Notify n) {
    int code = n.event().status();
    if ((code != PmixStatus.PMIX_DVM_IS_READY.code() && code != PmixStatus.PMIX_ERR_DVM_MOD.code())
        || n.event().target().isEmpty()
        || st.asks.isEmpty()) {
      return Optional.empty();
    }
    PmixProc target = n.event().target().get();
    Optional<String> reqId =
        AllocationAnswer.echoOf(n.event().infos()).stream().map(Info::stringValue).findFirst();
    for (Map.Entry<Long, Ask> a : st.asks.entrySet()) {
      if (a.getValue().requester().equals(target) && a.getValue().reqId().equals(reqId)) {
        return Optional.of(a.getKey());
      }
    }
    return Optional.empty();
  }

  private void deliver(DvmDecision.Notify n) {
    for (long ref : n.handlers()) {
      DvmPort.EventHandler h = st.handlers.get(ref);
      if (h != null) {
        h.onEvent(n.event());
      }
    }
  }

  private void execute(DvmDecision d) {
    if (d instanceof DvmDecision.Answer a) {
      answer(a.requestId(), a.result());
    } else if (d instanceof DvmDecision.ToScheduler t) {
      upcall(t);
    } else if (d instanceof DvmDecision.ReadFile r) {
      readFile(r);
    } else if (d instanceof DvmDecision.StartDaemon s) {
      st.exec.startDaemon(s.host());
    } else if (d instanceof DvmDecision.StopDaemon s) {
      st.departing.add(s.host());
      st.exec.stopDaemon(s.host());
    } else if (d instanceof DvmDecision.LaunchJob j) {
      launch(j);
    } else if (d instanceof DvmDecision.SignalJob s) {
      st.exec.signal(s.nspace(), s.signal().number());
    } else if (d instanceof DvmDecision.Notify n) {
      Optional<Long> first = waitsFor(n);
      if (first.isPresent()) {
        st.afterAnswer.computeIfAbsent(first.get(), k -> new ArrayList<>()).add(n);
      } else {
        deliver(n);
      }
    } else if (d instanceof DvmDecision.ArmTimer t) {
      EventLoop.Cancellable old = st.timers.remove(t.timerId());
      if (old != null) {
        old.cancel();
      }
      st.timers.put(
          t.timerId(),
          st.loop.schedule(
              t.after(),
              () -> {
                if (st.timers.remove(t.timerId()) != null) {
                  service.handle(new DvmEvent.TimerFired(t.timerId()));
                }
              }));
    } else if (d instanceof DvmDecision.CancelTimer t) {
      EventLoop.Cancellable c = st.timers.remove(t.timerId());
      if (c != null) {
        c.cancel();
      }
    } else if (d instanceof DvmDecision.SessionCreated s) {
      LOG.info("session {} (alloc id {}) created on {}", s.sessionId(), s.allocId(), s.hosts());
    } else if (d instanceof DvmDecision.MapComplete m) {
      // elastic mode: LAUNCH_APPS is a turn of its own, so a size change may come first
      st.loop.execute(() -> service.handle(new DvmEvent.LaunchApps(m.nspace())));
    } else if (d instanceof DvmDecision.ShrinkComplete s) {
      LOG.info("shrink campaign {} complete: daemons left {}", s.campaignId(), s.hosts());
    } else if (d instanceof DvmDecision.SessionReclaimed s) {
      st.reclaimed.add(s.sessionId());
      LOG.info(
          "session {} (alloc id {}) reclaimed; {} {}",
          s.sessionId(),
          s.allocId(),
          s.hosts(),
          s.handedBack() ? "handed back to the scheduler" : "back in the pool");
    }
  }

  /** Largest file the DVM reads for a request ({@code PMIX_HOSTFILE}). */
  static final long MAX_FILE = 1 << 20;

  /**
   * Reads a file a request names (a hostfile); small, so on the loop; reported on the next turn.
   */
  private void readFile(DvmDecision.ReadFile r) {
    java.nio.file.Path p = java.nio.file.Path.of(r.path());
    Optional<String> content = Optional.empty();
    String error = "";
    try {
      if (java.nio.file.Files.size(p) > MAX_FILE) {
        error = r.path() + ": larger than " + MAX_FILE + " bytes";
      } else {
        content =
            Optional.of(java.nio.file.Files.readString(p, java.nio.charset.StandardCharsets.UTF_8));
      }
    } catch (java.io.IOException | java.io.UncheckedIOException e) {
      error = r.path() + ": cannot read (" + e.getMessage() + ")";
    }
    Optional<String> c = content;
    String err = error;
    st.loop.execute(() -> service.handle(new DvmEvent.FileRead(r.requestId(), r.path(), c, err)));
  }

  private void answer(long id, StatusInfos result) {
    PendingAnswer p = st.pending.remove(id);
    if (p == null) {
      LOG.error("request {}: answered twice or never asked (a core defect): {}", id, result);
      return;
    }
    st.answered++;
    if (p.handler() != null && result.succeeded()) {
      st.handlers.put(id, p.handler());
    }
    st.asks.remove(id);
    p.answer().complete(result);
    List<DvmDecision.Notify> next = st.afterAnswer.remove(id);
    if (next != null) {
      next.forEach(this::deliver);
    }
  }

  private void upcall(DvmDecision.ToScheduler t) {
    SchedulerUpcalls s = st.scheduler;
    if (s == null) {
      st.loop.execute(
          () ->
              service.handle(
                  new DvmEvent.SchedulerAnswered(
                      t.callId(), StatusInfos.of(PmixStatus.PMIX_ERR_UNREACH))));
      return;
    }
    CompletionStage<StatusInfos> c;
    if (t.call() instanceof DvmDecision.Allocate a) {
      c = s.allocate(a.requester(), a.directive(), a.infos());
    } else {
      DvmDecision.SessionControl sc = (DvmDecision.SessionControl) t.call();
      c = s.sessionControl(sc.requester(), sc.sessionId(), sc.directives());
    }
    c.whenComplete(
        (a, err) -> {
          StatusInfos ans =
              err == null && a != null ? a : StatusInfos.of(PmixStatus.PMIX_ERR_UNREACH);
          st.loop.execute(() -> service.handle(new DvmEvent.SchedulerAnswered(t.callId(), ans)));
        });
  }

  private void launch(DvmDecision.LaunchJob j) {
    List<ProcSpec> procs = new ArrayList<>();
    for (DvmDecision.Placement p : j.procs()) {
      App app = j.apps().get(p.app());
      List<String> argv = new ArrayList<>();
      argv.add(app.cmd());
      if (app.argv().size() > 1) {
        argv.addAll(app.argv().subList(1, app.argv().size()));
      }
      procs.add(
          new ProcSpec(
              p.host(), p.rank(), argv, ProcSpec.standardEnv(j.nspace(), p.rank(), p.host())));
    }
    st.jobSession.put(j.nspace(), j.sessionId());
    st.launchedAt.put(j.nspace(), st.loop.nanoTime());
    st.exec.launch(j.nspace(), procs);
  }
}
