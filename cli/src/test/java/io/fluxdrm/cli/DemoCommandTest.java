package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fluxdrm.rpc.transcript.ReplayRegistry;
import io.fluxdrm.rpc.transcript.ReplayResult;
import io.fluxdrm.rset.ResourceSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code fluxdrm demo} in process: the timeline's steps and outcomes, the {@code --json} lines, the
 * transcripts and the replay of the job manager's, the progress line, and usage errors. One default
 * run, one {@code --json} run and one {@code --no-realloc} run are shared by the table-driven
 * tests.
 */
@Timeout(60)
class DemoCommandTest {
  @TempDir static Path shared;

  private static CliRun text;
  private static CliRun json;
  private static Path textTranscript;
  private static Path dvmTranscript;
  private static CliRun noRealloc;

  private static CliRun demo(String name, String... more) {
    List<String> args = new java.util.ArrayList<>(List.of("demo"));
    args.addAll(List.of(more));
    args.addAll(
        List.of(
            "--transcript",
            shared.resolve(name + ".jsonl").toString(),
            "--dvm-transcript",
            shared.resolve(name + "-dvm.jsonl").toString(),
            "--picture",
            shared.resolve(name + ".svg").toString()));
    return CliRun.run("", args.toArray(String[]::new));
  }

  @BeforeAll
  static void runs() {
    textTranscript = shared.resolve("text.jsonl");
    dvmTranscript = shared.resolve("text-dvm.jsonl");
    text = demo("text");
    json = demo("json", "--json", "--progress");
    noRealloc = demo("off", "--no-realloc");
  }

  /**
   * The story on the default pool: step, actor, job, outcome, a piece of the detail, free nodes
   * after (-1: not checked, the next step may already have taken them).
   */
  private static final String STORY =
      """
      a-start,       A,      ƒ2, allocated,                node[0-3] (rank[0-3]/core[0-31]),  12
      b-start,       B,      ƒ3, allocated,                node[4-11] (rank[4-11]/core[0-31]), 4
      dvm-attach,    bridge, ƒ2, attached,                 32 slot(s) per node,               4
      a-grow,        A,      ƒ2, PMIX_SUCCESS,             'node12:32,node13:32 (rank[12-13]/core[0-31]) PMIX_ALLOC_ID=1', 2
      a-held,        A,      ƒ2, held,                     '1 job(s) held at map (WAITING_FOR_DAEMONS)', 2
      a-ready,       dvm,    ƒ2, PMIX_DVM_IS_READY,        to the requester PMIX_ALLOC_ID=1 PMIX_ALLOC_REQ_ID=a-grow, 2
      a-landed,      A,      ƒ2, PMIX_SUCCESS,             on node[12-13],                    2
      a-grow-fail,   A,      ƒ2, PMIX_SUCCESS,             node15:32 (rank15/core[0-31]) PMIX_ALLOC_ID=2, -1
      a-rollback,    dvm,    ƒ2, PMIX_ERR_DVM_MOD,         PMIX_JOB_TERM_STATUS=PMIX_ERR_PROC_FAILED_TO_START, -1
      a-handback,    bridge, ƒ2, sched.free final:false,   node15 (rank15/core[0-31]),        2
      b-grow,        B,      ƒ3, waiting,                  in the scheduler's realloc FIFO (1 pending), 2
      a-release,     A,      ƒ2, PMIX_SUCCESS,             granted: the DVM shrinks them,     -1
      a-departed,    dvm,    ƒ2, sched.free final:false,   node[12-13] (rank[12-13]/core[0-31]) after their daemons left, -1
      a-shrunk,      dvm,    ƒ2, PMIX_DVM_IS_READY,        to the requester PMIX_ALLOC_REQ_ID=a-release, -1
      b-granted,     B,      ƒ3, PMIX_SUCCESS,             'node12:32,node13:32,node14:32 (rank[12-14]/core[0-31])', 1
      a-deny,        A,      ƒ2, PMIX_ERR_OUT_OF_RESOURCE, denied by the scheduler,           1
      s-instantiate, bridge, ƒ2, PMIX_SUCCESS,             answered once its app runs,        1
      s-pause,       bridge, ƒ2, PMIX_SUCCESS,             SIGSTOP to its jobs,               1
      s-resume,      bridge, ƒ2, PMIX_SUCCESS,             SIGCONT to its jobs,               1
      s-terminate,   bridge, ƒ2, PMIX_SUCCESS,             the session is reclaimed,          1
      s-complete,    dvm,    ƒ2, PMIX_SESSION_COMPLETE,    session 1000,                      1
      b-end,         B,      ƒ3, sched.free final:true,    node[4-14] (rank[4-14]/core[0-31]), 12
      a-end,         A,      ƒ2, sched.free final:true,    node[0-3] (rank[0-3]/core[0-31]),  16
      pool,          pool,   -,  conserved,                free rank[0-15]/core[0-31] = pool, 16
      """;

