package io.fluxdrm.showcase.plot;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.transcript.Transcript;
import io.fluxdrm.rpc.transcript.TranscriptLine;
import io.fluxdrm.showcase.timeline.DvmTranscripts;
import io.fluxdrm.showcase.timeline.SyntheticTranscript;
import io.fluxdrm.showcase.timeline.Timeline;
import io.fluxdrm.showcase.timeline.TimelineBuilder;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * The picture's model (D495): its summary counts what the timeline holds, each event once; every
 * kind of mark drawn is in the legend and every mark that needs words has a label; no two texts
 * meet and none crosses the picture's edges, for the demo's own story and for crafted crowds of
 * labels at one spot; time stamps to the millisecond, and a test clock's or an instant's timeline
 * gets a caption and an axis that say so.
 */
class PictureTest {
  private static final String PLOT = "src/test/resources/io/fluxdrm/showcase/plot/";

  /** The demo's story: the job manager's transcript and the DVM's, merged as the demo does. */
  static Timeline story() {
    return merged(PLOT + "demo-story.jsonl", PLOT + "demo-story-dvm.jsonl");
  }

  static Timeline merged(String... files) {
    List<TranscriptLine> lines = new ArrayList<>();
    for (String f : files) {
      lines.addAll(Transcript.read(Path.of(f)));
    }
    lines.sort(java.util.Comparator.comparing(TranscriptLine::time));
    return TimelineBuilder.of(lines);
  }

  /**
   * The summary of the demo's story counts what happened: 3 grants adding 6 nodes (A's EXTEND of 2,
   * A's NEW of node15, B's 3), 2 taking 3 (node15 handed back, A's 2 released), the spawn held
   * during the grow and B's grow held, 1 denial, 1 rolled-back grow. The picture said "8
   * node grows, 3 denied": a ▲ from each transcript, the denial from each, the rollback as one.
   */
  @Test
  void demoStory_summaryCountsEachEventOnce() {
    Picture p = Plots.picture(story(), "fluxdrm demo", 1200, 0);
    assertThat(p.counts()).isEqualTo(new Picture.Counts(16, 2, 3, 6, 2, 3, 2, 1, 1, 0));
    assertThat(String.join(" ", p.summary()))
        .startsWith(
            "16 nodes, 2 jobs, 3 grows (+6 nodes ▲), 2 shrinks (−3 nodes ▼), 2 held, 1 denied,"
                + " 1 rolled back, over 1.16 s from 2026-12-06T13:04:47.181Z");
    assertThat(p.labels())
        .filteredOn(l -> l.cls().equals("summary"))
        .extracting(Picture.Label::text)
        .isEqualTo(p.summary());
  }

