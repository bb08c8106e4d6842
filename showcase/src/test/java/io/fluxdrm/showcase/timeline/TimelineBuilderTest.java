package io.fluxdrm.showcase.timeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.transcript.Transcript;
import io.fluxdrm.rpc.transcript.TranscriptLine;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The timeline read from the demo's transcript, the DVM's traffic and hand-made lines. */
class TimelineBuilderTest {
  static final Path DEMO = Path.of("src/test/resources/io/fluxdrm/showcase/plot/demo.jsonl");

  static Timeline demo() {
    return TimelineBuilder.of(Transcript.read(DEMO));
  }

  private static List<String> names(Timeline t, Predicate<Timeline.Mark> p) {
    return t.marks().stream()
        .filter(p)
        .filter(m -> m.row() >= 0)
        .map(m -> t.rows().get(m.row()).name())
        .toList();
  }

  private static Predicate<Timeline.Mark> kind(Timeline t, Timeline.MarkKind k, String job) {
    return m ->
        m.kind() == k
            && (job == null || (m.job() >= 0 && t.jobs().get(m.job()).label().equals(job)));
  }

  @Test
  void demo_rowsAreThePoolInRankOrder_jobsAandB() {
    Timeline t = demo();
    assertThat(t.rows())
        .extracting(Timeline.Row::name)
        .containsExactly(
            "node0", "node1", "node2", "node3", "node4", "node5", "node6", "node7", "node8",
            "node9", "node10", "node11", "node12", "node13", "node14", "node15");
    assertThat(t.rows())
        .extracting(Timeline.Row::rank)
        .containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    assertThat(t.jobs()).extracting(Timeline.Job::label).containsExactly("ƒ2", "ƒ3");
    assertThat(t.unattributed()).isZero();
  }

  /**
   * D519: a timeline given an origin before its first line and its jobs' R starts from there, so a
   * picture's axis starts where the caller's own clock does; an origin after them changes nothing.
   */
  @Test
  void origin_beforeEverything_isTheStart_afterIt_changesNothing() {
    java.util.List<TranscriptLine> lines = Transcript.read(DEMO);
    Timeline plain = TimelineBuilder.of(lines);
    java.time.Instant early = plain.start().minusMillis(300);
    TimelineBuilder b = new TimelineBuilder();
    b.origin(early);
    lines.forEach(b::accept);
    Timeline t = b.build();
    assertThat(t.start()).isEqualTo(early);
    // every bar and mark is 300 ms later on its axis than on the plain one
    assertThat(t.bars().get(0).from() - plain.bars().get(0).from()).isEqualTo(300_000_000L);
    TimelineBuilder late = new TimelineBuilder();
    late.origin(plain.start().plusMillis(300));
    lines.forEach(late::accept);
    assertThat(late.build().start()).isEqualTo(plain.start());
  }

  @Test
  void demo_initialAllocations_fromTheirRStarttime_beforeTheFirstLine() {
    Timeline t = demo();
    TranscriptLine first = Transcript.read(DEMO).get(0);
    long firstAt = java.time.Duration.between(t.start(), first.time()).toNanos();
    // job A's R starts at its alloc, before recording began (D145): its bars on node[0-3] start
    // there
    List<Timeline.Bar> a = t.bars().stream().filter(b -> b.job() == 0 && b.row() <= 3).toList();
    assertThat(a)
        .hasSize(4)
        .allSatisfy(
            b -> {
              assertThat(b.phase()).isEqualTo(Timeline.Phase.HELD);
              assertThat(b.from()).isZero();
              assertThat(b.before()).isFalse();
            });
    assertThat(firstAt).isPositive();
    List<Timeline.Bar> b =
        t.bars().stream().filter(x -> x.job() == 1 && x.row() >= 4 && x.row() <= 11).toList();
    assertThat(b).hasSize(8).allSatisfy(x -> assertThat(x.from()).isPositive().isLessThan(firstAt));
  }

