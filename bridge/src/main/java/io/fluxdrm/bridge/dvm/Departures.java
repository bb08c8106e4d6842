package io.fluxdrm.bridge.dvm;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.request.InfoWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the nodes a {@link FluxScheduler} granted to the DVM go back to Flux: those Flux takes back
 * on its own (D13, D423), those the DVM reports released (D421) or rolled back (D424), those of a
 * released session the DVM completed (D450) and those of a DVM that is gone (D377); each hand-back
 * is kept in the {@link SchedulerState} ledger until it completes (D521). Runs on the scheduler's
 * loop.
 */
final class Departures {
  private static final Logger LOG = LoggerFactory.getLogger(FluxScheduler.class);

  private final SchedulerState state;
  private final FluxScheduler.HandBack handBack;
  private final Supplier<DvmPort> self;

  Departures(SchedulerState state, FluxScheduler.HandBack handBack, Supplier<DvmPort> self) {
    this.state = state;
    this.handBack = handBack;
    this.self = self;
  }

  /** Flux took {@code nodeList} back on its own, as {@link FluxScheduler#takenBack} tells. */
  void takenBack(String nodeList) {
    List<String> now = new ArrayList<>();
    List<String> held = new ArrayList<>();
    for (String entry : nodeList.split(",")) {
      String host = SchedulerState.host(entry);
      Long sid = state.sessionOf.remove(host);
      if (sid != null) {
        state.sessions.get(sid).remove(host);
        state.departing.put(host, entry);
        held.add(entry);
      } else {
        now.add(entry);
      }
    }
    if (!now.isEmpty()) {
      releasedDurably(String.join(",", now));
    }
    if (held.isEmpty()) {
      return;
    }
    shrinkOut(held, "taken back by Flux");
  }

  /**
   * Asks the DVM, through this scheduler's own tool port, to shrink out {@code entries} (already in
   * {@link SchedulerState#departing}); this scheduler grants that release itself, and the nodes go
   * back to Flux when the DVM reports their daemons gone ({@link #nodesReleased}). Without such a
   * port they stay held, logged. When the DVM answers that it does not hold them, nothing of it
   * runs there and they go back at once.
   */
  void shrinkOut(List<String> entries, String why) {
    String list = String.join(",", entries);
    if (self == null) {
      LOG.error("{}: {} runs DVM daemons and no port can shrink it; kept", why, list);
      return;
    }
    String reqId = FluxScheduler.SELF_REQ_ID + state.nextSelf++;
    state.selfReleases.put(reqId, list);
    LOG.info("{}: {}; asking the DVM to release it ({})", why, list, reqId);
    self.get()
        .allocationRequest(
            AllocDirective.RELEASE, InfoWriter.create().nodeList(list).reqId(reqId).infos())
        .whenComplete(
            (a, err) -> {
              state.selfReleases.remove(reqId);
              if (err == null && a.status() == PmixStatus.PMIX_ERR_NOT_FOUND) {
                // the DVM holds none of them any more: nothing of it runs there
                List<String> back = new ArrayList<>();
                for (String entry : entries) {
                  if (state.departing.remove(SchedulerState.host(entry)) != null) {
                    back.add(entry);
                  }
                }
                if (!back.isEmpty()) {
                  LOG.info("release {}: the DVM holds none of {}; handed back", reqId, back);
                  state.save();
                  releasedDurably(String.join(",", back));
                }
              } else if (err != null || !a.succeeded()) {
                LOG.error(
                    "release {} of {}: {}; kept until the DVM reports it gone",
                    reqId,
                    list,
                    err != null ? err.getMessage() : a.status());
              }
            });
  }

