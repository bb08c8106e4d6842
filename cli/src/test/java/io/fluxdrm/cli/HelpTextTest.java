package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
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

  /**
   * Issue 29, finding 7: {@code fluxdrm help WORDS...} prints what {@code fluxdrm WORDS... --help}
   * does, for every command at every depth ({@code help R encode}, {@code help sessionctrl
   * instantiate}, {@code help alloc new}); picocli's own help command took one word and refused or
   * dropped the rest.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("commands")
  void helpOfNestedCommand_isItsOwnHelp(String command) {
    String[] words = command.split(" ");
    List<String> help = new ArrayList<>(List.of("help"));
    List<String> dashHelp = new ArrayList<>();
    for (int i = 1; i < words.length; i++) {
      help.add(words[i]);
      dashHelp.add(words[i]);
    }
    dashHelp.add("--help");
    CliRun viaHelp = CliRun.run("", help.toArray(String[]::new));
    CliRun viaOption = CliRun.run("", dashHelp.toArray(String[]::new));
    assertThat(viaOption.status()).as("%s --help", command).isZero();
    assertThat(viaHelp.status()).as("fluxdrm %s: %s", String.join(" ", help), viaHelp).isZero();
    assertThat(viaHelp.err()).as("fluxdrm %s: stderr", String.join(" ", help)).isEmpty();
    assertThat(viaHelp.out())
        .as("fluxdrm %s prints the help of %s", String.join(" ", help), command)
        .isEqualTo(viaOption.out())
        .contains("Usage: " + command + " ");
  }

  /** An unknown word names the command it was looked for in, whose help lists the names. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "help nosuch| fluxdrm: Unknown subcommand 'nosuch'. (see 'fluxdrm --help')",
        "help R nosuch| fluxdrm R: Unknown subcommand 'nosuch'. (see 'fluxdrm R --help')",
        "help sessionctrl instantiate x|"
            + " fluxdrm sessionctrl instantiate: Unknown subcommand 'x'."
            + " (see 'fluxdrm sessionctrl instantiate --help')",
      })
  void helpOfUnknownCommand_isAUsageErrorNamingWhere(String line, String message) {
    CliRun r = CliRun.run("", line.split(" "));
    assertThat(r.status()).as("%s", r).isEqualTo(2);
    assertThat(r.out()).as("%s: stdout", line).isEmpty();
    assertThat(r.err()).as("%s: stderr", line).isEqualTo(message + System.lineSeparator());
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