  private static final List<String> STEPS =
      STORY.lines().map(l -> l.substring(0, l.indexOf(',')).trim()).toList();

  /**
   * Issue 29 (D519): the picture's time axis starts where the timeline on stdout does, when the
   * world started, not at job A's allocation: A's bars begin after the axis's zero, no later than
   * its {@code a-start} line, and A's first grant lies between the DVM's attachment and the {@code
   * a-grow} line that reports it.
   */
  @Test
  void demo_pictureAxis_startsWhereTheTimelineDoes() throws Exception {
    assertThat(json.status()).as("%s", json).isZero();
    java.util.Map<String, Long> at = new java.util.HashMap<>();
    for (String l : CliRun.lines(json.out())) {
      JsonNode o = CliRun.json(l);
      at.put(o.get("step").asText(), o.get("elapsed_ms").asLong());
    }
    org.w3c.dom.Document d =
        io.fluxdrm.showcase.plot.PlotsTest.parse(Files.readString(shared.resolve("json.svg")));
    List<org.w3c.dom.Element> ticks =
        io.fluxdrm.showcase.plot.PlotsTest.withClass(d, "text", "tick");
    assertThat(ticks.get(0).getTextContent()).isEqualTo("0");
    assertThat(d.getDocumentElement().getTextContent()).contains("time (ms)");
    double x0 = Double.parseDouble(ticks.get(0).getAttribute("x"));
    double x1 = Double.parseDouble(ticks.get(1).getAttribute("x"));
    double perMs = (x1 - x0) / Double.parseDouble(ticks.get(1).getTextContent());
    double aBar =
        (Double.parseDouble(
                    io.fluxdrm.showcase.plot.PlotsTest.withClass(d, "rect", "bar").stream()
                        .filter(e -> e.getAttribute("data-row").equals("node0"))
                        .filter(e -> e.getAttribute("data-job").equals("ƒ2"))
                        .findFirst()
                        .orElseThrow()
                        .getAttribute("x"))
                - x0)
            / perMs;
    // A is allocated after the world started, within the same millisecond on a fast run: its bar
    // is on the axis, not before it (the origin itself is TimelineBuilderTest's)
    assertThat(aBar).isGreaterThanOrEqualTo(0).isLessThanOrEqualTo(at.get("a-start") + 1.0);
    org.w3c.dom.Element grow =
        io.fluxdrm.showcase.plot.PlotsTest.withClass(d, "polygon", "mark grow").stream()
            .filter(
                e ->
                    e.getAttribute("data-row").equals("node12")
                        && e.getAttribute("data-job").equals("ƒ2"))
            .findFirst()
            .orElseThrow();
    double growMs =
        (Double.parseDouble(grow.getAttribute("points").split(" ")[2].split(",")[0]) - x0) / perMs;
    assertThat(growMs)
        .isGreaterThanOrEqualTo(at.get("dvm-attach") - 1.0)
        .isLessThanOrEqualTo(at.get("a-grow") + 1.0);
  }

