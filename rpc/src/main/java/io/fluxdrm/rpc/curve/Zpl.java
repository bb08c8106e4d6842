package io.fluxdrm.rpc.curve;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The subset of ZPL (ZeroMQ RFC 4, the text form of CZMQ's {@code zconfig}) that CURVE certificates
 * use: {@code #} comments, blank lines, one entry per line indented by 4 spaces per level, an entry
 * being a {@code name} (a section) or {@code name = value} with the value in double quotes, single
 * quotes or bare. Bad text is a {@link CurveFileException} whose message starts {@code FILE:LINE:
 * }.
 */
final class Zpl {
  /** One entry: its name, its value (null for a bare section name), its line and its children. */
  record Node(String name, String value, int line, List<Node> children) {
    Node {
      children = List.copyOf(children);
    }
  }

  private static final String NAME_CHARS = "$-_@.&+/";

  private Zpl() {}

  /**
   * Parses ZPL text into its top-level entries.
   *
   * @param label how errors name the text (the file as the user gave it)
   * @throws CurveFileException {@code LABEL:LINE: reason (expected: rule)} at the first fault
   */
  static List<Node> parse(String label, String text) {
    // each open level: the children collected so far; the builder of each parent waits below
    Deque<Builder> open = new ArrayDeque<>();
    Builder root = new Builder(null, null, 0);
    open.push(root);
    String[] lines = text.split("\r\n|\r|\n", -1);
    for (int i = 0; i < lines.length; i++) {
      int lineNo = i + 1;
      String line = lines[i];
      String where = label + ":" + lineNo + ": ";
      for (int c = 0; c < line.length(); c++) {
        char ch = line.charAt(c);
        if (ch > 0x7e || ch < 0x20 && ch != '\t') {
          throw new CurveFileException(
              where
                  + "character "
                  + (c + 1)
                  + " is "
                  + String.format("U+%04X", (int) ch)
                  + " (expected: printable ASCII, as ZPL is)");
        }
      }
      int indent = 0;
      while (indent < line.length() && line.charAt(indent) == ' ') {
        indent++;
      }
      String rest = line.substring(indent);
      if (rest.isBlank() || rest.strip().startsWith("#")) {
        continue;
      }
      if (rest.startsWith("\t")) {
        throw new CurveFileException(
            where + "tab in the indentation (expected: 4 spaces per level)");
      }
      if (indent % 4 != 0) {
        throw new CurveFileException(
            where
                + "indented by "
                + indent
                + " spaces (expected: a multiple of 4, one level each)");
      }
      int depth = indent / 4;
      if (depth > open.size() - 1) {
        Builder parent = open.peek();
        throw new CurveFileException(
            where
                + (parent.name == null
                    ? "indented before any section (expected: the first entry at the left margin)"
                    : "indented "
                        + depth
                        + " levels under \""
                        + parent.name
                        + "\" (expected: at most "
                        + (open.size() - 1)
                        + ")"));
      }
      while (open.size() - 1 > depth) {
        Builder done = open.pop();
        open.peek().children.add(done.build());
      }
      Builder entry = entry(where, rest, lineNo);
      for (Builder sibling : open.peek().built) {
        if (sibling.name.equals(entry.name)) {
          throw new CurveFileException(
              where
                  + "\""
                  + entry.name
                  + "\" again (expected: each name once; first at line "
                  + sibling.line
                  + ")");
        }
      }
      open.peek().built.add(entry);
      open.push(entry);
    }
    while (open.size() > 1) {
      Builder done = open.pop();
      open.peek().children.add(done.build());
    }
    return root.build().children();
  }

  /** Parses {@code name [= value] [# comment]} (indentation already taken off). */
  private static Builder entry(String where, String s, int lineNo) {
    int i = 0;
    while (i < s.length() && isNameChar(s.charAt(i))) {
      i++;
    }
    if (i == 0) {
      throw new CurveFileException(
          where
              + "'"
              + s.charAt(0)
              + "' starts a name (expected: letters, digits and "
              + NAME_CHARS
              + ")");
    }
    String name = s.substring(0, i);
    i = skipBlanks(s, i);
    if (i == s.length() || s.charAt(i) == '#') {
      return new Builder(name, null, lineNo);
    }
    if (s.charAt(i) != '=') {
      throw new CurveFileException(
          where
              + name
              + ": '"
              + s.charAt(i)
              + "' after the name (expected: letters, digits and "
              + NAME_CHARS
              + ", then \" = value\")");
    }
    i = skipBlanks(s, i + 1);
    if (i == s.length() || s.charAt(i) == '#') {
      throw new CurveFileException(
          where + name + ": no value after '=' (expected: name = \"value\")");
    }
    String value;
    char q = s.charAt(i);
    if (q == '"' || q == '\'') {
      int end = s.indexOf(q, i + 1);
      if (end < 0) {
        throw new CurveFileException(
            where + name + ": value has no closing " + q + " (expected: " + q + "value" + q + ")");
      }
      value = s.substring(i + 1, end);
      i = end + 1;
    } else {
      int start = i;
      while (i < s.length() && s.charAt(i) != ' ' && s.charAt(i) != '\t' && s.charAt(i) != '#') {
        i++;
      }
      value = s.substring(start, i);
    }
    i = skipBlanks(s, i);
    if (i < s.length() && s.charAt(i) != '#') {
      throw new CurveFileException(
          where
              + name
              + ": \""
              + s.substring(i)
              + "\" after the value (expected: nothing, or a # comment)");
    }
    return new Builder(name, value, lineNo);
  }

  private static int skipBlanks(String s, int i) {
    while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
      i++;
    }
    return i;
  }

  private static boolean isNameChar(char c) {
    return c >= 'a' && c <= 'z'
        || c >= 'A' && c <= 'Z'
        || c >= '0' && c <= '9'
        || NAME_CHARS.indexOf(c) >= 0;
  }

  /** An entry while its children are read. */
  private static final class Builder {
    final String name;
    final String value;
    final int line;
    final List<Node> children = new ArrayList<>();
    final List<Builder> built = new ArrayList<>();

    Builder(String name, String value, int line) {
      this.name = name;
      this.value = value;
      this.line = line;
    }

    Node build() {
      return new Node(name, value, line, children);
    }
  }
}
