package io.fluxdrm.pmix.nativ;

import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Checks each grant PRRTE was told of until a daemon of PRRTE's runs on every node, relays its
 * second phase where PRRTE sends none, and hands back to Flux what PRRTE did not apply within the
 * grant timeout (D476). Part of {@link PrrteScheduler}, whose ledger of grants it reads and whose
 * logger it logs under.
 */
final class GrantWatcher {
  /**
   * A grant being checked: its requester, ids, node list, whether fluxdrm relays its second phase
   * (PRRTE sends none to this requester) and deadline (nanoTime).
   */
  record Watch(
      PmixProc requester, String reqId, String id, String list, boolean relay, long deadline) {}

  private int watching;

  private final PrrteScheduler s;

  GrantWatcher(PrrteScheduler s) {
    this.s = s;
  }

  void watch(Watch w) {
    if (s.reactor != null) {
      watching++;
      poll(w, 250);
    }
  }

  /** How many grants are being watched (D476). */
  int watching() {
    return watching;
  }

  private void poll(Watch w, long delayMs) {
    CompletableFuture.delayedExecutor(delayMs, TimeUnit.MILLISECONDS, s.reactor)
        .execute(
            () ->
                s.shrinker
                    .nspace()
                    .thenCompose(ns -> s.shrinker.pool())
                    .whenComplete((pool, err) -> check(w, pool, err, delayMs)));
  }

  private void check(Watch w, Map<String, Boolean> pool, Throwable err, long delayMs) {
    // the entries of the grant still held: a release may have taken some meanwhile
    String held = s.grants.get(w.id());
    List<String> entries = new ArrayList<>();
    if (held != null) {
      java.util.Set<String> now = java.util.Set.of(held.split(","));
      for (String e : w.list().split(",")) {
        if (now.contains(e)) {
          entries.add(e);
        }
      }
    }
    if (entries.isEmpty()) {
      watching--;
      return;
    }
    boolean late = System.nanoTime() - w.deadline() >= 0;
    if (err != null) {
      if (late) {
        PrrteScheduler.LOG.warn(
            "grant {} on {}: cannot ask PRRTE whether it applied it ({}); kept",
            w.id(),
            String.join(",", entries),
            err.getMessage());
        watching--;
      } else {
        poll(w, Math.min(delayMs * 2, 4000));
      }
      return;
    }
    List<String> missing =
        entries.stream()
            .filter(e -> !Boolean.TRUE.equals(pool.get(PrrteScheduler.hosts(e))))
            .toList();
    if (missing.isEmpty()) {
      PrrteScheduler.LOG.info(
          "grant {} on {}: applied by PRRTE, a daemon on each node",
          w.id(),
          String.join(",", entries));
      if (w.relay()) {
        // PRRTE sends no second phase for a grow of its general pool, nor to a requester on
        // another node: relayed (D476)
        s.shrinker.notify(w.requester(), w.reqId(), PmixStatus.PMIX_DVM_IS_READY.code());
      }
      watching--;
      return;
    }
    if (!late) {
      poll(w, Math.min(delayMs * 2, 4000));
      return;
    }
    String gone = String.join(",", missing);
    boolean inPool = missing.stream().anyMatch(e -> pool.containsKey(PrrteScheduler.hosts(e)));
    PrrteScheduler.LOG.warn(
        "grant {} on {}: {} within {} s ({}); handed back to Flux",
        w.id(),
        gone,
        inPool ? "no daemon of PRRTE's runs there" : "PRRTE did not take it",
        s.grantTimeout.toSeconds(),
        PrrteScheduler.GRANT_TIMEOUT_PROPERTY);
    if (w.relay() && inPool) {
      s.shrinker.notify(w.requester(), w.reqId(), PmixStatus.PMIX_ERR_DVM_MOD.code());
    }
    s.dropFromGrants(PrrteScheduler.hosts(gone));
    watching--;
    // no task ever ran there: released and handed back at once
    s.handBack
        .handBack(w.id(), gone)
        .thenAccept(
            a -> {
              if (a.status() != PmixStatus.PMIX_SUCCESS) {
                PrrteScheduler.LOG.warn(
                    "grant {}: releasing {} in Flux: {} {}; kept",
                    w.id(),
                    gone,
                    a.status(),
                    a.message());
                s.held.add(gone);
                return;
              }
              PrrteScheduler.LOG.info(
                  "grant {}: {} back in Flux (sched.free final: false)", w.id(), gone);
              s.dropped.add(gone);
            });
  }
}