  @Test
  void demo_defaults_exitsZeroWithHeaderStepsAndSummary() {
    assertThat(text.status()).as("%s", text).isZero();
    text.assertNoTrace();
    List<String> lines = CliRun.lines(text.out());
    assertThat(STEPS).isEqualTo(io.fluxdrm.showcase.demo.Demo.STEPS);
    assertThat(lines).hasSize(STEPS.size() + 2);
    assertThat(lines.get(0))
        .isEqualTo("fluxdrm demo: pool node[0-15] (16 nodes, cores 0-31 each), all in this JVM");
    assertThat(lines.get(lines.size() - 1))
        .matches("fluxdrm demo: " + STEPS.size() + " steps as the story expects in \\d+ ms");
    // not a terminal: no progress line, only where the transcripts went
    List<String> err = CliRun.lines(text.err());
    assertThat(err).hasSize(2);
    assertThat(err.get(0))
        .isEqualTo(
            "fluxdrm demo: transcripts written to "
                + textTranscript
                + " (replay: fluxdrm replay "
                + textTranscript
                + " --service demo) and "
                + dvmTranscript
                + " (the DVM's endpoint)");
    assertThat(err.get(1))
        .matches(
            java.util.regex.Pattern.quote(
                    "fluxdrm demo: picture of "
                        + textTranscript
                        + " and "
                        + dvmTranscript
                        + " written to "
                        + shared.resolve("text.svg"))
                + ": 16 nodes, 2 jobs, \\d+ marks");
  }

  /**
   * The demo draws its own picture (D447, D460): valid SVG with a row per node, a colour per job,
   * the grow and shrink marks of the story's grants, and from the DVM's transcript its daemons, the
   * rolled-back grow and the session.
   */
  @Test
  void demo_defaults_drawsThePictureOfItsTranscript() throws Exception {
    org.w3c.dom.Document d =
        io.fluxdrm.showcase.plot.PlotsTest.parse(Files.readString(shared.resolve("text.svg")));
    assertThat(io.fluxdrm.showcase.plot.PlotsTest.withClass(d, "text", "row")).hasSize(16);
    List<org.w3c.dom.Element> bars = io.fluxdrm.showcase.plot.PlotsTest.withClass(d, "rect", "bar");
    assertThat(bars).extracting(b -> b.getAttribute("data-job")).containsOnly("ƒ2", "ƒ3");
    assertThat(bars.stream().map(b -> b.getAttribute("fill")).distinct()).hasSize(2);
    // A grows onto node12-13 and node15, B onto node12-14; A's grown nodes are shrunk
    assertThat(io.fluxdrm.showcase.plot.PlotsTest.withClass(d, "polygon", "mark grow"))
        .extracting(e -> e.getAttribute("data-job") + "@" + e.getAttribute("data-row"))
        .contains("ƒ2@node12", "ƒ2@node13", "ƒ2@node15", "ƒ3@node14");
    assertThat(io.fluxdrm.showcase.plot.PlotsTest.withClass(d, "polygon", "mark shrink"))
        .extracting(e -> e.getAttribute("data-row"))
        .contains("node12", "node13", "node15");
    assertThat(io.fluxdrm.showcase.plot.PlotsTest.withClass(d, "text", "mark-text"))
        .extracting(org.w3c.dom.Element::getTextContent)
        .anyMatch(t -> t.startsWith("ƒ2 grow denied"))
        .contains(
            "ƒ3 grow held, then granted",
            "grow onto node15 rolled back (PMIX_ERR_DVM_MOD)",
            "session 1000 paused, resumed, terminated, complete");
    assertThat(io.fluxdrm.showcase.plot.PlotsTest.withClass(d, "text", "title"))
        .extracting(org.w3c.dom.Element::getTextContent)
        .containsExactly("Allocation over time: fluxdrm demo");
    // the DVM's daemons under the nodes its grows added, and the rollback of the failed one
    assertThat(io.fluxdrm.showcase.plot.PlotsTest.withClass(d, "rect", "daemon"))
        .extracting(e -> e.getAttribute("data-row"))
        .containsExactlyInAnyOrder("node12", "node13", "node15");
    // the rollback on its node's row, and once in the lane of requests with its text
    assertThat(io.fluxdrm.showcase.plot.PlotsTest.withClass(d, "polygon", "mark rollback"))
        .extracting(e -> e.getAttribute("data-row"))
        .containsExactly("", "node15");
  }

