package io.fluxdrm.showcase.plot;

import io.fluxdrm.showcase.timeline.Timeline;
import java.util.List;
import java.util.Locale;

/**
 * A {@link Timeline} as a text grid for the terminal: one line per node, one column per slice of
 * time, each cell the letter of the job holding the node then ({@code .} free, lower case while
 * releasing, {@code ^}/{@code v} where a grow or shrink landed), a key of letters to job ids, and
 * the last request events. With {@code ansi} the cells are coloured (256-colour backgrounds).
 */
public final class TerminalGrid {
  private static final String LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  private static final int[] ANSI = {
    33, 208, 70, 167, 73, 178, 139, 211, 137, 145, 27, 160, 28, 99, 130, 37
  };

  private TerminalGrid() {}

  /**
   * Renders {@code t} in at most {@code columns} characters a line.
   *
   * @param title what the grid shows
   * @param columns the terminal's width (at least 40)
   * @param ansi whether to colour the cells
   */
  public static String render(Timeline t, String title, int columns, boolean ansi) {
    StringBuilder b = new StringBuilder();
    b.append(title)
        .append(": ")
        .append(t.rows().size())
        .append(" nodes, ")
        .append(t.jobs().size())
        .append(" jobs, ")
        .append(SceneLayout.duration(t.span()))
        .append('\n');
    int name = 4;
    for (Timeline.Row r : t.rows()) {
      name = Math.max(name, r.name().length());
    }
    int cols = Math.max(10, Math.max(40, columns) - name - 3);
    for (int row = 0; row < t.rows().size(); row++) {
      char[] cells = new char[cols];
      int[] owner = new int[cols];
      java.util.Arrays.fill(cells, '.');
      java.util.Arrays.fill(owner, -1);
      for (Timeline.Bar bar : t.bars()) {
        if (bar.row() != row || bar.job() < 0) {
          continue;
        }
        int c0 = cell(bar.from(), t.span(), cols);
        int c1 = Math.max(c0 + 1, cell(bar.to(), t.span(), cols));
        char ch = bar.job() < LETTERS.length() ? LETTERS.charAt(bar.job()) : '#';
        if (bar.phase() == Timeline.Phase.RELEASING) {
          ch = Character.toLowerCase(ch);
        }
        for (int c = c0; c < Math.min(c1, cols); c++) {
          cells[c] = ch;
          owner[c] = bar.job();
        }
      }
      for (Timeline.Mark m : t.marks()) {
        if (m.row() == row
            && (m.kind() == Timeline.MarkKind.GROW || m.kind() == Timeline.MarkKind.SHRINK)) {
          int c = Math.min(cols - 1, cell(m.at(), t.span(), cols));
          cells[c] = m.kind() == Timeline.MarkKind.GROW ? '^' : 'v';
        }
      }
      String n = t.rows().get(row).name();
      b.append(" ".repeat(name - n.length())).append(n).append(" |");
      int last = -2;
      for (int c = 0; c < cols; c++) {
        int o = owner[c];
        if (ansi && o != last) {
          b.append(o < 0 ? "\u001b[0m" : "\u001b[30;48;5;" + ANSI[o % ANSI.length] + "m");
          last = o;
        }
        b.append(cells[c]);
      }
      if (ansi) {
        b.append("\u001b[0m");
      }
      b.append("|\n");
    }
    b.append(" ".repeat(name + 2))
        .append("0")
        .append(" ".repeat(Math.max(1, cols - 1 - SceneLayout.duration(t.span()).length())))
        .append(SceneLayout.duration(t.span()))
        .append('\n');
    StringBuilder key = new StringBuilder("jobs:");
    for (int j = 0; j < t.jobs().size() && j < LETTERS.length(); j++) {
      key.append(' ').append(LETTERS.charAt(j)).append('=').append(t.jobs().get(j).label());
    }
    if (t.jobs().size() > LETTERS.length()) {
      key.append(" #=").append(t.jobs().size() - LETTERS.length()).append(" more");
    }
    b.append(key).append("   ^ grow  v shrink  lower case: releasing  . free\n");
    List<Timeline.Mark> lane = t.marks().stream().filter(m -> m.row() < 0).toList();
    for (Timeline.Mark m : lane.subList(Math.max(0, lane.size() - 3), lane.size())) {
      b.append(String.format(Locale.ROOT, "  %10s  %s%n", SceneLayout.duration(m.at()), m.text()));
    }
    return b.toString();
  }

  private static int cell(long at, long span, int cols) {
    return (int) Math.min(cols, Math.floor((double) at / span * cols));
  }
}