  /**
   * The counts are the timeline's, whatever it is: ▲ and ▼ per node, grants per job and time,
   * denials, rollbacks in the lane; and a grow shown by both transcripts is counted as by one.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("timelines")
  void counts_equalWhatTheTimelineHolds(String name, Supplier<Timeline> timeline) {
    Timeline t = timeline.get();
    Picture.Counts c = Plots.picture(t, name, 1200, 0).counts();
    assertThat(c.nodes()).isEqualTo(t.rows().size());
    assertThat(c.jobs()).isEqualTo(t.jobs().size());
    assertThat(c.grownNodes()).isEqualTo(count(t, Timeline.MarkKind.GROW));
    assertThat(c.shrunkNodes()).isEqualTo(count(t, Timeline.MarkKind.SHRINK));
    assertThat(c.grows()).isEqualTo(grants(t, Timeline.MarkKind.GROW));
    assertThat(c.shrinks()).isEqualTo(grants(t, Timeline.MarkKind.SHRINK));
    assertThat(c.denied()).isEqualTo(count(t, Timeline.MarkKind.DENIED));
    assertThat(c.rolledBack())
        .isEqualTo(
            (int)
                t.marks().stream()
                    .filter(m -> m.kind() == Timeline.MarkKind.ROLLBACK && m.row() < 0)
                    .count());
  }

  @Test
  void demoStory_aGrowBothTranscriptsShowIsCountedOnce() {
    Picture.Counts both = Plots.picture(story(), "both", 1200, 0).counts();
    Picture.Counts jm = Plots.picture(merged(PLOT + "demo-story.jsonl"), "jm", 1200, 0).counts();
    assertThat(both.grows()).isEqualTo(jm.grows()).isEqualTo(3);
    assertThat(both.grownNodes()).isEqualTo(jm.grownNodes()).isEqualTo(6);
    assertThat(both.shrinks()).isEqualTo(jm.shrinks());
    assertThat(both.denied()).isEqualTo(jm.denied()).isEqualTo(1);
  }

  private static int count(Timeline t, Timeline.MarkKind k) {
    return (int) t.marks().stream().filter(m -> m.kind() == k).count();
  }

  private static int grants(Timeline t, Timeline.MarkKind k) {
    Set<String> g = new HashSet<>();
    t.marks().stream().filter(m -> m.kind() == k).forEach(m -> g.add(m.job() + "/" + m.at()));
    return g.size();
  }

  static Stream<Arguments> timelines() {
    return Stream.of(
        Arguments.of("demo story", (Supplier<Timeline>) PictureTest::story),
        Arguments.of(
            "demo processes",
            (Supplier<Timeline>)
                () -> merged(PLOT + "demo-processes.jsonl", PLOT + "demo-processes-dvm.jsonl")),
        Arguments.of("job manager (older)", (Supplier<Timeline>) () -> merged(PLOT + "demo.jsonl")),
        Arguments.of(
            "dvm",
            (Supplier<Timeline>)
                () -> TimelineBuilder.of(Transcript.parse(DvmTranscripts.elasticStory(), "dvm"))),
        Arguments.of(
            "synthetic",
            (Supplier<Timeline>)
                () ->
                    TimelineBuilder.of(
                        Transcript.parse(SyntheticTranscript.of(300, 24, 5), "synthetic"))),
        Arguments.of("crowded", (Supplier<Timeline>) PictureTest::crowded));
  }

  /**
   * Every kind of symbol drawn has its legend entry, and every mark whose symbol needs words (a
   * held, denied, rolled-back or cancelled request, a session's event) and every wait has a label
   * that is drawn: the picture had a held spawn as two unlabelled dashes and no ◆ in its
   * legend.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("timelines")
  void everySymbolInTheLegend_everyMarkThatNeedsWordsLabelled(
      String name, Supplier<Timeline> timeline) {
    Timeline t = timeline.get();
    Picture p = Plots.picture(t, name, 1200, 0);
    Set<Picture.Symbol> legend = EnumSet.noneOf(Picture.Symbol.class);
    p.legend().stream().filter(e -> e.symbol() != null).forEach(e -> legend.add(e.symbol()));
    Set<Picture.Symbol> drawn = EnumSet.noneOf(Picture.Symbol.class);
    p.drawn().forEach(d -> drawn.add(d.symbol()));
    assertThat(legend).as("legend").containsAll(drawn);
    for (Picture.Drawn d : p.drawn()) {
      if (d.symbol().needsLabel() || d.waitIndex() >= 0) {
        assertThat(d.label()).as("label of %s", d).isNotNegative();
        assertThat(p.labels().get(d.label()).cls()).isEqualTo("mark-text");
        assertThat(p.labels().get(d.label()).text()).isNotBlank();
      }
    }
    // every wait and every mark that needs words is drawn
    long needing =
        t.marks().stream()
            .filter(
                m ->
                    m.kind() == Timeline.MarkKind.SESSION
                        || m.kind() == Timeline.MarkKind.ROLLBACK
                        || m.row() < 0
                            && EnumSet.of(
                                    Timeline.MarkKind.HELD,
                                    Timeline.MarkKind.DENIED,
                                    Timeline.MarkKind.ROLLBACK,
                                    Timeline.MarkKind.CANCELED)
                                .contains(m.kind()))
            .count();
    assertThat(p.drawn().stream().filter(d -> d.mark() >= 0 && d.symbol().needsLabel()))
        .hasSize((int) needing);
    assertThat(p.drawn().stream().filter(d -> d.waitIndex() >= 0)).hasSize(t.waits().size());
  }

  @Test
  void demoStory_theHeldSpawnAndTheDiamondsAreExplained() {
    Picture p = Plots.picture(story(), "fluxdrm demo", 1200, 0);
    assertThat(p.legend())
        .extracting(Picture.LegendEntry::symbol)
        .contains(Picture.Symbol.HELD, Picture.Symbol.SESSION, Picture.Symbol.ROLLBACK);
    assertThat(p.labels())
        .filteredOn(l -> l.cls().equals("mark-text"))
        .extracting(Picture.Label::text)
        .containsExactlyInAnyOrder(
            "spawn onto node[12-13] held until their daemons were up, then PMIX_SUCCESS",
            "grow onto node15 rolled back (PMIX_ERR_DVM_MOD)",
            "ƒ3 grow held, then granted",
            "ƒ2 grow denied: unsatisfiable request: need 17 exclusive node(s), only 12 eligible",
            "session 1000 paused, resumed, terminated, complete");
  }

  static Stream<Arguments> layouts() {
    List<Arguments> a = new ArrayList<>();
    for (Arguments t : timelines().toList()) {
      for (int[] size : new int[][] {{480, 0}, {800, 0}, {1200, 0}, {3000, 0}, {900, 300}}) {
        a.add(Arguments.of(t.get()[0], t.get()[1], size[0], size[1]));
      }
    }
    return a.stream();
  }

  /**
   * No two texts of the picture meet, and none crosses its edges: the title, the summary's and the
   * legend's lines, the lane's texts, the nodes' names, the jobs' ids, the ticks. The issue's
   * picture drew four session texts on one spot and off the right edge.
   */
  @ParameterizedTest(name = "{0} {2}x{3}")
  @MethodSource("layouts")
  void labels_neitherOverlapNorCrossTheEdges(
      String name, Supplier<Timeline> timeline, int width, int height) {
    Picture p = Plots.picture(timeline.get(), name, width, height);
    List<Picture.Label> ls = p.labels();
    for (int i = 0; i < ls.size(); i++) {
      assertThat(ls.get(i).inside(p.width(), p.height()))
          .as("%s inside %dx%d", ls.get(i), p.width(), p.height())
          .isTrue();
      for (int j = i + 1; j < ls.size(); j++) {
        assertThat(ls.get(i).overlaps(ls.get(j))).as("%s and %s", ls.get(i), ls.get(j)).isFalse();
      }
    }
    assertThat(ls).extracting(Picture.Label::cls).contains("title", "summary", "tick");
  }

