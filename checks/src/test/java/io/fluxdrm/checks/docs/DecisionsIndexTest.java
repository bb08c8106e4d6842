package io.fluxdrm.checks.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/decisions.md} is the index of {@code docs/decisions/DNNN.md}: this test checks every
 * decision file's header, the cross references between decisions, and that the index lists exactly
 * the files, as they say, grouped by topic: one section per topic, the first module of a file's
 * {@code Module} field, in the order of {@link #TOPICS} (decision D561). With {@code
 * -Dfluxdrm.decisions.write=true} it rewrites the sections instead of failing on them.
 */
class DecisionsIndexTest {

  private static final Path DOCS = Path.of("..", "docs");
  private static final Pattern FILE = Pattern.compile("D(\\d{3,})\\.md");
  private static final Pattern TITLE = Pattern.compile("# D(\\d+) (\\S.*)");
  private static final Pattern STATUS =
      Pattern.compile(
          "Status: (accepted|superseded by (D\\d+(?:, D\\d+)*)) · Module: (\\S.*?) · Supersedes: (—|D\\d+(?:, D\\d+)*)");

  /** The topics in the order of the module graph; a module not named here comes after them. */
  static final List<String> TOPICS =
      List.of(
          "all",
          "schemas",
          "rset",
          "jobspec",
          "rpc",
          "protocol",
          "sched-simple",
          "job-manager",
          "shell-plugin",
          "pmix",
          "bridge",
          "dvm",
          "pmix-native",
          "showcase",
          "cli",
          "checks",
          "testkit");

  private static final String SECTION = "## Topic: ";
  private static final String REGENERATE = "-Dfluxdrm.decisions.write=true";
  private static final String TABLE_HEAD =
      "| decision | title | status | superseded by | supersedes | module |\n"
          + "| --- | --- | --- | --- | --- | --- |\n";

  record Decision(
      int number,
      String file,
      String title,
      List<String> supersededBy,
      String module,
      List<String> supersedes) {}

