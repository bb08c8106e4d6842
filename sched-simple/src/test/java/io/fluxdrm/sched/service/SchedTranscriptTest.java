package io.fluxdrm.sched.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.transcript.Normalisation;
import io.fluxdrm.rpc.transcript.Replay;
import io.fluxdrm.rpc.transcript.ReplayAssertions;
import io.fluxdrm.rpc.transcript.ReplayRegistry;
import io.fluxdrm.rpc.transcript.ReplayResult;
import io.fluxdrm.rpc.transcript.Transcript;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.SchedulerOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Golden transcripts of the scheduler's endpoint (src/test/resources/.../transcripts): each
 * scenario is recorded afresh and both the fresh recording and the golden file are replayed against
 * a new scheduler from the {@link SchedReplayProvider}; {@code -Dgolden.update=true} rewrites the
 * golden files from the recording.
 */
@Timeout(20)
class SchedTranscriptTest {
  private static final Path DIR =
      Path.of("src/test/resources/io/fluxdrm/sched/service/transcripts");
  private static final SchedReplayProvider PROVIDER = new SchedReplayProvider();

  private SchedFixture fx;
  private SchedulerFacingJobManager jm;

  @AfterEach
  void invariants() {
    if (fx != null) {
      fx.checkInvariants();
    }
  }

  private void start() {
    assertThat(SchedReplayProvider.POOL.summary()).isEqualTo("rank[0-3]/core[0-3]");
    fx = new SchedFixture(SchedReplayProvider.POOL, SchedulerOptions.defaults()).recording();
    jm = fx.jobManager();
    fx.start();
  }

  private ResourceSet r(CompletableFuture<Message> f) {
    return ResourceSet.fromJson(f.join().json().get("R"));
  }

  /** The golden file {@code file}: recorded only with {@code -Dgolden.update=true}. */
  static Path goldenFile(Path file, String recorded) {
    return ReplayAssertions.golden(
        file, recorded, "mvn -pl sched-simple test -Dtest=SchedTranscriptTest");
  }