  /** Without --picture the picture goes beside the transcript, named after it (D460). */
  @Test
  void demo_noPictureOption_pictureBesideTheTranscript(@TempDir Path dir) throws Exception {
    CliRun r =
        CliRun.run(
            "",
            "demo",
            "--transcript",
            dir.resolve("story.jsonl").toString(),
            "--dvm-transcript",
            dir.resolve("d.jsonl").toString());
    assertThat(r.status()).as("%s", r).isZero();
    assertThat(r.err()).contains(" written to " + dir.resolve("story.svg") + ": 16 nodes");
    assertThat(
            io.fluxdrm.showcase.plot.PlotsTest.withClass(
                io.fluxdrm.showcase.plot.PlotsTest.parse(
                    Files.readString(dir.resolve("story.svg"))),
                "text",
                "row"))
        .hasSize(16);
  }

  @Test
  void demoProgress_notATerminal_oneLineRewrittenPerStepThenCleared() {
    String err = json.err();
    String progress = err.substring(0, err.lastIndexOf('\r') + 1);
    List<String> updates =
        java.util.Arrays.stream(progress.split("\r", -1))
            .filter(p -> p.startsWith("fluxdrm demo: ["))
            .toList();
    assertThat(updates).hasSize(STEPS.size());
    assertThat(updates.get(0)).startsWith("fluxdrm demo: [1/" + STEPS.size() + "] a-start");
    assertThat(updates.get(STEPS.size() - 1))
        .startsWith("fluxdrm demo: [" + STEPS.size() + "/" + STEPS.size() + "] pool");
    assertThat(progress).doesNotContain("\n").doesNotContain("(differs)");
    assertThat(err.substring(err.lastIndexOf('\r') + 1))
        .startsWith("fluxdrm demo: transcripts written to ");
  }

  @ParameterizedTest
  @CsvSource(textBlock = STORY)
  void demo_defaults_timelineLineShowsStep(
      String step, String actor, String job, String outcome, String detail, int free) {
    List<String> lines = CliRun.lines(text.out());
    String line = lines.get(1 + STEPS.indexOf(step));
    assertThat(line)
        .as("line of %s", step)
        .matches(
            "\\s*\\d+ ms  "
                + java.util.regex.Pattern.quote(String.format("%-6s %-4s", actor, job))
                + " .*")
        .contains(" " + outcome + " ")
        .contains(detail)
        .doesNotContain("expected:");
    if (free >= 0) {
      assertThat(line).endsWith("| free " + free + "/16 nodes");
    }
  }

  @ParameterizedTest
  @CsvSource(textBlock = STORY)
  void demoJson_defaults_oneObjectPerStepWithOutcome(
      String step, String actor, String job, String outcome, String detail, int free) {
    assertThat(json.status()).as("%s", json).isZero();
    List<String> lines = CliRun.lines(json.out());
    assertThat(lines).hasSize(STEPS.size());
    JsonNode o = CliRun.json(lines.get(STEPS.indexOf(step)));
    assertThat(o.get("step").asText()).isEqualTo(step);
    assertThat(o.get("actor").asText()).isEqualTo(actor);
    assertThat(o.path("job").asText("-")).isEqualTo(job);
    assertThat(o.get("outcome").asText()).isEqualTo(outcome);
    assertThat(o.get("expected").asText()).isEqualTo(outcome);
    assertThat(o.get("ok").asBoolean()).isTrue();
    assertThat(o.path("detail").asText("")).contains(detail);
    if (free >= 0) {
      assertThat(o.get("free_nodes").asInt()).isEqualTo(free);
    }
    assertThat(o.get("pool_nodes").asInt()).isEqualTo(16);
    assertThat(o.get("elapsed_ms").isIntegralNumber()).isTrue();
  }

  @Test
  void demoJson_defaults_elapsedNeverGoesBack() {
    long last = 0;
    for (String l : CliRun.lines(json.out())) {
      long ms = CliRun.json(l).get("elapsed_ms").asLong();
      assertThat(ms).isGreaterThanOrEqualTo(last);
      last = ms;
    }
  }

