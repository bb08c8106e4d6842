package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.transcript.Transcript;
import io.fluxdrm.rpc.transcript.TranscriptLine;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30, scope 1: {@code fluxdrm sched --transcript FILE} records what crosses the scheduler's
 * endpoint; the transcript of a server stopped cleanly, and of one killed with SIGKILL in the
 * middle of its work, replays clean with {@code fluxdrm replay FILE --service sched} (the replay
 * pool is the one recorded here: node[0-3], cores 0-3), and a changed answer in it is reported as a
 * diff with exit status 1.
 */
@Timeout(180)
class SchedTranscriptRecordingIT {
  @TempDir Path dir;

  private SchedProcess start(Path hub, Path transcript) throws Exception {
    return SchedProcess.start(
        dir,
        "sched",
        "--listen",
        "unix:" + hub,
        "--hosts",
        "node[0-3]",
        "--cores",
        "0-3",
        "--transcript",
        transcript.toString());
  }

  /**
   * Jobs, a grow, a shrink, a free and a job that waits: what the scheduler answers is recorded.
   */
  private static void workload(Reactor reactor, Path hub) throws Exception {
    try (ItJobManager jm =
        new ItJobManager(
            FluxHandle.connect(reactor, "local://" + hub.resolve("local"), Duration.ofSeconds(60)),
            List.of())) {
      jm.awaitReady();
      Message a1 = jm.call("sched.alloc", ItJobManager.alloc(1, Jobspecs.nodes(1, 4, false)));
      Message a2 = jm.call("sched.alloc", ItJobManager.alloc(2, Jobspecs.nodes(2, 4, false)));
      ObjectNode grow = Json.object().put("job_id", 1);
      grow.set("spec_add", Jobspecs.nodes(1, 4, false));
      Message g = jm.call("sched.realloc", grow);
      assertThat(g.json().path("type").asInt()).isZero();
      ObjectNode shrink = Json.object().put("job_id", 1);
      shrink.set("spec_sub", Jobspecs.nodes(1, 4, false));
      shrink.set("R", g.json().get("R_delta_add"));
      assertThat(jm.call("sched.realloc", shrink).json().path("type").asInt()).isZero();
      ObjectNode back = Json.object().put("id", 1).put("final", false);
      back.set("R", g.json().get("R_delta_add"));
      jm.h.send("sched.free", back);
      ObjectNode free = Json.object().put("id", 2).put("final", true);
      free.set("R", a2.json().get("R"));
      jm.h.send("sched.free", free);
      jm.awaitAllocated(io.fluxdrm.rset.ResourceSet.fromJson(a1.json().get("R")).summary());
    }
  }

