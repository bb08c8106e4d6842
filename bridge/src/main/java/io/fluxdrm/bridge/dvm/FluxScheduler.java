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
import io.fluxdrm.pmix.request.AllocationAnswer;
import io.fluxdrm.pmix.request.InfoWriter;
import io.fluxdrm.pmix.request.SessionControl;
import io.fluxdrm.pmix.request.SessionControl.Operation;
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
 * fluxdrm as the scheduler a DVM attaches (docs/protocol-mapping.md: toward the DVM the bridge is
 * the PMIx scheduler). A forwarded allocation request goes, without its {@code PMIX_REQUESTOR},
 * through the job's {@link PmixAllocator} (D9 to {@code sched.realloc}, D10 back). A grant of NEW,
 * or of EXTEND of a reservation the DVM does not hold yet, becomes {@code
 * PMIx_Session_control(ALLOC_ID, {INSTANTIATE, PMIX_ALLOC_NODE_LIST, PMIX_ALLOC_ID})}; a grant of
 * EXTEND of one it holds, {@code EXTEND} with the added nodes: the DVM creates sessions only from
 * its scheduler's session control (PRRTE §7.4.3 Flow-of-Control), and the requester is answered
 * once the DVM holds the nodes, so a spawn into the reservation that follows the answer finds it
 * (D374). When the DVM refuses the session control, the grown part goes back to the scheduler first
 * ({@link HandBack}: a RELEASE of exactly the granted nodes, {@code sched.free final: false};
 * resources are conserved, D376) and the requester then gets the DVM's status. The session control
 * names the requester ({@code PMIX_REQUESTOR}) and the grant's {@code PMIX_ALLOC_REQ_ID}, so that
 * an elastic DVM's second-phase event goes to the requester (D422). A granted RELEASE by node list
 * is answered with the nodes, which the DVM shrinks on that answer (D420); they go back to Flux
 * only when the DVM's release hook ({@link #nodesReleased}) reports their daemons gone (D421,
 * D423), as do nodes Flux takes back on its own (D13, {@link #takenBack}: a release asked for
 * through the bridge's own tool port) and the nodes of a grow the DVM rolled back (D424).
 * REQ_CANCEL is the allocator's answer as it is. Session controls the DVM forwards are answered
 * {@code PMIX_ERR_NOT_SUPPORTED}, with why under {@link #REASON_KEY}: Flux has no counterpart, and
 * the DVM then keeps deciding nothing for them; the DVM's {@code PMIX_SESSION_COMPLETE} is
 * acknowledged.
 *
 * <p>Its parts, around one ledger ({@link SchedulerState}, saved through a {@link Journal} as a
 * {@link Ledger}, D521): {@link Grants} tells the DVM of grants, {@link Departures} hands nodes
 * back to Flux once the DVM no longer holds them, {@link Restart} settles what a scheduler before
 * this one left, and {@link Refusals} words the refusals.
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
  private final Supplier<DvmPort> down;

  /** The label prefix of the releases this scheduler asks for itself. */
  public static final String SELF_REQ_ID = "fluxdrm.taken-back.";

  private final SchedulerState state = new SchedulerState();
  private final Departures departures;
  private final Restart restart;
  private final Grants grants;

  /**
   * The scheduler.
   *
   * @param allocator the allocation side
   * @param handBack gives a refused grant back to the allocation side
   * @param down the scheduler's own port to the DVM (known once attached)
   */
  public FluxScheduler(Allocator allocator, HandBack handBack, Supplier<DvmPort> down) {
    this(allocator, handBack, down, null);
  }

  /**
   * The scheduler, able to shrink the DVM when Flux takes resources back on its own (D13).
   *
   * @param allocator the allocation side
   * @param handBack gives a refused grant back to the allocation side
   * @param down the scheduler's own port to the DVM (known once attached)
   * @param self a port of a client of the DVM that is not the scheduler (a tool of the bridge),
   *     through which it asks for the release of nodes taken back; null: such nodes stay held
   */
  public FluxScheduler(
      Allocator allocator, HandBack handBack, Supplier<DvmPort> down, Supplier<DvmPort> self) {
    this.allocator = Objects.requireNonNull(allocator, "allocator");
    Objects.requireNonNull(handBack, "handBack");
    this.down = Objects.requireNonNull(down, "down");
    this.departures = new Departures(state, handBack, self);
    this.restart = new Restart(state, down, handBack, departures);
    this.grants = new Grants(state, down, handBack);
  }

  /**
   * The scheduler over one job's facade.
   *
   * @param allocator the job's facade
   * @param down the scheduler's own port to the DVM
   * @return the scheduler
   */
  public static FluxScheduler of(PmixAllocator allocator, Supplier<DvmPort> down) {
    return of(allocator, down, null);
  }

  /**
   * The scheduler over one job's facade, shrinking the DVM through {@code self} when Flux takes
   * resources back on its own (D13, D423).
   *
   * @param allocator the job's facade
   * @param down the scheduler's own port to the DVM
   * @param self a tool's port to the DVM, or null
   * @return the scheduler
   */
  public static FluxScheduler of(
      PmixAllocator allocator, Supplier<DvmPort> down, Supplier<DvmPort> self) {
    FluxScheduler s = create(allocator, down, self);
    allocator.onTakenBack(s::takenBack);
    return s;
  }

  private static FluxScheduler create(
      PmixAllocator allocator, Supplier<DvmPort> down, Supplier<DvmPort> self) {
    return new FluxScheduler(
        allocator::allocationRequest, DvmJobScheduler.handBack(() -> allocator), down, self);
  }

  /**
   * Flux took resources back on its own in the answer to a grow (D13): the nodes the DVM holds are
   * shrunk out of it by a release this scheduler asks for through its own tool port, answered by
   * itself (Flux has decided already), and handed back once the DVM reports their daemons gone; the
   * others are handed back at once, nothing of the DVM runs there (D423).
   *
   * @param nodeList the {@code PMIX_ALLOC_NODE_LIST} taken back
   */
  public void takenBack(String nodeList) {
    try {
      departures.takenBack(nodeList);
    } finally {
      state.save();
    }
  }

  @Override
  public CompletionStage<StatusInfos> allocate(
      PmixProc requester, AllocDirective directive, List<Info> infos) {
    List<Info> own = infos.stream().filter(i -> !i.key().equals(PmixKey.PMIX_REQUESTOR)).toList();
    if (directive == AllocDirective.RELEASE) {
      Optional<String> mine =
          AllocationAnswer.echoOf(own).stream()
              .filter(i -> i.value() instanceof String)
              .map(Info::stringValue)
              .filter(state.selfReleases::containsKey)
              .findFirst();
      if (mine.isPresent()) {
        // our own release of nodes Flux took back: granted already, the DVM shrinks on this answer
        return CompletableFuture.completedFuture(
            new StatusInfos(
                PmixStatus.PMIX_SUCCESS,
                InfoWriter.create()
                    .nodeList(state.selfReleases.get(mine.get()))
                    .reqId(mine.get())
                    .infos()));
      }
    }
    return allocator
        .request(directive, own)
        .thenCompose(
            a -> {
              StatusInfos answer = new StatusInfos(a.status(), a.infos());
              if (a.status() != PmixStatus.PMIX_SUCCESS) {
                return CompletableFuture.completedFuture(Refusals.withReason(answer, a.message()));
              }
              if (directive == AllocDirective.RELEASE) {
                return release(own, answer);
              }
              if (directive != AllocDirective.NEW && directive != AllocDirective.EXTEND) {
                return CompletableFuture.completedFuture(answer);
              }
              return grants.inform(requester, directive, answer);
            });
  }

  /**
   * The reason key of the reference DVM's answers ({@code DvmKeys.REASON}, decision D358): not a
   * PMIx key, so a PMIx client ignores it; {@code fluxdrm alloc} prints it beside the status.
   */
  public static final String REASON_KEY = "fluxdrm.dvm.reason";

  /**
   * A RELEASE Flux granted: a whole session this scheduler instantiated is terminated in the DVM
   * (PRRTE §7.4.4.2.5 "Terminate"); when the DVM reports it COMPLETE its nodes are shrunk out and
   * handed back once their daemons are gone, as the protocol mapping has it ("after the DVM's
   * shrink completes: sched.free", D450); released nodes that are no session's are handed back at
   * once.
   */
  private CompletionStage<StatusInfos> release(List<Info> request, StatusInfos answer) {
    // granted, so translated: no key is given twice (RequestTranslator refuses it)
    Optional<Long> id = AllocationAnswer.allocIdOf(request).flatMap(FluxScheduler::sessionId);
    if (id.isPresent() && state.sessions.containsKey(id.get())) {
      long sid = id.get();
      String nodes = String.join(",", state.sessions.get(sid).values());
      state.releasing.put(sid, nodes);
      state.save();
      LOG.info("release of session {}: session control TERMINATE of {}", sid, nodes);
      return down.get()
          .sessionControl(sid, InfoWriter.create().operation(Operation.TERMINATE).infos())
          .thenCompose(
              s -> {
                if (s.succeeded() || !state.releasing.containsKey(sid)) {
                  return CompletableFuture.completedFuture(answer);
                }
                // the DVM no longer holds it (already gone): nothing to wait for
                LOG.warn(
                    "terminate of session {}: {}; handing {} back now", sid, s.status(), nodes);
                state.releasing.remove(sid);
                state.forget(sid);
                state.save();
                return departures.releasedDurably(nodes).thenApply(v -> answer);
              });
    }
    Optional<String> nodes =
        AllocationAnswer.parse(answer.infos())
            .nodeList()
            .or(() -> AllocationAnswer.parse(request).nodeList());
    if (nodes.isEmpty()) {
      return CompletableFuture.completedFuture(answer);
    }
    // D423: the DVM shrinks the nodes it holds on this answer (D420); they go back to Flux when
    // it reports their daemons gone (nodesReleased), the others at once
    List<String> now = new ArrayList<>();
    for (String entry : nodes.get().split(",")) {
      String host = SchedulerState.host(entry);
      Long sid = state.sessionOf.remove(host);
      if (sid != null) {
        state.sessions.get(sid).remove(host);
        state.departing.put(host, entry);
      } else {
        now.add(entry);
      }
    }
    state.save();
    if (!state.departing.isEmpty()) {
      LOG.info("release of {}: handed back once the DVM's daemons there are gone", nodes.get());
    }
    if (now.isEmpty()) {
      return CompletableFuture.completedFuture(answer);
    }
    return departures.releasedDurably(String.join(",", now)).thenApply(v -> answer);
  }

  /**
   * The DVM's release hook (D421): these hosts have left it, their daemons gone. Those a granted
   * RELEASE is waiting for are handed back ({@code sched.free final: false}); those of a session
   * this scheduler instantiated that nobody released (a grow the DVM rolled back, a lost daemon's
   * node) are given back as a refused grant is (D376): a RELEASE of exactly those nodes, then
   * handed back, so the scheduler holds them as free again (D424).
   */
  @Override
  public CompletionStage<Void> nodesReleased(List<String> hosts) {
    return departures.nodesReleased(hosts);
  }

  private static Optional<Long> sessionId(String allocId) {
    try {
      return Optional.of(Long.parseUnsignedLong(allocId));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  @Override
  public CompletionStage<StatusInfos> sessionControl(
      PmixProc requester, long sessionId, List<Info> directives) {
    if (SessionControl.completes(directives)) {
      state.forget(sessionId);
      state.completes.add(List.copyOf(directives));
      LOG.info("session {} complete: {}", sessionId, directives);
      String nodes = state.releasing.remove(sessionId);
      if (nodes != null) {
        CompletionStage<Void> back = departures.completeRelease(sessionId, nodes);
        state.save();
        return back.thenApply(v -> StatusInfos.of(PmixStatus.PMIX_SUCCESS));
      }
      state.save();
      return CompletableFuture.completedFuture(StatusInfos.of(PmixStatus.PMIX_SUCCESS));
    }
    LOG.info(
        "session control of session {} by {}: not supported (Flux has no counterpart)",
        sessionId,
        requester);
    return CompletableFuture.completedFuture(
        Refusals.withReason(
            StatusInfos.of(PmixStatus.PMIX_ERR_NOT_SUPPORTED),
            Refusals.notSupportedReason(sessionId, directives)));
  }

  /**
   * The DVM is gone (its connection lost: it stopped, and killed its procs): every session this
   * scheduler instantiated is gone with it, so their nodes go back to Flux (D377). Runs on the
   * loop.
   *
   * @return completes once everything is handed back; never fails
   */
  public CompletionStage<Void> dvmLost() {
    return departures.dvmLost();
  }

  /**
   * Where the ledger is kept from now on (decision D521); saves it once at once.
   *
   * @param j the journal
   */
  public void journal(Journal j) {
    state.journal = Objects.requireNonNull(j, "j");
    state.save();
  }

  /**
   * The ledger as it is now.
   *
   * @return a copy
   */
  public Ledger ledger() {
    return state.ledger();
  }

  /**
   * Takes over the ledger of the scheduler before this one (decision D521), before the first
   * attach: its sessions are this scheduler's, so a tool's RELEASE of one finds it; its released
   * hosts are handed back when the DVM reports their daemons gone; its grants being told to the DVM
   * are settled by {@link #reattached}.
   *
   * @param l the ledger a journal saved
   */
  public void restore(Ledger l) {
    restart.restore(l);
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
  public CompletionStage<Void> reattached() {
    return restart.reattached();
  }

  /** The hosts of granted releases waiting for the DVM's daemons there to leave. */
  public Set<String> departing() {
    return Set.copyOf(state.departing.keySet());
  }

  /** The hosts of the sessions this scheduler instantiated, by session. */
  public Map<Long, Set<String>> sessionHosts() {
    Map<Long, Set<String>> out = new HashMap<>();
    state.sessions.forEach((k, v) -> out.put(k, Set.copyOf(v.keySet())));
    return out;
  }

  /** The sessions this scheduler instantiated and the DVM has not completed. */
  public Set<Long> sessions() {
    return Set.copyOf(state.sessions.keySet());
  }

  /** The {@code PMIX_SESSION_COMPLETE} notices received, in order. */
  public List<List<Info>> completes() {
    return List.copyOf(state.completes);
  }
}
