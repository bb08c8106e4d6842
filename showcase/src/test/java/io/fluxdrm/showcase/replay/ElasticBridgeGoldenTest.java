package io.fluxdrm.showcase.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.dvm.wire.HubDvmPort;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.SpawnResult;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.reactor.ManualEventLoop;
import io.fluxdrm.rpc.transcript.Replay;
import io.fluxdrm.rpc.transcript.ReplayAssertions;
import io.fluxdrm.rpc.transcript.ReplayResult;
import io.fluxdrm.rpc.transcript.Transcript;
import io.fluxdrm.rpc.transcript.TranscriptRecorder;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Golden transcripts of the elastic bridge's scenarios, recorded at the DVM's {@code dvm} service
 * in {@link DvmReplayProvider}'s world (a tool of user 1000 asking; the bridge and sched-simple
 * behind), under {@code src/test/resources/io/fluxdrm/showcase/elastic}: a missing file (or {@code
 * -Dgolden.update=true}) is written from the fresh recording; then both replay against a fresh
 * world with the same answers and events, as {@code fluxdrm replay --service dvm} replays them.
 */
class ElasticBridgeGoldenTest {
  static final Path DIR = Path.of("src/test/resources/io/fluxdrm/showcase/elastic");

  /** A recording session: the world, a tool's port over its hub, the events the tool got. */
  private static final class Session {
    final ManualEventLoop loop = new ManualEventLoop();
    final DvmReplayProvider.World w = DvmReplayProvider.world(loop);
    final StringWriter out = new StringWriter();
    final TranscriptRecorder rec =
        new TranscriptRecorder(out, loop.clock(Instant.parse("2026-12-01T00:00:00Z")));
    final HubDvmPort tool;
    final List<String> events = new ArrayList<>();

    Session() {
      w.frontHandle.tap(rec);
      CompletableFuture<Void> up = w.front.start();
      loop.runPending();
      assertThat(up).isCompleted();
      tool =
          new HubDvmPort(
              w.hub.attach(Credentials.user(JobManagerReplayProvider.UID_A)),
              Duration.ofSeconds(30));
      CompletableFuture<?> reg =
          tool.registerEvents(
                  List.of(PmixStatus.PMIX_DVM_IS_READY.code(), PmixStatus.PMIX_ERR_DVM_MOD.code()),
                  e -> events.add(PmixStatus.byCode(e.status()).orElseThrow().name()))
              .toCompletableFuture();
      loop.runPending();
      assertThat(reg).isCompleted();
    }

    StatusInfos ask(AllocDirective d, Info... infos) {
      CompletableFuture<StatusInfos> f = tool.allocationRequestRaw(d, List.of(infos));
      loop.runPending();
      assertThat(f).isCompleted();
      return f.join();
    }

    void advance(Duration d) {
      loop.advance(d);
      loop.runPending();
    }

    String transcript() {
      rec.flush();
      w.dvm.checkInvariants();
      assertThat(w.dvm.invariantViolations()).isZero();
      return out.toString();
    }
  }

  private static void golden(String name, String recorded) {
    golden(DIR.resolve(name + ".jsonl"), name, recorded);
  }

  private static void golden(Path golden, String name, String recorded) {
    ReplayAssertions.golden(golden, recorded, "mvn -pl cli test -Dtest=ElasticBridgeGoldenTest");
    DvmReplayProvider p = new DvmReplayProvider();
    ReplayResult fresh =
        Replay.run(
            Transcript.parse(recorded.lines().toList(), name), p.factory(), p.normalisations());
    assertThat(fresh.same())
        .as("%s: fresh recording replays:\n%s", name, fresh.unifiedDiff())
        .isTrue();
    assertThat(fresh.requests()).as("%s: requests", name).isPositive();
    ReplayResult g = Replay.run(Transcript.read(golden), p.factory(), p.normalisations());
    assertThat(g.same()).as("%s: golden replays:\n%s", name, g.unifiedDiff()).isTrue();
    assertThat(g.responses()).isEqualTo(fresh.responses());
  }

  private static String info(StatusInfos a, String key) {
    return a.infos().stream()
        .filter(i -> i.key().equals(key))
        .map(i -> String.valueOf(i.value()))
        .findFirst()
        .orElseThrow(() -> new AssertionError(key + " not in " + a.infos()));
  }