  private static int replay(Path transcript, StringBuilder out, String... more) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    List<String> args =
        new java.util.ArrayList<>(List.of("replay", transcript.toString(), "--service", "sched"));
    args.addAll(List.of(more));
    int rc =
        Main.run(
            args.toArray(String[]::new),
            new ByteArrayInputStream(new byte[0]),
            new PrintStream(o, true, StandardCharsets.UTF_8),
            new PrintStream(e, true, StandardCharsets.UTF_8));
    out.append(o.toString(StandardCharsets.UTF_8)).append(e.toString(StandardCharsets.UTF_8));
    return rc;
  }

  private static long responses(Path transcript) {
    return Transcript.read(transcript).stream()
        .map(TranscriptLine::message)
        .filter(m -> m.type() == io.fluxdrm.rpc.MessageType.RESPONSE)
        .filter(m -> "sched".equals(m.service()))
        .count();
  }

  @Test
  void killedWithSigkillWhileRecording_transcriptReplaysCleanUpToItsLastLine() throws Exception {
    Path hub = dir.resolve("hub");
    Path t = dir.resolve("sched.jsonl");
    try (SchedProcess p = start(hub, t);
        Reactor reactor = Reactor.start("transcript-it")) {
      p.awaitLog("recording a transcript to ");
      p.awaitLog("listening on ");
      workload(reactor, hub);
      assertThat(p.kill()).isEqualTo(137);
    }
    assertThat(responses(t)).as("the scheduler's answers are in the transcript").isGreaterThan(3);
    StringBuilder out = new StringBuilder();
    assertThat(replay(t, out)).as(out.toString()).isZero();
    assertThat(out.toString()).containsPattern("replay: (\\d+) of \\1 responses matched");
  }

  @Test
  void stoppedCleanly_transcriptReplaysClean_andAChangedAnswerIsADiffWithExit1() throws Exception {
    Path hub = dir.resolve("hub");
    Path t = dir.resolve("sched.jsonl");
    try (SchedProcess p = start(hub, t);
        Reactor reactor = Reactor.start("transcript-it")) {
      p.awaitLog("listening on ");
      workload(reactor, hub);
      assertThat(p.terminate()).isEqualTo(SchedTcpIT.EXIT_SIGTERM);
      assertThat(p.stderr()).containsPattern("transcript .*sched.jsonl: \\d+ line\\(s\\)");
    }
    StringBuilder out = new StringBuilder();
    assertThat(replay(t, out)).as(out.toString()).isZero();

    // the recorded grow answered one node more than the scheduler answers: a diff, exit 1
    StringBuilder diff = new StringBuilder();
    assertThat(replay(changed(t), diff)).as(diff.toString()).isEqualTo(1);
    assertThat(diff.toString()).contains("0-2");
  }

  /**
   * Issue 30, scope 2: the transcript replays against a scheduler already running in its own
   * process ({@code --uri}), the replayer answering the scheduler's hello and ready as the job
   * manager recorded them; a changed answer is a diff with exit 1.
   */
  @Test
  void replayAgainstARunningScheduler_withUri_clean_andAChangedAnswerIsADiff() throws Exception {
    Path t = dir.resolve("sched.jsonl");
    try (SchedProcess p = start(dir.resolve("hub"), t);
        Reactor reactor = Reactor.start("transcript-it")) {
      p.awaitLog("listening on ");
      workload(reactor, dir.resolve("hub"));
      assertThat(p.terminate()).isEqualTo(SchedTcpIT.EXIT_SIGTERM);
    }
    try (SchedProcess fresh = startFresh("fresh", dir.resolve("hub2"))) {
      StringBuilder out = new StringBuilder();
      assertThat(replay(t, out, "--uri", "unix:" + dir.resolve("hub2")))
          .as(out.toString())
          .isZero();
      assertThat(out.toString()).containsPattern("replay: (\\d+) of \\1 responses matched");
      assertThat(fresh.isAlive()).as("the scheduler replayed against still serves").isTrue();
    }
    try (SchedProcess fresh = startFresh("fresh2", dir.resolve("hub3"))) {
      StringBuilder diff = new StringBuilder();
      assertThat(replay(changed(t), diff, "--uri", "unix:" + dir.resolve("hub3")))
          .as(diff.toString())
          .isEqualTo(1);
      assertThat(diff.toString()).contains("0-2");
      assertThat(fresh.isAlive()).as("the scheduler replayed against still serves").isTrue();
    }
  }

  /** A scheduler on the replay pool, no transcript, serving once it says so. */
  private SchedProcess startFresh(String name, Path hub) throws Exception {
    SchedProcess p =
        SchedProcess.start(
            dir, name, "--listen", "unix:" + hub, "--hosts", "node[0-3]", "--cores", "0-3");
    p.awaitLog("listening on ");
    return p;
  }

  /**
   * A copy of the transcript whose last recorded grow answer gives core 0-2 where the scheduler
   * gives 0-3.
   */
  private Path changed(Path t) throws Exception {
    List<String> lines = Files.readAllLines(t, StandardCharsets.UTF_8);
    int at = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains("R_delta_add")) {
        at = i;
      }
    }
    assertThat(at).as("a recorded answer with R_delta_add").isNotNegative();
    lines.set(at, lines.get(at).replace("core\":\"0-3\"", "core\":\"0-2\""));
    Path changed = dir.resolve("changed.jsonl");
    Files.write(changed, lines, StandardCharsets.UTF_8);
    return changed;
  }

  @Test
  void transcriptInAMissingDirectory_failsAtOnceWithOneLine() throws Exception {
    Path t = dir.resolve("no-such-dir").resolve("t.jsonl");
    try (SchedProcess p = start(dir.resolve("hub"), t)) {
      assertThat(p.awaitExit()).isEqualTo(1);
      assertThat(p.stderr().strip())
          .startsWith("fluxdrm sched: --transcript ")
          .contains("cannot write (no directory no-such-dir)")
          .doesNotContain("Exception");
      assertThat(dir.resolve("no-such-dir")).doesNotExist();
      assertThat(dir.resolve("hub")).doesNotExist();
    }
  }
}