  /**
   * The DVM's release hook ({@code dvm-sched.nodes-released}) ends the daemons in the picture: A's
   * grown nodes' daemons leave before the story ends, and the rolled-back node15's daemon is drawn
   * from its start only, with the rollback's mark.
   */
  @Test
  void demo_picture_daemonsLeaveWhenTheDvmReportsThemReleased() {
    io.fluxdrm.showcase.timeline.Timeline t = PlotCommand.timeline(textTranscript, dvmTranscript);
    java.util.function.Function<String, Integer> row =
        name -> {
          for (int i = 0; i < t.rows().size(); i++) {
            if (t.rows().get(i).name().equals(name)) {
              return i;
            }
          }
          throw new AssertionError(name + " not a row");
        };
    List<io.fluxdrm.showcase.timeline.Timeline.Bar> daemons =
        t.bars().stream()
            .filter(b -> b.phase() == io.fluxdrm.showcase.timeline.Timeline.Phase.DAEMON)
            .toList();
    for (String host : List.of("node12", "node13", "node15")) {
      assertThat(daemons)
          .as("daemon of %s", host)
          .filteredOn(b -> b.row() == row.apply(host))
          .isNotEmpty()
          .allMatch(
              b -> b.from() > 0 && b.to() < t.span(), "starts after 0 and ends before the end");
    }
    assertThat(t.marks())
        .filteredOn(
            m ->
                m.row() == row.apply("node15")
                    && m.kind() == io.fluxdrm.showcase.timeline.Timeline.MarkKind.ROLLBACK)
        .hasSize(1);
  }

  @Test
  void demo_transcript_replaysAgainstDemoWorldSame() throws IOException {
    List<String> lines = Files.readAllLines(textTranscript);
    assertThat(lines).isNotEmpty();
    assertThat(lines)
        .anyMatch(l -> l.contains("\"topic\":\"job-manager.realloc\""))
        .anyMatch(l -> l.contains("\"topic\":\"job-manager.release\""))
        .anyMatch(l -> l.contains("\"topic\":\"sched.free\""));
    ReplayResult r = ReplayRegistry.load().run("demo", textTranscript);
    assertThat(r.same()).as(r.unifiedDiff()).isTrue();
    // six reallocs (a-grow, a-grow-fail, the hand-back, b-grow, a-release, a-deny), two releases
    assertThat(r.requests()).isEqualTo(8);
    assertThat(Files.readString(dvmTranscript))
        .contains("\"topic\":\"dvm.alloc\"")
        .contains("\"topic\":\"dvm-sched.allocate\"");
    CliRun replay = CliRun.run("", "replay", textTranscript.toString(), "--service", "demo");
    assertThat(replay.status()).as("%s", replay).isZero();
    assertThat(replay.out())
        .isEqualTo(
            "replay: "
                + r.responses()
                + " of "
                + r.responses()
                + " responses matched (transcript "
                + textTranscript
                + ", service demo)\n");
  }

  @Test
  void demo_transcript_doesNotReplayAgainstTheFourNodeJobManagerWorld() {
    CliRun replay = CliRun.run("", "replay", textTranscript.toString(), "--service", "job-manager");
    assertThat(replay.status()).as("%s", replay).isEqualTo(1);
    assertThat(replay.out()).startsWith("--- recorded");
  }

  @Test
  void demo_smallerPool_storyScalesAndSaysTranscriptIsOffDefault(@TempDir Path dir) {
    Path t = dir.resolve("t.jsonl");
    CliRun r =
        CliRun.run(
            "",
            "demo",
            "--nodes",
            "8",
            "--cores",
            "0-3",
            "--transcript",
            t.toString(),
            "--dvm-transcript",
            dir.resolve("d.jsonl").toString());
    assertThat(r.status()).as("%s", r).isZero();
    List<String> lines = CliRun.lines(r.out());
    assertThat(lines.get(0)).startsWith("fluxdrm demo: pool node[0-7] (8 nodes, cores 0-3 each)");
    assertThat(lines.get(1)).contains("2 node(s)").contains("node[0-1]");
    assertThat(lines.get(4)).contains("PMIX_SUCCESS").contains("node6:4");
    assertThat(lines.get(STEPS.size())).contains("conserved").endsWith("| free 8/8 nodes");
    assertThat(r.err()).contains("recorded in a world other than the default");
  }

