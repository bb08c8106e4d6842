package io.fluxdrm.bridge.dvm;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.pmix.request.AllocationAnswer;
import io.fluxdrm.pmix.request.InfoWriter;
import io.fluxdrm.pmix.request.SessionControl.Operation;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a {@link FluxScheduler} tells the DVM of a grant of NEW or EXTEND: by session control, the
 * requester answered once the DVM holds the nodes (D374), the grant given back when the DVM refuses
 * it (D376), on behalf of the requester (D422); the grant being told is kept in the {@link
 * SchedulerState} ledger until the DVM answers (D521). Runs on the scheduler's loop.
 */
final class Grants {
  private static final Logger LOG = LoggerFactory.getLogger(FluxScheduler.class);

  private final SchedulerState state;
  private final Supplier<DvmPort> down;
  private final FluxScheduler.HandBack handBack;

  Grants(SchedulerState state, Supplier<DvmPort> down, FluxScheduler.HandBack handBack) {
    this.state = state;
    this.down = down;
    this.handBack = handBack;
  }

  /** Tells the DVM of a grant by session control, then answers with the grant (or the refusal). */
  CompletionStage<StatusInfos> inform(
      PmixProc requester, AllocDirective directive, StatusInfos grant) {
    AllocationAnswer granted = AllocationAnswer.parse(grant.infos());
    Optional<String> allocId = granted.allocId();
    Optional<String> nodes = granted.nodeList();
    if (allocId.isEmpty() || nodes.isEmpty()) {
      // a grant naming no nodes (time only) changes nothing the DVM holds
      return CompletableFuture.completedFuture(grant);
    }
    long id;
    try {
      id = Long.parseUnsignedLong(allocId.get());
    } catch (NumberFormatException e) {
      LOG.warn("grant {}: PMIX_ALLOC_ID is not a decimal id; the DVM is not told", allocId.get());
      return CompletableFuture.completedFuture(grant);
    }
    boolean known = state.sessions.containsKey(id);
    // D422: on behalf of the requester, so that the DVM's second-phase event (elastic mode) is
    // directed to it with the grant's PMIX_ALLOC_ID and PMIX_ALLOC_REQ_ID (D360)
    List<Info> d =
        directive(known, nodes.get(), allocId.get())
            .info(Info.of(PmixKey.PMIX_REQUESTOR, requester))
            .reqId(granted.reqId())
            .infos();
    LOG.info(
        "grant of {} for {}: session control {} {} on {}",
        directive.pmixName(),
        requester.nspace(),
        known ? "EXTEND" : "INSTANTIATE",
        id,
        nodes.get());
    state.pending.put(id, new Pending(nodes.get(), known));
    state.save();
    return down.get()
        .sessionControl(id, d)
        .thenCompose(
            s -> {
              if (state.pending.remove(id) == null) {
                // settled already: the DVM was lost meanwhile and the grant handed back
                return CompletableFuture.completedFuture(
                    s.succeeded()
                        ? Refusals.withReason(
                            StatusInfos.of(PmixStatus.PMIX_ERR_UNREACH),
                            "the DVM was lost while told of grant "
                                + allocId.get()
                                + "; the grant went back to Flux")
                        : s);
              }
              if (s.succeeded()) {
                Map<String, String> held =
                    state.sessions.computeIfAbsent(id, k -> new java.util.LinkedHashMap<>());
                for (String entry : nodes.get().split(",")) {
                  held.put(SchedulerState.host(entry), entry);
                  state.sessionOf.put(SchedulerState.host(entry), id);
                }
                state.save();
                return CompletableFuture.completedFuture(grant);
              }
              state.save();
              // D376: the DVM does not hold the grant, so Flux must not either
              LOG.warn(
                  "session control {} of grant {}: {}; handing {} back",
                  id,
                  allocId.get(),
                  s.status(),
                  nodes.get());
              return handBack
                  .handBack(allocId.get(), nodes.get())
                  .thenApply(
                      r -> {
                        if (r.status() != PmixStatus.PMIX_SUCCESS) {
                          LOG.error(
                              "grant {}: giving {} back failed: {} {}",
                              allocId.get(),
                              nodes.get(),
                              r.status(),
                              r.message());
                        }
                        return s;
                      });
            });
  }

  /**
   * The session control that tells the DVM of a grant: EXTEND of a session it holds, else
   * INSTANTIATE naming the allocation (PRRTE §7.4.4.2 Operations).
   *
   * @param extend whether the DVM holds the session already
   * @param nodes the granted {@code PMIX_ALLOC_NODE_LIST}
   * @param allocId the grant's {@code PMIX_ALLOC_ID}, the session's id
   * @return the writer, for what follows
   */
  static InfoWriter directive(boolean extend, String nodes, String allocId) {
    InfoWriter w =
        InfoWriter.create()
            .operation(extend ? Operation.EXTEND : Operation.INSTANTIATE)
            .nodeList(nodes);
    return extend ? w : w.allocId(allocId);
  }
}