  @Test
  void aMissingGolden_failsNamingTheCommandThatRecordsIt(@org.junit.jupiter.api.io.TempDir Path t) {
    org.junit.jupiter.api.Assumptions.assumeFalse(
        Boolean.getBoolean("golden.update"),
        "recording goldens: a missing one is written, as asked");
    Path gone = t.resolve("grow-d2.jsonl");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> golden(gone, "grow-d2", "{}"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("is missing")
        .hasMessageContaining("-Dtest=ElasticBridgeGoldenTest -Dgolden.update=true");
    assertThat(gone).doesNotExist();
  }

  @Test
  void grow_d2_golden() {
    Session s = new Session();
    StatusInfos a =
        s.ask(
            AllocDirective.NEW,
            Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, 1L),
            Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "g"));
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(info(a, PmixKey.PMIX_ALLOC_NODE_LIST)).isEqualTo("node2:4");
    assertThat(s.events).isEmpty();
    s.advance(DvmReplayProvider.LATENCY);
    assertThat(s.events).containsExactly("PMIX_DVM_IS_READY");
    golden("grow-d2", s.transcript());
  }

  @Test
  void growFails_d16_golden() {
    Session s = new Session();
    StatusInfos a =
        s.ask(
            AllocDirective.NEW,
            Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, 2L),
            Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "bad"));
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    s.advance(DvmReplayProvider.LATENCY);
    s.advance(DvmReplayProvider.LATENCY);
    assertThat(s.events).containsExactly("PMIX_ERR_DVM_MOD");
    assertThat(s.w.jm.jobR(JobManagerReplayProvider.JOB_A).orElseThrow().summary())
        .isEqualTo("rank0/core[0-3]");
    golden("grow-fails-d16", s.transcript());
  }

  @Test
  void shrink_b11_golden() {
    Session s = new Session();
    s.ask(AllocDirective.NEW, Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, 1L));
    s.advance(DvmReplayProvider.LATENCY);
    StatusInfos r =
        s.ask(
            AllocDirective.RELEASE,
            Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "node2"),
            Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "r"));
    assertThat(r.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    // leaving: still the job's in Flux
    assertThat(s.w.jm.jobR(JobManagerReplayProvider.JOB_A).orElseThrow().summary())
        .isEqualTo("rank[0,2]/core[0-3]");
    s.advance(DvmReplayProvider.LATENCY);
    assertThat(s.events).containsExactly("PMIX_DVM_IS_READY", "PMIX_DVM_IS_READY");
    assertThat(s.w.jm.jobR(JobManagerReplayProvider.JOB_A).orElseThrow().summary())
        .isEqualTo("rank0/core[0-3]");
    golden("shrink-b11", s.transcript());
  }

  @Test
  void jobDuringGrow_d13_golden() {
    Session s = new Session();
    StatusInfos a =
        s.ask(
            AllocDirective.NEW,
            Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, 1L),
            Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "g"));
    String id = info(a, PmixKey.PMIX_ALLOC_ID);
    CompletableFuture<SpawnResult> spawn =
        s.tool
            .spawn(
                List.of(new App("/bin/true", List.of("/bin/true"), 4, List.of())),
                List.of(Info.of(PmixKey.PMIX_ALLOC_ID, id)))
            .toCompletableFuture();
    s.loop.runPending();
    assertThat(spawn).isNotDone();
    s.advance(DvmReplayProvider.LATENCY);
    assertThat(spawn).isCompleted();
    assertThat(spawn.join().status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(s.w.dvm.view().jobs().get(0).procsPerNode()).containsOnlyKeys("node2");
    golden("job-during-grow-d13", s.transcript());
  }

  @Test
  void denied_golden() {
    Session s = new Session();
    StatusInfos a = s.ask(AllocDirective.NEW, Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, 4L));
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_ERR_OUT_OF_RESOURCE);
    s.advance(DvmReplayProvider.LATENCY);
    assertThat(s.events).isEmpty();
    assertThat(s.w.dvm.view().sessions()).isEmpty();
    golden("grow-denied", s.transcript());
  }

  /** A golden whose event was changed does not replay: the diff shows it. */
  @Test
  void editedGolden_replayShowsTheDifference() {
    Session s = new Session();
    s.ask(
        AllocDirective.NEW,
        Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, 1L),
        Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "g"));
    s.advance(DvmReplayProvider.LATENCY);
    String t = s.transcript();
    String edited = t.replace("\"status\":-195", "\"status\":-196");
    assertThat(edited).isNotEqualTo(t);
    DvmReplayProvider p = new DvmReplayProvider();
    ReplayResult r =
        Replay.run(
            Transcript.parse(edited.lines().toList(), "edited"), p.factory(), p.normalisations());
    assertThat(r.same()).isFalse();
    assertThat(r.unifiedDiff()).contains("-196");
  }
}