  static List<Decision> read(Path dir) throws IOException {
    List<Decision> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.sorted().toList()) {
        String name = f.getFileName().toString();
        Matcher fm = FILE.matcher(name);
        assertThat(fm.matches()).as("%s: a decision file is named DNNN.md", name).isTrue();
        List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
        assertThat(lines.size())
            .as("%s: title, blank line, status line, body", name)
            .isGreaterThan(4);
        Matcher tm = TITLE.matcher(lines.get(0));
        assertThat(tm.matches()).as("%s:1: `# DN title`, found %s", name, lines.get(0)).isTrue();
        int n = Integer.parseInt(tm.group(1));
        assertThat(n)
            .as("%s:1: number matches the file name", name)
            .isEqualTo(Integer.parseInt(fm.group(1)));
        assertThat(lines.get(1)).as("%s:2: blank", name).isEmpty();
        Matcher sm = STATUS.matcher(lines.get(2));
        assertThat(sm.matches())
            .as(
                "%s:3: `Status: accepted|superseded by D… · Module: M · Supersedes: —|D…`, found %s",
                name, lines.get(2))
            .isTrue();
        out.add(
            new Decision(n, name, tm.group(2), list(sm.group(2)), sm.group(3), list(sm.group(4))));
      }
    }
    out.sort(Comparator.comparingInt(Decision::number));
    return out;
  }

  private static List<String> list(String s) {
    return s == null || s.equals("—") ? List.of() : List.of(s.split(", "));
  }

  /** The topic of a decision: the first module its {@code Module} field names. */
  static String topic(Decision d) {
    return d.module().split(",")[0].strip();
  }

  /** The index: one section per topic, each its table in decision order. */
  static String sections(List<Decision> ds) {
    Map<String, List<Decision>> byTopic =
        new TreeMap<>(Comparator.comparing(DecisionsIndexTest::rank));
    for (Decision d : ds) {
      byTopic.computeIfAbsent(topic(d), k -> new ArrayList<>()).add(d);
    }
    StringBuilder b = new StringBuilder();
    byTopic.forEach(
        (topic, in) -> {
          b.append(b.length() == 0 ? "" : "\n").append(SECTION).append(topic).append("\n\n");
          b.append(table(in));
        });
    return b.toString();
  }

  private static String rank(String topic) {
    int i = TOPICS.indexOf(topic);
    return String.format("%03d %s", i < 0 ? TOPICS.size() : i, topic);
  }

  static String table(List<Decision> ds) {
    StringBuilder b = new StringBuilder(TABLE_HEAD);
    for (Decision d : ds) {
      b.append("| [D")
          .append(d.number())
          .append("](decisions/")
          .append(d.file())
          .append(") | ")
          .append(d.title().replace("|", "\\|"))
          .append(" | ")
          .append(d.supersededBy().isEmpty() ? "accepted" : "superseded")
          .append(" | ")
          .append(d.supersededBy().isEmpty() ? "—" : String.join(", ", d.supersededBy()))
          .append(" | ")
          .append(d.supersedes().isEmpty() ? "—" : String.join(", ", d.supersedes()))
          .append(" | ")
          .append(d.module())
          .append(" |\n");
    }
    return b.toString();
  }

  @Test
  void everyDecisionFile_hasHeaderAndConsistentCrossReferences() throws IOException {
    List<Decision> ds = read(DOCS.resolve("decisions"));
    assertThat(ds).hasSizeGreaterThan(17);
    Map<String, Decision> byId = new LinkedHashMap<>();
    ds.forEach(d -> byId.put("D" + d.number(), d));
    for (Decision d : ds) {
      for (String s : d.supersedes()) {
        assertThat(byId).as("D%d supersedes %s, which has no file", d.number(), s).containsKey(s);
        assertThat(byId.get(s).supersededBy())
            .as("D%d supersedes %s, so %s says `superseded by D%d`", d.number(), s, s, d.number())
            .contains("D" + d.number());
      }
      for (String s : d.supersededBy()) {
        assertThat(byId)
            .as("D%d is superseded by %s, which has no file", d.number(), s)
            .containsKey(s);
        assertThat(byId.get(s).supersedes())
            .as("D%d is superseded by %s, so %s lists it under Supersedes", d.number(), s, s)
            .contains("D" + d.number());
      }
    }
  }

  @Test
  void index_listsExactlyTheDecisionFiles() throws IOException {
    Path index = DOCS.resolve("decisions.md");
    String text = Files.readString(index, StandardCharsets.UTF_8);
    int at = text.indexOf(SECTION);
    assertThat(at).as("docs/decisions.md has the index sections").isNotNegative();
    assertThat(text.substring(0, at))
        .as("docs/decisions.md's header keeps the command that regenerates the index")
        .contains(REGENERATE);
    String expected = sections(read(DOCS.resolve("decisions")));
    if (Boolean.getBoolean("fluxdrm.decisions.write")) {
      Files.writeString(index, text.substring(0, at) + expected, StandardCharsets.UTF_8);
      text = Files.readString(index, StandardCharsets.UTF_8);
    }
    assertThat(text.substring(at))
        .as("docs/decisions.md's sections (regenerate with " + REGENERATE + ")")
        .isEqualTo(expected);
  }

  @Test
  void sections_groupByTheFirstModuleInTheOrderOfTheGraph() {
    Decision a = new Decision(7, "D007.md", "a", List.of(), "dvm, cli", List.of());
    Decision b = new Decision(3, "D003.md", "b", List.of(), "all", List.of());
    Decision c = new Decision(9, "D009.md", "c", List.of(), "flux-plugin", List.of());
    Decision d = new Decision(8, "D008.md", "d", List.of(), "dvm", List.of());
    String s = sections(List.of(a, b, c, d));
    assertThat(s).startsWith(SECTION + "all\n\n" + TABLE_HEAD + "| [D3](decisions/D003.md) | b |");
    assertThat(s.indexOf(SECTION + "dvm")).isLessThan(s.indexOf(SECTION + "flux-plugin"));
    assertThat(s.substring(s.indexOf(SECTION + "dvm"), s.indexOf(SECTION + "flux-plugin")))
        .contains("[D7]", "[D8]")
        .doesNotContain("[D9]");
  }
}
