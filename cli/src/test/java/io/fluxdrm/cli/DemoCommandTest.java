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
 * transcript and its replay, and usage errors. One default run and one {@code --json} run are
 * shared by the table-driven tests.
 */
@Timeout(60)
class DemoCommandTest {
  @TempDir static Path shared;

  private static CliRun text;
  private static CliRun json;
  private static Path textTranscript;
  private static CliRun noRealloc;

  @BeforeAll
  static void runs() {
    textTranscript = shared.resolve("text.jsonl");
    text = CliRun.run("", "demo", "--transcript", textTranscript.toString());
    json =
        CliRun.run("", "demo", "--json", "--transcript", shared.resolve("json.jsonl").toString());
    noRealloc =
        CliRun.run(
            "", "demo", "--no-realloc", "--transcript", shared.resolve("off.jsonl").toString());
  }

  /** The story on the default pool: step, job, outcome, a piece of the detail, free nodes after. */
  private static final String STORY =
      """
      a-start,      ƒ2, allocated,                node[0-3],                        12
      b-start,      ƒ3, allocated,                node[4-11],                       4
      a-grow,       ƒ2, PMIX_SUCCESS,             'node12:32,node13:32,node14:32,node15:32', 0
      b-grow,       ƒ3, waiting,                  queued at the scheduler,          0
      a-release,    ƒ2, PMIX_SUCCESS,             to give back node[12-15],         0
      a-tasks-exit, ƒ2, sched.free final:false,   node[12-15],                      0
      b-granted,    ƒ3, PMIX_SUCCESS,             'node12:32,node13:32,node14:32,node15:32', 0
      a-huge,       ƒ2, PMIX_ERR_OUT_OF_RESOURCE, denied: unsatisfiable request,    0
      a-wait,       ƒ2, waiting,                  queued at the scheduler,          0
      a-cancel,     ƒ2, PMIX_SUCCESS,             '',                               0
      a-canceled,   ƒ2, PMIX_ERR_JOB_CANCELED,    canceled,                         0
      a-end,        ƒ2, sched.free final:true,    node[0-3],                        4
      b-end,        ƒ3, sched.free final:true,    node[4-15],                       16
      pool,         -,  conserved,                free rank[0-15]/core[0-31] = pool, 16
      """;

  private static final List<String> STEPS =
      STORY.lines().map(l -> l.substring(0, l.indexOf(',')).trim()).toList();

  @Test
  void demo_defaults_exitsZeroWithHeaderStepsAndSummary() {
    assertThat(text.status()).as("%s", text).isZero();
    text.assertNoTrace();
    List<String> lines = CliRun.lines(text.out());
    assertThat(lines).hasSize(STEPS.size() + 2);
    assertThat(lines.get(0)).isEqualTo("fluxdrm demo: pool node[0-15] (16 nodes, cores 0-31 each)");
    assertThat(lines.get(lines.size() - 1))
        .matches("fluxdrm demo: " + STEPS.size() + " steps as the story expects in \\d+ ms");
    assertThat(CliRun.lines(text.err()))
        .containsExactly(
            "fluxdrm demo: transcript written to "
                + textTranscript
                + " (replay: fluxdrm replay "
                + textTranscript
                + " --service demo)");
  }

  @ParameterizedTest
  @CsvSource(textBlock = STORY)
  void demo_defaults_timelineLineShowsStep(
      String step, String job, String outcome, String detail, int free) {
    List<String> lines = CliRun.lines(text.out());
    String line = lines.get(1 + STEPS.indexOf(step));
    assertThat(line)
        .as("line of %s", step)
        .matches("\\s*\\d+ ms  " + java.util.regex.Pattern.quote(job) + " .*")
        .contains(" " + outcome + " ")
        .contains(detail)
        .endsWith("| free " + free + "/16 nodes")
        .doesNotContain("expected:");
  }

