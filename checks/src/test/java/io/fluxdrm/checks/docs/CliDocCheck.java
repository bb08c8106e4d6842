package io.fluxdrm.checks.docs;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Checks a command-line guide against a picocli command tree, both ways. Every command of the tree
 * must have a section (a heading whose text, backticks aside, starts with its full name, such as
 * {@code ## `fluxdrm sched`} or {@code ### `fluxdrm sessionctrl pause ID`}); each of its options
 * (one of its names) and positional parameters (its label) must appear in that section, or, for an
 * option every subcommand of a group shares, in the group's; the section, or a group's above it,
 * must state the exit status. The other way round: a heading naming a command that the tree lacks
 * is reported, and so is every {@code --option} written in a section that its command does not
 * have. A section runs from its heading to the next heading of the same or a higher level; a
 * command's heading nested in it starts that command's own section.
 *
 * <p>Options in a code span that starts with an invocation ({@code `fluxdrm bridge --dvm ...`}) are
 * checked against the command invoked; a code span that is a message ({@code `fluxdrm sched: ...`})
 * or a command of another program ({@code `flux keygen`}) is not checked, and neither are fenced
 * blocks, whose command lines {@link DocShell} parses.
 */
final class CliDocCheck {
  private static final Pattern LONG =
      Pattern.compile("(?<![\\w/.=-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)*");
  private static final Pattern EXIT =
      Pattern.compile("(?is)exit (?:status|code).{0,400}?\\b\\d+\\b");
  private static final Set<String> FOREIGN =
      Set.of(
          "flux", "prte", "prterun", "prun", "mpirun", "mvn", "java", "ssh", "chmod", "git",
          "kill");

  private final CommandLine root;
  private final String program;
  private final List<CommandSpec> commands = new ArrayList<>();

  CliDocCheck(CommandLine root) {
    this.root = root;
    this.program = root.getCommandName();
    walk(root.getCommandSpec());
  }

  private void walk(CommandSpec spec) {
    for (CommandLine sub : distinct(spec)) {
      commands.add(sub.getCommandSpec());
      walk(sub.getCommandSpec());
    }
  }

  private static List<CommandLine> distinct(CommandSpec spec) {
    List<CommandLine> out = new ArrayList<>();
    for (CommandLine sub : spec.subcommands().values()) {
      if (out.stream().noneMatch(c -> c == sub)) {
        out.add(sub);
      }
    }
    return out;
  }

  /** Every disagreement between {@code markdown} and the tree, in the order found. */
  List<String> problems(String markdown) {
    List<String> problems = new ArrayList<>();
    Map<CommandSpec, StringBuilder> sections = new IdentityHashMap<>();
    List<DocMarkdown.Line> lines = DocMarkdown.lines(markdown);
    Deque<Open> stack = new ArrayDeque<>();
    List<DocMarkdown.Line> paragraph = new ArrayList<>();
    CommandSpec paragraphOwner = null;
    for (DocMarkdown.Line line : lines) {
      if (line.level() > 0) {
        while (!stack.isEmpty() && stack.peek().level() >= line.level()) {
          stack.pop();
        }
        stack.push(new Open(line.level(), heading(line, problems)));
      }
      CommandSpec owner = owner(stack);
      if (owner != null) {
        sections.computeIfAbsent(owner, k -> new StringBuilder()).append(line.text()).append('\n');
      }
      boolean prose = !line.fenced() && line.level() == 0 && !line.text().isBlank();
      if (!prose || owner != paragraphOwner) {
        staleOptions(paragraph, paragraphOwner, false, problems);
        paragraph.clear();
      }
      paragraphOwner = owner;
      if (prose || line.level() > 0) {
        paragraph.add(line);
      }
      if (line.level() > 0) {
        staleOptions(paragraph, owner, false, problems);
        paragraph.clear();
      }
    }
    staleOptions(paragraph, paragraphOwner, false, problems);
    for (CommandSpec c : commands) {
      checkCommand(c, sections, problems);
    }
    return problems;
  }

  /**
   * For any document: every code span outside fenced blocks that invokes a command ({@code `fluxdrm
   * sched --listen ...`}) names only options that command has.
   */
  List<String> staleInvocations(String markdown) {
    List<String> problems = new ArrayList<>();
    List<DocMarkdown.Line> paragraph = new ArrayList<>();
    for (DocMarkdown.Line line : DocMarkdown.lines(markdown)) {
      if (line.fenced() || line.level() > 0 || line.text().isBlank()) {
        staleOptions(paragraph, null, true, problems);
        paragraph.clear();
      } else {
        paragraph.add(line);
      }
    }
    staleOptions(paragraph, null, true, problems);
    return problems;
  }

  /** A heading whose section is open: its level, and its command (null for other headings). */
  private record Open(int level, CommandSpec command) {}

  /** The command of the innermost open command heading: the owner of the current line. */
  private static CommandSpec owner(Deque<Open> stack) {
    for (Open e : stack) {
      if (e.command() != null) {
        return e.command();
      }
    }
    return null;
  }

  /** The command a heading names, or null; a heading naming a missing command is a problem. */
  private CommandSpec heading(DocMarkdown.Line line, List<String> problems) {
    String text = line.heading().replace("`", "").strip();
    if (!text.startsWith(program + " ")) {
      return null;
    }
    String[] words = text.substring(program.length()).strip().split("\\s+");
    CommandSpec cur = root.getCommandSpec();
    for (String raw : words) {
      String w = raw.replaceAll("[,:;.)]+$", "");
      CommandLine sub = cur.subcommands().get(w);
      if (sub != null) {
        cur = sub.getCommandSpec();
        continue;
      }
      boolean group = !cur.subcommands().isEmpty();
      if (cur == root.getCommandSpec() || (group && w.matches("[a-z][a-z0-9-]*"))) {
        problems.add(
            String.format(
                "line %d: heading '%s %s' names no command (%s has: %s)",
                line.number(),
                cur.qualifiedName(),
                w,
                cur.qualifiedName(),
                String.join(", ", names(cur))));
        return null;
      }
      break;
    }
    return cur == root.getCommandSpec() ? null : cur;
  }

  private static List<String> names(CommandSpec spec) {
    return distinct(spec).stream().map(CommandLine::getCommandName).toList();
  }

  /** Reports the options of a paragraph (or a heading) that their command lacks. */
  private void staleOptions(
      List<DocMarkdown.Line> paragraph,
      CommandSpec owner,
      boolean invocationsOnly,
      List<String> problems) {
    if (paragraph.isEmpty()) {
      return;
    }
    StringBuilder text = new StringBuilder();
    List<Integer> starts = new ArrayList<>();
    for (DocMarkdown.Line l : paragraph) {
      starts.add(text.length());
      text.append(l.text()).append('\n');
    }
    for (DocMarkdown.Segment seg : DocMarkdown.segments(text.toString())) {
      CommandSpec target = owner;
      if (seg.code()) {
        String code = seg.text().strip().replaceFirst("^\\$ ", "");
        String[] words = code.split("\\s+");
        if (FOREIGN.contains(words[0])) {
          continue;
        }
        if (words[0].equals(program) || words[0].endsWith("/" + program)) {
          target = invoked(words);
          if (target == null) {
            continue;
          }
        } else if (invocationsOnly) {
          continue;
        }
      } else if (invocationsOnly) {
        continue;
      }
      Matcher m = LONG.matcher(seg.text());
      while (m.find()) {
        String opt = m.group();
        int at = seg.start() + m.start();
        int k = 0;
        while (k + 1 < starts.size() && starts.get(k + 1) <= at) {
          k++;
        }
        int number = paragraph.get(k).number();
        if (target == null && !anyCommandHas(opt)) {
          problems.add(
              String.format("line %d: %s is documented, but no command has it", number, opt));
        } else if (target != null && !allowed(target).contains(opt)) {
          problems.add(
              String.format(
                  "line %d: %s: %s is documented, but %s has no such option",
                  number, target.qualifiedName(), opt, target.qualifiedName()));
        }
      }
    }
  }

  /** The command a code span invokes, or null when the span is one of its messages. */
  private CommandSpec invoked(String[] words) {
    CommandSpec cur = root.getCommandSpec();
    for (int k = 1; k < words.length; k++) {
      String bare = words[k].replaceAll(":$", "");
      CommandLine sub = cur.subcommands().get(bare);
      if (sub == null) {
        break;
      }
      cur = sub.getCommandSpec();
      if (!bare.equals(words[k])) {
        return null;
      }
    }
    return cur;
  }

  private boolean anyCommandHas(String opt) {
    return allowed(root.getCommandSpec()).contains(opt);
  }

  /** The option names that may be written in a command's section: its own and its subcommands'. */
  private Set<String> allowed(CommandSpec spec) {
    Set<String> out = new TreeSet<>();
    for (OptionSpec o : spec.options()) {
      out.addAll(Arrays.asList(o.names()));
      if (o.negatable()) {
        for (String n : o.names()) {
          String neg = spec.negatableOptionTransformer().makeNegative(n, spec);
          out.add(neg);
        }
      }
    }
    for (CommandLine sub : distinct(spec)) {
      out.addAll(allowed(sub.getCommandSpec()));
    }
    return out;
  }

  private void checkCommand(
      CommandSpec c, Map<CommandSpec, StringBuilder> sections, List<String> problems) {
    String name = c.qualifiedName();
    StringBuilder own = sections.get(c);
    if (own == null) {
      problems.add(
          String.format(
              "%s: no section (expected a heading naming it, e.g. '## `%s`')", name, name));
      return;
    }
    for (OptionSpec o : c.options()) {
      if (o.usageHelp() || o.versionHelp() || o.hidden()) {
        continue;
      }
      if (!mentions(own, o.names()) && !inGroupSection(c, o, sections)) {
        problems.add(
            String.format(
                "%s: option %s is not in its section", name, String.join(", ", o.names())));
      }
    }
    for (PositionalParamSpec p : c.positionalParameters()) {
      String label = p.paramLabel().replaceAll("^<|>$", "").split("[^\\w-]", 2)[0];
      if (!p.hidden() && !mentions(own, label)) {
        problems.add(String.format("%s: parameter %s is not in its section", name, label));
      }
    }
    boolean exit = false;
    for (CommandSpec s = c; s != null && !exit; s = s.parent()) {
      StringBuilder text = sections.get(s);
      exit = text != null && EXIT.matcher(text).find();
    }
    if (!exit) {
      problems.add(String.format("%s: its section (or its group's) gives no exit status", name));
    }
  }

  /** Whether o is on every leaf of a group above c whose section names it. */
  private static boolean inGroupSection(
      CommandSpec c, OptionSpec o, Map<CommandSpec, StringBuilder> sections) {
    for (CommandSpec g = c.parent(); g != null; g = g.parent()) {
      StringBuilder text = sections.get(g);
      if (text != null && mentions(text, o.names()) && onEveryLeaf(g, o.longestName())) {
        return true;
      }
    }
    return false;
  }

  private static boolean onEveryLeaf(CommandSpec g, String option) {
    if (g.subcommands().isEmpty()) {
      return g.findOption(option) != null;
    }
    return distinct(g).stream().allMatch(s -> onEveryLeaf(s.getCommandSpec(), option));
  }

  private static boolean mentions(CharSequence text, String... names) {
    for (String n : new LinkedHashSet<>(Arrays.asList(names))) {
      if (Pattern.compile("(?<![\\w-])" + Pattern.quote(n) + "(?![\\w-])").matcher(text).find()) {
        return true;
      }
    }
    return false;
  }
}
