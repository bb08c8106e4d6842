package io.fluxdrm.cli;

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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/decisions.md} is the index of {@code docs/decisions/DNNN.md}: this test checks every
 * decision file's header, the cross references between decisions, and that the index table lists
 * exactly the files, as they say. With {@code -Dfluxdrm.decisions.write=true} it rewrites the table
 * instead of failing on it.
 */
class DecisionsIndexTest {

  private static final Path DOCS = Path.of("..", "docs");
  private static final Pattern FILE = Pattern.compile("D(\\d{3,})\\.md");
  private static final Pattern TITLE = Pattern.compile("# D(\\d+) (\\S.*)");
  private static final Pattern STATUS =
      Pattern.compile(
          "Status: (accepted|superseded by (D\\d+(?:, D\\d+)*)) · Module: (\\S.*?) · Supersedes: (—|D\\d+(?:, D\\d+)*)");
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
    int at = text.indexOf(TABLE_HEAD);
    assertThat(at).as("docs/decisions.md has the index table").isNotNegative();
    String expected = table(read(DOCS.resolve("decisions")));
    if (Boolean.getBoolean("fluxdrm.decisions.write")) {
      Files.writeString(index, text.substring(0, at) + expected, StandardCharsets.UTF_8);
      text = Files.readString(index, StandardCharsets.UTF_8);
    }
    assertThat(text.substring(at))
        .as("docs/decisions.md's table (regenerate with -Dfluxdrm.decisions.write=true)")
        .isEqualTo(expected);
  }
}
