package io.fluxdrm.bridge.dvm;

import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.request.InfoWriter;
import io.fluxdrm.pmix.request.SessionControl.Operation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a restarted {@link FluxScheduler} settles what the one before it left (decision D521): it
 * takes over the saved {@link Ledger}, then, once attached to the DVM, settles the grants, the
 * releases and the departing hosts the DVM may have answered or reported to the one before.
 */
final class Restart {
  private static final Logger LOG = LoggerFactory.getLogger(FluxScheduler.class);

  private final SchedulerState state;
  private final Supplier<DvmPort> down;
  private final FluxScheduler.HandBack handBack;
  private final Departures departures;

  Restart(
      SchedulerState state,
      Supplier<DvmPort> down,
      FluxScheduler.HandBack handBack,
      Departures departures) {
    this.state = state;
    this.down = down;
    this.handBack = handBack;
    this.departures = departures;
  }

  /**
   * Takes over the ledger of the scheduler before this one (decision D521), before the first
   * attach: its sessions are this scheduler's, so a tool's RELEASE of one finds it; its released
   * hosts are handed back when the DVM reports their daemons gone; its grants being told to the DVM
   * are settled by {@link #reattached}.
   *
   * @param l the ledger a journal saved
   */
  void restore(Ledger l) {
    state.base = l.base();
    l.sessions()
        .forEach(
            (sid, entries) -> {
              Map<String, String> held = new java.util.LinkedHashMap<>();
              for (String entry : entries) {
                held.put(SchedulerState.host(entry), entry);
                state.sessionOf.put(SchedulerState.host(entry), sid);
              }
              state.sessions.put(sid, held);
            });
    state.pending.putAll(l.pending());
    state.departing.putAll(l.departing());
    state.releasing.putAll(l.releasing());
    if (!l.carriesNothing()) {
      LOG.info(
          "ledger of the scheduler before: {} session(s), {} grant(s) being told to the DVM, {}"
              + " host(s) departing, {} session(s) releasing",
          l.sessions().size(),
          l.pending().size(),
          l.departing().size(),
          l.releasing().size());
    }
  }

  /**
   * Attached to the DVM: settles the grants whose session control the scheduler before this one
   * sent without learning the answer (decision D521). Each is sent again, as it was: when the DVM
   * now holds it (the control succeeds, or the session exists already) it stands as a session of
   * this scheduler, logged with its {@code PMIX_ALLOC_ID} since its requester was told the request
   * failed; otherwise it goes back to Flux, as a refused grant does (D376). Runs on the loop.
   *
   * @return completes once every such grant is settled; never fails
   */
  CompletionStage<Void> reattached() {
    List<CompletableFuture<?>> all = new ArrayList<>();
    for (Map.Entry<Long, String> e : Map.copyOf(state.releasing).entrySet()) {
      // its COMPLETE may have gone to the scheduler before: terminate it again, and when the DVM
      // no longer has it, go on as after the COMPLETE
      long sid = e.getKey();
      all.add(
          down.get()
              .sessionControl(sid, InfoWriter.create().operation(Operation.TERMINATE).infos())
              .handle(
                  (st, err) -> {
                    if (err == null && st.succeeded()) {
                      return CompletableFuture.<Void>completedFuture(null);
                    }
                    String nodes = state.releasing.remove(sid);
                    if (nodes == null) {
                      return CompletableFuture.<Void>completedFuture(null);
                    }
                    state.forget(sid);
                    LOG.info("released session {} was completed before: {} shrunk out", sid, nodes);
                    CompletionStage<Void> back = departures.completeRelease(sid, nodes);
                    state.save();
                    return back;
                  })
              .thenCompose(f -> f)
              .toCompletableFuture());
    }
    if (!state.departing.isEmpty()) {
      // the DVM may have reported them gone to the scheduler before: ask again, host by host
      for (String entry : List.copyOf(state.departing.values())) {
        departures.shrinkOut(List.of(entry), "released before the scheduler restarted");
      }
    }
    for (Map.Entry<Long, Pending> e : Map.copyOf(state.pending).entrySet()) {
      long id = e.getKey();
      Pending p = e.getValue();
      String allocId = Long.toUnsignedString(id);
      List<Info> d = Grants.directive(p.extend(), p.nodes(), allocId).infos();
      all.add(
          down.get()
              .sessionControl(id, d)
              .handle(
                  (s, err) -> {
                    state.pending.remove(id);
                    boolean holds =
                        err == null
                            && (s.succeeded()
                                || (!p.extend() && s.status() == PmixStatus.PMIX_ERR_EXISTS));
                    if (holds) {
                      Map<String, String> held =
                          state.sessions.computeIfAbsent(id, k -> new java.util.LinkedHashMap<>());
                      for (String entry : p.nodes().split(",")) {
                        held.put(SchedulerState.host(entry), entry);
                        state.sessionOf.put(SchedulerState.host(entry), id);
                      }
                      state.save();
                      LOG.warn(
                          "grant {} of {} was being told to the DVM when the scheduler before"
                              + " stopped: the DVM holds it as session {}; its requester was told"
                              + " it failed: give it back with PMIX_ALLOC_RELEASE of PMIX_ALLOC_ID"
                              + " {}",
                          allocId,
                          p.nodes(),
                          allocId,
                          allocId);
                      return CompletableFuture.<Void>completedFuture(null);
                    }
                    state.save();
                    LOG.warn(
                        "grant {} of {} was being told to the DVM when the scheduler before"
                            + " stopped: the DVM does not hold it ({}); handing it back",
                        allocId,
                        p.nodes(),
                        err != null ? err.getMessage() : s.status());
                    return handBack.handBack(allocId, p.nodes()).thenApply(r -> (Void) null);
                  })
              .thenCompose(f -> f)
              .toCompletableFuture());
    }
    return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new));
  }
}
