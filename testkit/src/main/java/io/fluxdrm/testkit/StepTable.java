package io.fluxdrm.testkit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The step tables of the cores' tests: one step per line, its columns separated by {@code |}
 * (typically {@code event | decisions | state}), blank lines and lines starting with {@code #}
 * skipped, each cell trimmed. The scheduler core's harness introduced the form; the job manager's
 * and shell plugin's harnesses read the same one.
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

  private StepTable() {}

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