  /** The DVM's release hook (D421), as {@link FluxScheduler#nodesReleased} tells. */
  CompletionStage<Void> nodesReleased(List<String> hosts) {
    List<String> freed = new ArrayList<>();
    Map<Long, List<String>> rolledBack = new java.util.LinkedHashMap<>();
    for (String h : hosts) {
      String entry = state.departing.remove(h);
      Long sid = state.sessionOf.remove(h);
      String held = sid == null ? null : state.sessions.get(sid).remove(h);
      if (entry != null) {
        freed.add(entry);
      } else if (held != null && state.releasing.containsKey(sid)) {
        state.goneWhileReleasing.add(h);
      } else if (held != null) {
        rolledBack.computeIfAbsent(sid, k -> new ArrayList<>()).add(held);
      }
    }
    state.save();
    List<CompletableFuture<?>> all = new ArrayList<>();
    if (!freed.isEmpty()) {
      String list = String.join(",", freed);
      LOG.info("nodes released by the DVM: {} handed back to Flux", list);
      all.add(releasedDurably(list).toCompletableFuture());
    }
    for (Map.Entry<Long, List<String>> e : rolledBack.entrySet()) {
      String list = String.join(",", e.getValue());
      String allocId = Long.toUnsignedString(e.getKey());
      LOG.info(
          "nodes of session {} left the DVM unreleased (rolled back): {} given back",
          allocId,
          list);
      all.add(
          handBack
              .handBack(allocId, list)
              .thenAccept(
                  r -> {
                    if (r.status() != PmixStatus.PMIX_SUCCESS) {
                      LOG.error(
                          "session {}: giving {} back failed: {} {}",
                          allocId,
                          list,
                          r.status(),
                          r.message());
                    }
                  })
              .toCompletableFuture());
    }
    return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new));
  }

  /**
   * A released session is complete: the DVM reclaimed it, and its nodes stay in the DVM's pool with
   * their daemons up (inheritance DEFAULT). They are shrunk out of the DVM (docs/scenarios.md B10:
   * "member nodes with daemons shrunk out") and go back to Flux only once their daemons are gone,
   * as after any shrink (E3, D450); those whose daemons already left go back at once.
   */
  CompletionStage<Void> completeRelease(long sid, String nodes) {
    List<String> now = new ArrayList<>();
    List<String> held = new ArrayList<>();
    for (String entry : nodes.split(",")) {
      String host = SchedulerState.host(entry);
      if (state.goneWhileReleasing.remove(host) || self == null) {
        now.add(entry);
      } else {
        state.departing.put(host, entry);
        held.add(entry);
      }
    }
    if (self == null && !now.isEmpty()) {
      LOG.warn(
          "session {} complete: no port to shrink the DVM; {} handed back with its daemons up",
          sid,
          nodes);
    }
    if (!held.isEmpty()) {
      shrinkOut(held, "session " + sid + " released and complete");
    }
    return now.isEmpty()
        ? CompletableFuture.completedFuture(null)
        : releasedDurably(String.join(",", now));
  }

  /** The DVM is gone (D377), as {@link FluxScheduler#dvmLost} tells. */
  CompletionStage<Void> dvmLost() {
    List<CompletableFuture<?>> all = new ArrayList<>();
    for (Map.Entry<Long, Map<String, String>> e : Map.copyOf(state.sessions).entrySet()) {
      String nodes = String.join(",", e.getValue().values());
      String pending = state.releasing.remove(e.getKey());
      LOG.info("DVM lost: session {} gone, {} back to Flux", e.getKey(), nodes);
      all.add(
          (pending != null
                  ? releasedDurably(pending).thenApply(v -> null)
                  : handBack.handBack(Long.toUnsignedString(e.getKey()), nodes))
              .toCompletableFuture());
    }
    state.sessions.clear();
    state.sessionOf.clear();
    if (!state.departing.isEmpty()) {
      // granted releases the DVM can no longer report: gone with it
      String list = String.join(",", state.departing.values());
      state.departing.clear();
      all.add(releasedDurably(list).toCompletableFuture());
    }
    for (Map.Entry<Long, Pending> e : Map.copyOf(state.pending).entrySet()) {
      // told to a DVM that is gone: it holds nothing of them (the answer, a failure, is left)
      all.add(
          handBack
              .handBack(Long.toUnsignedString(e.getKey()), e.getValue().nodes())
              .toCompletableFuture());
    }
    state.pending.clear();
    state.save();
    return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new));
  }

  /** {@code handBack.released(list)}, kept in the ledger until it completes (D521). */
  CompletionStage<Void> releasedDurably(String list) {
    List<String> entries = List.of(list.split(","));
    for (String e : entries) {
      state.handingBack.put(SchedulerState.host(e), e);
    }
    state.save();
    return handBack
        .released(list)
        .whenComplete(
            (v, err) -> {
              for (String e : entries) {
                state.handingBack.remove(SchedulerState.host(e), e);
              }
              state.save();
            });
  }
}
