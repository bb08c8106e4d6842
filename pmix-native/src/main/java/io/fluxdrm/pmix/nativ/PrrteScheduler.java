package io.fluxdrm.pmix.nativ;

import io.fluxdrm.bridge.dvm.FluxScheduler;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.App;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * fluxdrm as the scheduler of a real PRRTE DVM (issue 16 scope 3, decision D433). Unlike the
 * reference DVM, PRRTE's {@code ras/pmix} acts on the scheduler's answer itself (it creates the
 * reservation and starts the daemons, difference 2 of docs/dvm.md), so a grant is answered, not
 * instantiated: NEW and EXTEND go through the allocator (D9 to {@code sched.realloc}, D10 back) and
 * the grant's {@code PMIX_ALLOC_ID} and {@code PMIX_ALLOC_NODE_LIST} go to PRRTE as they are; a
 * refusal is its status and leaves the DVM unchanged.
 *
 * <p>A RELEASE is granted by Flux first ({@code spec_sub}). PRRTE tells only the requester of a
 * shrink that its daemons left ({@code PMIX_DVM_IS_READY}), and libpmix refuses allocation requests
 * from a process it hosts as scheduler, so the shrink is asked for by the scheduler's {@link
 * Shrinker}, a tool process of its own (D434): PRRTE forwards its RELEASE back here (recognised by
 * the agent's namespace and request id, answered with the hosts), shrinks, and tells the agent when
 * the daemons left; only then are the nodes handed back ({@code sched.free final: false}) and the
 * original requester answered (its own release then finds no daemon left: SUCCESS, no second
 * event). When the agent cannot confirm the departure the nodes stay held in Flux ({@link
 * #held()}), never freed early.
 *
 * <p>Sessions (D436): {@link #instantiate} makes a session of a grant PRRTE holds, with an
 * application; a session control PRRTE forwards from a tool for such a session is executed as the
 * scheduler's own and its answer returned (others are answered {@code PMIX_ERR_NOT_SUPPORTED}, as
 * in {@link FluxScheduler}); its {@code PMIX_SESSION_COMPLETE} shrinks the grant's nodes out
 * through the agent and hands them back.
 *
 * <p>Why one class: its grants are one ledger (allocation id to the nodes PRRTE holds for the DVM's
 * Flux job), read and changed by every upcall, by the releases and their shrinks, by the sessions'
 * completions and by the grant watch (D476); split, each part would need the others' state to tell
 * a grant PRRTE dropped from one a requester released meanwhile.
 *
 * <p>No lock: everything runs on the reactor (the upcalls and the port complete there).
 */
public final class PrrteScheduler implements SchedulerUpcalls {
  static final Logger LOG = LoggerFactory.getLogger(PrrteScheduler.class);

  private final GrantWatcher watcher = new GrantWatcher(this);

  private final FluxScheduler.Allocator allocator;
  final FluxScheduler.HandBack handBack;

  /** The shrink agent (a {@link ShrinkAgent} in production, D434). */
  public interface Shrinker {
    /**
     * The agent's namespace, once connected to the DVM.
     *
     * @return its namespace
     */
    CompletionStage<String> nspace();

    /**
     * Asks the DVM, as the agent, to shrink out {@code hosts}.
     *
     * @param reqId the request's id
     * @param hosts bare host names
     * @return the phase-two event's code, or the first phase's failure status
     */
    CompletionStage<Integer> shrink(String reqId, String hosts);

    /**
     * Sends event {@code code} to {@code target} alone, as the agent (D456): the requester of a
     * release learns the outcome of the shrink made for it.
     *
     * @param target the requester
     * @param reqId its request's {@code PMIX_ALLOC_REQ_ID}, or null
     * @param code {@code PMIX_DVM_IS_READY} or {@code PMIX_ERR_DVM_MOD}
     */
    default void notify(PmixProc target, String reqId, int code) {}

    /**
     * Where the DVM has daemons (D476): each host PRRTE recorded a daemon for, to whether one runs
     * there.
     *
     * @return the pool; fails when the agent cannot ask
     */
    CompletionStage<Map<String, Boolean>> pool();
  }

  /** Node lists of the grants, by {@code PMIX_ALLOC_ID}. */
  final Map<String, String> grants = new HashMap<>();

  /** Released node lists whose departure the agent could not confirm: kept in Flux. */
  final List<String> held = new ArrayList<>();

  /** The agent's shrinks in flight: request id to hosts. */
  private final Map<String, String> shrinks = new HashMap<>();

  final Shrinker shrinker;
  private final Supplier<DvmPort> down;
  private final Map<Long, String> sessions = new HashMap<>();
  private final List<List<Info>> completes = new ArrayList<>();
  private String agent;
  private int nextShrink;

  private final List<String> freed = new ArrayList<>();

  /** Grants PRRTE did not apply, handed back to Flux (D476). */
  final List<String> dropped = new ArrayList<>();

  /** How long PRRTE has to apply a grant, a daemon on each of its nodes, in seconds (D476). */
  public static final String GRANT_TIMEOUT_PROPERTY = "fluxdrm.prrte.grant-timeout";

  /** {@link #GRANT_TIMEOUT_PROPERTY}'s default. */
  public static final Duration DEFAULT_GRANT_TIMEOUT = Duration.ofSeconds(60);

  /** Where the grants' checks run (the reactor); null: grants are not watched. */
  final Executor reactor;

  final Duration grantTimeout;

  /**
   * The scheduler.
   *
   * @param allocator the allocation side (a {@code PmixAllocator})
   * @param handBack gives released nodes back to Flux
   * @param shrinker the shrink agent, the requester of the DVM's shrinks
   * @param down the scheduler's own way down to the DVM (its session controls)
   */
  public PrrteScheduler(
      FluxScheduler.Allocator allocator,
      FluxScheduler.HandBack handBack,
      Shrinker shrinker,
      Supplier<DvmPort> down) {
    this.allocator = Objects.requireNonNull(allocator, "allocator");
    this.handBack = Objects.requireNonNull(handBack, "handBack");
    this.shrinker = Objects.requireNonNull(shrinker, "shrinker");
    this.down = Objects.requireNonNull(down, "down");
    this.reactor = null;
    this.grantTimeout = DEFAULT_GRANT_TIMEOUT;
  }

  /**
   * The scheduler, watching that PRRTE applies each grant (D476): within {@code grantTimeout} a
   * daemon must run on each of its nodes (the agent asks PRRTE for its pool), else the nodes PRRTE
   * did not take are handed back to Flux; the requester of an EXTEND of its own session, to which
   * PRRTE sends no second phase, is sent {@code PMIX_DVM_IS_READY} (or {@code PMIX_ERR_DVM_MOD}).
   *
   * @param allocator the allocation side (a {@code PmixAllocator})
   * @param handBack gives released nodes back to Flux
   * @param shrinker the shrink agent, which also asks PRRTE for its pool
   * @param down the scheduler's own way down to the DVM (its session controls)
   * @param reactor where everything of this scheduler runs
   * @param grantTimeout how long PRRTE has to apply a grant
   */
  public PrrteScheduler(
      FluxScheduler.Allocator allocator,
      FluxScheduler.HandBack handBack,
      Shrinker shrinker,
      Supplier<DvmPort> down,
      Executor reactor,
      Duration grantTimeout) {
    this.allocator = Objects.requireNonNull(allocator, "allocator");
    this.handBack = Objects.requireNonNull(handBack, "handBack");
    this.shrinker = Objects.requireNonNull(shrinker, "shrinker");
    this.down = Objects.requireNonNull(down, "down");
    this.reactor = Objects.requireNonNull(reactor, "reactor");
    this.grantTimeout = Objects.requireNonNull(grantTimeout, "grantTimeout");
  }

  /** {@link #GRANT_TIMEOUT_PROPERTY} (whole seconds, at least 1), or its default. */
  public static Duration grantTimeout() {
    String v = System.getProperty(GRANT_TIMEOUT_PROPERTY);
    if (v == null) {
      return DEFAULT_GRANT_TIMEOUT;
    }
    try {
      long s = Long.parseLong(v.strip());
      if (s >= 1) {
        return Duration.ofSeconds(s);
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new IllegalArgumentException(
        GRANT_TIMEOUT_PROPERTY + "=" + v + ": not a whole number of seconds (expected: 1 or more)");
  }

  /**
   * Whether a request came to PRRTE's head through another daemon: an application on another node
   * asked its own daemon, which forwarded the request with a {@code PMIX_REQUESTOR} of its own
   * before the head added one. PRRTE delivers the grow's second phase on its head node only, so
   * such a requester never receives it (D476).
   */
  static boolean viaAnotherDaemon(List<Info> infos) {
    return infos.stream().filter(i -> i.key().equals(PmixKey.PMIX_REQUESTOR)).count() > 1;
  }

  /** How many grants are being watched (D476). */
  public int watching() {
    return watcher.watching();
  }

  /** The node lists of grants PRRTE did not apply, handed back to Flux (D476), in order. */
  public List<String> dropped() {
    return List.copyOf(dropped);
  }

  @Override
  public CompletionStage<StatusInfos> allocate(
      PmixProc requester, AllocDirective directive, List<Info> infos) {
    List<Info> own = infos.stream().filter(i -> !i.key().equals(PmixKey.PMIX_REQUESTOR)).toList();
    if (requester.nspace().equals(agent)) {
      // the agent's shrink, forwarded back by PRRTE: Flux granted it already
      Optional<String> reqId = AllocationAnswer.reqIdOf(own);
      String hosts = reqId.map(shrinks::get).orElse(null);
      if (directive != AllocDirective.RELEASE || hosts == null) {
        LOG.warn("{} from the shrink agent, not one of its shrinks: refused", directive);
        return CompletableFuture.completedFuture(StatusInfos.of(PmixStatus.PMIX_ERR_NOT_SUPPORTED));
      }
      return CompletableFuture.completedFuture(
          new StatusInfos(
              PmixStatus.PMIX_SUCCESS,
              InfoWriter.create().nodeList(hosts).reqId(reqId.get()).infos()));
    }
    return allocator
        .request(directive, own)
        .thenCompose(
            a -> {
              StatusInfos answer = new StatusInfos(a.status(), a.infos());
              if (a.status() == PmixStatus.PMIX_SUCCESS && extendsOwnSession(directive, own)) {
                // PRRTE extends a reservation only by its id: an EXTEND naming none is one of
                // the requester's own session, the DVM's general pool (D475)
                answer =
                    new StatusInfos(
                        a.status(), InfoWriter.create().infos(a.infos()).share(true).infos());
              }
              if (a.status() != PmixStatus.PMIX_SUCCESS) {
                LOG.info(
                    "{} from {}: {} {}; the DVM is unchanged",
                    directive.pmixName(),
                    requester.nspace(),
                    a.status(),
                    a.message());
                return CompletableFuture.completedFuture(answer);
              }
              if (directive == AllocDirective.RELEASE) {
                return release(requester, own, answer);
              }
              AllocationAnswer granted = AllocationAnswer.parse(a.infos());
              Optional<String> id = granted.allocId();
              Optional<String> nodes = granted.nodeList();
              if (id.isPresent() && nodes.isPresent()) {
                grants.merge(id.get(), nodes.get(), (x, y) -> x + "," + y);
                watcher.watch(
                    new GrantWatcher.Watch(
                        requester,
                        AllocationAnswer.reqIdOf(own).orElse(null),
                        id.get(),
                        nodes.get(),
                        extendsOwnSession(directive, own) || viaAnotherDaemon(infos),
                        reactor == null ? 0 : System.nanoTime() + grantTimeout.toNanos()));
              }
              LOG.info(
                  "{} from {}: granted {} on {}",
                  directive.pmixName(),
                  requester.nspace(),
                  id.orElse("-"),
                  nodes.orElse("-"));
              return CompletableFuture.completedFuture(answer);
            });
  }

  /**
   * Whether a request is an EXTEND of the requester's own session: one naming no reservation
   * ({@code PMIX_ALLOC_ID}) and not saying whether to share ({@code PMIX_ALLOC_SHARE}).
   */
  static boolean extendsOwnSession(AllocDirective directive, List<Info> request) {
    return directive == AllocDirective.EXTEND && !AllocationAnswer.namesReservation(request);
  }

  private CompletionStage<StatusInfos> release(
      PmixProc requester, List<Info> request, StatusInfos granted) {
    AllocationAnswer asked = AllocationAnswer.parse(request);
    Optional<String> nodes =
        AllocationAnswer.parse(granted.infos())
            .nodeList()
            .or(asked::nodeList)
            .or(() -> asked.allocId().map(grants::get));
    if (nodes.isEmpty()) {
      return CompletableFuture.completedFuture(granted);
    }
    String list = nodes.get();
    // a release names hosts: PRRTE matches "host", not "host:slots", against its pool
    String hosts = hosts(list);
    // the node list and no PMIX_ALLOC_ID: PRRTE then runs a shrink campaign (an ALLOC_ID would
    // tear the reservation down without one)
    StatusInfos success =
        new StatusInfos(
            PmixStatus.PMIX_SUCCESS,
            InfoWriter.create().nodeList(hosts).reqId(asked.reqId()).infos());
    boolean ours = dropFromGrants(hosts);
    if (!ours) {
      // no grant of this scheduler holds these nodes, so PRRTE has no daemon of ours there (its
      // own release would find nothing to shrink, and no event would come): free at once
      LOG.info("release of {}: no daemon of a grant there; sched.free final: false now", list);
      return handBack
          .released(list)
          .thenApply(
              v -> {
                freed.add(list);
                return success;
              });
    }
    String reqId = asked.reqId().orElse(null);
    CompletableFuture<StatusInfos> toPrrte = new CompletableFuture<>();
    shrinkThenFree(list, hosts)
        .thenAccept(
            freedNow -> {
              // the answer first: completing it runs the server module's handler, which hands it
              // to libpmix (cbfunc) on this thread, before the relay below is even asked for
              toPrrte.complete(success);
              // PRRTE's own release of the requester finds no daemon left and sends no event:
              // the agent relays the outcome of its shrink to the requester (D456)
              shrinker.notify(
                  requester,
                  reqId,
                  freedNow
                      ? PmixStatus.PMIX_DVM_IS_READY.code()
                      : PmixStatus.PMIX_ERR_DVM_MOD.code());
            });
    return toPrrte;
  }

  /**
   * Has the agent shrink {@code hosts} out of the DVM and, once PRRTE reported their daemons gone,
   * hands {@code list} back to Flux ({@code sched.free final: false}); when the departure is not
   * confirmed the nodes stay held (D434).
   *
   * @return whether the nodes were handed back; never fails
   */
  private CompletionStage<Boolean> shrinkThenFree(String list, String hosts) {
    String reqId = "fluxdrm-shrink-" + (++nextShrink);
    LOG.info("{}: shrink {} through the agent", list, reqId);
    CompletableFuture<Boolean> out = new CompletableFuture<>();
    shrinker
        .nspace()
        .thenCompose(
            ns -> {
              agent = ns;
              shrinks.put(reqId, hosts);
              return shrinker.shrink(reqId, hosts);
            })
        .whenComplete(
            (code, err) -> {
              shrinks.remove(reqId);
              if (err != null || code != PmixStatus.PMIX_DVM_IS_READY.code()) {
                LOG.warn(
                    "shrink {} of {}: {}; the nodes stay held in Flux",
                    reqId,
                    hosts,
                    err != null ? err.getMessage() : "event " + code);
                held.add(list);
                out.complete(false);
                return;
              }
              LOG.info("shrink {}: the daemons of {} left; sched.free final: false", reqId, hosts);
              handBack
                  .released(list)
                  .whenComplete(
                      (v, e2) -> {
                        freed.add(list);
                        out.complete(true);
                      });
            });
    return out;
  }

  /**
   * Takes the entries of {@code hosts} out of the grants that hold them (a grant left empty goes).
   *
   * @return whether any grant held one of them
   */
  boolean dropFromGrants(String hosts) {
    java.util.Set<String> drop = java.util.Set.of(hosts.split(","));
    boolean found = false;
    for (String id : List.copyOf(grants.keySet())) {
      List<String> keep = new ArrayList<>();
      for (String e : grants.get(id).split(",")) {
        if (drop.contains(hosts(e))) {
          found = true;
        } else {
          keep.add(e);
        }
      }
      if (keep.isEmpty()) {
        grants.remove(id);
      } else {
        grants.put(id, String.join(",", keep));
      }
    }
    return found;
  }

  static String hosts(String list) {
    return java.util.Arrays.stream(list.split(","))
        .map(e -> e.contains(":") ? e.substring(0, e.lastIndexOf(':')) : e)
        .collect(java.util.stream.Collectors.joining(","));
  }

  /**
   * Instantiates a session of the DVM on the nodes of a grant PRRTE holds, with an application
   * ({@code PMIx_Session_control(id, {INSTANTIATE, PMIX_ALLOC_NODE_LIST, PMIX_ALLOC_ID,
   * PMIX_SESSION_APP})}, docs/protocol-mapping.md). When PRRTE later sends {@code
   * PMIX_SESSION_COMPLETE} for it, its nodes leave the DVM and go back to Flux.
   *
   * @param sessionId the session's id
   * @param allocId the grant's {@code PMIX_ALLOC_ID}
   * @param app what runs in it
   * @return PRRTE's answer ({@code PMIX_ERR_NOT_FOUND} for a grant it does not hold)
   */
  public CompletionStage<StatusInfos> instantiate(long sessionId, String allocId, App app) {
    String nodes = grants.get(allocId);
    if (nodes == null) {
      return CompletableFuture.completedFuture(StatusInfos.of(PmixStatus.PMIX_ERR_NOT_FOUND));
    }
    List<Info> d =
        InfoWriter.create()
            .operation(Operation.INSTANTIATE)
            .nodeList(nodes)
            .allocId(allocId)
            .apps(List.of(app))
            .infos();
    LOG.info("session {}: INSTANTIATE on {} ({}): {}", sessionId, nodes, allocId, app.argv());
    return down.get()
        .sessionControl(sessionId, d)
        .thenApply(
            s -> {
              if (s.succeeded()) {
                sessions.put(sessionId, allocId);
              }
              LOG.info("session {}: {} {}", sessionId, s.status(), s.infos());
              return s;
            });
  }

  /** The sessions this scheduler instantiated and PRRTE has not completed, to their grant. */
  public Map<Long, String> sessions() {
    return Map.copyOf(sessions);
  }

  @Override
  public CompletionStage<StatusInfos> sessionControl(
      PmixProc requester, long sessionId, List<Info> directives) {
    if (SessionControl.completes(directives)) {
      String allocId =
          AllocationAnswer.allocIdOf(directives)
              .filter(grants::containsKey)
              .orElse(sessions.get(sessionId));
      sessions.remove(sessionId);
      completes.add(List.copyOf(directives));
      String nodes = allocId == null ? null : grants.remove(allocId);
      LOG.info("session {} complete ({}): {}", sessionId, allocId, nodes == null ? "-" : nodes);
      if (nodes != null) {
        // its nodes are released in Flux (spec_sub), leave the DVM, then go back to Flux
        // (sched.free); PRRTE need not wait for that
        String list = nodes;
        allocator
            .request(AllocDirective.RELEASE, InfoWriter.create().nodeList(list).infos())
            .thenAccept(
                a -> {
                  if (a.status() != PmixStatus.PMIX_SUCCESS) {
                    LOG.warn(
                        "session {} complete: releasing {} in Flux: {} {}; kept",
                        sessionId,
                        list,
                        a.status(),
                        a.message());
                    held.add(list);
                    return;
                  }
                  shrinkThenFree(list, hosts(list));
                });
      }
      return CompletableFuture.completedFuture(StatusInfos.of(PmixStatus.PMIX_SUCCESS));
    }
    if (sessions.containsKey(sessionId)) {
      // a session this scheduler instantiated: it decides, and PRRTE executes its own request
      LOG.info(
          "session control {} from {}: {}, executed as the scheduler's",
          sessionId,
          requester.nspace(),
          directives);
      // without the requester: PRRTE honours PMIX_REQUESTOR and would check the tool's rights
      return down.get()
          .sessionControl(
              sessionId,
              directives.stream().filter(i -> !i.key().equals(PmixKey.PMIX_REQUESTOR)).toList());
    }
    LOG.info("session control {} from {}: PMIX_ERR_NOT_SUPPORTED", sessionId, requester.nspace());
    return CompletableFuture.completedFuture(StatusInfos.of(PmixStatus.PMIX_ERR_NOT_SUPPORTED));
  }

  /** The {@code PMIX_SESSION_COMPLETE} notices received, in order. */
  public List<List<Info>> completes() {
    return List.copyOf(completes);
  }

  /** Released node lists still held in Flux (their daemons' departure is not observable). */
  public List<String> held() {
    return List.copyOf(held);
  }

  /** The node lists handed back to Flux (SESSION_COMPLETE), in order. */
  public List<String> freed() {
    return List.copyOf(freed);
  }

  /** The grants PRRTE holds, by allocation id. */
  public Map<String, String> grants() {
    return Map.copyOf(grants);
  }
}