  @Test
  void demo_seed_otherSizesEveryStepAsTold(@TempDir Path dir) {
    CliRun r =
        CliRun.run(
            "",
            "demo",
            "--seed",
            "7",
            "--speed",
            "2",
            "--json",
            "--transcript",
            dir.resolve("t.jsonl").toString(),
            "--dvm-transcript",
            dir.resolve("d.jsonl").toString());
    assertThat(r.status()).as("%s", r).isZero();
    assertThat(CliRun.lines(r.out()))
        .hasSize(STEPS.size())
        .allMatch(l -> CliRun.json(l).get("ok").asBoolean());
    assertThat(r.err()).contains("recorded in a world other than the default");
  }

  /** The story's steps that an RFC 27-only scheduler turns out otherwise, and what they get. */
  @ParameterizedTest
  @CsvSource({
    "a-grow,      PMIX_ERR_NOT_SUPPORTED, PMIX_SUCCESS",
    "a-held,      PMIX_ERR_NOT_FOUND,     held",
    "a-ready,     no event,               PMIX_DVM_IS_READY",
    "a-landed,    PMIX_ERR_NOT_FOUND,     PMIX_SUCCESS",
    "a-grow-fail, PMIX_ERR_NOT_SUPPORTED, PMIX_SUCCESS",
    "a-rollback,  no event,               PMIX_ERR_DVM_MOD",
    "a-handback,  nothing freed,          sched.free final:false",
    "b-grow,      PMIX_ERR_NOT_SUPPORTED, waiting",
    "a-release,   PMIX_ERR_BAD_PARAM,     PMIX_SUCCESS",
    "a-departed,  nothing freed,          sched.free final:false",
    "a-shrunk,    no event,               PMIX_DVM_IS_READY",
    "b-granted,   PMIX_ERR_NOT_SUPPORTED, PMIX_SUCCESS",
    "a-deny,      PMIX_ERR_NOT_SUPPORTED, PMIX_ERR_OUT_OF_RESOURCE"
  })
  void demo_noRealloc_exitsOneNamingEachDifference(String step, String got, String expected) {
    assertThat(noRealloc.status()).as("%s", noRealloc).isEqualTo(1);
    noRealloc.assertNoTrace();
    String difference = "fluxdrm demo: " + step + ": " + got + " (expected: " + expected + ")";
    assertThat(CliRun.lines(noRealloc.err())).anyMatch(l -> l.startsWith(difference));
    String line = CliRun.lines(noRealloc.out()).get(1 + STEPS.indexOf(step));
    assertThat(line).contains(got + " (expected: " + expected + ")");
  }

  @Test
  void demo_noRealloc_stepsThatNeedNoRfc51StillAsTheStory() {
    List<String> err = CliRun.lines(noRealloc.err());
    // the transcripts and picture lines, then one line per differing step
    assertThat(err).hasSize(2 + 13);
    for (String step :
        List.of(
            "a-start",
            "b-start",
            "dvm-attach",
            "s-instantiate",
            "s-pause",
            "s-resume",
            "s-terminate",
            "s-complete",
            "a-end",
            "b-end",
            "pool")) {
      assertThat(err).noneMatch(l -> l.startsWith("fluxdrm demo: " + step + ":"));
      assertThat(CliRun.lines(noRealloc.out()).get(1 + STEPS.indexOf(step)))
          .doesNotContain("(expected:");
    }
    // no summary line claims the story went as told
    assertThat(noRealloc.out()).doesNotContain("as the story expects");
  }

