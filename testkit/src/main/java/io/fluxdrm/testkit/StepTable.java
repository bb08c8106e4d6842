package io.fluxdrm.testkit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.function.Executable;

/**
 * The step tables of the cores' tests: one step per line, its columns separated by {@code |}
 * (typically {@code event | decisions | state}), blank lines and lines starting with {@code #}
 * skipped, each cell trimmed. The scheduler core's harness introduced the form; the job manager's
 * and shell plugin's harnesses read the same one.
 *
 * <p>A test class with many scenarios, each a table of its own, lists them as {@link Scenario}s and
 * runs them as JUnit dynamic tests ({@link #tests}), one test per scenario named {@code "<scenario
 * id> <title>"}.
 */
public final class StepTable {

  /** One step: its 1-based line in the table, the whole line, and its trimmed cells. */
  public record Row(int line, String text, List<String> cells) {

    /** Cell {@code i}, or the empty string when the row has fewer cells. */
    public String cell(int i) {
      return i < cells.size() ? cells.get(i) : "";
    }

    /** Where this row is, for messages: {@code line 3: alloc 1 ...}. */
    public String where() {
      return "line " + line + ": " + text.strip();
    }
  }

  /**
   * One scenario of a test class: its id (as docs/scenarios.md numbers them: {@code C3}, {@code
   * §7.1}; several separated by a space; empty for a scenario with no id), its title (a Java
   * identifier saying what it shows) and how to run it (typically: a fresh fixture, its table, the
   * invariants once more at the end).
   */
  public record Scenario(String id, String title, Executable run) {

    /** Checks that the title is an identifier. */
    public Scenario {
      if (!title.matches("[A-Za-z][A-Za-z0-9_]*")) {
        throw new IllegalArgumentException("scenario title is not an identifier: " + title);
      }
    }

    /** The test's name: {@code "C3 pauseIsRelayed"}, or the title alone without an id. */
    public String name() {
      return id.isEmpty() ? title : id + " " + title;
    }
  }

  private StepTable() {}

  /**
   * One dynamic test per scenario, named {@link Scenario#name()}, in the order given.
   *
   * @throws IllegalArgumentException when two scenarios have the same name
   */
  public static Stream<DynamicTest> tests(List<Scenario> scenarios) {
    Set<String> names = new HashSet<>();
    for (Scenario s : scenarios) {
      if (!names.add(s.name())) {
        throw new IllegalArgumentException("two scenarios named " + s.name());
      }
    }
    return scenarios.stream().map(s -> DynamicTest.dynamicTest(s.name(), s.run()));
  }

  /**
   * Reads {@code table}.
   *
   * @param columns how many columns a row may have at most
   * @throws IllegalArgumentException naming the line of a row with more columns
   */
  public static List<Row> parse(String table, int columns) {
    List<Row> rows = new ArrayList<>();
    String[] lines = table.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String l = lines[i];
      if (l.isBlank() || l.strip().startsWith("#")) {
        continue;
      }
      List<String> cells = Arrays.stream(l.split("\\|", -1)).map(String::strip).toList();
      if (cells.size() > columns) {
        throw new IllegalArgumentException(
            "step table line "
                + (i + 1)
                + ": "
                + cells.size()
                + " columns (at most "
                + columns
                + "): "
                + l.strip());
      }
      rows.add(new Row(i + 1, l, cells));
    }
    return rows;
  }
}