  /**
   * Many labels at one spot: forty session events on one row, thirty denials, ten held requests and
   * a rollback at one time, near the right edge. Each gets a label, grouped with its neighbours,
   * within the lane's sub-lanes.
   */
  static Timeline crowded() {
    long span = 1_000_000_000L;
    long at = span - 2_000_000L;
    List<Timeline.Mark> marks = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      marks.add(
          new Timeline.Mark(
              i % 3, at + i, Timeline.MarkKind.SESSION, -1, "session " + (7 + i % 3) + " paused"));
    }
    for (int i = 0; i < 30; i++) {
      marks.add(
          new Timeline.Mark(
              -1, at, Timeline.MarkKind.DENIED, 0, "ƒ2 grow denied: request " + i + " too large"));
    }
    List<Timeline.Wait> waits = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      marks.add(new Timeline.Mark(-1, at - 5 * i, Timeline.MarkKind.HELD, 0, "ƒ2 grow waits"));
      waits.add(new Timeline.Wait(0, at - 5 * i, span, "ƒ2 grow " + i + " held, then granted"));
    }
    marks.add(
        new Timeline.Mark(-1, at, Timeline.MarkKind.ROLLBACK, -1, "grow onto n1 rolled back"));
    marks.add(new Timeline.Mark(1, at, Timeline.MarkKind.ROLLBACK, -1, ""));
    marks.add(new Timeline.Mark(-1, 0, Timeline.MarkKind.CANCELED, 0, "ƒ2 grow canceled"));
    marks.sort(java.util.Comparator.comparingLong(Timeline.Mark::at));
    return new Timeline(
        Instant.parse("2026-12-06T06:09:32.731000064Z"),
        span,
        List.of(
            new Timeline.Row("n0", 0),
            new Timeline.Row("n1", 1),
            new Timeline.Row("a-node-with-a-long-name-2", 2)),
        List.of(new Timeline.Job("flux:1", "ƒ2", Timeline.Source.FLUX)),
        List.of(
            new Timeline.Bar(0, 0, 0, span, Timeline.Phase.HELD, true),
            new Timeline.Bar(1, 0, span / 2, span, Timeline.Phase.RELEASING, false)),
        marks,
        waits,
        0);
  }

  @Test
  void crowded_everyMarkLabelledWithinTheLanes_textsCutShortSayHowManyMore() {
    Picture p = Plots.picture(crowded(), "crowded", 480, 0);
    List<Picture.Label> lane =
        p.labels().stream().filter(l -> l.cls().equals("mark-text")).toList();
    assertThat(lane).isNotEmpty().hasSizeLessThanOrEqualTo(LaneLayout.MAX_LANES);
    assertThat(p.drawn()).allMatch(d -> !d.symbol().needsLabel() || d.label() >= 0);
    // forty sessions, thirty denials, ten waits at one spot do not fit in 480 px: cut short
    assertThat(lane)
        .extracting(Picture.Label::text)
        .anyMatch(s -> s.matches(".*… \\(\\+\\d+ more\\)"));
  }

  // ---- time stamps and clocks ------------------------------------------------------------------

  /** The time stamp printed as {@code 06:09:32.731000064Z}: now to the millisecond. */
  @Test
  void summary_timeStampToTheMillisecond() {
    Picture p = Plots.picture(crowded(), "crowded", 1200, 0);
    assertThat(String.join(" ", p.summary()))
        .contains("over 1.00 s from 2026-12-06T06:09:32.731Z")
        .doesNotContain("731000064");
    assertThat(SceneLayout.stamp(Instant.parse("2026-12-06T13:04:47.180999936Z")))
        .isEqualTo("2026-12-06T13:04:47.181Z");
    assertThat(SceneLayout.stamp(Instant.parse("2026-12-06T13:04:47Z")))
        .isEqualTo("2026-12-06T13:04:47.000Z");
  }

  private static final String GRANT =
      "{\"id\":1,\"type\":0,\"R\":{\"version\":1,\"execution\":{\"R_lite\":[{\"rank\":\"0\","
          + "\"children\":{\"core\":\"0\"}}],\"starttime\":0,\"expiration\":0,"
          + "\"nodelist\":[\"n0\"]}}}";

  private static Timeline allocAt(String requested, String granted) {
    return TimelineBuilder.of(
        Transcript.parse(
            List.of(
                line(requested, "out", "request", "{\"id\":1}"),
                line(granted, "in", "response", GRANT)),
            "test"));
  }

  private static String line(String time, String dir, String type, String payload) {
    return "{\"time\":\""
        + time
        + "\",\"direction\":\""
        + dir
        + "\",\"type\":\""
        + type
        + "\",\"flags\":11,\"topic\":\"sched.alloc\",\"matchtag\":1,"
        + (type.equals("request") ? "\"nodeid\":0" : "\"errnum\":0")
        + ",\"userid\":0,\"rolemask\":1,\"payload\":"
        + payload
        + "}";
  }

  /**
   * A test's transcript, its clock from the epoch and 350 µs long: no date of 1970, no "0.0 ms",
   * the axis in µs.
   */
  @Test
  void testClock_tinySpan_captionWithoutDate_axisInMicroseconds() throws Exception {
    Timeline t = allocAt("1970-01-01T00:00:00Z", "1970-01-01T00:00:00.000350Z");
    Picture p = Plots.picture(t, "test", 800, 0);
    String summary = String.join(" ", p.summary());
    assertThat(summary).endsWith("over 350 µs, times from the first line");
    Document d = PlotsTest.parse(Plots.svg(t, "test", 800, 0));
    // no text nor tooltip of the picture
    assertThat(d.getDocumentElement().getTextContent())
        .doesNotContain("1970")
        .doesNotContain("0.0 ms");
    assertThat(PlotsTest.withClass(d, "text", "axis-label"))
        .extracting(Element::getTextContent)
        .contains("time (µs)");
    assertThat(PlotsTest.withClass(d, "text", "tick"))
        .extracting(Element::getTextContent)
        .contains("0", "100", "300");
  }

  /** Every line at one time stamp (a test that never advances its clock): said so. */
  @Test
  void oneInstant_captionAndAxisSaySo() throws Exception {
    Timeline t = allocAt("1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z");
    Picture p = Plots.picture(t, "test", 800, 0);
    assertThat(String.join(" ", p.summary()))
        .endsWith("every line at one instant (no time passes)")
        .doesNotContain("1970")
        .doesNotContain("0.0 ms");
    Document d = PlotsTest.parse(Plots.svg(t, "test", 800, 0));
    assertThat(PlotsTest.withClass(d, "text", "axis-label"))
        .extracting(Element::getTextContent)
        .contains("time (every line at one instant)");
    assertThat(PlotsTest.withClass(d, "text", "tick"))
        .extracting(Element::getTextContent)
        .containsExactly("0");
  }
}
