package io.fluxdrm.checks.docs;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The little of Markdown that the doc tests need: each line of a document, whether it lies in a
 * fenced block and in which language, and its heading level and text when it is a heading.
 */
final class DocMarkdown {
  private static final Pattern FENCE = Pattern.compile("^\\s*(```+|~~~+)\\s*([\\w+-]*).*$");
  private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.*?)\\s*#*\\s*$");

  /**
   * One line of a document: its 1-based number, its text, the language of the fenced block it is in
   * ({@code null} outside blocks, {@code ""} for a block without one), and, for a heading, its
   * level (0 otherwise) and text.
   */
  record Line(int number, String text, String fence, int level, String heading) {
    boolean fenced() {
      return fence != null;
    }
  }

  private DocMarkdown() {}

  /** The lines of {@code markdown}; the fence lines themselves are left out. */
  static List<Line> lines(String markdown) {
    List<Line> out = new ArrayList<>();
    String[] raw = markdown.split("\\R", -1);
    String fence = null;
    String marker = null;
    for (int i = 0; i < raw.length; i++) {
      String text = raw[i];
      Matcher f = FENCE.matcher(text);
      if (f.matches() && (fence == null || f.group(1).startsWith(marker))) {
        if (fence == null) {
          fence = f.group(2);
          marker = f.group(1);
        } else if (text.trim().equals(f.group(1))) {
          fence = null;
        }
        continue;
      }
      Matcher h = fence == null ? HEADING.matcher(text) : null;
      if (h != null && h.matches()) {
        out.add(new Line(i + 1, text, null, h.group(1).length(), h.group(2)));
      } else {
        out.add(new Line(i + 1, text, fence, 0, null));
      }
    }
    return out;
  }

  /** A piece of a paragraph: where it starts in it, its text, and whether it is a code span. */
  record Segment(int start, String text, boolean code) {}

  /**
   * The segments of a paragraph outside fenced blocks: code spans (between equal runs of backticks,
   * which may wrap lines) and the plain text between them.
   */
  static List<Segment> segments(String text) {
    List<Segment> out = new ArrayList<>();
    int plain = 0;
    int i = 0;
    while (i < text.length()) {
      if (text.charAt(i) != '`') {
        i++;
        continue;
      }
      int run = i;
      while (run < text.length() && text.charAt(run) == '`') {
        run++;
      }
      String ticks = text.substring(i, run);
      int close = text.indexOf(ticks, run);
      while (close >= 0
          && close + ticks.length() < text.length()
          && text.charAt(close + ticks.length()) == '`') {
        close = text.indexOf(ticks, close + ticks.length() + 1);
      }
      if (close < 0) {
        i = run;
        continue;
      }
      out.add(new Segment(plain, text.substring(plain, i), false));
      out.add(new Segment(run, text.substring(run, close), true));
      i = close + ticks.length();
      plain = i;
    }
    out.add(new Segment(plain, text.substring(plain), false));
    return out;
  }

  /**
   * The anchors GitHub gives the headings of a document: the heading text in lower case, without
   * the characters that are not letters, digits, spaces, hyphens or underscores, spaces made
   * hyphens; a repeated anchor gets {@code -1}, {@code -2}, ...
   */
  static Set<String> anchors(String markdown) {
    Set<String> out = new LinkedHashSet<>();
    for (Line l : lines(markdown)) {
      if (l.level() == 0) {
        continue;
      }
      String base =
          l.heading()
              .toLowerCase(Locale.ROOT)
              .replaceAll("[^\\p{L}\\p{N} _-]", "")
              .replace(' ', '-');
      String a = base;
      for (int n = 1; out.contains(a); n++) {
        a = base + "-" + n;
      }
      out.add(a);
    }
    return out;
  }
}
