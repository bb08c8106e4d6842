package io.fluxdrm.showcase.plot;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.transcript.Transcript;
import io.fluxdrm.showcase.timeline.DvmTranscripts;
import io.fluxdrm.showcase.timeline.SyntheticTranscript;
import io.fluxdrm.showcase.timeline.Timeline;
import io.fluxdrm.showcase.timeline.TimelineBuilder;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The pictures of the demo's transcript, of the DVM's traffic and of a 1,000-job synthetic one: the
 * SVG parsed by an XML parser and its content checked (rows, one fill per job, grow and shrink
 * marks on the right rows, labels), the PNG decoded by ImageIO.
 */
public class PlotsTest {
  static final Path DEMO = Path.of("src/test/resources/io/fluxdrm/showcase/plot/demo.jsonl");

  @BeforeAll
  static void headless() {
    System.setProperty("java.awt.headless", "true");
  }

  public static Document parse(String svg) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    return f.newDocumentBuilder()
        .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
  }

  public static List<Element> withClass(Document d, String tag, String cls) {
    List<Element> out = new ArrayList<>();
    NodeList nl = d.getElementsByTagName(tag);
    for (int i = 0; i < nl.getLength(); i++) {
      Element e = (Element) nl.item(i);
      if (List.of(e.getAttribute("class").split(" ")).containsAll(List.of(cls.split(" ")))) {
        out.add(e);
      }
    }
    return out;
  }

  @Test
  void demoSvg_validXml_rowsFillsMarksLabels() throws Exception {
    Timeline t = TimelineBuilder.of(Transcript.read(DEMO));
    Document d = parse(Plots.svg(t, "demo.jsonl", 1200, 0));
    Element svg = d.getDocumentElement();
    assertThat(svg.getNamespaceURI()).isEqualTo("http://www.w3.org/2000/svg");
    assertThat(svg.getAttribute("width")).isEqualTo("1200");
    // one row label per node, in order
    assertThat(withClass(d, "text", "row"))
        .extracting(Element::getTextContent)
        .containsExactly(
            "node0", "node1", "node2", "node3", "node4", "node5", "node6", "node7", "node8",
            "node9", "node10", "node11", "node12", "node13", "node14", "node15");
    // one fill per job
    List<Element> bars = withClass(d, "rect", "bar");
    Set<String> fills = new HashSet<>();
    bars.forEach(b -> fills.add(b.getAttribute("fill")));
    assertThat(fills).hasSize(2);
    assertThat(bars).extracting(b -> b.getAttribute("data-job")).containsOnly("ƒ2", "ƒ3");
    // A's 4 initial nodes + its 4 grown ones (held, then releasing) + B's 8 + its 4 grown
    assertThat(bars).hasSize(4 + 4 + 4 + 8 + 4);
    assertThat(withClass(d, "rect", "bar releasing"))
        .extracting(b -> b.getAttribute("data-row"))
        .containsExactly("node12", "node13", "node14", "node15");
    // grow and shrink marks on the rows the grants changed
    assertThat(withClass(d, "polygon", "mark grow"))
        .extracting(e -> e.getAttribute("data-job") + "@" + e.getAttribute("data-row"))
        .containsExactlyInAnyOrder(
            "ƒ2@node12",
            "ƒ2@node13",
            "ƒ2@node14",
            "ƒ2@node15",
            "ƒ3@node12",
            "ƒ3@node13",
            "ƒ3@node14",
            "ƒ3@node15");
    assertThat(withClass(d, "polygon", "mark shrink"))
        .extracting(e -> e.getAttribute("data-row"))
        .containsExactlyInAnyOrder("node12", "node13", "node14", "node15");
    // each job's id on its bars, the denial and the held request written out
    assertThat(withClass(d, "text", "job-label"))
        .extracting(Element::getTextContent)
        .contains("ƒ2", "ƒ3");
    assertThat(withClass(d, "text", "mark-text"))
        .extracting(Element::getTextContent)
        .contains("ƒ3 grow held, then granted", "ƒ2 grow canceled")
        .anyMatch(s -> s.startsWith("ƒ2 grow denied: unsatisfiable request"));
    assertThat(withClass(d, "text", "title"))
        .extracting(Element::getTextContent)
        .containsExactly("Allocation over time: demo.jsonl");
    // the marks are where the bars change: each grow's x is the left edge of a bar on its row
    for (Element g : withClass(d, "polygon", "mark grow")) {
      double gx = Double.parseDouble(g.getAttribute("points").split(" ")[2].split(",")[0]);
      assertThat(bars)
          .filteredOn(
              b ->
                  b.getAttribute("data-row").equals(g.getAttribute("data-row"))
                      && b.getAttribute("data-job").equals(g.getAttribute("data-job")))
          .anyMatch(b -> Math.abs(Double.parseDouble(b.getAttribute("x")) - gx) < 0.5);
    }
  }

  @Test
  void syntheticSvg_thousandJobs_aFillPerJob_marksOnTheirRows() throws Exception {
    Timeline t =
        TimelineBuilder.of(Transcript.parse(SyntheticTranscript.of(1000, 64, 17), "synthetic"));
    long start = System.nanoTime();
    String svg = Plots.svg(t, "synthetic", 1600, 0);
    long ms = (System.nanoTime() - start) / 1_000_000;
    System.out.println(
        "synthetic 1000-job SVG: " + svg.length() + " chars in " + ms + " ms (JMH: PlotBenchmark)");
    Document d = parse(svg);
    assertThat(withClass(d, "text", "row")).hasSize(64);
    Set<String> fills = new HashSet<>();
    Set<String> jobs = new HashSet<>();
    for (Element b : withClass(d, "rect", "bar")) {
      fills.add(b.getAttribute("fill"));
      jobs.add(b.getAttribute("data-job"));
    }
    assertThat(jobs).hasSize(t.jobs().size());
    assertThat(fills).hasSize(t.jobs().size());
    List<String> want = new ArrayList<>();
    for (Timeline.Mark m : t.marks()) {
      if (m.kind() == Timeline.MarkKind.GROW) {
        want.add(t.jobs().get(m.job()).label() + "@" + t.rows().get(m.row()).name());
      }
    }
    assertThat(want).isNotEmpty();
    assertThat(withClass(d, "polygon", "mark grow"))
        .extracting(e -> e.getAttribute("data-job") + "@" + e.getAttribute("data-row"))
        .containsExactlyInAnyOrderElementsOf(want);
    assertThat(withClass(d, "polygon", "mark shrink"))
        .hasSize((int) t.marks().stream().filter(m -> m.kind() == Timeline.MarkKind.SHRINK).count())
        .isNotEmpty();
  }

  @Test
  void dvmSvg_daemonStripsAndMarks() throws Exception {
    Timeline t = TimelineBuilder.of(Transcript.parse(DvmTranscripts.elasticStory(), "dvm"));
    Document d = parse(Plots.svg(t, "dvm", 900, 0));
    assertThat(withClass(d, "rect", "daemon"))
        .extracting(e -> e.getAttribute("data-row"))
        .containsExactly("node1", "node2", "node3", "node4");
    assertThat(withClass(d, "polygon", "mark daemon-start")).hasSize(4);
    assertThat(withClass(d, "polygon", "mark daemon-up")).hasSize(3);
    assertThat(withClass(d, "polygon", "mark daemon-left")).hasSize(3);
    // on the node's row, and once in the lane of requests with its text
    assertThat(withClass(d, "polygon", "mark rollback"))
        .extracting(e -> e.getAttribute("data-row"))
        .containsExactly("", "node3");
  }

  @Test
  void svg_textWithMarkup_escaped() throws Exception {
    Timeline t = TimelineBuilder.of(Transcript.read(DEMO));
    Document d = parse(Plots.svg(t, "a<b>&\"c'\u0001", 800, 0));
    assertThat(withClass(d, "text", "title"))
        .extracting(Element::getTextContent)
        .containsExactly("Allocation over time: a<b>&\"c'\uFFFD");
  }

  @Test
  void png_sizeAsAsked_notBlank_barsInTheirColours() throws Exception {
    Timeline t = TimelineBuilder.of(Transcript.read(DEMO));
    BufferedImage im = ImageIO.read(new ByteArrayInputStream(Plots.png(t, "demo", 900, 520)));
    assertThat(im.getWidth()).isEqualTo(900);
    assertThat(im.getHeight()).isEqualTo(520);
    Set<Integer> colours = new HashSet<>();
    for (int y = 0; y < im.getHeight(); y += 3) {
      for (int x = 0; x < im.getWidth(); x += 3) {
        colours.add(im.getRGB(x, y) & 0xffffff);
      }
    }
    assertThat(colours.size()).isGreaterThan(20);
    // the centre of a bar of each job is its colour
    Scene s = SceneLayout.of(t, "demo", 900, 520);
    List<String> palette = SceneLayout.colours(t);
    for (String job : List.of("ƒ2", "ƒ3")) {
      Scene.Rect r =
          s.shapes().stream()
              .filter(
                  x -> x instanceof Scene.Rect b && "bar".equals(b.cls()) && job.equals(b.job()))
              .map(Scene.Rect.class::cast)
              .findFirst()
              .orElseThrow();
      int rgb = im.getRGB((int) (r.x() + r.w() / 4), (int) (r.y() + r.h() / 2)) & 0xffffff;
      assertThat(String.format("#%06x", rgb)).isEqualTo(palette.get(job.equals("ƒ2") ? 0 : 1));
    }
  }

  /** The boxes of the SVG's texts, as {@link TextBox} measures them, with their text. */
  static List<String> overlappingOrOutside(Document d) {
    Element svg = d.getDocumentElement();
    double w = Double.parseDouble(svg.getAttribute("width"));
    double h = Double.parseDouble(svg.getAttribute("height"));
    List<TextBox> boxes = new ArrayList<>();
    List<String> texts = new ArrayList<>();
    NodeList nl = d.getElementsByTagName("text");
    for (int i = 0; i < nl.getLength(); i++) {
      Element e = (Element) nl.item(i);
      Scene.Anchor a =
          switch (e.getAttribute("text-anchor")) {
            case "middle" -> Scene.Anchor.MIDDLE;
            case "end" -> Scene.Anchor.END;
            default -> Scene.Anchor.START;
          };
      boxes.add(
          TextBox.of(
              new Scene.Text(
                  Double.parseDouble(e.getAttribute("x")),
                  Double.parseDouble(e.getAttribute("y")),
                  e.getTextContent(),
                  Double.parseDouble(e.getAttribute("font-size")),
                  "#000000",
                  a,
                  e.getAttribute("font-weight").equals("bold"),
                  false,
                  null,
                  null)));
      texts.add(e.getTextContent());
    }
    List<String> bad = new ArrayList<>();
    for (int i = 0; i < boxes.size(); i++) {
      if (!boxes.get(i).inside(w, h)) {
        bad.add("outside: " + texts.get(i));
      }
      for (int j = i + 1; j < boxes.size(); j++) {
        if (boxes.get(i).overlaps(boxes.get(j))) {
          bad.add("overlap: " + texts.get(i) + " / " + texts.get(j));
        }
      }
    }
    return bad;
  }

  /**
   * Issue 29, finding 5, on the SVG the demo writes of its own story (both transcripts): no two
   * texts meet and none leaves the picture (four session texts were drawn on one spot, off the
   * right edge), the ◆ drawn has its legend entry, the start is printed to the millisecond (it was
   * {@code 13:04:47.180999936Z}), and the summary counts 3 grows of 6 nodes and 1 denial (it said 8
   * and 3).
   */
  @Test
  void demoStorySvg_textsApart_diamondInTheLegend_stampToTheMillisecond() throws Exception {
    List<io.fluxdrm.rpc.transcript.TranscriptLine> lines = new ArrayList<>();
    for (String f : List.of("demo-story.jsonl", "demo-story-dvm.jsonl")) {
      lines.addAll(Transcript.read(Path.of("src/test/resources/io/fluxdrm/showcase/plot/" + f)));
    }
    lines.sort(java.util.Comparator.comparing(io.fluxdrm.rpc.transcript.TranscriptLine::time));
    Timeline t = TimelineBuilder.of(lines);
    for (int width : new int[] {480, 1200}) {
      Document d = parse(Plots.svg(t, "fluxdrm demo", width, 0));
      assertThat(overlappingOrOutside(d)).as("width %d", width).isEmpty();
      assertThat(withClass(d, "polygon", "mark session")).isNotEmpty();
      assertThat(withClass(d, "text", "legend"))
          .extracting(Element::getTextContent)
          .anyMatch(s -> s.startsWith("session"));
    }
    Document d = parse(Plots.svg(t, "fluxdrm demo", 1200, 0));
    String summary =
        String.join(
            " ", withClass(d, "text", "summary").stream().map(Element::getTextContent).toList());
    assertThat(summary)
        .contains("3 grows (+6 nodes ▲)")
        .contains("1 denied")
        .contains(" from 2026-12-06T13:04:47.181Z");
  }

  /** A test's transcript (its clock from the epoch): no "over 0.0 ms from 1970-01-01". */
  @Test
  void testClockSvg_noEpochDate() throws Exception {
    String grant =
        "{\"id\":1,\"type\":0,\"R\":{\"version\":1,\"execution\":{\"R_lite\":[{\"rank\":"
            + "\"0\",\"children\":{\"core\":\"0\"}}],\"starttime\":0,\"expiration\":0,"
            + "\"nodelist\":[\"n0\"]}}}";
    List<String> lines =
        List.of(
            "{\"time\":\"1970-01-01T00:00:00Z\",\"direction\":\"out\",\"type\":\"request\","
                + "\"flags\":11,\"topic\":\"sched.alloc\",\"matchtag\":1,\"nodeid\":0,"
                + "\"userid\":0,\"rolemask\":1,\"payload\":{\"id\":1}}",
            "{\"time\":\"1970-01-01T00:00:00.000040Z\",\"direction\":\"in\",\"type\":"
                + "\"response\",\"flags\":11,\"topic\":\"sched.alloc\",\"matchtag\":1,"
                + "\"errnum\":0,\"userid\":0,\"rolemask\":1,\"payload\":"
                + grant
                + "}");
    Timeline t = TimelineBuilder.of(Transcript.parse(lines, "test"));
    Document d = parse(Plots.svg(t, "test", 800, 0));
    String summary =
        String.join(
            " ", withClass(d, "text", "summary").stream().map(Element::getTextContent).toList());
    assertThat(summary).doesNotContain("1970").doesNotContain("0.0 ms").contains("40.0 µs");
  }

  @org.junit.jupiter.params.ParameterizedTest(name = "{0} -> {1}")
  @org.junit.jupiter.params.provider.CsvSource({
    "12, 12",
    "12.5, 12.5",
    "-0.25, -0.25",
    "3.05, 3.05",
    "0.001, 0",
    "1199.999, 1200",
    "-3, -3"
  })
  void svgNumbers_twoDecimalsAtMost(double v, String text) {
    assertThat(SvgWriter.n(v)).isEqualTo(text);
  }

  @Test
  void colours_manyJobs_allDistinct() {
    assertThat(new HashSet<>(JobColours.of(5000))).hasSize(5000);
  }

  @Test
  void terminalGrid_demo_oneLinePerNode_lettersAndMarks() {
    Timeline t = TimelineBuilder.of(Transcript.read(DEMO));
    String g = TerminalGrid.render(t, "demo", 80, false);
    List<String> lines = g.lines().toList();
    assertThat(lines.get(0)).startsWith("demo: 16 nodes, 2 jobs");
    assertThat(lines.subList(1, 17))
        .allSatisfy(l -> assertThat(l).matches(" *node\\d+ \\|[A-Za-z.^v]+\\|"));
    assertThat(lines.get(1)).contains("AAAA").doesNotContain("B");
    assertThat(lines.get(13))
        .startsWith("node12 |")
        .contains("^")
        .contains("v")
        .contains("a")
        .contains("B");
    assertThat(g).contains("jobs: A=ƒ2 B=ƒ3").doesNotContain("\u001b[");
    assertThat(TerminalGrid.render(t, "demo", 80, true)).contains("\u001b[30;48;5;");
  }
}
