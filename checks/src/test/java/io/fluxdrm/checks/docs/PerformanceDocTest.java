package io.fluxdrm.checks.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The "Benchmarks" table of {@code docs/performance.md} names every JMH benchmark class of the
 * repository (a class with a {@code @Benchmark} method under a module's {@code src/jmh/java}), with
 * its module, a command running it from that module's {@code benchmarks.jar}, and a link to a
 * section of the page; and it names no class that does not exist.
 */
class PerformanceDocTest {
  private static final Path ROOT = Path.of("..");
  private static final Pattern ROW =
      Pattern.compile(
          "^\\| `(\\w+)` \\| `([\\w-]+)` \\| `([^`]+)` \\| \\[[^]]+]\\(#([^)]+)\\) \\|$");

  /** Class name to module, for every benchmark class in the repository. */
  static Map<String, String> benchmarkClasses(Path root) throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (Stream<Path> modules = Files.list(root)) {
      for (Path m : modules.sorted().toList()) {
        Path jmh = m.resolve("src/jmh/java");
        if (!Files.isDirectory(jmh)) {
          continue;
        }
        try (Stream<Path> files = Files.walk(jmh)) {
          for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
            if (Files.readString(f).contains("@Benchmark")) {
              String name = f.getFileName().toString();
              out.put(
                  name.substring(0, name.length() - ".java".length()), m.getFileName().toString());
            }
          }
        }
      }
    }
    return out;
  }

  /** How the table of {@code markdown} disagrees with {@code classes}. */
  static List<String> problems(Map<String, String> classes, String markdown) {
    List<String> problems = new ArrayList<>();
    Set<String> anchors = DocMarkdown.anchors(markdown);
    Map<String, String[]> rows = new LinkedHashMap<>();
    boolean inTable = false;
    for (DocMarkdown.Line l : DocMarkdown.lines(markdown)) {
      if (l.level() > 0) {
        inTable = l.heading().equals("Benchmarks");
        continue;
      }
      Matcher m = ROW.matcher(l.text());
      if (inTable && m.matches()) {
        rows.put(m.group(1), new String[] {m.group(2), m.group(3), m.group(4), "" + l.number()});
      }
    }
    classes.forEach(
        (cls, module) -> {
          String[] row = rows.get(cls);
          if (row == null) {
            problems.add(cls + " (" + module + "): not in the Benchmarks table");
            return;
          }
          if (!row[0].equals(module)) {
            problems.add(cls + ": module " + row[0] + " (expected: " + module + ")");
          }
          String jar = "java -jar " + module + "/target/benchmarks.jar ";
          if (!row[1].startsWith(jar) || !row[1].contains(cls)) {
            problems.add(cls + ": command " + row[1] + " (expected: " + jar + "..." + cls + "...)");
          }
          if (!anchors.contains(row[2])) {
            problems.add(cls + ": link #" + row[2] + " names no section of the page");
          }
        });
    rows.keySet().stream()
        .filter(c -> !classes.containsKey(c))
        .forEach(
            c -> problems.add("line " + rows.get(c)[3] + ": " + c + ": no such benchmark class"));
    return problems;
  }

  @Test
  void performanceMd_namesEveryBenchmarkClass() throws IOException {
    Map<String, String> classes = benchmarkClasses(ROOT);
    assertThat(classes).as("benchmark classes found").hasSizeGreaterThan(10);
    assertThat(problems(classes, Files.readString(ROOT.resolve("docs/performance.md")))).isEmpty();
  }

  @Test
  void problems_aNewClassAStaleRowAWrongCommandAndABadLink_reported() {
    String md =
        """
        # Performance

        ## Benchmarks

        | benchmark | module | run | section |
        | --- | --- | --- | --- |
        | `ABenchmark` | `rset` | `java -jar rset/target/benchmarks.jar ABenchmark -f 1` | [rset](#rset) |
        | `BBenchmark` | `rpc` | `java -jar rset/target/benchmarks.jar BBenchmark` | [rpc](#rpc-figures) |
        | `GoneBenchmark` | `rpc` | `java -jar rpc/target/benchmarks.jar GoneBenchmark` | [rpc](#rpc) |

        ## rset

        ## rpc
        """;
    Map<String, String> classes =
        Map.of("ABenchmark", "rset", "BBenchmark", "rpc", "NewBenchmark", "dvm");
    assertThat(problems(new TreeMap<>(classes), md))
        .containsExactlyInAnyOrder(
            "BBenchmark: command java -jar rset/target/benchmarks.jar BBenchmark (expected: java -jar"
                + " rpc/target/benchmarks.jar ...BBenchmark...)",
            "BBenchmark: link #rpc-figures names no section of the page",
            "NewBenchmark (dvm): not in the Benchmarks table",
            "line 9: GoneBenchmark: no such benchmark class");
  }
}
