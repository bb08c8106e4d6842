package io.fluxdrm.checks.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/scenarios.md} has one row per scenario id and says which tests stand for it. This
 * test reads the table and the repository's test sources and checks that the ids are whole (each
 * section's ids run from 1 without a gap, F once, §7.1–§7.9, §8.1–§8.7, each once), that every
 * {@code Class#method} named exists, that every test method named after an id (a leading {@code
 * c3_}, {@code e4_e5_}, {@code g7_1_}; a step-table scenario declared with the ids {@code C3} and
 * the title {@code x} counts as a method {@code c3_x}) is named in that id's row, and that a
 * verdict is "follows the scenario", "departs: DNNN" with an existing decision, or "not tested:
 * why". With {@code -Dfluxdrm.conformance} pointing at the shared corpus, beside which lies the
 * founding scenario list, the ids of that list must be the table's A to F ids (decision D560).
 */
class ScenarioTableTest {
  private static final Path ROOT = Path.of("..");
  private static final Pattern ROW =
      Pattern.compile("^\\| (\\S+) \\| (.*) \\| (.*) \\| (.*) \\| (.*) \\|$");
  private static final Pattern TEST = Pattern.compile("`([A-Za-z0-9]+)#([A-Za-z0-9_]+)`");
  private static final Pattern ID = Pattern.compile("([A-E])(\\d{1,2})|F|§([78])\\.(\\d)");
  private static final Pattern METHOD = Pattern.compile("\\bvoid ([A-Za-z0-9_]+)\\(");
  private static final Pattern SCENARIO =
      Pattern.compile("\\bscenario\\(\\s*\"([^\"]*)\",\\s*\"([A-Za-z0-9_]+)\"");
  private static final Pattern LEADING = Pattern.compile("([a-e])(\\d{1,2})_");
  private static final Pattern GUARANTEE = Pattern.compile("g([78])_(\\d)_");
  private static final Pattern DEPARTS = Pattern.compile("departs: (D\\d{3,})\\b.*");

  record Row(String id, List<String> tests, String verdict, int line) {}

  static List<Row> rows(String md) {
    List<Row> out = new ArrayList<>();
    String[] lines = md.split("\n", -1);
    boolean in = false;
    for (int i = 0; i < lines.length; i++) {
      String l = lines[i];
      if (l.startsWith("| id | scenario | tests |")) {
        in = true;
        continue;
      }
      if (!in || l.startsWith("| ---")) {
        continue;
      }
      if (!l.startsWith("|")) {
        break;
      }
      Matcher m = ROW.matcher(l);
      assertThat(m.matches()).as("docs/scenarios.md:%d: five cells, found %s", i + 1, l).isTrue();
      List<String> tests = new ArrayList<>();
      Matcher t = TEST.matcher(m.group(3));
      while (t.find()) {
        tests.add(t.group(1) + "#" + t.group(2));
      }
      out.add(new Row(m.group(1), tests, m.group(5), i + 1));
    }
    return out;
  }

  /** The ids a test method's name says it stands for: {@code c3_c4_x} → C3, C4. */
  static List<String> idsOf(String method) {
    Matcher g = GUARANTEE.matcher(method);
    if (g.lookingAt()) {
      return List.of("§" + g.group(1) + "." + g.group(2));
    }
    List<String> ids = new ArrayList<>();
    Matcher m = LEADING.matcher(method);
    int at = 0;
    while (m.find(at) && m.start() == at) {
      ids.add(m.group(1).toUpperCase(java.util.Locale.ROOT) + m.group(2));
      at = m.end();
    }
    return ids;
  }

  /**
   * The name a step-table scenario goes by here, as if it were a method: the one declared with the
   * ids {@code C3 C4} and the title {@code x} is {@code c3_c4_x}, with {@code §7.1} {@code g7_1_x},
   * one without an id its title.
   */
  static String scenarioName(String ids, String title) {
    StringBuilder b = new StringBuilder();
    for (String id : ids.split(" ")) {
      if (!id.isEmpty()) {
        b.append(id.toLowerCase(java.util.Locale.ROOT).replace("§", "g").replace('.', '_'))
            .append('_');
      }
    }
    return b + title;
  }

