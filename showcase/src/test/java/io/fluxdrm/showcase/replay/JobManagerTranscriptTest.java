package io.fluxdrm.showcase.replay;

import static io.fluxdrm.jobmanager.JmFixture.nodes;
import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.jobmanager.JmFixture;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.reactor.ManualEventLoop;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rpc.transcript.Normalisation;
import io.fluxdrm.rpc.transcript.Replay;
import io.fluxdrm.rpc.transcript.ReplayAssertions;
import io.fluxdrm.rpc.transcript.ReplayRegistry;
import io.fluxdrm.rpc.transcript.ReplayResult;
import io.fluxdrm.rpc.transcript.Transcript;
import io.fluxdrm.rpc.transcript.TranscriptRecorder;
import io.fluxdrm.rset.IdSet;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The golden transcript of the job manager's endpoint: shells of two users grow, fail, cancel,
 * shrink and release against the {@link JobManagerReplayProvider}'s world; the fresh recording and
 * the golden file both replay against a new world, also through {@code fluxdrm replay}'s registry.
 * {@code -Dgolden.update=true} rewrites the golden file.
 */
@Timeout(20)
class JobManagerTranscriptTest {
  private static final Path GOLDEN =
      Path.of("src/test/resources/io/fluxdrm/showcase/replay/transcripts/rfc51-mediation.jsonl");

  private final ManualEventLoop loop = new ManualEventLoop();
  private int nextPeer = 1;
  private final Hub front = new Hub(loop, () -> "shell-" + nextPeer++);

  private void settle() {
    loop.advance(Duration.ofMillis(500));
    loop.runPending();
  }

  /** The golden file {@code file}: recorded only with {@code -Dgolden.update=true}. */
  static Path goldenFile(Path file, String recorded) {
    return ReplayAssertions.golden(
        file, recorded, "mvn -pl cli test -Dtest=JobManagerTranscriptTest");
  }

  @Test
  void aMissingGolden_failsNamingTheCommandThatRecordsIt(@org.junit.jupiter.api.io.TempDir Path t) {
    org.junit.jupiter.api.Assumptions.assumeFalse(
        Boolean.getBoolean("golden.update"),
        "recording goldens: a missing one is written, as asked");
    Path gone = t.resolve("job-manager.jsonl");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> goldenFile(gone, "{}"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("is missing")
        .hasMessageContaining("-Dtest=JobManagerTranscriptTest -Dgolden.update=true");
    assertThat(gone).doesNotExist();
  }

  @Test
  void mediation_recordedScenario_replaysAgainstFreshWorld() throws Exception {
    Service svc = JobManagerReplayProvider.world(loop);
    FluxHandle server = front.attach(Credentials.owner(JobManagerReplayProvider.OWNER));
    StringWriter out = new StringWriter();
    Clock clock = loop.clock(Instant.parse("2026-11-29T00:00:00Z"));
    TranscriptRecorder recorder = new TranscriptRecorder(out, clock);
    server.tap(recorder);
    CompletableFuture<Void> reg = server.register(svc);
    settle();
    assertThat(reg).isCompleted();
    long a = JobManagerReplayProvider.JOB_A;
    long b = JobManagerReplayProvider.JOB_B;
    FluxHandle alice = front.attach(Credentials.user(JobManagerReplayProvider.UID_A));
    FluxHandle bob = front.attach(Credentials.user(JobManagerReplayProvider.UID_B));

    CompletableFuture<Message> grow = JmFixture.realloc(alice, a, nodes(1), null, null);
    settle();
    assertThat(JmFixture.answer(grow).get("type").asInt()).isZero();
    CompletableFuture<Message> notHis = JmFixture.realloc(bob, a, nodes(1), null, null);
    settle();
    assertThat(JmFixture.error(notHis).getMessage()).contains("may not act on job 1");
    CompletableFuture<Message> waits = JmFixture.realloc(bob, b, nodes(2), null, null);
    settle();
    assertThat(waits).isNotDone();
    // matchtags are reused smallest first: the waiting grow has 1 again
    bob.send("job-manager.realloc_cancel", Json.object().put("matchtag", 1));
    settle();
    assertThat(JmFixture.answer(waits).get("type").asInt()).isEqualTo(2);
    CompletableFuture<Message> shrink = JmFixture.realloc(alice, a, null, nodes(1), null);
    settle();
    assertThat(JmFixture.answer(shrink).get("R_delta_sub")).isNotNull();
    CompletableFuture<Message> rel = JmFixture.release(alice, a, IdSet.of(2));
    settle();
    assertThat(JmFixture.answer(rel).get("R")).isNotNull();
    CompletableFuture<Message> grow2 = JmFixture.realloc(bob, b, nodes(2), null, null);
    settle();
    assertThat(JmFixture.answer(grow2).get("type").asInt()).isZero();
    CompletableFuture<Message> unknown = JmFixture.realloc(alice, 99, nodes(1), null, null);
    CompletableFuture<Message> bad = alice.rpc("job-manager.realloc", Json.object().put("id", a));
    settle();
    assertThat(JmFixture.error(unknown).errnum()).isEqualTo(2);
    assertThat(JmFixture.error(bad).errnum()).isEqualTo(71);
    recorder.flush();
    String recorded = out.toString();

    goldenFile(GOLDEN, recorded);
    JobManagerReplayProvider provider = new JobManagerReplayProvider();
    List<Normalisation> norm = provider.normalisations();
    Path fresh = Files.createTempFile("job-manager", ".jsonl");
    try {
      Files.writeString(fresh, recorded);
      ReplayResult own = Replay.run(Transcript.read(fresh), provider.factory(), norm);
      assertThat(own.same()).as("fresh recording replays:\n%s", own.unifiedDiff()).isTrue();
      assertThat(own.responses()).isEqualTo(8);
    } finally {
      Files.delete(fresh);
    }
    ReplayAssertions.assertReplays(GOLDEN, provider.factory(), norm.toArray(Normalisation[]::new));
    ReplayResult viaRegistry = ReplayRegistry.load().run("job-manager", GOLDEN);
    assertThat(viaRegistry.same()).as(viaRegistry.unifiedDiff()).isTrue();
  }
}
