package io.fluxdrm.bridge.dvm;

import io.fluxdrm.bridge.alloc.PmixAllocator;
import io.fluxdrm.bridge.translate.PmixAnswer;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.SchedulerUpcalls;
import io.fluxdrm.pmix.port.StatusInfos;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * fluxdrm as the scheduler a DVM attaches (spec/pmix/SUMMARY §1, "Roles": toward the DVM the bridge
 * is the PMIx scheduler). A forwarded allocation request goes, without its {@code PMIX_REQUESTOR},
 * through the job's {@link PmixAllocator} (D9 to {@code sched.realloc}, D10 back). A grant of NEW,
 * or of EXTEND of a reservation the DVM does not hold yet, becomes {@code
 * PMIx_Session_control(ALLOC_ID, {INSTANTIATE, PMIX_ALLOC_NODE_LIST, PMIX_ALLOC_ID})}; a grant of
 * EXTEND of one it holds, {@code EXTEND} with the added nodes: the DVM creates sessions only from
 * its scheduler's session control (seed 001), and the requester is answered once the DVM holds the
 * nodes, so a spawn into the reservation that follows the answer finds it (D374). When the DVM
 * refuses the session control, the grown part goes back to the scheduler first ({@link HandBack}: a
 * RELEASE of exactly the granted nodes, {@code sched.free final: false}; resources are conserved,
 * D376) and the requester then gets the DVM's status. Other directives (RELEASE, REQ_CANCEL) are
 * the allocator's answer as it is. Session controls the DVM forwards are answered {@code
 * PMIX_ERR_NOT_SUPPORTED}: Flux has no counterpart, and the DVM then keeps deciding nothing for
 * them; the DVM's {@code PMIX_SESSION_COMPLETE} is acknowledged.
 *
 * <p>No lock: its state is touched in the completions of the allocator and of the DVM port, which
 * must complete on one loop (one reactor per process, as everywhere in fluxdrm).
 */
public final class FluxScheduler implements SchedulerUpcalls {
  private static final Logger LOG = LoggerFactory.getLogger(FluxScheduler.class);

  /** The allocation side: a {@link PmixAllocator} in production. */
  @FunctionalInterface
  public interface Allocator {
    /**
     * {@code PMIx_Allocation_request(directive, infos)}.
     *
     * @param directive the directive
     * @param infos the request's infos, {@code PMIX_REQUESTOR} removed
     * @return the answer, never failing
     */
    CompletionStage<PmixAnswer> request(AllocDirective directive, List<Info> infos);
  }

  /** Gives resources back to the scheduler once the DVM no longer holds them. */
  public interface HandBack {
    /**
     * Releases exactly the nodes a grant added, as {@code PMIX_ALLOC_NODE_LIST} names them, and
     * hands them back at once (no task ever ran there).
     *
     * @param allocId the grant's {@code PMIX_ALLOC_ID}
     * @param nodeList the grant's {@code PMIX_ALLOC_NODE_LIST}
     * @return the release's answer, never failing
     */
    CompletionStage<PmixAnswer> handBack(String allocId, String nodeList);

    /**
     * Reports that nothing runs any more on the released nodes of {@code nodeList} (their sessions'
     * daemons are gone), so that the granted shrink is handed back ({@code sched.free final:
     * false}).
     *
     * @param nodeList a {@code PMIX_ALLOC_NODE_LIST}
     * @return completes once handed back; never fails
     */
    CompletionStage<Void> released(String nodeList);
  }

  private final Allocator allocator;
  private final HandBack handBack;
  private final Supplier<DvmPort> down;

  /** The sessions this scheduler instantiated, each with the node lists of its grants. */
  private final Map<Long, List<String>> sessions = new HashMap<>();

  /** The node lists of released sessions the DVM is terminating, handed back on COMPLETE. */
  private final Map<Long, String> releasing = new HashMap<>();

  private final List<List<Info>> completes = new ArrayList<>();

