package io.fluxdrm.bridge.dvm;

import io.fluxdrm.bridge.alloc.PmixAllocator;
import io.fluxdrm.bridge.translate.PmixAnswer;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixRegex;
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
 * D376) and the requester then gets the DVM's status. The session control names the requester
 * ({@code PMIX_REQUESTOR}) and the grant's {@code PMIX_ALLOC_REQ_ID}, so that an elastic DVM's
 * second-phase event goes to the requester (D422). A granted RELEASE by node list is answered with
 * the nodes, which the DVM shrinks on that answer (D420); they go back to Flux only when the DVM's
 * release hook ({@link #nodesReleased}) reports their daemons gone (D421, D423), as do nodes Flux
 * takes back on its own (D13, {@link #takenBack}: a release asked for through the bridge's own tool
 * port) and the nodes of a grow the DVM rolled back (D424). REQ_CANCEL is the allocator's answer as
 * it is. Session controls the DVM forwards are answered {@code PMIX_ERR_NOT_SUPPORTED}, with why
 * under {@link #REASON_KEY}: Flux has no counterpart, and the DVM then keeps deciding nothing for
 * them; the DVM's {@code PMIX_SESSION_COMPLETE} is acknowledged.
 *
 * <p>Why one class: it is one ledger, which nodes of the DVM's Flux job each session holds and
 * which wait for their daemons to leave, read and changed by every upcall and every answer; split,
 * each part would need the others' state to tell a rollback from a release.
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
  private final Supplier<DvmPort> self;

  /** Releases this scheduler asks the DVM for itself (D13), by their PMIX_ALLOC_REQ_ID. */
  private final Map<String, String> selfReleases = new HashMap<>();

  private long nextSelf = 1;

  /** The label prefix of the releases this scheduler asks for itself. */
  public static final String SELF_REQ_ID = "fluxdrm.taken-back.";

  /**
   * The sessions this scheduler instantiated, each with its nodes as their grants named them
   * ({@code host:slots}), by host.
   */
  private final Map<Long, Map<String, String>> sessions = new HashMap<>();

  /** The session holding each host of {@link #sessions}. */
  private final Map<String, Long> sessionOf = new HashMap<>();

  /**
   * Hosts Flux granted back (R_delta_sub of a RELEASE) that the DVM still runs daemons on, with
   * their {@code host:slots}: handed back when the DVM reports them released (D421, D423).
   */
  private final Map<String, String> departing = new java.util.LinkedHashMap<>();

  /**
   * The node lists of released sessions the DVM is terminating: on COMPLETE, shrunk out of the DVM
   * and handed back once their daemons are gone (spec/pmix/04 B10, D450).
   */
  private final Map<Long, String> releasing = new HashMap<>();

  /** Hosts of {@link #releasing} sessions whose daemons left before the COMPLETE. */
  private final Set<String> goneWhileReleasing = new java.util.HashSet<>();

  private final List<List<Info>> completes = new ArrayList<>();

  /**
   * Grants being told to the DVM (a session control sent, not answered yet), by session id: what a
   * restarted scheduler must settle with the DVM ({@link #reattached}).
   */
  private final Map<Long, Pending> pending = new java.util.LinkedHashMap<>();

  /**
   * Entries being handed back to Flux (out of {@link #departing}, not yet released there): kept in
   * the ledger's departing until the hand-back completes, so that a restarted scheduler hands them
   * back again (a hand-back of what is no longer being released changes nothing).
   */
  private final Map<String, String> handingBack = new java.util.LinkedHashMap<>();

  private Journal journal = ledger -> {};

  private List<String> base = List.of();

  /**
   * A grant whose session control was sent to the DVM and not answered yet.
   *
   * @param nodes its {@code PMIX_ALLOC_NODE_LIST}
   * @param extend true for an {@code EXTEND} of a session the DVM holds, false for an {@code
   *     INSTANTIATE}
   */
  public record Pending(String nodes, boolean extend) {
    /** Checks the fields. */
    public Pending {
      Objects.requireNonNull(nodes, "nodes");
    }
  }

  /**
   * What a restarted scheduler needs of the one before it (decision D521): the sessions it
   * instantiated with their node entries ({@code host:slots}), the grants being told to the DVM,
   * the released hosts waiting for their daemons to leave, and the released sessions the DVM is
   * terminating.
   *
   * @param sessions node entries by session id
   * @param pending grants being told to the DVM, by session id
   * @param departing node entries by host
   * @param releasing node lists by session id
   * @param base the hosts of the DVM job's own allocation, which no grant added; empty when not
   *     known yet
   */
  public record Ledger(
      Map<Long, List<String>> sessions,
      Map<Long, Pending> pending,
      Map<String, String> departing,
      Map<Long, String> releasing,
      List<String> base) {
    /** Copies the maps; a missing one is empty. */
    public Ledger {
      sessions = sessions == null ? Map.of() : Map.copyOf(sessions);
      pending = pending == null ? Map.of() : Map.copyOf(pending);
      departing = departing == null ? Map.of() : Map.copyOf(departing);
      releasing = releasing == null ? Map.of() : Map.copyOf(releasing);
      base = base == null ? List.of() : List.copyOf(base);
    }

    /**
     * The hosts this ledger accounts for: the base, the sessions', the grants' being told to the
     * DVM, the departing and the releasing ones.
     *
     * @return host names
     */
    public Set<String> accountedHosts() {
      Set<String> out = new java.util.TreeSet<>(base);
      sessions.values().forEach(l -> l.forEach(e -> out.add(host(e))));
      pending.values().forEach(p -> List.of(p.nodes().split(",")).forEach(e -> out.add(host(e))));
      out.addAll(departing.keySet());
      releasing.values().forEach(n -> List.of(n.split(",")).forEach(e -> out.add(host(e))));
      return out;
    }

    /**
     * True when there is nothing to carry over.
     *
     * @return whether every map is empty
     */
    public boolean carriesNothing() {
      return sessions.isEmpty() && pending.isEmpty() && departing.isEmpty() && releasing.isEmpty();
    }
  }

  /** Keeps the {@link Ledger} where a restarted scheduler finds it. */
  @FunctionalInterface
  public interface Journal {
    /**
     * Saves the ledger as it is now, replacing the last one; called on the loop after every change
     * and before a session control is sent.
     *
     * @param ledger the ledger
     */
    void save(Ledger ledger);
  }

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
    this.handBack = Objects.requireNonNull(handBack, "handBack");
    this.down = Objects.requireNonNull(down, "down");
    this.self = self;
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
        down,
        self);
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
      takenBack0(nodeList);
    } finally {
      save();
    }
  }

  private void takenBack0(String nodeList) {
    List<String> now = new ArrayList<>();
    List<String> held = new ArrayList<>();
    for (String entry : nodeList.split(",")) {
      String host = host(entry);
      Long sid = sessionOf.remove(host);
      if (sid != null) {
        sessions.get(sid).remove(host);
        departing.put(host, entry);
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
   * {@link #departing}); this scheduler grants that release itself, and the nodes go back to Flux
   * when the DVM reports their daemons gone ({@link #nodesReleased}). Without such a port they stay
   * held, logged. When the DVM answers that it does not hold them, nothing of it runs there and
   * they go back at once.
   */
  private void shrinkOut(List<String> entries, String why) {
    String list = String.join(",", entries);
    if (self == null) {
      LOG.error("{}: {} runs DVM daemons and no port can shrink it; kept", why, list);
      return;
    }
    String reqId = SELF_REQ_ID + nextSelf++;
    selfReleases.put(reqId, list);
    LOG.info("{}: {}; asking the DVM to release it ({})", why, list, reqId);
    self.get()
        .allocationRequest(
            AllocDirective.RELEASE,
            List.of(
                Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, list),
                Info.of(PmixKey.PMIX_ALLOC_REQ_ID, reqId)))
        .whenComplete(
            (a, err) -> {
              selfReleases.remove(reqId);
              if (err == null && a.status() == PmixStatus.PMIX_ERR_NOT_FOUND) {
                // the DVM holds none of them any more: nothing of it runs there
                List<String> back = new ArrayList<>();
                for (String entry : entries) {
                  if (departing.remove(host(entry)) != null) {
                    back.add(entry);
                  }
                }
                if (!back.isEmpty()) {
                  LOG.info("release {}: the DVM holds none of {}; handed back", reqId, back);
                  save();
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

  @Override
  public CompletionStage<StatusInfos> allocate(
      PmixProc requester, AllocDirective directive, List<Info> infos) {
    List<Info> own = infos.stream().filter(i -> !i.key().equals(PmixKey.PMIX_REQUESTOR)).toList();
    if (directive == AllocDirective.RELEASE) {
      Optional<String> mine =
          own.stream()
              .filter(i -> i.key().equals(PmixKey.PMIX_ALLOC_REQ_ID) && i.value() instanceof String)
              .map(Info::stringValue)
              .filter(selfReleases::containsKey)
              .findFirst();
      if (mine.isPresent()) {
        // our own release of nodes Flux took back: granted already, the DVM shrinks on this answer
        return CompletableFuture.completedFuture(
            new StatusInfos(
                PmixStatus.PMIX_SUCCESS,
                List.of(
                    Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, selfReleases.get(mine.get())),
                    Info.of(PmixKey.PMIX_ALLOC_REQ_ID, mine.get()))));
      }
    }
    return allocator
        .request(directive, own)
        .thenCompose(
            a -> {
              StatusInfos answer = new StatusInfos(a.status(), a.infos());
              if (a.status() != PmixStatus.PMIX_SUCCESS) {
                return CompletableFuture.completedFuture(withReason(answer, a.message()));
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
   * The reason key of the reference DVM's answers ({@code DvmKeys.REASON}, decision D358): not a
   * PMIx key, so a PMIx client ignores it; {@code fluxdrm alloc} prints it beside the status.
   */
  public static final String REASON_KEY = "fluxdrm.dvm.reason";

  /**
   * A refusal with why, as Flux or the translation said it ({@code sched.realloc}'s DENY note, a
   * refused key), under {@link #REASON_KEY}: the requester learns why, not only the status (issue
   * 29, finding 8).
   */
  static StatusInfos withReason(StatusInfos answer, String why) {
    if (why == null
        || why.isBlank()
        || answer.infos().stream().anyMatch(i -> i.key().equals(REASON_KEY))) {
      return answer;
    }
    List<Info> infos = new java.util.ArrayList<>(answer.infos());
    infos.add(new Info(REASON_KEY, io.fluxdrm.pmix.PmixDataType.PMIX_STRING, why));
    return new StatusInfos(answer.status(), infos);
  }

  /**
   * A RELEASE Flux granted: a whole session this scheduler instantiated is terminated in the DVM
   * (seed 000 "Termination"); when the DVM reports it COMPLETE its nodes are shrunk out and handed
   * back once their daemons are gone, as the protocol mapping has it ("after the DVM's shrink
   * completes: sched.free", D450); released nodes that are no session's are handed back at once.
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
      String nodes = String.join(",", sessions.get(sid).values());
      releasing.put(sid, nodes);
      save();
      LOG.info("release of session {}: session control TERMINATE of {}", sid, nodes);
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
                forget(sid);
                save();
                return releasedDurably(nodes).thenApply(v -> answer);
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
                                    && (i.value() instanceof String
                                        || i.value() instanceof PmixRegex))
                        .map(Info::stringValue)
                        .findFirst());
    if (nodes.isEmpty()) {
      return CompletableFuture.completedFuture(answer);
    }
    // D423: the DVM shrinks the nodes it holds on this answer (D420); they go back to Flux when
    // it reports their daemons gone (nodesReleased), the others at once
    List<String> now = new ArrayList<>();
    for (String entry : nodes.get().split(",")) {
      String host = host(entry);
      Long sid = sessionOf.remove(host);
      if (sid != null) {
        sessions.get(sid).remove(host);
        departing.put(host, entry);
      } else {
        now.add(entry);
      }
    }
    save();
    if (!departing.isEmpty()) {
      LOG.info("release of {}: handed back once the DVM's daemons there are gone", nodes.get());
    }
    if (now.isEmpty()) {
      return CompletableFuture.completedFuture(answer);
    }
    return releasedDurably(String.join(",", now)).thenApply(v -> answer);
  }

  private static String host(String entry) {
    int colon = entry.lastIndexOf(':');
    return colon > 0 ? entry.substring(0, colon) : entry;
  }

  /** Forgets session {@code sid} and its hosts. */
  private void forget(long sid) {
    Map<String, String> hosts = sessions.remove(sid);
    if (hosts != null) {
      hosts.keySet().forEach(h -> sessionOf.remove(h, sid));
    }
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
    List<String> freed = new ArrayList<>();
    Map<Long, List<String>> rolledBack = new java.util.LinkedHashMap<>();
    for (String h : hosts) {
      String entry = departing.remove(h);
      Long sid = sessionOf.remove(h);
      String held = sid == null ? null : sessions.get(sid).remove(h);
      if (entry != null) {
        freed.add(entry);
      } else if (held != null && releasing.containsKey(sid)) {
        goneWhileReleasing.add(h);
      } else if (held != null) {
        rolledBack.computeIfAbsent(sid, k -> new ArrayList<>()).add(held);
      }
    }
    save();
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
    // D422: on behalf of the requester, so that the DVM's second-phase event (elastic mode) is
    // directed to it with the grant's PMIX_ALLOC_ID and PMIX_ALLOC_REQ_ID (D360)
    d.add(Info.of(PmixKey.PMIX_REQUESTOR, requester));
    string(grant, PmixKey.PMIX_ALLOC_REQ_ID)
        .ifPresent(q -> d.add(Info.of(PmixKey.PMIX_ALLOC_REQ_ID, q)));
    LOG.info(
        "grant of {} for {}: session control {} {} on {}",
        directive.pmixName(),
        requester.nspace(),
        known ? "EXTEND" : "INSTANTIATE",
        id,
        nodes.get());
    pending.put(id, new Pending(nodes.get(), known));
    save();
    return down.get()
        .sessionControl(id, d)
        .thenCompose(
            s -> {
              if (pending.remove(id) == null) {
                // settled already: the DVM was lost meanwhile and the grant handed back
                return CompletableFuture.completedFuture(
                    s.succeeded()
                        ? withReason(
                            StatusInfos.of(PmixStatus.PMIX_ERR_UNREACH),
                            "the DVM was lost while told of grant "
                                + allocId.get()
                                + "; the grant went back to Flux")
                        : s);
              }
              if (s.succeeded()) {
                Map<String, String> held =
                    sessions.computeIfAbsent(id, k -> new java.util.LinkedHashMap<>());
                for (String entry : nodes.get().split(",")) {
                  held.put(host(entry), entry);
                  sessionOf.put(host(entry), id);
                }
                save();
                return CompletableFuture.completedFuture(grant);
              }
              save();
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
        .filter(
            i ->
                i.key().equals(key)
                    && (i.value() instanceof String || i.value() instanceof PmixRegex))
        .map(Info::stringValue)
        .findFirst();
  }

  @Override
  public CompletionStage<StatusInfos> sessionControl(
      PmixProc requester, long sessionId, List<Info> directives) {
    if (directives.stream()
        .anyMatch(
            i -> i.key().equals(PmixKey.PMIX_SESSION_COMPLETE) && Boolean.TRUE.equals(i.value()))) {
      forget(sessionId);
      completes.add(List.copyOf(directives));
      LOG.info("session {} complete: {}", sessionId, directives);
      String nodes = releasing.remove(sessionId);
      if (nodes != null) {
        CompletionStage<Void> back = completeRelease(sessionId, nodes);
        save();
        return back.thenApply(v -> StatusInfos.of(PmixStatus.PMIX_SUCCESS));
      }
      save();
      return CompletableFuture.completedFuture(StatusInfos.of(PmixStatus.PMIX_SUCCESS));
    }
    LOG.info(
        "session control of session {} by {}: not supported (Flux has no counterpart)",
        sessionId,
        requester);
    return CompletableFuture.completedFuture(
        withReason(
            StatusInfos.of(PmixStatus.PMIX_ERR_NOT_SUPPORTED),
            notSupportedReason(sessionId, directives)));
  }

  /** The session-control operations, each by its PMIx name. */
  private static final List<String> SESSION_OPS =
      List.of(
          PmixKey.PMIX_SESSION_INSTANTIATE,
          PmixKey.PMIX_SESSION_PAUSE,
          PmixKey.PMIX_SESSION_RESUME,
          PmixKey.PMIX_SESSION_PREEMPT,
          PmixKey.PMIX_SESSION_RESTORE,
          PmixKey.PMIX_SESSION_SIGNAL,
          PmixKey.PMIX_SESSION_TERMINATE,
          PmixKey.PMIX_SESSION_EXTEND);

  /**
   * Why a forwarded session control is refused: the DVM passes every session control of a tool up
   * to its scheduler (seed 000 "Who answers a request"), and this scheduler executes none, since
   * Flux has no counterpart of them; a session here is a Flux grant, given back by a RELEASE of its
   * allocation (issue 29, finding 8).
   */
  static String notSupportedReason(long sessionId, List<Info> directives) {
    String op =
        directives.stream()
            .map(Info::key)
            .filter(SESSION_OPS::contains)
            .map(k -> PmixKey.nameOf(k).orElse(k))
            .findFirst()
            .orElse("session control");
    return op
        + " of session "
        + sessionId
        + ": the DVM's scheduler is the fluxdrm bridge, which takes no session controls from"
        + " tools (Flux has no counterpart; its sessions are Flux grants: give one back with"
        + " PMIX_ALLOC_RELEASE of its PMIX_ALLOC_ID, e.g. 'fluxdrm alloc release --alloc-id ID')";
  }

  /**
   * A released session is complete: the DVM reclaimed it, and its nodes stay in the DVM's pool with
   * their daemons up (inheritance DEFAULT). They are shrunk out of the DVM (spec/pmix/04 B10:
   * "member nodes with daemons shrunk out") and go back to Flux only once their daemons are gone,
   * as after any shrink (E3, D450); those whose daemons already left go back at once.
   */
  private CompletionStage<Void> completeRelease(long sid, String nodes) {
    List<String> now = new ArrayList<>();
    List<String> held = new ArrayList<>();
    for (String entry : nodes.split(",")) {
      String host = host(entry);
      if (goneWhileReleasing.remove(host) || self == null) {
        now.add(entry);
      } else {
        departing.put(host, entry);
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

  /**
   * The DVM is gone (its connection lost: it stopped, and killed its procs): every session this
   * scheduler instantiated is gone with it, so their nodes go back to Flux (D377). Runs on the
   * loop.
   *
   * @return completes once everything is handed back; never fails
   */
  public CompletionStage<Void> dvmLost() {
    List<CompletableFuture<?>> all = new ArrayList<>();
    for (Map.Entry<Long, Map<String, String>> e : Map.copyOf(sessions).entrySet()) {
      String nodes = String.join(",", e.getValue().values());
      String pending = releasing.remove(e.getKey());
      LOG.info("DVM lost: session {} gone, {} back to Flux", e.getKey(), nodes);
      all.add(
          (pending != null
                  ? releasedDurably(pending).thenApply(v -> null)
                  : handBack.handBack(Long.toUnsignedString(e.getKey()), nodes))
              .toCompletableFuture());
    }
    sessions.clear();
    sessionOf.clear();
    if (!departing.isEmpty()) {
      // granted releases the DVM can no longer report: gone with it
      String list = String.join(",", departing.values());
      departing.clear();
      all.add(releasedDurably(list).toCompletableFuture());
    }
    for (Map.Entry<Long, Pending> e : Map.copyOf(pending).entrySet()) {
      // told to a DVM that is gone: it holds nothing of them (the answer, a failure, is left)
      all.add(
          handBack
              .handBack(Long.toUnsignedString(e.getKey()), e.getValue().nodes())
              .toCompletableFuture());
    }
    pending.clear();
    save();
    return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new));
  }

  /**
   * Where the ledger is kept from now on (decision D521); saves it once at once.
   *
   * @param j the journal
   */
  public void journal(Journal j) {
    this.journal = Objects.requireNonNull(j, "j");
    save();
  }

  /**
   * The ledger as it is now.
   *
   * @return a copy
   */
  public Ledger ledger() {
    Map<Long, List<String>> s = new java.util.TreeMap<>();
    sessions.forEach((k, v) -> s.put(k, List.copyOf(v.values())));
    Map<String, String> d = new java.util.TreeMap<>(handingBack);
    d.putAll(departing);
    return new Ledger(s, pending, d, releasing, base);
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
    base = l.base();
    l.sessions()
        .forEach(
            (sid, entries) -> {
              Map<String, String> held = new java.util.LinkedHashMap<>();
              for (String entry : entries) {
                held.put(host(entry), entry);
                sessionOf.put(host(entry), sid);
              }
              sessions.put(sid, held);
            });
    pending.putAll(l.pending());
    departing.putAll(l.departing());
    releasing.putAll(l.releasing());
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
  public CompletionStage<Void> reattached() {
    List<CompletableFuture<?>> all = new ArrayList<>();
    for (Map.Entry<Long, String> e : Map.copyOf(releasing).entrySet()) {
      // its COMPLETE may have gone to the scheduler before: terminate it again, and when the DVM
      // no longer has it, go on as after the COMPLETE
      long sid = e.getKey();
      all.add(
          down.get()
              .sessionControl(sid, List.of(Info.of(PmixKey.PMIX_SESSION_TERMINATE, true)))
              .handle(
                  (st, err) -> {
                    if (err == null && st.succeeded()) {
                      return CompletableFuture.<Void>completedFuture(null);
                    }
                    String nodes = releasing.remove(sid);
                    if (nodes == null) {
                      return CompletableFuture.<Void>completedFuture(null);
                    }
                    forget(sid);
                    LOG.info("released session {} was completed before: {} shrunk out", sid, nodes);
                    CompletionStage<Void> back = completeRelease(sid, nodes);
                    save();
                    return back;
                  })
              .thenCompose(f -> f)
              .toCompletableFuture());
    }
    if (!departing.isEmpty()) {
      // the DVM may have reported them gone to the scheduler before: ask again, host by host
      for (String entry : List.copyOf(departing.values())) {
        shrinkOut(List.of(entry), "released before the scheduler restarted");
      }
    }
    for (Map.Entry<Long, Pending> e : Map.copyOf(pending).entrySet()) {
      long id = e.getKey();
      Pending p = e.getValue();
      String allocId = Long.toUnsignedString(id);
      List<Info> d = new ArrayList<>();
      d.add(
          Info.of(
              p.extend() ? PmixKey.PMIX_SESSION_EXTEND : PmixKey.PMIX_SESSION_INSTANTIATE, true));
      d.add(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, p.nodes()));
      if (!p.extend()) {
        d.add(Info.of(PmixKey.PMIX_ALLOC_ID, allocId));
      }
      all.add(
          down.get()
              .sessionControl(id, d)
              .handle(
                  (s, err) -> {
                    pending.remove(id);
                    boolean holds =
                        err == null
                            && (s.succeeded()
                                || (!p.extend() && s.status() == PmixStatus.PMIX_ERR_EXISTS));
                    if (holds) {
                      Map<String, String> held =
                          sessions.computeIfAbsent(id, k -> new java.util.LinkedHashMap<>());
                      for (String entry : p.nodes().split(",")) {
                        held.put(host(entry), entry);
                        sessionOf.put(host(entry), id);
                      }
                      save();
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
                    save();
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

  /** {@code handBack.released(list)}, kept in the ledger until it completes (D521). */
  private CompletionStage<Void> releasedDurably(String list) {
    List<String> entries = List.of(list.split(","));
    for (String e : entries) {
      handingBack.put(host(e), e);
    }
    save();
    return handBack
        .released(list)
        .whenComplete(
            (v, err) -> {
              for (String e : entries) {
                handingBack.remove(host(e), e);
              }
              save();
            });
  }

  private void save() {
    try {
      journal.save(ledger());
    } catch (RuntimeException e) {
      LOG.error("ledger not saved: {}", e.getMessage());
    }
  }

  /** The hosts of granted releases waiting for the DVM's daemons there to leave. */
  public Set<String> departing() {
    return Set.copyOf(departing.keySet());
  }

  /** The hosts of the sessions this scheduler instantiated, by session. */
  public Map<Long, Set<String>> sessionHosts() {
    Map<Long, Set<String>> out = new HashMap<>();
    sessions.forEach((k, v) -> out.put(k, Set.copyOf(v.keySet())));
    return out;
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
