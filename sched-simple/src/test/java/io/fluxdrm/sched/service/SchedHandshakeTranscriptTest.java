package io.fluxdrm.sched.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.fixture.FakeKvs;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.reactor.ManualEventLoop;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rpc.transcript.Replay;
import io.fluxdrm.rpc.transcript.ReplayAssertions;
import io.fluxdrm.rpc.transcript.ReplayRegistry;
import io.fluxdrm.rpc.transcript.ReplayResult;
import io.fluxdrm.rpc.transcript.Transcript;
import io.fluxdrm.rpc.transcript.TranscriptRecorder;
import io.fluxdrm.rpc.transcript.UnifiedDiff;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.SchedulerOptions;
import io.fluxdrm.sched.service.SchedEndpointReplay.Mode;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden transcripts of what {@code fluxdrm replay --service sched} cannot replay alone: the
 * scheduler's own handshake (hello rebuilding running jobs, a restart with a grown job, the {@code
 * scheduler-restart} exception), the options ({@code --no-realloc}, {@code --annotate-pending}),
 * attached mode ({@code resource.acquire}, R from {@code kvs.lookup}, {@code kvs.commit} before the
 * answer), queries and the realloc FIFO of several jobs. Each scenario is recorded afresh and must
 * equal its golden file; then every golden file of the directory, the older three included, is
 * replayed whole by {@link SchedEndpointReplay}. {@code -Dgolden.update=true} rewrites the files.
 */
@Timeout(30)
class SchedHandshakeTranscriptTest {
  private static final Path DIR =
      Path.of("src/test/resources/io/fluxdrm/sched/service/transcripts");
  private static final SchedulerOptions NO_REALLOC = SchedulerOptions.defaults().withRealloc(false);
  private static final SchedulerOptions ANNOTATE =
      SchedulerOptions.defaults().withAnnotatePending(true);

  /**
   * Every golden transcript with how it replays; {@code cli} when {@code fluxdrm replay --service
   * sched} replays it too (default options, a hello listing no job).
   */
  private record Golden(String name, Mode mode, SchedulerOptions options, boolean cli) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final List<Golden> GOLDEN =
      List.of(
          new Golden("rfc27-flow", Mode.STANDALONE, SchedulerOptions.defaults(), true),
          new Golden("rfc51-cases", Mode.STANDALONE, SchedulerOptions.defaults(), true),
          new Golden("bad-requests", Mode.STANDALONE, SchedulerOptions.defaults(), true),
          new Golden("no-realloc", Mode.STANDALONE, NO_REALLOC, false),
          new Golden("annotate-pending", Mode.STANDALONE, ANNOTATE, false),
          new Golden("hello-restart-1-grow", Mode.STANDALONE, SchedulerOptions.defaults(), true),
          new Golden(
              "hello-restart-2-rebuild", Mode.STANDALONE, SchedulerOptions.defaults(), false),
          new Golden("rfc51-fifo", Mode.STANDALONE, SchedulerOptions.defaults(), true),
          new Golden("queries", Mode.STANDALONE, SchedulerOptions.defaults(), true),
          new Golden("attached", Mode.ATTACHED, SchedulerOptions.defaults(), false));

  static Stream<Golden> goldens() {
    return GOLDEN.stream();
  }

  private static Golden golden(String name) {
    return GOLDEN.stream().filter(g -> g.name().equals(name)).findFirst().orElseThrow();
  }

  /**
   * Writes the recording as the golden file when {@code golden.update} is set (a missing one
   * fails), then requires the recording to equal the file and the file to replay whole.
   */
  /** The golden file {@code file}: recorded only with {@code -Dgolden.update=true}. */
  static Path goldenFile(Path file, String recorded) {
    return ReplayAssertions.golden(
        file, recorded, "mvn -pl sched-simple test -Dtest=SchedHandshakeTranscriptTest");
  }

