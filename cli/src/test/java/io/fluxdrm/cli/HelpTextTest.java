package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Issue 29, finding 7: every command's help, walked through picocli's model so that a new command
 * is covered too. The summary {@code fluxdrm --help} lists (the first line of the header, else of
 * the description) is one whole sentence, not a line cut where the source wrapped; no header or
 * description is written as source-wrapped fragments (picocli prints each element on a line of its
 * own, inside its own wrapping: the hard breaks of the finding); every option's and parameter's
 * description is one element.
 */
class HelpTextTest {
  static Stream<String> commands() {
    List<String> out = new ArrayList<>();
    walk(Main.commandLine(InputStream.nullInputStream()), out);
    return out.stream();
  }

  private static void walk(CommandLine c, List<String> out) {
    out.add(c.getCommandSpec().qualifiedName());
    for (CommandLine sub : c.getSubcommands().values()) {
      if (!sub.getCommandSpec().name().equals("help")) {
        walk(sub, out);
      }
    }
  }

  private static CommandSpec spec(String qualified) {
    CommandLine c = Main.commandLine(InputStream.nullInputStream());
    String[] words = qualified.split(" ");
    for (int i = 1; i < words.length; i++) {
      c = c.getSubcommands().get(words[i]);
    }
    return c.getCommandSpec();
  }

  /** Whether a text ends as a sentence does (an abbreviation's period is no end). */
  private static boolean whole(String s) {
    String t = s.strip();
    if (t.endsWith("e.g.") || t.endsWith("i.e.") || t.endsWith("etc.")) {
      return false;
    }
    return t.endsWith(".") || t.endsWith(".)") || t.endsWith(":");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("commands")
  void summaryIsAWholeSentence_noSourceWrappedFragments(String command) {
    CommandSpec s = spec(command);
    String[] header = s.usageMessage().header();
    String[] description = s.usageMessage().description();
    String[] summary = header.length > 0 ? header : description;
    assertThat(summary).as("%s: a header or a description", command).isNotEmpty();
    assertThat(whole(summary[0]))
        .as("%s: its summary in 'fluxdrm --help' is a whole sentence: \"%s\"", command, summary[0])
        .isTrue();
    for (String[] part : new String[][] {header, description}) {
      for (String e : part) {
        assertThat(e.isEmpty() || whole(e))
            .as("%s: \"%s\" is a whole sentence or paragraph, not a wrapped line", command, e)
            .isTrue();
      }
    }
    for (OptionSpec o : s.options()) {
      assertThat(o.description())
          .as("%s %s: one description, not source-wrapped lines", command, o.longestName())
          .hasSizeLessThanOrEqualTo(1);
    }
    for (PositionalParamSpec p : s.positionalParameters()) {
      assertThat(p.description())
          .as("%s %s: one description, not source-wrapped lines", command, p.paramLabel())
          .hasSizeLessThanOrEqualTo(1);
    }
  }
}