  @Test
  void aMissingGolden_failsNamingTheCommandThatRecordsIt(@org.junit.jupiter.api.io.TempDir Path t) {
    org.junit.jupiter.api.Assumptions.assumeFalse(
        Boolean.getBoolean("golden.update"),
        "recording goldens: a missing one is written, as asked");
    Path gone = t.resolve("rfc27-flow.jsonl");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> goldenFile(gone, "{}"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("is missing")
        .hasMessageContaining("-Dtest=SchedTranscriptTest -Dgolden.update=true");
    assertThat(gone).doesNotExist();
  }

  private void golden(String name) throws IOException {
    String recorded = fx.transcript();
    Path golden = goldenFile(DIR.resolve(name + ".jsonl"), recorded);
    List<Normalisation> norm = PROVIDER.normalisations();
    Path fresh = Files.createTempFile("sched-" + name, ".jsonl");
    try {
      Files.writeString(fresh, recorded);
      ReplayResult own = Replay.run(Transcript.read(fresh), PROVIDER.factory(), norm);
      assertThat(own.same()).as("fresh recording replays:\n%s", own.unifiedDiff()).isTrue();
    } finally {
      Files.delete(fresh);
    }
    ReplayResult r =
        ReplayAssertions.assertReplays(
            golden, PROVIDER.factory(), norm.toArray(Normalisation[]::new));
    assertThat(r.responses()).isPositive();
    ReplayResult viaRegistry = ReplayRegistry.load().run("sched", golden);
    assertThat(viaRegistry.same()).isTrue();
  }

  @Test
  void rfc27Flow_allocCancelFreePrioritizeExpirationDeny_replays() throws IOException {
    start();
    List<CompletableFuture<Message>> a = new ArrayList<>();
    for (int id = 1; id <= 5; id++) {
      a.add(jm.alloc(id, SchedulerFacingJobManager.nodes(1, 1, 4)));
    }
    fx.settle();
    jm.cancel(5);
    jm.alloc(6, SchedulerFacingJobManager.slots(1, 1, 30.0));
    jm.alloc(7, 20, SchedulerFacingJobManager.slots(1, 2, 0));
    fx.settle();
    jm.prioritize(6, 100);
    fx.settle();
    jm.free(2, r(a.get(1)), true);
    fx.settle();
    jm.h.rpc("sched.expiration", Json.object().put("id", 1).put("expiration", 4000.0));
    jm.alloc(8, SchedulerFacingJobManager.slots(1, 5, 0));
    fx.settle();
    ResourceSet r1 = r(a.get(0));
    jm.free(1, r1, true);
    fx.settle();
    ObjectNode noSystem = SchedulerFacingJobManager.slots(1, 1, 0);
    noSystem.putObject("attributes");
    jm.alloc(9, noSystem);
    fx.settle();
    golden("rfc27-flow");
  }

  @Test
  void rfc51Cases_growShrinkCancel_replays() throws IOException {
    start();
    CompletableFuture<Message> a1 = jm.alloc(1, SchedulerFacingJobManager.nodes(1, 1, 4));
    CompletableFuture<Message> a2 = jm.alloc(2, SchedulerFacingJobManager.nodes(2, 1, 4));
    fx.settle();
    // grow granted
    jm.realloc(1, SchedulerFacingJobManager.nodes(1, 1, 4), null, null);
    fx.settle();
    // shrink of job 2 with R naming one of its nodes: granted, the node stays allocated (D7)
    ResourceSet held2 = r(a2);
    ResourceSet one = held2.copyRanks(IdSet.of(held2.ranks().last()));
    CompletableFuture<Message> sub =
        jm.realloc(2, null, SchedulerFacingJobManager.nodes(1, 1, 4), one);
    fx.settle();
    assertThat(sub.join().json().path("type").asInt()).as("%s", sub.join().json()).isZero();
    // a grow that waits until the shrunk node is freed
    CompletableFuture<Message> wait =
        jm.realloc(1, SchedulerFacingJobManager.nodes(1, 1, 4), null, null);
    fx.settle();
    assertThat(wait).isNotDone();
    jm.free(2, one, false);
    fx.settle();
    assertThat(wait).isDone();
    // a grow never possible
    jm.realloc(1, SchedulerFacingJobManager.nodes(9, 1, 4), null, null);
    // shrink without R; shrink of a node job 2 does not hold
    jm.realloc(
        2,
        null,
        SchedulerFacingJobManager.nodes(1, 1, 4),
        SchedReplayProvider.POOL.copyRanks(IdSet.of(0)));
    fx.settle();
    // a pending grow canceled
    CompletableFuture<Message> pending =
        jm.realloc(2, SchedulerFacingJobManager.nodes(1, 1, 4), null, null);
    fx.settle();
    assertThat(pending).isNotDone();
    jm.h.send("sched.realloc_cancel", Json.object().put("matchtag", 1));
    fx.settle();
    assertThat(pending).isDone();
    assertThat(a1).isDone();
    golden("rfc51-cases");
  }

  @Test
  void badRequests_errnoAndText_replays() throws IOException {
    start();
    jm.alloc(1, SchedulerFacingJobManager.slots(1, 1, 0));
    fx.settle();
    jm.alloc(1, SchedulerFacingJobManager.slots(1, 1, 0));
    jm.h.rpc("sched.alloc", Json.object().put("id", 2));
    jm.h.rpc("sched.alloc", Json.object().put("id", "x").put("priority", 1));
    jm.h.rpc("sched.realloc", Json.object().put("job_id", 1));
    jm.realloc(99, SchedulerFacingJobManager.slots(1, 1, 0), null, null);
    jm.h.rpc("sched.expiration", Json.object().put("id", 1).put("expiration", -5));
    jm.h.rpc("sched.nosuch", Json.object());
    fx.settle();
    ObjectNode p = Json.object().put("job_id", 1);
    p.set("spec_add", SchedulerFacingJobManager.slots(1, 1, 0));
    fx.user(2000).rpc("sched.realloc", p);
    ObjectNode alloc = Json.object().put("id", 3).put("priority", 1).put("userid", 2000);
    alloc.set("jobspec", SchedulerFacingJobManager.slots(1, 1, 0));
    fx.user(2000).rpc("sched.alloc", alloc);
    fx.settle();
    golden("bad-requests");
  }
}