  @Test
  void aMissingGolden_failsNamingTheCommandThatRecordsIt(@org.junit.jupiter.api.io.TempDir Path t) {
    org.junit.jupiter.api.Assumptions.assumeFalse(
        Boolean.getBoolean("golden.update"),
        "recording goldens: a missing one is written, as asked");
    Path gone = t.resolve("no-realloc.jsonl");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> goldenFile(gone, "{}"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("is missing")
        .hasMessageContaining("-Dtest=SchedHandshakeTranscriptTest -Dgolden.update=true");
    assertThat(gone).doesNotExist();
  }

  private static void check(String name, String recorded) throws IOException {
    Path file = goldenFile(DIR.resolve(name + ".jsonl"), recorded);
    List<String> want = SchedEndpointReplay.normalise(Files.readAllLines(file));
    List<String> got = SchedEndpointReplay.normalise(recorded.lines().toList());
    String diff = UnifiedDiff.diff(want, got, "golden", "recorded");
    assertThat(diff)
        .as("%s: the scenario's recording differs from the golden file", name)
        .isEmpty();
    Golden g = golden(name);
    assertThat(SchedEndpointReplay.diff(file, g.mode(), g.options()))
        .as("%s replays", name)
        .isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("goldens")
  void golden_replayedWithHandshake_same(Golden g) {
    Path file = DIR.resolve(g.name() + ".jsonl");
    assertThat(file).exists();
    assertThat(SchedEndpointReplay.diff(file, g.mode(), g.options())).isEmpty();
    if (g.cli()) {
      ReplayResult viaRegistry = ReplayRegistry.load().run("sched", file);
      assertThat(viaRegistry.same()).as(viaRegistry.unifiedDiff()).isTrue();
      assertThat(viaRegistry.responses()).isPositive();
    }
  }

  @Test
  void goldenDirectory_everyFileListed() throws IOException {
    try (Stream<Path> files = Files.list(DIR)) {
      assertThat(files.map(f -> f.getFileName().toString().replace(".jsonl", "")))
          .containsExactlyInAnyOrderElementsOf(GOLDEN.stream().map(Golden::name).toList());
    }
  }

  @Test
  void golden_changedResponse_diffShown() throws IOException {
    Path file = DIR.resolve("no-realloc.jsonl");
    Path changed = Files.createTempFile("sched-changed", ".jsonl");
    try {
      Files.writeString(
          changed,
          Files.readString(file).replace("\"type\":3", "\"type\":1"),
          StandardCharsets.UTF_8);
      String diff = SchedEndpointReplay.diff(changed, Mode.STANDALONE, NO_REALLOC);
      assertThat(diff).startsWith("--- recorded\n+++ replayed\n").contains("\"type\":3");
    } finally {
      Files.delete(changed);
    }
  }

  private static ResourceSet r(CompletableFuture<Message> f) {
    return ResourceSet.fromJson(SchedFixture.answer(f).get("R"));
  }

  private static SchedFixture fixture(SchedulerOptions options) {
    return new SchedFixture(SchedReplayProvider.POOL, options).recording();
  }

  @Test
  void noRealloc_everyReallocUnsupportedAllocsServed_golden() throws IOException {
    SchedFixture fx = fixture(NO_REALLOC);
    SchedulerFacingJobManager jm = fx.jobManager();
    fx.start();
    CompletableFuture<Message> a1 = jm.alloc(1, SchedulerFacingJobManager.nodes(1, 1, 4));
    fx.settle();
    List<CompletableFuture<Message>> reallocs = new ArrayList<>();
    reallocs.add(jm.realloc(1, SchedulerFacingJobManager.nodes(1, 1, 4), null, null));
    reallocs.add(jm.realloc(1, null, SchedulerFacingJobManager.nodes(1, 1, 4), r(a1)));
    reallocs.add(jm.realloc(1, SchedulerFacingJobManager.nodes(9, 1, 4), null, null));
    fx.settle();
    jm.h.send("sched.realloc_cancel", Json.object().put("matchtag", 1));
    CompletableFuture<Message> status = jm.h.rpc("sched.resource-status", Json.object());
    fx.settle();
    for (CompletableFuture<Message> f : reallocs) {
      assertThat(SchedFixture.answer(f).get("type").asInt()).isEqualTo(3);
    }
    assertThat(ResourceSet.fromJson(SchedFixture.answer(status).get("allocated")).summary())
        .as("an UNSUPPORTED realloc changes nothing")
        .isEqualTo("rank0/core[0-3]");
    jm.free(1, r(a1), true);
    jm.alloc(2, SchedulerFacingJobManager.nodes(4, 1, 4));
    fx.settle();
    fx.checkInvariants();
    String recorded = fx.transcript();
    check("no-realloc", recorded);

    // also through the generic replay, with a no-realloc scheduler behind the sched service
    SchedReplayProvider provider = new SchedReplayProvider();
    ReplayResult viaReplay =
        Replay.run(
            Transcript.read(DIR.resolve("no-realloc.jsonl")),
            loop ->
                SchedService.standalone(SchedReplayProvider.POOL)
                    .options(NO_REALLOC)
                    .clock(() -> 1000 + loop.nanoTime() / 1e9)
                    .build()
                    .schedService(),
            provider.normalisations());
    assertThat(viaReplay.same()).as(viaReplay.unifiedDiff()).isTrue();
  }

  @Test
  void annotatePending_jobsAheadThenNullsOnSuccess_golden() throws IOException {
    SchedFixture fx = fixture(ANNOTATE);
    SchedulerFacingJobManager jm = fx.jobManager();
    fx.start();
    List<List<ObjectNode>> responses = new ArrayList<>();
    for (int id = 1; id <= 6; id++) {
      List<ObjectNode> r = new ArrayList<>();
      responses.add(r);
      jm.allocKeepingAll(id, SchedulerFacingJobManager.nodes(1, 1, 4), r);
    }
    fx.settle();
    assertThat(responses.get(4).get(0).toString())
        .isEqualTo(
            "{\"id\":5,\"type\":1,\"annotations\":{\"sched\":"
                + "{\"reason_pending\":\"insufficient resources\",\"jobs_ahead\":0}}}");
    assertThat(responses.get(5).get(0).path("annotations").path("sched").path("jobs_ahead").asInt())
        .isEqualTo(1);
    jm.free(1, ResourceSet.fromJson(responses.get(0).get(0).get("R")), true);
    fx.settle();
    ObjectNode success5 = responses.get(4).get(responses.get(4).size() - 1);
    assertThat(success5.get("type").asInt()).isZero();
    assertThat(success5.get("annotations").get("sched").get("reason_pending").isNull()).isTrue();
    fx.checkInvariants();
    check("annotate-pending", fx.transcript());
  }

  @Test
  void restart_grownJob_secondSchedulerRebuildsItFromHello_golden() throws IOException {
    // first scheduler: job 1 on one node, job 2 on two, job 1 grows by the last node
    SchedFixture fx1 = fixture(SchedulerOptions.defaults());
    SchedulerFacingJobManager jm1 = fx1.jobManager();
    fx1.start();
    CompletableFuture<Message> a1 = jm1.alloc(1, SchedulerFacingJobManager.nodes(1, 1, 4));
    CompletableFuture<Message> a2 = jm1.alloc(2, SchedulerFacingJobManager.nodes(2, 1, 4));
    fx1.settle();
    CompletableFuture<Message> grow =
        jm1.realloc(1, SchedulerFacingJobManager.nodes(1, 1, 4), null, null);
    fx1.settle();
    ResourceSet grown =
        r(a1).union(ResourceSet.fromJson(SchedFixture.answer(grow).get("R_delta_add")));
    assertThat(grown.summary()).isEqualTo("rank[0,3]/core[0-3]");
    fx1.checkInvariants();
    check("hello-restart-1-grow", fx1.transcript());

    // second scheduler: the job manager's hello gives each job's current R; job 2 freed one rank
    // while no scheduler ran; job 4's R is unknown (scheduler-restart exception)
    SchedFixture fx2 = fixture(SchedulerOptions.defaults());
    SchedulerFacingJobManager jm2 = fx2.jobManager();
    jm2.runningJob(1, null).set("R", grown.toJson());
    jm2.runningJob(2, "2").set("R", r(a2).toJson());
    jm2.runningJob(4, null);
    fx2.start();
    assertThat(jm2.raised).hasSize(1);
    assertThat(jm2.raised.get(0).get("type").asText()).isEqualTo("scheduler-restart");
    CompletableFuture<Message> status = jm2.h.rpc("sched.resource-status", Json.object());
    fx2.settle();
    assertThat(ResourceSet.fromJson(SchedFixture.answer(status).get("allocated")).summary())
        .isEqualTo("rank[0-1,3]/core[0-3]");
    // the grown rank is the job's: a shrink naming it is granted, a new job gets rank 2 first
    ResourceSet rank3 = grown.copyRanks(IdSet.of(3));
    CompletableFuture<Message> shrink =
        jm2.realloc(1, null, SchedulerFacingJobManager.nodes(1, 1, 4), rank3);
    CompletableFuture<Message> a5 = jm2.alloc(5, SchedulerFacingJobManager.nodes(1, 1, 4));
    CompletableFuture<Message> a6 = jm2.alloc(6, SchedulerFacingJobManager.nodes(1, 1, 4));
    fx2.settle();
    assertThat(SchedFixture.answer(shrink).get("type").asInt()).isZero();
    assertThat(r(a5).summary()).isEqualTo("rank2/core[0-3]");
    assertThat(a6).as("rank3 stays job 1's until freed").isNotDone();
    jm2.free(1, rank3, false);
    fx2.settle();
    assertThat(r(a6).summary()).isEqualTo("rank3/core[0-3]");
    jm2.free(1, grown.copyRanks(IdSet.of(0)), true);
    jm2.free(2, r(a2).copyRanks(IdSet.of(1)), true);
    fx2.settle();
    fx2.checkInvariants();
    check("hello-restart-2-rebuild", fx2.transcript());
  }

  @Test
  void realloc_severalJobs_fifoWithHeadOfLineBlocking_golden() throws IOException {
    SchedFixture fx = fixture(SchedulerOptions.defaults());
    SchedulerFacingJobManager jm = fx.jobManager();
    fx.start();
    List<CompletableFuture<Message>> a = new ArrayList<>();
    for (int id = 1; id <= 3; id++) {
      a.add(jm.alloc(id, SchedulerFacingJobManager.nodes(1, 1, 4)));
    }
    fx.settle();
    CompletableFuture<Message> grow1 =
        jm.realloc(1, SchedulerFacingJobManager.nodes(2, 1, 4), null, null);
    CompletableFuture<Message> grow2 =
        jm.realloc(2, SchedulerFacingJobManager.nodes(1, 1, 4), null, null);
    CompletableFuture<Message> alloc4 = jm.alloc(4, SchedulerFacingJobManager.nodes(1, 1, 4));
    fx.settle();
    assertThat(grow1).as("two nodes wanted, one free").isNotDone();
    assertThat(grow2).as("behind job 1's grow although one node is free").isNotDone();
    assertThat(r(alloc4).summary())
        .as("a waiting realloc does not hold up allocs (D4)")
        .isEqualTo("rank3/core[0-3]");
    jm.free(3, r(a.get(2)), true);
    fx.settle();
    assertThat(grow1).as("still one node free").isNotDone();
    assertThat(grow2).as("the realloc FIFO blocks at its head").isNotDone();
    jm.free(4, r(alloc4), true);
    fx.settle();
    assertThat(ResourceSet.fromJson(SchedFixture.answer(grow1).get("R_delta_add")).summary())
        .isEqualTo("rank[2-3]/core[0-3]");
    assertThat(grow2).isNotDone();
    jm.free(1, r(a.get(0)), false);
    fx.settle();
    assertThat(ResourceSet.fromJson(SchedFixture.answer(grow2).get("R_delta_add")).summary())
        .isEqualTo("rank0/core[0-3]");
    assertThat(SchedFixture.answer(grow1).get("alloc_id").asLong())
        .isLessThan(SchedFixture.answer(grow2).get("alloc_id").asLong());
    fx.checkInvariants();
    check("rfc51-fifo", fx.transcript());
  }

  @Test
  void queries_feasibilityAndResourceStatus_golden() throws IOException {
    SchedFixture fx = fixture(SchedulerOptions.defaults());
    SchedulerFacingJobManager jm = fx.jobManager();
    fx.start();
    CompletableFuture<Message> a1 = jm.alloc(1, SchedulerFacingJobManager.slots(3, 2, 0));
    fx.settle();
    CompletableFuture<Message> status = jm.h.rpc("sched.resource-status", Json.object());
    FluxHandle user = fx.user(2000);
    CompletableFuture<Message> ok =
        user.rpc(
            "feasibility.check",
            Json.object().set("jobspec", SchedulerFacingJobManager.nodes(4, 1, 4)));
    CompletableFuture<Message> overflow =
        user.rpc(
            "feasibility.check",
            Json.object().set("jobspec", SchedulerFacingJobManager.nodes(5, 1, 4)));
    CompletableFuture<Message> invalid =
        user.rpc(
            "feasibility.check", Json.object().set("jobspec", Json.object().put("version", 1)));
    fx.settle();
    assertThat(r(a1).summary()).isEqualTo("rank0/core[0-3] rank1/core[0-1]");
    assertThat(SchedFixture.answer(status).get("allocated")).isNotNull();
    assertThat(SchedFixture.answer(ok).toString()).isEqualTo("{}");
    assertThat(SchedFixture.error(overflow).errnum()).isEqualTo(75);
    assertThat(SchedFixture.error(invalid).errnum()).isEqualTo(22);
    fx.checkInvariants();
    check("queries", fx.transcript());
  }

  @Test
  void attached_acquireHelloFromKvsCommitBeforeAnswer_golden() throws IOException {
    ManualEventLoop loop = new ManualEventLoop();
    int[] next = {1};
    Hub hub = new Hub(loop, () -> "peer-" + next[0]++);
    FluxHandle schedHandle = hub.attach(Credentials.owner(SchedFixture.OWNER));
    StringWriter out = new StringWriter();
    TranscriptRecorder recorder = new TranscriptRecorder(out, loop.clock(Instant.EPOCH));
    schedHandle.tap(recorder);
    SchedulerFacingJobManager jm =
        new SchedulerFacingJobManager(hub.attach(Credentials.owner(SchedFixture.OWNER)));
    CompletableFuture<Void> reg = jm.register();

    ResourceSet pool = SchedReplayProvider.POOL;
    ResourceSet grown = pool.copyRanks(IdSet.of(0, 2)).withNslots(2).withTimes(10, 0);
    Map<String, String> kvs = new HashMap<>();
    kvs.put("job.0000.0000.0000.0001.R", grown.toString());
    List<String> order = new ArrayList<>();
    FluxHandle instance = hub.attach(Credentials.owner(SchedFixture.OWNER));
    CompletableFuture<Void> reg2 =
        instance.register(
            Service.builder("resource")
                .onStreaming(
                    "acquire",
                    req -> {
                      ObjectNode p = Json.object();
                      p.set("resources", pool.toJson());
                      p.put("up", "0-3");
                      req.respond(p);
                    })
                .build());
    CompletableFuture<Void> reg3 =
        instance.register(
            FakeKvs.service(
                kvs,
                (method, key) -> {
                  if (method.equals("commit")) {
                    order.add("commit " + key);
                  }
                }));
    loop.runPending();
    reg.join();
    reg2.join();
    reg3.join();
    jm.runningJob(1, null);

    SchedService svc = SchedService.attached().clock(() -> 1000 + loop.nanoTime() / 1e9).build();
    CompletableFuture<Void> started = svc.start(schedHandle);
    loop.runPending();
    assertThat(started).isCompleted();
    assertThat(jm.readies).hasSize(1);

    CompletableFuture<Message> a2 =
        jm.alloc(2, SchedulerFacingJobManager.nodes(1, 1, 4))
            .whenComplete((m, e) -> order.add("answer 2"));
    loop.runPending();
    assertThat(order).containsExactly("commit job.0000.0000.0000.0002.R", "answer 2");
    assertThat(r(a2).summary()).isEqualTo("rank1/core[0-3]");
    // the rebuilt job holds its grown rank: a shrink naming it is granted
    CompletableFuture<Message> shrink =
        jm.realloc(1, null, SchedulerFacingJobManager.nodes(1, 1, 4), grown.copyRanks(IdSet.of(2)));
    loop.runPending();
    assertThat(SchedFixture.answer(shrink).get("type").asInt()).isZero();
    jm.free(1, grown.copyRanks(IdSet.of(2)), false);
    jm.free(2, r(a2), true);
    CompletableFuture<Message> status = jm.h.rpc("sched.resource-status", Json.object());
    loop.runPending();
    assertThat(ResourceSet.fromJson(SchedFixture.answer(status).get("allocated")).summary())
        .isEqualTo("rank0/core[0-3]");
    svc.core().pool().checkInvariants();
    recorder.flush();
    check("attached", out.toString());
  }
}
