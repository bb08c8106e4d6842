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
import java.util.HashSet;
import java.util.List;
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

  /** Gives a grant the DVM refused back to the scheduler. */
  @FunctionalInterface
  public interface HandBack {
    /**
     * Releases exactly the nodes a grant added, as {@code PMIX_ALLOC_NODE_LIST} names them.
     *
     * @param allocId the grant's {@code PMIX_ALLOC_ID}
     * @param nodeList the grant's {@code PMIX_ALLOC_NODE_LIST}
     * @return the release's answer, never failing
     */
    CompletionStage<PmixAnswer> handBack(String allocId, String nodeList);
  }

  private final Allocator allocator;
  private final HandBack handBack;
  private final Supplier<DvmPort> down;
  private final Set<Long> sessions = new HashSet<>();
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
    return new FluxScheduler(allocator::allocationRequest, allocator::handBack, down);
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
              if (a.status() != PmixStatus.PMIX_SUCCESS
                  || (directive != AllocDirective.NEW && directive != AllocDirective.EXTEND)) {
                return CompletableFuture.completedFuture(answer);
              }
              return inform(requester, directive, answer);
            });
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
    boolean known = sessions.contains(id);
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
                sessions.add(id);
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
      return CompletableFuture.completedFuture(StatusInfos.of(PmixStatus.PMIX_SUCCESS));
    }
    return CompletableFuture.completedFuture(StatusInfos.of(PmixStatus.PMIX_ERR_NOT_SUPPORTED));
  }

  /** The sessions this scheduler instantiated and the DVM has not completed. */
  public Set<Long> sessions() {
    return Set.copyOf(sessions);
  }

  /** The {@code PMIX_SESSION_COMPLETE} notices received, in order. */
  public List<List<Info>> completes() {
    return List.copyOf(completes);
  }
}