  /**
   * Every test source of the repository: class name → its method names and its step-table
   * scenarios' names ({@link #scenarioName}).
   */
  static Map<String, Set<String>> testMethods() throws IOException {
    Map<String, Set<String>> out = new TreeMap<>();
    try (Stream<Path> modules = Files.list(ROOT)) {
      for (Path m : modules.filter(Files::isDirectory).sorted().toList()) {
        Path src = m.resolve("src/test/java");
        if (!Files.isDirectory(src)) {
          continue;
        }
        try (Stream<Path> files = Files.walk(src)) {
          for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
            String name = f.getFileName().toString().replace(".java", "");
            Set<String> ms = out.computeIfAbsent(name, k -> new TreeSet<>());
            Matcher mm = METHOD.matcher(Files.readString(f));
            while (mm.find()) {
              ms.add(mm.group(1));
            }
            Matcher sm = SCENARIO.matcher(Files.readString(f));
            while (sm.find()) {
              ms.add(scenarioName(sm.group(1), sm.group(2)));
            }
          }
        }
      }
    }
    return out;
  }

  /** What is wrong with the table, one line each. */
  static List<String> problems(
      List<Row> rows, Map<String, Set<String>> sources, Set<String> decisions) {
    List<String> out = new ArrayList<>();
    Map<String, Row> byId = new LinkedHashMap<>();
    Map<String, Integer> highest = new TreeMap<>();
    for (Row r : rows) {
      String at = "docs/scenarios.md:" + r.line() + ": ";
      if (byId.put(r.id(), r) != null) {
        out.add(at + r.id() + ": a second row");
      }
      Matcher id = ID.matcher(r.id());
      if (!id.matches()) {
        out.add(at + r.id() + ": not a scenario id (expected: A1…E99, F, §7.N or §8.N)");
      } else if (id.group(1) != null) {
        highest.merge(id.group(1), Integer.parseInt(id.group(2)), Math::max);
      } else if (id.group(3) != null) {
        highest.merge("§" + id.group(3) + ".", Integer.parseInt(id.group(4)), Math::max);
      }
      for (String t : r.tests()) {
        String[] cm = t.split("#");
        Set<String> ms = sources.get(cm[0]);
        if (ms == null) {
          out.add(at + t + ": no test class " + cm[0]);
        } else if (!ms.contains(cm[1])) {
          out.add(at + t + ": no method " + cm[1] + " in " + cm[0]);
        }
      }
      String v = r.verdict();
      Matcher d = DEPARTS.matcher(v);
      if (d.matches()) {
        if (!decisions.contains(d.group(1))) {
          out.add(at + v + ": no decision " + d.group(1));
        }
      } else if (!v.startsWith("follows the scenario") && !v.startsWith("not tested: ")) {
        out.add(
            at
                + v
                + ": not a verdict (expected: follows the scenario, departs: DNNN or not tested:"
                + " why)");
      }
      if (v.startsWith("follows the scenario") && r.tests().isEmpty()) {
        out.add(at + r.id() + ": follows the scenario with no test named");
      }
    }
    highest.forEach(
        (section, n) -> {
          for (int i = 1; i <= n; i++) {
            String want = section.startsWith("§") ? section + i : section + i;
            if (!byId.containsKey(want)) {
              out.add("docs/scenarios.md: " + want + ": no row (its section runs to " + n + ")");
            }
          }
        });
    for (String s : List.of("A", "B", "C", "D", "E", "§7.", "§8.")) {
      if (!highest.containsKey(s)) {
        out.add("docs/scenarios.md: no row of section " + s);
      }
    }
    if (!byId.containsKey("F")) {
      out.add("docs/scenarios.md: no row F");
    }
    for (Map.Entry<String, Set<String>> e : sources.entrySet()) {
      if (!e.getKey().endsWith("Test")) {
        continue;
      }
      for (String m : e.getValue()) {
        for (String id : idsOf(m)) {
          Row r = byId.get(id);
          String t = e.getKey() + "#" + m;
          if (r == null) {
            out.add(t + ": named after " + id + ", which has no row");
          } else if (!r.tests().contains(t)) {
            out.add(
                t
                    + ": named after "
                    + id
                    + " but not in its row (docs/scenarios.md:"
                    + r.line()
                    + ")");
          }
        }
      }
    }
    return out;
  }

  static Set<String> decisions() throws IOException {
    Set<String> out = new LinkedHashSet<>();
    try (Stream<Path> s = Files.list(ROOT.resolve("docs/decisions"))) {
      s.map(p -> p.getFileName().toString())
          .filter(n -> n.matches("D\\d+\\.md"))
          .forEach(n -> out.add(n.replace(".md", "")));
    }
    return out;
  }

  @Test
  void theTableNamesEveryScenarioOnceItsTestsExistAndEveryScenarioTestIsInItsRow()
      throws IOException {
    List<Row> rows = rows(Files.readString(ROOT.resolve("docs/scenarios.md")));
    Map<String, Set<String>> sources = testMethods();
    assertThat(sources).containsKey("ScenarioTableTest");
    assertThat(rows).hasSizeGreaterThan(100);
    assertThat(problems(rows, sources, decisions())).isEmpty();
  }

  @Test
  void problems_aMissingMethodARowMissingATestAGapAndABadVerdict_reported() {
    String md =
        """
        | id | scenario | tests | what they assert | verdict |
        | --- | --- | --- | --- | --- |
        | A1 | x | `FooTest#a1_ok` | x | follows the scenario |
        | A3 | x | `FooTest#a3_gone` | x | departs: D999 |
        | B1 | x | — | x | follows the scenario |
        | C1 | x | `FooTest#c1_ok` | x | fine |
        | C1 | x | `BarTest#c1_x` | x | not tested: no |
        """;
    Map<String, Set<String>> sources =
        Map.of("FooTest", Set.of("a1_ok", "c1_ok", "c2_c1_both", "f58_notAScenario"));
    List<String> p = problems(rows(md), sources, Set.of("D100"));
    assertThat(p)
        .contains(
            "docs/scenarios.md:4: FooTest#a3_gone: no method a3_gone in FooTest",
            "docs/scenarios.md:4: departs: D999: no decision D999",
            "docs/scenarios.md:5: B1: follows the scenario with no test named",
            "docs/scenarios.md:6: fine: not a verdict (expected: follows the scenario, departs:"
                + " DNNN or not tested: why)",
            "docs/scenarios.md:7: C1: a second row",
            "docs/scenarios.md:7: BarTest#c1_x: no test class BarTest",
            "docs/scenarios.md: A2: no row (its section runs to 3)",
            "docs/scenarios.md: no row F",
            "FooTest#c2_c1_both: named after C2, which has no row");
    assertThat(idsOf("e4_e5_e6_nonSuccess")).containsExactly("E4", "E5", "E6");
    assertThat(idsOf("g7_3_x")).containsExactly("§7.3");
    assertThat(idsOf("f58_jobId")).isEmpty();
    assertThat(scenarioName("C3 C4", "relayed")).isEqualTo("c3_c4_relayed");
    assertThat(scenarioName("§7.1", "held")).isEqualTo("g7_1_held");
    assertThat(scenarioName("", "tryingItOut")).isEqualTo("tryingItOut");
  }

  /** With the shared corpus: the A–F ids of the founding list are exactly the table's A–F ids. */
  @Test
  void withTheCorpus_theTableHasExactlyTheIdsOfTheScenarioSpec() throws IOException {
    String root = System.getProperty("fluxdrm.conformance", "");
    assumeTrue(!root.isBlank(), "fluxdrm.conformance is not set");
    Path spec =
        Path.of(root)
            .toAbsolutePath()
            .normalize()
            .resolveSibling("spec")
            .resolve("pmix")
            .resolve("04-test-scenarios.md");
    assumeTrue(Files.isRegularFile(spec), "no founding scenario list beside the corpus: " + spec);
    Set<String> want = new TreeSet<>();
    Matcher m = Pattern.compile("(?m)^\\| ([A-E]\\d{1,2}) \\|").matcher(Files.readString(spec));
    while (m.find()) {
      want.add(m.group(1));
    }
    if (Files.readString(spec).contains("## F.")) {
      want.add("F");
    }
    Set<String> have = new TreeSet<>();
    for (Row r : rows(Files.readString(ROOT.resolve("docs/scenarios.md")))) {
      if (!r.id().startsWith("§")) {
        have.add(r.id());
      }
    }
    assertThat(have).isEqualTo(want);
  }
}