  /**
   * The scheduler.
   *
   * @param allocator the allocation side
   * @param handBack gives a refused grant back to the allocation side
   * @param down the scheduler's own port to the DVM (known once attached)
   */
  public FluxScheduler(Allocator allocator, HandBack handBack, Supplier<DvmPort> down) {
    this.allocator = Objects.requireNonNull(allocator, "allocator");
    this.handBack = Objects.requireNonNull(handBack, "handBack");
    this.down = Objects.requireNonNull(down, "down");
  }

  /**
   * The scheduler over one job's facade.
   *
   * @param allocator the job's facade
   * @param down the scheduler's own port to the DVM
   * @return the scheduler
   */
  public static FluxScheduler of(PmixAllocator allocator, Supplier<DvmPort> down) {
    return new FluxScheduler(
        allocator::allocationRequest,
        new HandBack() {
          @Override
          public CompletionStage<PmixAnswer> handBack(String allocId, String nodeList) {
            return allocator.handBack(allocId, nodeList);
          }

          @Override
          public CompletionStage<Void> released(String nodeList) {
            return allocator.released(nodeList);
          }
        },
        down);
  }

  @Override
  public CompletionStage<StatusInfos> allocate(
      PmixProc requester, AllocDirective directive, List<Info> infos) {
    List<Info> own = infos.stream().filter(i -> !i.key().equals(PmixKey.PMIX_REQUESTOR)).toList();
    return allocator
        .request(directive, own)
        .thenCompose(
            a -> {
              StatusInfos answer = new StatusInfos(a.status(), a.infos());
              if (a.status() != PmixStatus.PMIX_SUCCESS) {
                return CompletableFuture.completedFuture(answer);
              }
              if (directive == AllocDirective.RELEASE) {
                return release(own, answer);
              }
              if (directive != AllocDirective.NEW && directive != AllocDirective.EXTEND) {
                return CompletableFuture.completedFuture(answer);
              }
              return inform(requester, directive, answer);
            });
  }

  /**
   * A RELEASE Flux granted: a whole session this scheduler instantiated is terminated in the DVM
   * (seed 000 "Termination") and its nodes are handed back when the DVM reports it COMPLETE, as the
   * protocol mapping has it ("after the DVM's shrink completes: sched.free"); released nodes that
   * are no session's are handed back at once.
   */
  private CompletionStage<StatusInfos> release(List<Info> request, StatusInfos answer) {
    Optional<Long> id =
        request.stream()
            .filter(i -> i.key().equals(PmixKey.PMIX_ALLOC_ID) && i.value() instanceof String)
            .map(Info::stringValue)
            .map(FluxScheduler::sessionId)
            .flatMap(Optional::stream)
            .findFirst();
    if (id.isPresent() && sessions.containsKey(id.get())) {
      long sid = id.get();
      String nodes = String.join(",", sessions.get(sid));
      releasing.put(sid, nodes);
      LOG.info("release of session {}: session control TERMINATE, {} back on COMPLETE", sid, nodes);
      return down.get()
          .sessionControl(sid, List.of(Info.of(PmixKey.PMIX_SESSION_TERMINATE, true)))
          .thenCompose(
              s -> {
                if (s.succeeded() || !releasing.containsKey(sid)) {
                  return CompletableFuture.completedFuture(answer);
                }
                // the DVM no longer holds it (already gone): nothing to wait for
                LOG.warn(
                    "terminate of session {}: {}; handing {} back now", sid, s.status(), nodes);
                releasing.remove(sid);
                sessions.remove(sid);
                return handBack.released(nodes).thenApply(v -> answer);
              });
    }
    Optional<String> nodes =
        string(answer, PmixKey.PMIX_ALLOC_NODE_LIST)
            .or(
                () ->
                    request.stream()
                        .filter(
                            i ->
                                i.key().equals(PmixKey.PMIX_ALLOC_NODE_LIST)
                                    && i.value() instanceof String)
                        .map(Info::stringValue)
                        .findFirst());
    if (nodes.isEmpty()) {
      return CompletableFuture.completedFuture(answer);
    }
    return handBack.released(nodes.get()).thenApply(v -> answer);
  }