  @ParameterizedTest
  @CsvSource(textBlock = STORY)
  void demoJson_defaults_oneObjectPerStepWithOutcome(
      String step, String job, String outcome, String detail, int free) {
    assertThat(json.status()).as("%s", json).isZero();
    List<String> lines = CliRun.lines(json.out());
    assertThat(lines).hasSize(STEPS.size());
    JsonNode o = CliRun.json(lines.get(STEPS.indexOf(step)));
    assertThat(o.get("step").asText()).isEqualTo(step);
    assertThat(o.path("job").asText("-")).isEqualTo(job);
    assertThat(o.get("outcome").asText()).isEqualTo(outcome);
    assertThat(o.get("expected").asText()).isEqualTo(outcome);
    assertThat(o.get("ok").asBoolean()).isTrue();
    assertThat(o.path("detail").asText("")).contains(detail);
    assertThat(o.get("free_nodes").asInt()).isEqualTo(free);
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

  @Test
  void demo_transcript_replaysAgainstDemoWorldSame() throws IOException {
    List<String> lines = Files.readAllLines(textTranscript);
    assertThat(lines).isNotEmpty();
    assertThat(lines)
        .anyMatch(l -> l.contains("\"topic\":\"job-manager.realloc\""))
        .anyMatch(l -> l.contains("\"topic\":\"job-manager.release\""))
        .anyMatch(l -> l.contains("\"topic\":\"job-manager.realloc_cancel\""))
        .anyMatch(l -> l.contains("\"topic\":\"sched.free\""));
    ReplayResult r = ReplayRegistry.load().run("demo", textTranscript);
    assertThat(r.same()).as(r.unifiedDiff()).isTrue();
    // reallocs of a-grow, b-grow, a-release, a-huge, a-wait; A's release; the realloc_cancel
    assertThat(r.requests()).isEqualTo(7);
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
        CliRun.run("", "demo", "--hosts", "n[0-7]", "--cores", "0-3", "--transcript", t.toString());
    assertThat(r.status()).as("%s", r).isZero();
    List<String> lines = CliRun.lines(r.out());
    assertThat(lines.get(0)).isEqualTo("fluxdrm demo: pool n[0-7] (8 nodes, cores 0-3 each)");
    assertThat(lines.get(1)).contains("2 node(s)").contains("n[0-1]");
    assertThat(lines.get(3)).contains("PMIX_SUCCESS").contains("n6:4,n7:4");
    assertThat(lines.get(STEPS.size())).contains("conserved").endsWith("| free 8/8 nodes");
    assertThat(r.err()).contains("recorded in a world other than the default");
  }

  /** The story's steps that an RFC 27-only scheduler turns out otherwise, and what they get. */
  @ParameterizedTest
  @CsvSource({
    "a-grow,       PMIX_ERR_NOT_SUPPORTED, PMIX_SUCCESS",
    "b-grow,       PMIX_ERR_NOT_SUPPORTED, waiting",
    "a-release,    PMIX_ERR_NOT_FOUND,     PMIX_SUCCESS",
    "a-tasks-exit, nothing to give back,   sched.free final:false",
    "b-granted,    PMIX_ERR_NOT_SUPPORTED, PMIX_SUCCESS",
    "a-huge,       PMIX_ERR_NOT_SUPPORTED, PMIX_ERR_OUT_OF_RESOURCE",
    "a-wait,       PMIX_ERR_NOT_SUPPORTED, waiting",
    "a-cancel,     PMIX_ERR_NOT_FOUND,     PMIX_SUCCESS",
    "a-canceled,   PMIX_ERR_NOT_SUPPORTED, PMIX_ERR_JOB_CANCELED"
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
    // the transcript line, then one line per differing step
    assertThat(err).hasSize(1 + 9);
    for (String step : List.of("a-start", "b-start", "a-end", "b-end", "pool")) {
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
            dir.resolve("t.jsonl").toString());
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
          --hosts n[0-2]                 | --hosts: 3 hosts (expected: 4 to
          --hosts node[                  | --hosts:
          --cores 0-x                    | --cores:
          --cores 3,1                    | --cores:
          --bogus                        | Unknown option: '--bogus'
          --hosts                        | Missing required parameter
          --transcript NODIR/x/t.jsonl   | --transcript:
          --state-dir FULL               | not empty (expected: a new or empty directory
          --state-dir FILE               | not a directory
          --state-dir FILE/sub           | cannot create
          """)
  void demo_badUsage_exitsTwoWithOneLine(String args, String message, @TempDir Path dir)
      throws IOException {
    Path full = Files.createDirectories(dir.resolve("full"));
    Files.writeString(full.resolve("1.eventlog"), "");
    Path file = Files.writeString(dir.resolve("file"), "");
    String line =
        args.replace("NODIR", dir.resolve("missing").toString())
            .replace("FULL", full.toString())
            .replace("FILE", file.toString());
    String[] argv =
        line.startsWith("--transcript")
            ? Stream.concat(Stream.of("demo"), Stream.of(CliRun.words(line))).toArray(String[]::new)
            // the transcript goes first so that an option missing its value stays last
            : Stream.concat(
                    Stream.of("demo", "--transcript", dir.resolve("t").toString()),
                    Stream.of(CliRun.words(line)))
                .toArray(String[]::new);
    CliRun r = CliRun.run("", argv);
    r.assertOneLineError(message, 2);
    assertThat(r.err()).startsWith("fluxdrm demo: ");
    assertThat(r.out()).isEmpty();
    assertThat(Files.exists(dir.resolve("t"))).as("no transcript on a usage error").isFalse();
  }

  @Test
  void demo_defaultPool_isTheReplayWorldsPool() {
    ResourceSet pool = io.fluxdrm.cli.replay.DemoReplayProvider.POOL;
    assertThat(pool.summary()).isEqualTo("rank[0-15]/core[0-31]");
    assertThat(pool.nodelist().toString()).isEqualTo("node[0-15]");
  }
}
