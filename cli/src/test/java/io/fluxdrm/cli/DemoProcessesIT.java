package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fluxdrm.showcase.demo.Demo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fluxdrm demo --processes} as a user runs it: the scheduler, the job manager and the DVM
 * are processes of their own ({@code fluxdrm sched}, {@code bridge}, {@code dvm}), the demo drives
 * them, every step's answer is asserted from its {@code --json} line, and no process is left once
 * the demo exits. With {@code --crash} the scheduler is killed (SIGKILL) after the second job's
 * grow and started again, and no allocation is lost (its state directory and the job manager's RFC
 * 27 hello); the DVM is killed while a grow's daemon starts, and the bridge hands the grant back
 * (D377). The daemons start slowly ({@code --speed 0.2}: 1.25 s) so that the story's windows (a job
 * held during a grow, a kill before the daemon is up) hold on a loaded machine; nothing here
 * sleeps, every wait is on a process's exit.
 */
@Timeout(300)
class DemoProcessesIT {
  @TempDir Path dir;

  record Run(int status, Map<String, JsonNode> steps, List<String> order, String err) {}

  private Run demo(String... more) throws Exception {
    Path state = dir.resolve("state");
    List<String> cmd =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "demo",
                "--processes",
                "--json",
                "--speed",
                "0.2",
                "--state-dir",
                state.toString(),
                "--transcript",
                dir.resolve("t.jsonl").toString(),
                "--dvm-transcript",
                dir.resolve("d.jsonl").toString(),
                "--picture",
                dir.resolve("p.svg").toString()));
    cmd.addAll(List.of(more));
    Process p =
        new ProcessBuilder(cmd)
            .redirectOutput(dir.resolve("demo.out").toFile())
            .redirectError(dir.resolve("demo.err").toFile())
            .start();
    p.getOutputStream().close();
    assertThat(p.waitFor(240, TimeUnit.SECONDS)).as("the demo ends").isTrue();
    String err = Files.readString(dir.resolve("demo.err"), StandardCharsets.UTF_8);
    Map<String, JsonNode> steps = new LinkedHashMap<>();
    for (String l : Files.readAllLines(dir.resolve("demo.out"), StandardCharsets.UTF_8)) {
      JsonNode o = CliRun.json(l);
      steps.put(o.get("step").asText(), o);
    }
    // no part of the demo outlives it
    List<String> left =
        ProcessHandle.allProcesses()
            .filter(ProcessHandle::isAlive)
            .map(h -> h.info().commandLine().orElse(""))
            .filter(c -> c.contains(state.toString()))
            .toList();
    assertThat(left).as("processes left behind").isEmpty();
    return new Run(p.exitValue(), steps, new ArrayList<>(steps.keySet()), err);
  }

  private static void assertEveryStepAsTold(Run r) {
    for (JsonNode s : r.steps().values()) {
      assertThat(s.get("outcome").asText())
          .as("step %s: %s", s.get("step").asText(), s)
          .isEqualTo(s.get("expected").asText());
      assertThat(s.get("ok").asBoolean()).isTrue();
    }
    assertThat(r.err()).doesNotContain("\tat ").doesNotContain("Exception");
  }

  @Test
  void demoProcesses_everyStepAnswersAsTold_noProcessLeft() throws Exception {
    Run r = demo();
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.order()).isEqualTo(Demo.STEPS);
    assertEveryStepAsTold(r);
    Map<String, JsonNode> s = r.steps();
    assertThat(s.get("a-grow").get("outcome").asText()).isEqualTo("PMIX_SUCCESS");
    assertThat(s.get("a-grow").get("detail").asText()).startsWith("node12:32,node13:32 ");
    assertThat(s.get("a-held").get("outcome").asText()).isEqualTo("held");
    assertThat(s.get("a-ready").get("outcome").asText()).isEqualTo("PMIX_DVM_IS_READY");
    assertThat(s.get("a-rollback").get("detail").asText())
        .contains("PMIX_JOB_TERM_STATUS=PMIX_ERR_PROC_FAILED_TO_START");
    assertThat(s.get("a-departed").get("detail").asText()).startsWith("node[12-13] gone");
    assertThat(s.get("b-granted").get("detail").asText())
        .startsWith("node12:32,node13:32,node14:32 ");
    assertThat(s.get("a-deny").get("outcome").asText()).isEqualTo("PMIX_ERR_OUT_OF_RESOURCE");
    assertThat(s.get("s-complete").get("outcome").asText()).isEqualTo("PMIX_SESSION_COMPLETE");
    assertThat(s.get("pool").get("free_nodes").asInt()).isEqualTo(16);
    // the parts logged as themselves
    Path state = dir.resolve("state");
    assertThat(Files.readString(state.resolve("sched.err"))).contains("listening on");
    assertThat(Files.readString(state.resolve("bridge.err"))).contains("serving job-manager");
    assertThat(Files.readString(state.resolve("dvm.err"))).contains("scheduler fluxdrm.tool.");
    // the picture (D447, D460): with the job manager elsewhere, the DVM endpoint's traffic in it
    assertThat(r.err()).contains(" and " + dir.resolve("d.jsonl") + " written to ");
    assertThat(
            io.fluxdrm.showcase.plot.PlotsTest.withClass(
                io.fluxdrm.showcase.plot.PlotsTest.parse(Files.readString(dir.resolve("p.svg"))),
                "polygon",
                "mark grow"))
        .isNotEmpty();
    assertTranscriptsAsSaid(r);
  }

  /**
   * Issue 29, finding 4 (D493): the job shells' transcript is written (it was empty: starting a
   * shell plugin took its connection's tap from the recorder), it replays against the demo's world
   * as the demo says it does, and the picture of both transcripts has both jobs on every node of
   * the pool and counts the story's events: 3 grows of 6 nodes, 2 held, 1 denied, 1 rolled back.
   */
  private void assertTranscriptsAsSaid(Run r) throws Exception {
    Path t = dir.resolve("t.jsonl");
    Path d = dir.resolve("d.jsonl");
    assertThat(Files.size(t)).as("the job shells' transcript").isPositive();
    assertThat(Files.size(d)).as("the DVM's transcript").isPositive();
    String replay = "fluxdrm replay " + t + " --service demo";
    assertThat(r.err())
        .contains(
            "fluxdrm demo: transcripts written to "
                + t
                + " (the job shells' side, replay: "
                + replay
                + ") and "
                + d);
    io.fluxdrm.rpc.transcript.ReplayResult rr =
        io.fluxdrm.rpc.transcript.ReplayRegistry.load().run("demo", t);
    // the two job shells run at once, so where one shell's answer waits on the other's nodes (b's
    // grow onto what a's release frees) the recording's order between them is a race the
    // replay need not repeat: every recorded answer must come back, each once, whatever that order
    assertThat(movedLines(rr.unifiedDiff(), '-'))
        .as(rr.unifiedDiff())
        .containsExactlyInAnyOrderElementsOf(movedLines(rr.unifiedDiff(), '+'));
    // reallocs of a-grow, a-grow-fail, the hand-back, b-grow, a-release and a-deny; two releases
    assertThat(rr.requests()).isEqualTo(8);
    io.fluxdrm.showcase.timeline.Timeline tl = PlotCommand.timeline(t, d);
    assertThat(tl.jobs())
        .extracting(io.fluxdrm.showcase.timeline.Timeline.Job::label)
        .containsExactly("ƒ2", "ƒ3");
    assertThat(tl.rows()).hasSize(16);
    io.fluxdrm.showcase.plot.Picture p =
        io.fluxdrm.showcase.plot.Plots.picture(tl, "demo", 1200, 0);
    assertThat(p.counts())
        .isEqualTo(new io.fluxdrm.showcase.plot.Picture.Counts(16, 2, 3, 6, 2, 3, 2, 1, 1, 0));
    assertThat(r.err()).contains(": 16 nodes, 2 jobs, ");
    assertServerTranscriptsReplay(r);
  }

  /**
   * Issue 30 (D517, D518): the bridge and the DVM record their own endpoints, and each transcript
   * replays clean, as the demo says, against the world its process had at its start: the bridge's
   * in the same order as recorded (its scheduler is the world's, and the two shells' requests reach
   * it in the recorded order), the DVM's with its scheduler's answers played from the transcript.
   */
  private void assertServerTranscriptsReplay(Run r) throws Exception {
    Path b = dir.resolve("t-bridge.jsonl");
    Path v = dir.resolve("t-dvm-server.jsonl");
    assertThat(r.err())
        .contains(
            "fluxdrm demo: the bridge and the DVM recorded their endpoints to "
                + b
                + " and "
                + v
                + " (replay: fluxdrm replay "
                + b
                + " --service demo-bridge, fluxdrm replay "
                + v
                + " --service demo-dvm)");
    assertThat(Files.readString(dir.resolve("state").resolve("bridge.err")))
        .contains("recording a transcript to " + b);
    io.fluxdrm.rpc.transcript.ReplayRegistry reg = io.fluxdrm.rpc.transcript.ReplayRegistry.load();
    io.fluxdrm.rpc.transcript.ReplayResult br = reg.run("demo-bridge", b);
    assertThat(br.same()).as(br.unifiedDiff()).isTrue();
    // hello, ready, two submits, six reallocs, two releases, two finishes
    assertThat(br.responses()).isEqualTo(14);
    io.fluxdrm.rpc.transcript.ReplayResult vr = reg.run("demo-dvm", v);
    assertThat(vr.same()).as(vr.unifiedDiff()).isTrue();
    // the grows' and the release's events among the answers, the DVM job's session at the end
    assertThat(vr.responses()).isGreaterThanOrEqualTo(19);
    // as a user runs it
    CliRun cb = CliRun.run("", "replay", b.toString(), "--service", "demo-bridge");
    assertThat(cb.status()).as(cb.err()).isZero();
    assertThat(cb.out()).startsWith("replay: 14 of 14 responses matched");
    CliRun cv = CliRun.run("", "replay", v.toString(), "--service", "demo-dvm");
    assertThat(cv.status()).as(cv.err()).isZero();
  }

  @Test
  void demoProcessesCrash_schedulerKilledLosesNoAllocation_dvmKilledMidGrowRolledBack()
      throws Exception {
    Run r = demo("--crash");
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.order()).isEqualTo(Demo.steps(true));
    assertEveryStepAsTold(r);
    Map<String, JsonNode> s = r.steps();
    // every allocation the scheduler had before SIGKILL, it has after its restart
    assertThat(s.get("sched-restart").get("outcome").asText()).isEqualTo("no allocation lost");
    assertThat(s.get("sched-restart").get("detail").asText())
        .isEqualTo("allocated rank[0-14]/core[0-31] before and after");
    Path state = dir.resolve("state");
    assertThat(Files.readString(state.resolve("sched-2.err")))
        .contains("hello ƒ2: rank[0-3]/core[0-31]")
        .contains("hello ƒ3: rank[4-14]/core[0-31]");
    // the story goes on on the restarted scheduler: the deny and both ends
    assertThat(s.get("a-deny").get("outcome").asText()).isEqualTo("PMIX_ERR_OUT_OF_RESOURCE");
    // the DVM is killed while the grow's daemon starts: the grant goes back to the scheduler
    assertThat(s.get("dvm-grow").get("outcome").asText()).isEqualTo("PMIX_SUCCESS");
    assertThat(s.get("dvm-lost").get("outcome").asText()).isEqualTo("rolled back");
    assertThat(s.get("pool").get("outcome").asText()).isEqualTo("conserved");
  }

  /** The lines a unified diff removes ({@code '-'}) or adds ({@code '+'}), headers left out. */
  private static java.util.List<String> movedLines(String diff, char sign) {
    return diff.lines()
        .filter(l -> l.length() > 0 && l.charAt(0) == sign)
        .filter(l -> !l.startsWith("---") && !l.startsWith("+++"))
        .map(l -> l.substring(1))
        .toList();
  }
}