  private static Optional<Long> sessionId(String allocId) {
    try {
      return Optional.of(Long.parseUnsignedLong(allocId));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** Tells the DVM of a grant by session control, then answers with the grant (or the refusal). */
  private CompletionStage<StatusInfos> inform(
      PmixProc requester, AllocDirective directive, StatusInfos grant) {
    Optional<String> allocId = string(grant, PmixKey.PMIX_ALLOC_ID);
    Optional<String> nodes = string(grant, PmixKey.PMIX_ALLOC_NODE_LIST);
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
    boolean known = sessions.containsKey(id);
    List<Info> d = new ArrayList<>();
    d.add(Info.of(known ? PmixKey.PMIX_SESSION_EXTEND : PmixKey.PMIX_SESSION_INSTANTIATE, true));
    d.add(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, nodes.get()));
    if (!known) {
      d.add(Info.of(PmixKey.PMIX_ALLOC_ID, allocId.get()));
    }
    LOG.info(
        "grant of {} for {}: session control {} {} on {}",
        directive.pmixName(),
        requester.nspace(),
        known ? "EXTEND" : "INSTANTIATE",
        id,
        nodes.get());
    return down.get()
        .sessionControl(id, d)
        .thenCompose(
            s -> {
              if (s.succeeded()) {
                sessions.computeIfAbsent(id, k -> new ArrayList<>()).add(nodes.get());
                return CompletableFuture.completedFuture(grant);
              }
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

  private static Optional<String> string(StatusInfos a, String key) {
    return a.infos().stream()
        .filter(i -> i.key().equals(key) && i.value() instanceof String)
        .map(Info::stringValue)
        .findFirst();
  }

  @Override
  public CompletionStage<StatusInfos> sessionControl(
      PmixProc requester, long sessionId, List<Info> directives) {
    if (directives.stream()
        .anyMatch(
            i -> i.key().equals(PmixKey.PMIX_SESSION_COMPLETE) && Boolean.TRUE.equals(i.value()))) {
      sessions.remove(sessionId);
      completes.add(List.copyOf(directives));
      LOG.info("session {} complete: {}", sessionId, directives);
      String nodes = releasing.remove(sessionId);
      if (nodes != null) {
        // released by its requester: the DVM's shrink is complete, Flux gets the nodes back
        return handBack.released(nodes).thenApply(v -> StatusInfos.of(PmixStatus.PMIX_SUCCESS));
      }
      return CompletableFuture.completedFuture(StatusInfos.of(PmixStatus.PMIX_SUCCESS));
    }
    return CompletableFuture.completedFuture(StatusInfos.of(PmixStatus.PMIX_ERR_NOT_SUPPORTED));
  }

  /**
   * The DVM is gone (its connection lost: it stopped, and killed its procs): every session this
   * scheduler instantiated is gone with it, so their nodes go back to Flux (D377). Runs on the
   * loop.
   *
   * @return completes once everything is handed back; never fails
   */
  public CompletionStage<Void> dvmLost() {
    List<CompletableFuture<?>> all = new ArrayList<>();
    for (Map.Entry<Long, List<String>> e : Map.copyOf(sessions).entrySet()) {
      String nodes = String.join(",", e.getValue());
      String pending = releasing.remove(e.getKey());
      LOG.info("DVM lost: session {} gone, {} back to Flux", e.getKey(), nodes);
      all.add(
          (pending != null
                  ? handBack.released(pending).thenApply(v -> null)
                  : handBack.handBack(Long.toUnsignedString(e.getKey()), nodes))
              .toCompletableFuture());
    }
    sessions.clear();
    return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new));
  }

  /** The sessions this scheduler instantiated and the DVM has not completed. */
  public Set<Long> sessions() {
    return Set.copyOf(sessions.keySet());
  }

  /** The {@code PMIX_SESSION_COMPLETE} notices received, in order. */
  public List<List<Info>> completes() {
    return List.copyOf(completes);
  }
}