  @Test
  void demo_growsAndShrinks_markedOnTheRowsTheyChanged() {
    Timeline t = demo();
    assertThat(names(t, kind(t, Timeline.MarkKind.GROW, "ƒ2")))
        .containsExactly("node12", "node13", "node14", "node15");
    assertThat(names(t, kind(t, Timeline.MarkKind.GROW, "ƒ3")))
        .containsExactly("node12", "node13", "node14", "node15");
    assertThat(names(t, kind(t, Timeline.MarkKind.SHRINK, "ƒ2")))
        .containsExactly("node12", "node13", "node14", "node15");
    // A's shrunk nodes are releasing until the job manager frees them, then B's grow lands there
    for (int row = 12; row <= 15; row++) {
      int r = row;
      List<Timeline.Bar> bars = t.bars().stream().filter(x -> x.row() == r).toList();
      assertThat(bars)
          .extracting(Timeline.Bar::job, Timeline.Bar::phase)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple(0, Timeline.Phase.HELD),
              org.assertj.core.groups.Tuple.tuple(0, Timeline.Phase.RELEASING),
              org.assertj.core.groups.Tuple.tuple(1, Timeline.Phase.HELD));
      assertThat(bars.get(0).to()).isEqualTo(bars.get(1).from());
      assertThat(bars.get(2).from()).isGreaterThanOrEqualTo(bars.get(1).to());
    }
  }

  @Test
  void demo_heldDeniedCanceled_inTheLaneOfRequests() {
    Timeline t = demo();
    List<Timeline.Mark> lane = t.marks().stream().filter(m -> m.row() < 0).toList();
    assertThat(lane)
        .extracting(Timeline.Mark::kind, Timeline.Mark::text)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(Timeline.MarkKind.HELD, "ƒ3 grow waits"),
            org.assertj.core.groups.Tuple.tuple(
                Timeline.MarkKind.DENIED,
                "ƒ2 grow denied: unsatisfiable request: need 17 exclusive node(s), only 12 eligible"),
            org.assertj.core.groups.Tuple.tuple(Timeline.MarkKind.CANCELED, "ƒ2 grow canceled"));
    assertThat(t.waits())
        .extracting(Timeline.Wait::text)
        .containsExactly("ƒ3 grow held, then granted", "ƒ2 grow held, then canceled");
  }

  @Test
  void demo_everyBarWithinTheSpan_andJobsEndWithTheirFinalFree() {
    Timeline t = demo();
    assertThat(t.bars())
        .allSatisfy(
            b -> {
              assertThat(b.from()).isBetween(0L, t.span());
              assertThat(b.to()).isBetween(b.from(), t.span());
            });
    // the last line is B's final free: its bars end at the right edge, A's before
    assertThat(t.bars().stream().filter(b -> b.job() == 1).mapToLong(Timeline.Bar::to).max())
        .hasValue(t.span());
    assertThat(
            t.bars().stream()
                .filter(b -> b.job() == 0)
                .mapToLong(Timeline.Bar::to)
                .max()
                .getAsLong())
        .isLessThan(t.span());
  }

  @Test
  void dvm_daemonsStartAndLeave_growRolledBack() {
    Timeline t = TimelineBuilder.of(Transcript.parse(DvmTranscripts.elasticStory(), "dvm"));
    assertThat(t.rows())
        .extracting(Timeline.Row::name)
        .containsExactly("node1", "node2", "node3", "node4");
    assertThat(t.rows()).extracting(Timeline.Row::rank).containsOnly(-1);
    assertThat(t.jobs())
        .extracting(Timeline.Job::label, Timeline.Job::source)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("alloc 1", Timeline.Source.DVM));
    assertThat(names(t, kind(t, Timeline.MarkKind.DAEMON_START, null)))
        .containsExactly("node1", "node2", "node3", "node4");
    assertThat(names(t, kind(t, Timeline.MarkKind.DAEMON_UP, null)))
        .containsExactly("node1", "node2", "node4");
    assertThat(names(t, kind(t, Timeline.MarkKind.ROLLBACK, null))).containsExactly("node3");
    assertThat(names(t, kind(t, Timeline.MarkKind.DAEMON_LEFT, null)))
        .containsExactlyInAnyOrder("node1", "node2", "node4");
    assertThat(names(t, kind(t, Timeline.MarkKind.GROW, null))).containsExactly("node3", "node4");
    assertThat(t.bars().stream().filter(b -> b.phase() == Timeline.Phase.DAEMON)).hasSize(4);
    // a rolled-back grow is no denial: its own mark in the lane, with its text (D494)
    assertThat(t.marks())
        .filteredOn(m -> m.kind() == Timeline.MarkKind.DENIED)
        .extracting(Timeline.Mark::text)
        .containsExactly(
            "PMIX_ALLOC_NEW PMIX_ERR_NOT_SUPPORTED: PMIX_ALLOC_NUM_NODES: no scheduler is attached to"
                + " choose resources (expected: PMIX_ALLOC_NODE_LIST)");
    assertThat(t.marks())
        .filteredOn(m -> m.kind() == Timeline.MarkKind.ROLLBACK && m.row() < 0)
        .extracting(Timeline.Mark::text)
        .containsExactly("grow onto node3 rolled back (PMIX_ERR_DVM_MOD)");
  }

  @Test
  void synthetic_thousandJobs_everyAllocatedJobHasBars_conserved() {
    List<String> lines = SyntheticTranscript.of(1000, 64, 17);
    Timeline t = TimelineBuilder.of(Transcript.parse(lines, "synthetic"));
    assertThat(t.rows()).hasSize(64);
    // one in 50 is denied and never holds a node
    assertThat(t.jobs()).hasSize(980);
    assertThat(t.marks()).filteredOn(m -> m.kind() == Timeline.MarkKind.DENIED).hasSize(20);
    assertThat(t.unattributed()).isZero();
    // no node is held by two jobs at once
    for (int row = 0; row < t.rows().size(); row++) {
      int r = row;
      List<Timeline.Bar> bars =
          t.bars().stream()
              .filter(b -> b.row() == r)
              .sorted(java.util.Comparator.comparingLong(Timeline.Bar::from))
              .toList();
      for (int i = 1; i < bars.size(); i++) {
        assertThat(bars.get(i).from())
            .as("row %d bar %d", r, i)
            .isGreaterThanOrEqualTo(bars.get(i - 1).to());
      }
    }
  }

  @Test
  void free_unknownJob_heldSinceTheLeftEdge() {
    String payload =
        "{\"id\":7,\"R\":{\"version\":1,\"execution\":{\"R_lite\":[{\"rank\":\"2\",\"children\":"
            + "{\"core\":\"0\"}}],\"starttime\":0,\"expiration\":0,\"nodelist\":[\"n2\"]}},\"final\":true}";
    List<String> lines =
        List.of(
            line("2026-01-01T00:00:00Z", "in", "request", "sched.hello-not-ours", 1, "{}"),
            line("2026-01-01T00:00:01Z", "in", "request", "sched.free", 0, payload));
    Timeline t = TimelineBuilder.of(Transcript.parse(lines, "t"));
    assertThat(t.bars())
        .singleElement()
        .satisfies(
            b -> {
              assertThat(b.before()).isTrue();
              assertThat(b.from()).isZero();
              assertThat(b.to()).isEqualTo(1_000_000_000L);
            });
    assertThat(t.rows()).extracting(Timeline.Row::name).containsExactly("n2");
    assertThat(t.jobs()).extracting(Timeline.Job::label).containsExactly("ƒ8");
  }

  @Test
  void reallocAnswer_withoutItsRequest_unattributed() {
    List<String> lines =
        List.of(
            line(
                "2026-01-01T00:00:00Z",
                "out",
                "response",
                "sched.realloc",
                4,
                "{\"alloc_id\":1,\"type\":0,\"R_delta_add\":{\"version\":1,\"execution\":{\"R_lite\":[{\"rank\":\"0\",\"children\":{\"core\":\"0\"}}],\"starttime\":0,\"expiration\":0}}}"));
    Timeline t = TimelineBuilder.of(Transcript.parse(lines, "t"));
    assertThat(t.unattributed()).isEqualTo(1);
    assertThat(t.isEmpty()).isTrue();
  }

  @Test
  void rfc27_annotateThenSuccess_heldMarkAndWait() {
    String r =
        "{\"version\":1,\"execution\":{\"R_lite\":[{\"rank\":\"1\",\"children\":{\"core\":\"0-3\"}}],\"starttime\":0,\"expiration\":0}}";
    List<String> lines =
        List.of(
            line("2026-01-01T00:00:00Z", "in", "request", "sched.alloc", 1, "{\"id\":5}"),
            line(
                "2026-01-01T00:00:00.100Z",
                "out",
                "response",
                "sched.alloc",
                1,
                "{\"id\":5,\"type\":1,\"annotations\":{\"sched\":{\"reason_pending\":\"insufficient resources\"}}}"),
            line(
                "2026-01-01T00:00:00.500Z",
                "out",
                "response",
                "sched.alloc",
                1,
                "{\"id\":5,\"type\":0,\"R\":" + r + "}"));
    Timeline t = TimelineBuilder.of(Transcript.parse(lines, "t"));
    assertThat(t.rows()).containsExactly(new Timeline.Row("rank 1", 1));
    assertThat(t.marks())
        .singleElement()
        .satisfies(
            m -> {
              assertThat(m.kind()).isEqualTo(Timeline.MarkKind.HELD);
              assertThat(m.text()).isEqualTo("ƒ6 held: insufficient resources");
              assertThat(m.at()).isEqualTo(100_000_000L);
            });
    assertThat(t.waits())
        .singleElement()
        .satisfies(
            w -> {
              assertThat(w.from()).isZero();
              assertThat(w.to()).isEqualTo(500_000_000L);
            });
    assertThat(t.bars())
        .singleElement()
        .satisfies(b -> assertThat(b.from()).isEqualTo(500_000_000L));
  }

  // ---- the demo's two transcripts merged (D494) -------------------------------------------------

  static final Path STORY = Path.of("src/test/resources/io/fluxdrm/showcase/plot/demo-story.jsonl");
  static final Path STORY_DVM =
      Path.of("src/test/resources/io/fluxdrm/showcase/plot/demo-story-dvm.jsonl");
  static final Path PROCESSES =
      Path.of("src/test/resources/io/fluxdrm/showcase/plot/demo-processes.jsonl");
  static final Path PROCESSES_DVM =
      Path.of("src/test/resources/io/fluxdrm/showcase/plot/demo-processes-dvm.jsonl");

  /** The timeline of transcripts merged in time order, as {@code fluxdrm demo} draws it. */
  static Timeline merged(Path... files) {
    List<TranscriptLine> lines = new java.util.ArrayList<>();
    for (Path f : files) {
      lines.addAll(Transcript.read(f));
    }
    lines.sort(java.util.Comparator.comparing(TranscriptLine::time));
    return TimelineBuilder.of(lines);
  }

  private static List<String> marks(Timeline t, Timeline.MarkKind k) {
    return t.marks().stream()
        .filter(m -> m.kind() == k)
        .map(
            m ->
                (m.job() < 0 ? "-" : t.jobs().get(m.job()).label())
                    + "@"
                    + (m.row() < 0 ? "lane" : t.rows().get(m.row()).name()))
        .toList();
  }

  /**
   * The story of the in-process demo, its job manager's transcript and the DVM's merged: each grow
   * once (the DVM's EXTEND answer is the grant the job manager read first), the denial once (the
   * DVM's PMIx answer is the scheduler's), the rollback as a rollback, and the spawn held until the
   * daemons were up as a held request; the DVM's EXTEND and NEW, answered once the bridge had
   * instantiated a session over the grant, are not held.
   */
  @Test
  void demoStory_bothTranscripts_eachEventOnce() {
    Timeline t = merged(STORY, STORY_DVM);
    assertThat(t.jobs()).extracting(Timeline.Job::label).containsExactly("ƒ2", "ƒ3");
    assertThat(marks(t, Timeline.MarkKind.GROW))
        .containsExactly(
            "ƒ2@node12", "ƒ2@node13", "ƒ2@node15", "ƒ3@node12", "ƒ3@node13", "ƒ3@node14");
    assertThat(marks(t, Timeline.MarkKind.SHRINK))
        .containsExactly("ƒ2@node15", "ƒ2@node12", "ƒ2@node13");
    assertThat(t.marks())
        .filteredOn(m -> m.kind() == Timeline.MarkKind.DENIED)
        .extracting(Timeline.Mark::text)
        .containsExactly(
            "ƒ2 grow denied: unsatisfiable request: need 17 exclusive node(s), only 12 eligible");
    assertThat(t.marks())
        .filteredOn(m -> m.kind() == Timeline.MarkKind.ROLLBACK)
        .extracting(m -> m.row() < 0 ? m.text() : t.rows().get(m.row()).name())
        .containsExactly("node15", "grow onto node15 rolled back (PMIX_ERR_DVM_MOD)");
    assertThat(t.marks())
        .filteredOn(m -> m.kind() == Timeline.MarkKind.HELD)
        .extracting(Timeline.Mark::text)
        .containsExactly(
            "spawn onto node[12-13] held until their daemons were up", "ƒ3 grow waits");
    assertThat(t.waits())
        .extracting(Timeline.Wait::text)
        .containsExactly(
            "spawn onto node[12-13] held until their daemons were up, then PMIX_SUCCESS",
            "ƒ3 grow held, then granted");
  }

  /** The job manager's transcript alone: the same grants and denial as with the DVM's. */
  @Test
  void demoStory_jobManagerAlone_sameGrantsAndDenial() {
    Timeline both = merged(STORY, STORY_DVM);
    Timeline alone = merged(STORY);
    for (Timeline.MarkKind k :
        List.of(Timeline.MarkKind.GROW, Timeline.MarkKind.SHRINK, Timeline.MarkKind.DENIED)) {
      assertThat(marks(alone, k)).as("%s", k).isEqualTo(marks(both, k));
    }
  }

  /**
   * {@code demo --processes}: the transcript of the job shells' connections (their requests name no
   * route and share matchtag 1) and the DVM's: both jobs, their grants read from the job manager's
   * answers to the shells, B's grow held until A's nodes came free, A's nodes given back ended by
   * its answers to {@code job-manager.release}: the same events as in one JVM.
   */
  @Test
  void demoProcesses_jobShellsSide_bothJobsTheSameEvents() {
    Timeline p = merged(PROCESSES, PROCESSES_DVM);
    Timeline story = merged(STORY, STORY_DVM);
    assertThat(p.jobs()).extracting(Timeline.Job::label).containsExactly("ƒ2", "ƒ3");
    assertThat(p.rows()).hasSize(16);
    for (Timeline.MarkKind k : Timeline.MarkKind.values()) {
      assertThat(marks(p, k)).as("%s", k).isEqualTo(marks(story, k));
    }
    assertThat(p.waits())
        .extracting(Timeline.Wait::text)
        .containsExactly(
            "spawn onto node[12-13] held until their daemons were up, then PMIX_SUCCESS",
            "ƒ3 grow held, then granted");
    // node15, given back after its rollback, is A's until the release answered, not to the end
    int n15 = p.rows().indexOf(new Timeline.Row("node15", 15));
    assertThat(p.bars())
        .filteredOn(b -> b.row() == n15 && b.job() >= 0)
        .allMatch(b -> b.to() < p.span());
  }

  @ParameterizedTest(name = "{0} < {1}")
  @CsvSource({"node2,node10", "n1,n01x", "a,b", "node9,nodeA", "rank 3,rank 12"})
  void natural_order(String a, String b) {
    assertThat(Board.natural(a, b)).isNegative();
    assertThat(Board.natural(b, a)).isPositive();
  }

  static String line(String time, String dir, String type, String topic, int tag, String payload) {
    String aux = type.equals("request") ? "\"nodeid\":0" : "\"errnum\":0";
    return "{\"time\":\""
        + time
        + "\",\"direction\":\""
        + dir
        + "\",\"type\":\""
        + type
        + "\",\"flags\":11,\"topic\":\""
        + topic
        + "\",\"matchtag\":"
        + tag
        + ","
        + aux
        + ",\"userid\":0,\"rolemask\":1,\"routes\":[\"jm\"],\"payload\":"
        + payload
        + "}";
  }
}
