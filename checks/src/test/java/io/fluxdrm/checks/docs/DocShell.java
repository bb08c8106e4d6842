package io.fluxdrm.checks.docs;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The command lines of a program quoted in a document's shell blocks: every line of a {@code sh},
 * {@code bash} or {@code shell} block, and the {@code $ } lines of any other block that is not code
 * of another language, cut into simple commands the way a POSIX shell cuts them (quotes,
 * backslashes, {@code $(...)}, comments, pipes and lists, redirections, variable assignments).
 */
final class DocShell {
  private static final Set<String> SHELL = Set.of("sh", "bash", "shell");
  private static final Set<String> TRANSCRIPT = Set.of("", "console", "text");
  private static final Set<String> WRAPPERS = Set.of("exec", "nohup", "time", "command");

  /** One command line of the program: where it is, the line as written, and its arguments. */
  record Invocation(int line, String text, List<String> args) {}

  private DocShell() {}

  /** Every invocation of {@code program} (as {@code program} or {@code any/path/program}). */
  static List<Invocation> invocations(String markdown, String program) {
    List<Invocation> out = new ArrayList<>();
    List<DocMarkdown.Line> lines = DocMarkdown.lines(markdown);
    for (int i = 0; i < lines.size(); i++) {
      DocMarkdown.Line l = lines.get(i);
      if (!l.fenced()) {
        continue;
      }
      String text = l.text().strip();
      boolean prompt = text.startsWith("$ ");
      if (!(SHELL.contains(l.fence()) || (TRANSCRIPT.contains(l.fence()) && prompt))) {
        continue;
      }
      if (prompt) {
        text = text.substring(2);
      }
      int first = l.number();
      while (text.endsWith("\\") && i + 1 < lines.size() && lines.get(i + 1).fenced()) {
        text = text.substring(0, text.length() - 1) + " " + lines.get(++i).text().strip();
      }
      for (List<String> cmd : simpleCommands(text)) {
        if (!cmd.isEmpty() && (cmd.get(0).equals(program) || cmd.get(0).endsWith("/" + program))) {
          out.add(new Invocation(first, text, List.copyOf(cmd.subList(1, cmd.size()))));
        }
      }
    }
    return out;
  }

  /**
   * The simple commands of one shell line, each as its words after quote removal, without leading
   * variable assignments, wrappers such as {@code nohup}, and redirections.
   */
  static List<List<String>> simpleCommands(String line) {
    List<List<String>> out = new ArrayList<>();
    List<String> cur = new ArrayList<>();
    boolean redirectTarget = false;
    int i = 0;
    int n = line.length();
    while (i < n) {
      char c = line.charAt(i);
      if (c == ' ' || c == '\t') {
        i++;
        continue;
      }
      if (c == '#') {
        break;
      }
      if (c == '|' || c == ';' || c == '&' || c == '(' || c == ')') {
        if (c == '&' && i + 1 < n && line.charAt(i + 1) == '>') {
          i += 2;
          redirectTarget = true;
          continue;
        }
        finish(out, cur);
        cur = new ArrayList<>();
        i++;
        continue;
      }
      int r = redirection(line, i);
      if (r > i) {
        boolean dup = line.charAt(r - 1) == '&';
        i = r;
        if (dup) {
          while (i < n && Character.isDigit(line.charAt(i))) {
            i++;
          }
        } else {
          redirectTarget = true;
        }
        continue;
      }
      StringBuilder word = new StringBuilder();
      i = word(line, i, word);
      if (redirectTarget) {
        redirectTarget = false;
      } else if (!(cur.isEmpty() && (isAssignment(word) || WRAPPERS.contains(word.toString())))) {
        cur.add(word.toString());
      }
    }
    finish(out, cur);
    return out;
  }

  private static void finish(List<List<String>> out, List<String> cur) {
    if (!cur.isEmpty()) {
      out.add(cur);
    }
  }

  private static boolean isAssignment(CharSequence w) {
    return w.toString().matches("[A-Za-z_][A-Za-z0-9_]*=.*");
  }

  /** The end of a redirection operator starting at i ({@code >, >>, <, 2>, 2>>, >&, 2>&}), or i. */
  private static int redirection(String s, int i) {
    int j = i;
    while (j < s.length() && Character.isDigit(s.charAt(j))) {
      j++;
    }
    if (j >= s.length() || (s.charAt(j) != '>' && s.charAt(j) != '<')) {
      return i;
    }
    if (j > i && i > 0 && !Character.isWhitespace(s.charAt(i - 1))) {
      return i;
    }
    j++;
    if (j < s.length() && (s.charAt(j) == '>' || s.charAt(j) == '&')) {
      j++;
    }
    return j;
  }

  /** Reads one word from i into w (quotes removed, {@code $(...)} kept as written). */
  private static int word(String s, int i, StringBuilder w) {
    int n = s.length();
    while (i < n) {
      char c = s.charAt(i);
      if (c == ' ' || c == '\t' || c == '|' || c == ';' || c == '&' || c == '<' || c == '>') {
        return i;
      }
      if ((c == '(' || c == ')') && w.length() == 0) {
        return i;
      }
      if (c == '\'') {
        int close = s.indexOf('\'', i + 1);
        close = close < 0 ? n : close;
        w.append(s, i + 1, close);
        i = Math.min(n, close + 1);
      } else if (c == '"') {
        i++;
        while (i < n && s.charAt(i) != '"') {
          if (s.charAt(i) == '\\' && i + 1 < n) {
            i++;
          }
          w.append(s.charAt(i++));
        }
        i = Math.min(n, i + 1);
      } else if (c == '\\' && i + 1 < n) {
        w.append(s.charAt(i + 1));
        i += 2;
      } else if (c == '$' && i + 1 < n && s.charAt(i + 1) == '(') {
        int start = i;
        int depth = 1;
        i += 2;
        while (i < n && depth > 0) {
          char d = s.charAt(i++);
          depth += d == '(' ? 1 : d == ')' ? -1 : 0;
        }
        w.append(s, start, i);
      } else if (c == ')') {
        return i;
      } else {
        w.append(c);
        i++;
      }
    }
    return i;
  }
}
