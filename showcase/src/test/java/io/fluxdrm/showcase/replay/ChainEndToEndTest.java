package io.fluxdrm.showcase.replay;

import static io.fluxdrm.jobmanager.JmFixture.ALICE;
import static io.fluxdrm.jobmanager.JmFixture.BOB;
import static io.fluxdrm.showcase.replay.ChainFixture.allocId;
import static io.fluxdrm.showcase.replay.ChainFixture.done;
import static io.fluxdrm.showcase.replay.ChainFixture.info;
import static io.fluxdrm.showcase.replay.ChainFixture.nodes;
import static io.fluxdrm.showcase.replay.ChainFixture.reqId;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.bridge.translate.PmixAnswer;
import io.fluxdrm.jobmanager.JmFixture;
import io.fluxdrm.jobmanager.JobManager;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.reactor.EventLoop;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rpc.transcript.ServiceFactory;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.SchedulerOptions;
import io.fluxdrm.sched.service.SchedReplayProvider;
import io.fluxdrm.sched.service.SchedService;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole chain, application → PMIx facade → shell plugin → job manager → sched-simple → back,
 * over the in-memory hub: one test per scenario of issue 6's second acceptance item. Job A (id 1,
 * user 1000, node0) asks through its facade's RPC service, job B (id 2, user 1001, node1) through
 * the Java API; the pool is four nodes of four cores. Every test ends with {@link
 * ChainFixture#check()} (conservation, agreement, D8 eventlogs) and checks its golden transcripts:
 * the job manager's endpoint replayed against a fresh job manager world, and, where job A's answers
 * do not depend on another job, job A's shell endpoint replayed against a fresh {@code pmix} world
 * (the facade's requests) and against a fresh job manager world (the shell's own requests).
 */
@Timeout(30)
class ChainEndToEndTest {
  @TempDir Path dir;

  private static final ServiceFactory JM_WORLD = JobManagerReplayProvider::world;
  private static final ServiceFactory PMIX_WORLD = new ShellReplayProvider.Pmix().factory();

  private ChainFixture c;
  private ChainFixture.Job a;
  private ChainFixture.Job b;
  private FluxHandle app;

  /** Jobs A and B started in {@code f}, A's application attached. */
  private void jobs(JmFixture f) {
    c = new ChainFixture(f);
    shells();
  }

  private void shells() {
    a = c.shell(JobManagerReplayProvider.JOB_A, ALICE);
    b = c.shell(JobManagerReplayProvider.JOB_B, BOB);
    assertThat(a.id).isEqualTo(JobManagerReplayProvider.JOB_A);
    assertThat(b.id).isEqualTo(JobManagerReplayProvider.JOB_B);
    app = c.app(a);
  }

  /** The replay providers' world with a scheduler of options {@code o}. */
  private void world(SchedulerOptions o) {
    c = ChainFixture.registered(dir, o);
    shells();
  }

  private void standard() {
    world(SchedulerOptions.defaults());
  }

  private CompletableFuture<PmixAnswer> askA(AllocDirective d, io.fluxdrm.pmix.Info... i) {
    return c.rpc(app, a, d, i);
  }

  private void goldens(String name, ServiceFactory jmWorld, ServiceFactory pmixWorld) {
    if (jmWorld != null) {
      ChainGoldens.check(name + ".job-manager", c.jmTranscript(), jmWorld);
    }
    if (pmixWorld != null) {
      Path golden = ChainGoldens.check(name + ".pmix", a.transcript(), pmixWorld);
      if (jmWorld != null) {
        // the same endpoint seen from the other side: the shell's requests to the job manager
        ChainGoldens.replays(golden, jmWorld);
      }
    }
  }

  /** The {@code sched.free} payloads the job manager sent, from its transcript. */
  private List<JsonNode> frees() {
    List<JsonNode> out = new ArrayList<>();
    for (String line : c.jmTranscript().lines().toList()) {
      JsonNode l;
      try {
        l = Json.mapper().readTree(line);
      } catch (java.io.IOException e) {
        throw new AssertionError(line, e);
      }
      if (l.path("topic").asText().equals("sched.free")) {
        out.add(l.get("payload"));
      }
    }
    return out;
  }

  @Test
  void aMissingGolden_failsNamingTheCommandThatRecordsIt(@org.junit.jupiter.api.io.TempDir Path t) {
    org.junit.jupiter.api.Assumptions.assumeFalse(
        Boolean.getBoolean("golden.update"),
        "recording goldens: a missing one is written, as asked");
    Path gone = t.resolve("grow.pmix.jsonl");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> ChainGoldens.check(gone, "grow.pmix", "{}", PMIX_WORLD))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("is missing")
        .hasMessageContaining("-Dgolden.update=true");
    assertThat(gone).doesNotExist();
  }

  @Test
  void grow_poolHasRoom_grantedAsNewReservation() {
    standard();
    PmixAnswer ans = done(askA(AllocDirective.NEW, nodes(1), reqId("g1")));
    assertThat(ans.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(info(ans, PmixKey.PMIX_ALLOC_NODE_LIST)).isEqualTo("node2:4");
    assertThat(info(ans, PmixKey.PMIX_ALLOC_REQ_ID)).isEqualTo("g1");
    String id = info(ans, PmixKey.PMIX_ALLOC_ID);
    assertThat(a.pmix.reservations()).containsOnlyKeys(id);
    assertThat(a.pmix.reservations().get(id).summary()).isEqualTo("rank2/core[0-3]");
    assertThat(a.plugin.hosts()).containsEntry(2, "node2");
    assertThat(c.f.eventNames(a.id)).containsExactly("submit", "alloc", "resource-update");
    c.check();
    goldens("grow-granted", JM_WORLD, PMIX_WORLD);
  }

  @Test
  void grow_poolBusy_waitsThenGrantedAfterAnotherJobFrees() {
    standard();
    PmixAnswer bGrow = done(c.ask(b, AllocDirective.NEW, nodes(1)));
    String bRes = info(bGrow, PmixKey.PMIX_ALLOC_ID);
    assertThat(info(bGrow, PmixKey.PMIX_ALLOC_NODE_LIST)).isEqualTo("node2:4");
    // B gives its reservation back: granted at once, but node2 stays B's until released (D7)
    PmixAnswer bRel = done(c.ask(b, AllocDirective.RELEASE, allocId(bRes)));
    assertThat(bRel.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(info(bRel, PmixKey.PMIX_ALLOC_ID)).isEqualTo(bRes);
    assertThat(b.pmix.reservations()).isEmpty();
    CompletableFuture<PmixAnswer> aGrow = askA(AllocDirective.NEW, nodes(2), reqId("wait"));
    c.f.advance(Duration.ofSeconds(5));
    assertThat(aGrow).isNotDone();
    assertThat(a.pmix.pendingRequestIds()).containsExactly("wait");
    assertThat(c.tasksExited(b, IdSet.of(2))).isCompleted();
    PmixAnswer ans = done(aGrow);
    assertThat(ans.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(info(ans, PmixKey.PMIX_ALLOC_NODE_LIST)).isEqualTo("node2:4,node3:4");
    assertThat(a.pmix.pendingRequestIds()).isEmpty();
    assertThat(c.f.eventNames(b.id))
        .containsExactly("submit", "alloc", "resource-update", "resource-update", "release");
    c.check();
    goldens("grow-waits-then-granted", JM_WORLD, null);
  }

  @Test
  void grow_largerThanPool_deniedOutOfResourceNothingChanges() {
    standard();
    String before = c.f.eventlogText(a.id);
    PmixAnswer ans = done(askA(AllocDirective.NEW, nodes(4), reqId("huge")));
    assertThat(ans.status()).isEqualTo(PmixStatus.PMIX_ERR_OUT_OF_RESOURCE);
    assertThat(ans.infos()).extracting(i -> i.key()).containsExactly(PmixKey.PMIX_ALLOC_REQ_ID);
    assertThat(ans.message()).startsWith("denied: ");
    assertThat(c.f.eventlogText(a.id)).isEqualTo(before);
    assertThat(a.pmix.reservations()).isEmpty();
    c.check();
    goldens("grow-denied", JM_WORLD, PMIX_WORLD);
  }

  /** A world of {@link JobManagerReplayProvider}'s shape whose scheduler is started by sched. */
  private static Service jmWorld(EventLoop loop, Function<FluxHandle, ?> sched) {
    Hub hub = new Hub(loop);
    FluxHandle h = hub.attach(Credentials.owner(JobManagerReplayProvider.OWNER));
    JobManager jm = JobManager.inMemory(() -> 1000 + loop.nanoTime() / 1e9);
    jm.attach(h);
    ResourceSet pool = SchedReplayProvider.POOL;
    jm.register(JobManagerReplayProvider.JOB_A, ALICE, pool.copyRanks(IdSet.of(0)));
    jm.register(JobManagerReplayProvider.JOB_B, BOB, pool.copyRanks(IdSet.of(1)));
    h.register(jm.service());
    sched.apply(hub.attach(Credentials.owner(JobManagerReplayProvider.OWNER)));
    return jm.service();
  }

  private static Function<FluxHandle, ?> sched(EventLoop loop, SchedulerOptions o) {
    return h ->
        SchedService.standalone(SchedReplayProvider.POOL)
            .options(o)
            .clock(() -> 1000 + loop.nanoTime() / 1e9)
            .retry(Duration.ofMillis(10), Duration.ofMillis(10))
            .build()
            .start(h);
  }

  /** An RFC 27-only scheduler: {@code sched.free} and nothing of RFC 51. */
  private static Service rfc27Only(List<ObjectNode> frees) {
    return JmFixture.fakeScheduler(null, frees);
  }

  @Test
  void grow_reallocSwitchedOff_notSupportedAtOnce() {
    SchedulerOptions off = SchedulerOptions.defaults().withRealloc(false);
    world(off);
    PmixAnswer ans = done(askA(AllocDirective.NEW, nodes(1), reqId("r")));
    assertThat(ans.status()).isEqualTo(PmixStatus.PMIX_ERR_NOT_SUPPORTED);
    assertThat(info(ans, PmixKey.PMIX_ALLOC_REQ_ID)).isEqualTo("r");
    assertThat(c.f.eventNames(a.id)).containsExactly("submit", "alloc");
    c.check();
    goldens(
        "grow-unsupported",
        loop -> jmWorld(loop, sched(loop, off)),
        loop -> ShellReplayProvider.world(loop, off, true));
  }

  @Test
  void grow_rfc27OnlyScheduler_enosysNotSupported() {
    List<ObjectNode> frees = new ArrayList<>();
    JmFixture f = new JmFixture(dir).startJobManager();
    ChainFixture.register(f);
    CompletableFuture<Void> up =
        f.hub.attach(Credentials.owner(JmFixture.OWNER)).register(rfc27Only(frees));
    f.settle();
    assertThat(up).isCompleted();
    jobs(f);
    PmixAnswer ans = done(askA(AllocDirective.NEW, nodes(1)));
    assertThat(ans.status()).isEqualTo(PmixStatus.PMIX_ERR_NOT_SUPPORTED);
    PmixAnswer javaAns = done(c.ask(b, AllocDirective.EXTEND, nodes(1)));
    assertThat(javaAns.status()).isEqualTo(PmixStatus.PMIX_ERR_NOT_SUPPORTED);
    assertThat(c.f.eventNames(a.id)).containsExactly("submit", "alloc");
    assertThat(frees).isEmpty();
    c.check();
    List<ObjectNode> replayFrees = new ArrayList<>();
    goldens(
        "grow-enosys",
        loop -> jmWorld(loop, h -> h.register(rfc27Only(replayFrees))),
        loop -> ShellReplayProvider.world(loop, h -> h.register(rfc27Only(replayFrees)), true));
  }

  @Test
  void reqCancel_waitingGrow_canceledAndNeverGranted() {
    standard();
    CompletableFuture<PmixAnswer> grow = askA(AllocDirective.NEW, nodes(3), reqId("big"));
    assertThat(grow).isNotDone();
    PmixAnswer unknown = done(askA(AllocDirective.REQ_CANCEL, reqId("nope")));
    assertThat(unknown.status()).isEqualTo(PmixStatus.PMIX_ERR_NOT_FOUND);
    PmixAnswer dup = done(askA(AllocDirective.NEW, nodes(1), reqId("big")));
    assertThat(dup.status()).isEqualTo(PmixStatus.PMIX_ERR_EXISTS);
    PmixAnswer cancel = done(askA(AllocDirective.REQ_CANCEL, reqId("big")));
    assertThat(cancel.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(info(cancel, PmixKey.PMIX_ALLOC_REQ_ID)).isEqualTo("big");
    PmixAnswer canceled = done(grow);
    assertThat(canceled.status()).isEqualTo(PmixStatus.PMIX_ERR_JOB_CANCELED);
    assertThat(info(canceled, PmixKey.PMIX_ALLOC_REQ_ID)).isEqualTo("big");
    assertThat(c.f.sched.core().pendingReallocs()).isZero();
    assertThat(c.f.jm.pendingReallocs()).isZero();
    assertThat(a.pmix.pendingRequestIds()).isEmpty();
    assertThat(c.f.eventNames(a.id)).containsExactly("submit", "alloc");
    // the label is free again, and the two free nodes were never taken
    PmixAnswer again = done(askA(AllocDirective.NEW, nodes(2), reqId("big")));
    assertThat(info(again, PmixKey.PMIX_ALLOC_NODE_LIST)).isEqualTo("node2:4,node3:4");
    c.check();
    goldens("req-cancel", JM_WORLD, PMIX_WORLD);
  }

  @Test
  void rfc6Cancel_waitingGrowOverRpc_answeredJobCanceled() {
    standard();
    CompletableFuture<PmixAnswer> grow = askA(AllocDirective.NEW, nodes(3), reqId("rpc"));
    assertThat(grow).isNotDone();
    // the application's first RPC on a fresh handle has matchtag 1
    app.send(a.pmix.serviceName() + ".cancel", Json.object().put("matchtag", 1));
    c.f.settle();
    PmixAnswer ans = done(grow);
    assertThat(ans.status()).isEqualTo(PmixStatus.PMIX_ERR_JOB_CANCELED);
    assertThat(info(ans, PmixKey.PMIX_ALLOC_REQ_ID)).isEqualTo("rpc");
    assertThat(c.f.sched.core().pendingReallocs()).isZero();
    assertThat(a.pmix.pendingRequests()).isZero();
    assertThat(c.f.eventNames(a.id)).containsExactly("submit", "alloc");
    c.check();
  }

  @Test
  void release_reservationThenTasksExit_freedFinalFalseOtherJobGrowsOnlyAfter() {
    standard();
    PmixAnswer grow = done(askA(AllocDirective.NEW, nodes(2)));
    String res = info(grow, PmixKey.PMIX_ALLOC_ID);
    PmixAnswer rel = done(askA(AllocDirective.RELEASE, allocId(res)));
    assertThat(rel.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(info(rel, PmixKey.PMIX_ALLOC_ID)).isEqualTo(res);
    assertThat(a.pmix.reservations()).isEmpty();
    // not before the release: still A's at the scheduler, B's grow waits
    CompletableFuture<PmixAnswer> bGrow = c.ask(b, AllocDirective.NEW, nodes(1));
    assertThat(bGrow).isNotDone();
    assertThat(c.f.schedView(a.id).nnodes()).isEqualTo(3);
    assertThat(a.plugin.releasing().summary()).isEqualTo("rank[2-3]/core[0-3]");
    assertThat(frees()).isEmpty();
    c.tasksExited(a, IdSet.of(2));
    assertThat(frees()).as("a shrink is handed back whole (D112)").isEmpty();
    assertThat(bGrow).isNotDone();
    assertThat(c.tasksExited(a, IdSet.of(3))).isCompleted();
    List<JsonNode> frees = frees();
    assertThat(frees).hasSize(1);
    assertThat(frees.get(0).get("final").asBoolean()).isFalse();
    assertThat(ResourceSet.fromJson(frees.get(0).get("R")).summary())
        .isEqualTo("rank[2-3]/core[0-3]");
    assertThat(info(done(bGrow), PmixKey.PMIX_ALLOC_NODE_LIST)).isEqualTo("node2:4");
    assertThat(c.f.eventNames(a.id))
        .containsExactly("submit", "alloc", "resource-update", "resource-update", "release");
    c.check();
    goldens("shrink-release", JM_WORLD, PMIX_WORLD);
  }

  @Test
  void release_countOnly_schedulerChoosesNodesAppliedAsRelease() {
    standard();
    PmixAnswer grow = done(askA(AllocDirective.NEW, nodes(2)));
    String res = info(grow, PmixKey.PMIX_ALLOC_ID);
    PmixAnswer rel = done(askA(AllocDirective.RELEASE, nodes(1)));
    assertThat(rel.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    String chosen = info(rel, PmixKey.PMIX_ALLOC_NODE_LIST);
    assertThat(chosen).matches("node[0-3]:4");
    ResourceSet taken = a.plugin.releasing();
    assertThat(taken.nnodes()).isEqualTo(1);
    // the node the scheduler chose leaves the reservation at once
    ResourceSet left = a.pmix.reservations().getOrDefault(res, ResourceSet.empty());
    assertThat(left.intersect(taken).isEmpty()).isTrue();
    assertThat(c.tasksExited(a, taken.ranks())).isCompleted();
    assertThat(c.f.jm.jobR(a.id).orElseThrow().nnodes()).isEqualTo(2);
    assertThat(c.f.eventNames(a.id))
        .containsExactly("submit", "alloc", "resource-update", "resource-update", "release");
    c.check();
    goldens("shrink-scheduler-chooses", JM_WORLD, PMIX_WORLD);
  }

  /** An answer of a fake scheduler: SUCCESS with the given deltas (ranks of the pool, or null). */
  private static ObjectNode success(long allocId, String add, String sub) {
    ObjectNode o = Json.object().put("alloc_id", allocId).put("type", 0);
    ResourceSet pool = JmFixture.pool(4, 4);
    if (add != null) {
      o.set("R_delta_add", pool.copyRanks(IdSet.parse(add)).toJson());
    }
    if (sub != null) {
      o.set("R_delta_sub", pool.copyRanks(IdSet.parse(sub)).toJson());
    }
    return o;
  }

  /**
   * D13's script, answered in turn whatever is asked: a grow that grants node2 and takes node0 back
   * (alloc {@code first}), a grow of node3, a grow that only takes node3 back.
   */
  private static List<ObjectNode> d13Script(long first) {
    return new ArrayList<>(
        List.of(
            success(first, "2", "0"),
            success(first + 1, "3", null),
            success(first + 2, null, "3")));
  }

  /**
   * A world of {@link JobManagerReplayProvider}'s shape whose scheduler is the fake answering
   * {@link #d13Script} in turn: each world gets a fresh script, so the same requests in the same
   * order get the same answers.
   */
  private static ServiceFactory d13World(long first, boolean pmix) {
    Function<FluxHandle, ?> sched =
        h ->
            h.register(
                JmFixture.fakeScheduler(JmFixture.inTurn(d13Script(first)), new ArrayList<>()));
    return pmix
        ? loop -> ShellReplayProvider.world(loop, sched, true)
        : loop -> jmWorld(loop, sched);
  }

  @Test
  void grow_schedulerTakesBackOnItsOwn_d13AppliedAsReleaseFreedFinalFalse() {
    // sched-simple never takes back on its own: a scheduler that does (D13), answering in turn
    List<ObjectNode> answers = d13Script(7);
    List<ObjectNode> frees = new ArrayList<>();
    JmFixture f = new JmFixture(dir).startJobManager();
    ChainFixture.register(f);
    Service sched = JmFixture.fakeScheduler(JmFixture.inTurn(answers), frees);
    CompletableFuture<Void> up = f.hub.attach(Credentials.owner(JmFixture.OWNER)).register(sched);
    f.settle();
    assertThat(up).isCompleted();
    jobs(f);
    // a grow granted node2 while the scheduler takes node0 back
    PmixAnswer swap = done(askA(AllocDirective.NEW, nodes(1), reqId("swap")));
    assertThat(swap.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(info(swap, PmixKey.PMIX_ALLOC_ID)).isEqualTo("7");
    assertThat(info(swap, PmixKey.PMIX_ALLOC_NODE_LIST)).isEqualTo("node2:4");
    assertThat(a.plugin.releasing().summary()).isEqualTo("rank0/core[0-3]");
    assertThat(frees).as("nothing freed before the tasks left (D7)").isEmpty();
    assertThat(c.tasksExited(a, IdSet.of(0))).isCompleted();
    assertThat(frees).hasSize(1);
    assertThat(frees.get(0).get("final").asBoolean()).isFalse();
    assertThat(ResourceSet.fromJson(frees.get(0).get("R")).summary()).isEqualTo("rank0/core[0-3]");
    assertThat(c.f.jm.jobR(a.id).orElseThrow().summary()).isEqualTo("rank2/core[0-3]");
    // a grow that only takes back: nothing granted (D134), the reservation it emptied is gone
    assertThat(info(done(askA(AllocDirective.NEW, nodes(1))), PmixKey.PMIX_ALLOC_ID))
        .isEqualTo("8");
    PmixAnswer taken = done(askA(AllocDirective.EXTEND, allocId("8"), nodes(1)));
    assertThat(taken.status()).isEqualTo(PmixStatus.PMIX_ERR_OUT_OF_RESOURCE);
    assertThat(taken.message())
        .isEqualTo("nothing granted; the scheduler took back rank3/core[0-3]");
    assertThat(a.pmix.reservations()).containsOnlyKeys("7");
    assertThat(c.tasksExited(a, IdSet.of(3))).isCompleted();
    assertThat(frees).hasSize(2);
    assertThat(c.f.eventNames(a.id))
        .containsExactly(
            "submit",
            "alloc",
            "resource-update",
            "resource-update",
            "release",
            "resource-update",
            "resource-update",
            "release");
    assertThat(answers).isEmpty();
    c.check();
    goldens("shrink-scheduler-initiated", d13World(7, false), d13World(7, true));
    // a scheduler that answers otherwise, or a golden whose answer was changed, shows as a diff
    String jm = ChainGoldens.read("shrink-scheduler-initiated.job-manager");
    String pmix = ChainGoldens.read("shrink-scheduler-initiated.pmix");
    ChainGoldens.differs("jm vs script 17", jm, d13World(17, false), "\"alloc_id\":17");
    ChainGoldens.differs("pmix vs script 17", pmix, d13World(17, true), "\"value\":\"17\"");
    String edited = pmix.replace("took back rank3", "took back rank2");
    assertThat(edited).isNotEqualTo(pmix);
    ChainGoldens.differs("edited pmix", edited, d13World(7, true), "took back rank2");
  }

  @Test
  void grow_severalJobsAtOnce_fifoGrantsWhatFitsRestWaits() {
    standard();
    CompletableFuture<PmixAnswer> ga = c.rpc(app, a, AllocDirective.NEW, nodes(1));
    CompletableFuture<PmixAnswer> gb =
        b.pmix.allocationRequest(AllocDirective.NEW, List.of(nodes(2), reqId("first")));
    CompletableFuture<PmixAnswer> gb2 =
        b.pmix.allocationRequest(AllocDirective.NEW, List.of(nodes(1), reqId("second")));
    c.f.settle();
    assertThat(info(done(ga), PmixKey.PMIX_ALLOC_NODE_LIST)).isEqualTo("node2:4");
    assertThat(gb).isNotDone();
    assertThat(gb2).as("head-of-line blocking within the realloc FIFO (D4)").isNotDone();
    assertThat(b.pmix.pendingRequestIds()).containsExactly("first", "second");
    assertThat(done(c.ask(b, AllocDirective.REQ_CANCEL, reqId("first"))).status())
        .isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(done(gb).status()).isEqualTo(PmixStatus.PMIX_ERR_JOB_CANCELED);
    assertThat(info(done(gb2), PmixKey.PMIX_ALLOC_NODE_LIST)).isEqualTo("node3:4");
    assertThat(b.pmix.pendingRequestIds()).isEmpty();
    assertThat(a.pmix.reservations()).hasSize(1);
    assertThat(b.pmix.reservations()).hasSize(1);
    c.check();
    goldens("concurrent-jobs", JM_WORLD, null);
  }

  @Test
  void grow_requesterDisconnects_canceledAtSchedulerNothingGranted() {
    standard();
    askA(AllocDirective.NEW, nodes(3), reqId("gone"));
    assertThat(c.f.sched.core().pendingReallocs()).isEqualTo(1);
    app.close();
    c.f.settle();
    assertThat(a.pmix.pendingRequests()).isZero();
    assertThat(c.f.jm.pendingReallocs()).isZero();
    assertThat(c.f.sched.core().pendingReallocs()).isZero();
    assertThat(c.f.eventNames(a.id)).containsExactly("submit", "alloc");
    app = c.app(a);
    PmixAnswer again = done(askA(AllocDirective.NEW, nodes(2)));
    assertThat(info(again, PmixKey.PMIX_ALLOC_NODE_LIST)).isEqualTo("node2:4,node3:4");
    c.check();
    goldens("requester-disconnects", JM_WORLD, PMIX_WORLD);
  }

  @Test
  void restart_jobManagerMidFlight_grantsAndPendingReleaseSurvive() {
    standard();
    PmixAnswer grow = done(askA(AllocDirective.NEW, nodes(2)));
    String res = info(grow, PmixKey.PMIX_ALLOC_ID);
    assertThat(done(askA(AllocDirective.RELEASE, nodeList("node3"))).status())
        .isEqualTo(PmixStatus.PMIX_SUCCESS);
    ResourceSet rBefore = c.f.jm.jobR(a.id).orElseThrow();
    ResourceSet releasingBefore = c.f.jm.releasing(a.id).orElseThrow();
    // down long enough for the scheduler's probe to notice (it only knows a job manager that
    // sent RFC 27 requests; this one sent reallocs only)
    c.restartJobManager(Duration.ofSeconds(3));
    c.f.advance(Duration.ofSeconds(2));
    assertThat(c.f.jm.schedulerOnline()).isTrue();
    assertThat(JmFixture.sameResources(c.f.jm.jobR(a.id).orElseThrow(), rBefore)).isTrue();
    assertThat(JmFixture.sameResources(c.f.jm.releasing(a.id).orElseThrow(), releasingBefore))
        .isTrue();
    c.check();
    // the release granted before the crash completes after it, the reservation keeps node2
    assertThat(c.tasksExited(a, IdSet.of(3))).isCompleted();
    assertThat(a.pmix.reservations().get(res).summary()).isEqualTo("rank2/core[0-3]");
    PmixAnswer bGrow = done(c.ask(b, AllocDirective.NEW, nodes(1)));
    assertThat(info(bGrow, PmixKey.PMIX_ALLOC_NODE_LIST)).isEqualTo("node3:4");
    PmixAnswer rel = done(askA(AllocDirective.RELEASE, allocId(res)));
    assertThat(info(rel, PmixKey.PMIX_ALLOC_ID)).isEqualTo(res);
    c.check();
    // job A's endpoint through the restart replays against a world that never restarted
    // (not against the job manager's world as a client: job B's grow between took an alloc_id
    // that job A's job-manager answers show)
    ChainGoldens.check("restart-mid-flight.pmix", a.transcript(), PMIX_WORLD);
  }

  private static io.fluxdrm.pmix.Info nodeList(String l) {
    return ChainFixture.nodeList(l);
  }
}