  @Test
  void demo_stateDir_keepsEveryJobsEventlogEndingInFree(@TempDir Path dir) throws IOException {
    Path state = dir.resolve("state");
    CliRun r =
        CliRun.run(
            "",
            "demo",
            "--json",
            "--state-dir",
            state.toString(),
            "--transcript",
            dir.resolve("t.jsonl").toString(),
            "--dvm-transcript",
            dir.resolve("d.jsonl").toString());
    assertThat(r.status()).as("%s", r).isZero();
    try (Stream<Path> s = Files.list(state)) {
      List<Path> logs = s.sorted().toList();
      assertThat(logs)
          .extracting(p -> p.getFileName().toString())
          .containsExactly("1.eventlog", "2.eventlog");
      for (Path p : logs) {
        List<String> events = Files.readAllLines(p);
        assertThat(events.get(0)).contains("\"name\":\"submit\"");
        assertThat(events.get(events.size() - 1)).contains("\"name\":\"free\"");
      }
    }
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          --hosts n[0-6]                 | 2 | --hosts: 7 hosts (expected: 8 to 4096
          --nodes 7                      | 2 | --nodes: 7 (expected: 8 to 4096)
          --nodes 5000                   | 2 | --nodes: 5000 (expected: 8 to 4096)
          --nodes x                      | 2 | Invalid value for option '--nodes'
          --nodes 8 --hosts n[0-7]       | 2 | --nodes: not with --hosts
          --speed 0                      | 2 | --speed: 0.0 (expected: 0.01 to 100)
          --speed 1000                   | 2 | --speed: 1000.0 (expected: 0.01 to 100)
          --speed fast                   | 2 | Invalid value for option '--speed'
          --seed x                       | 2 | Invalid value for option '--seed'
          --crash                        | 2 | --crash: without --processes (expected: both)
          --hosts node[                  | 2 | --hosts:
          --cores 0-x                    | 2 | --cores:
          --cores 3,1                    | 2 | --cores:
          --bogus                        | 2 | Unknown option: '--bogus'
          --hosts                        | 2 | Missing required parameter
          --transcript NODIR/x/t.jsonl   | 1 | --transcript:
          --picture NODIR/x/p.svg        | 1 | --picture:
          --state-dir FULL               | 1 | not empty (expected: a new or empty directory
          --state-dir FILE               | 1 | not a directory
          --state-dir FILE/sub           | 1 | cannot create
          """)
  void demo_badCommandLine_oneLineNothingRuns(
      String args, int status, String message, @TempDir Path dir) throws IOException {
    Path full = Files.createDirectories(dir.resolve("full"));
    Files.writeString(full.resolve("1.eventlog"), "");
    Path file = Files.writeString(dir.resolve("file"), "");
    String line =
        args.replace("NODIR", dir.resolve("missing").toString())
            .replace("FULL", full.toString())
            .replace("FILE", file.toString());
    String[] argv =
        line.startsWith("--transcript")
            ? Stream.concat(
                    Stream.of("demo", "--dvm-transcript", dir.resolve("d").toString()),
                    Stream.of(CliRun.words(line)))
                .toArray(String[]::new)
            // the transcripts go first so that an option missing its value stays last
            : Stream.concat(
                    Stream.of(
                        "demo",
                        "--transcript",
                        dir.resolve("t").toString(),
                        "--dvm-transcript",
                        dir.resolve("d").toString()),
                    Stream.concat(
                        line.startsWith("--picture")
                            ? Stream.<String>empty()
                            : Stream.of("--picture", dir.resolve("p.svg").toString()),
                        Stream.of(CliRun.words(line))))
                .toArray(String[]::new);
    CliRun r = CliRun.run("", argv);
    // 2 a usage error, 1 a file named that will not do (docs/cli.md, "Exit status")
    r.assertOneLineError(message, status);
    assertThat(r.err()).startsWith("fluxdrm demo: ");
    assertThat(r.out()).isEmpty();
    assertThat(Files.exists(dir.resolve("t"))).as("no transcript written").isFalse();
    assertThat(Files.exists(dir.resolve("d"))).as("no transcript written").isFalse();
  }

  @Test
  void demo_defaultPool_isTheReplayWorldsPool() {
    ResourceSet pool = io.fluxdrm.showcase.replay.DemoReplayProvider.POOL;
    assertThat(pool.summary()).isEqualTo("rank[0-15]/core[0-31]");
    assertThat(pool.nodelist().toString()).isEqualTo("node[0-15]");
  }
}
