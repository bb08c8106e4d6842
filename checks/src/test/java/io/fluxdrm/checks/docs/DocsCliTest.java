package io.fluxdrm.checks.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.cli.Main;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code docs/cli.md} against the commands that {@code fluxdrm --help} lists (picocli's model of
 * {@link Main}, walked recursively): a section per command, each option and parameter in it, its
 * exit status, no section or option the code lacks ({@link CliDocCheck}). And every {@code fluxdrm}
 * command line quoted in a shell block of {@code README.md} or {@code docs/*.md} parses ({@link
 * DocShell}). The fixture tests show that each kind of drift is caught.
 */
class DocsCliTest {
  private static final Path ROOT = Path.of("..");

  private static CommandLine fluxdrm() {
    return Main.commandLine(InputStream.nullInputStream());
  }

  @Test
  void cliMd_everyCommandOptionAndExitStatus_matchesTheCode() throws IOException {
    List<String> problems =
        new CliDocCheck(fluxdrm()).problems(Files.readString(ROOT.resolve("docs/cli.md")));
    assertThat(problems).as("docs/cli.md against 'fluxdrm --help'").isEmpty();
  }

  @Test
  void docsAndReadme_everyQuotedCommandLineAndInvocation_parses() throws IOException {
    List<String> problems = new ArrayList<>();
    List<Path> files = new ArrayList<>();
    files.add(ROOT.resolve("README.md"));
    try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
    }
    int count = 0;
    for (Path f : files) {
      String md = Files.readString(f);
      count += DocShell.invocations(md, "fluxdrm").size();
      String name = ROOT.relativize(f).toString().replace('\\', '/');
      problems.addAll(unparsable(name, md));
      new CliDocCheck(fluxdrm()).staleInvocations(md).forEach(p -> problems.add(name + ": " + p));
    }
    assertThat(count).as("command lines found").isGreaterThan(50);
    assertThat(problems)
        .as("fluxdrm command lines in the docs that do not parse, options the commands lack")
        .isEmpty();
  }

  /** The top-level commands that have no row {@code | [`fluxdrm NAME`](PREFIX...} in markdown. */
  static List<String> missingFromTable(String markdown, String prefix, List<String> commands) {
    return commands.stream()
        .filter(n -> !markdown.contains("| [`fluxdrm " + n + "`](" + prefix))
        .map(n -> "fluxdrm " + n + ": no row in the command table")
        .toList();
  }

  @Test
  void readmeAndCliMd_commandTables_nameEveryCommand() throws IOException {
    List<String> names = new ArrayList<>(fluxdrm().getSubcommands().keySet());
    assertThat(names).contains("sched", "help");
    assertThat(missingFromTable(Files.readString(ROOT.resolve("README.md")), "docs/cli.md#", names))
        .as("README.md, Commands")
        .isEmpty();
    assertThat(missingFromTable(Files.readString(ROOT.resolve("docs/cli.md")), "#", names))
        .as("docs/cli.md, Commands")
        .isEmpty();
  }

  @Test
  void missingFromTable_aNewCommand_reported() {
    assertThat(
            missingFromTable(
                "| [`fluxdrm sched`](#fluxdrm-sched) | x |", "#", List.of("sched", "plot")))
        .containsExactly("fluxdrm plot: no row in the command table");
  }

  /** Each quoted fluxdrm command line that picocli's parser refuses, with where and why. */
  static List<String> unparsable(String file, String markdown) {
    List<String> out = new ArrayList<>();
    for (DocShell.Invocation inv : DocShell.invocations(markdown, "fluxdrm")) {
      try {
        fluxdrm().parseArgs(inv.args().toArray(String[]::new));
      } catch (CommandLine.ParameterException e) {
        out.add(
            String.format(
                "%s:%d: fluxdrm %s: %s",
                file, inv.line(), String.join(" ", inv.args()), Main.firstLine(e.getMessage())));
      }
    }
    return out;
  }

  // ---- the checkers catch each kind of drift ----

  @Command(
      name = "tool",
      mixinStandardHelpOptions = true,
      subcommands = {Run.class, Ctl.class})
  static final class Tool {}

  @Command(name = "run", mixinStandardHelpOptions = true)
  static final class Run {
    @Option(names = {"-f", "--fast"})
    boolean fast;

    @Option(names = "--level", paramLabel = "N")
    int level;

    @Option(names = "--color", negatable = true)
    boolean color;

    @Option(names = "--secret", hidden = true)
    boolean secret;

    @Parameters(paramLabel = "FILE")
    String file;
  }

  static final class Common {
    @Option(names = "--connect")
    String connect;
  }

  @Command(
      name = "ctl",
      subcommands = {Pause.class, Resume.class})
  static final class Ctl {}

  @Command(name = "pause")
  static final class Pause {
    @Mixin Common common;

    @Parameters(paramLabel = "ID")
    String id;
  }

  @Command(name = "resume")
  static final class Resume {
    @Mixin Common common;

    @Parameters(paramLabel = "ID")
    String id;

    @Option(names = "--all")
    boolean all;
  }

  private static final String GOOD =
      """
      # The tool

      Every command takes `-h`. The tool is `tool --help`; `flux run --nodes 2` is flux's.

      ## `tool run [OPTIONS] FILE`

      | option | meaning |
      | --- | --- |
      | `-f`, `--fast` | fast |
      | `--level N` | how much; `--no-color` and `--color` too |

      ```sh
      tool run --undocumented-in-a-block FILE
      ```

      Exit status: 0 on success, 1 otherwise.

      ## `tool ctl`

      Every subcommand takes `--connect ENDPOINT`; exit status 0 on success, 1 otherwise. A message:
      `tool ctl: --bogus is not an option of tool ctl`.

      ### The protocol

      Words about pause and resume.

      ### `tool ctl pause`

      Pauses ID, as `tool run --fast FILE` runs.

      ### `tool ctl resume ID`

      Resumes ID, or `--all`.
      """;

  @Test
  void check_aMatchingGuide_hasNoProblem() {
    assertThat(new CliDocCheck(new CommandLine(new Tool())).problems(GOOD)).isEmpty();
  }

  @Test
  void staleInvocations_anyDocument_checksOnlyInvocationSpans() {
    String md =
        """
        Run `tool run --fast FILE`, not `tool run --slow FILE`; `flux start --test-size=1`
        and --anything in prose are not checked, nor `tool run: --nope` (a message).
        """;
    assertThat(new CliDocCheck(new CommandLine(new Tool())).staleInvocations(md))
        .containsExactly("line 1: tool run: --slow is documented, but tool run has no such option");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      textBlock =
          """
          a missing section   | "### `tool ctl resume ID`\\n\\nResumes ID, or `--all`.\\n" | "" | tool ctl resume: no section (expected a heading naming it, e.g. '## `tool ctl resume`')
          a missing option    | "| `--level N` |"                          | "| `N` |"                       | tool run: option --level is not in its section
          a missing parameter | "Pauses ID, as"                            | "Pauses it, as"                 | tool ctl pause: parameter ID is not in its section
          a stale option      | "| `-f`, `--fast` | fast |"                | "| `-f`, `--fast`, `--slow` | fast |" | line 9: tool run: --slow is documented, but tool run has no such option
          a stale option in prose | "Resumes ID, or `--all`."              | "Resumes ID, or --all --every." | line 33: tool ctl resume: --every is documented, but tool ctl resume has no such option
          another command's option | "as `tool run --fast FILE` runs"     | "as `tool run --all FILE` runs" | line 29: tool run: --all is documented, but tool run has no such option
          a stale option outside sections | "is flux's."                   | "is flux's, `--gone`."          | line 3: --gone is documented, but no command has it
          a stale group option | "takes `--connect ENDPOINT`"               | "takes `--connect ENDPOINT`, `--hub`" | line 20: tool ctl: --hub is documented, but tool ctl has no such option
          a section of no command | "### The protocol"                     | "### `tool plot FILE`"          | line 23: heading 'tool plot' names no command (tool has: run, ctl)
          a section of no subcommand | "### `tool ctl pause`"              | "### `tool ctl stop ID`"        | line 27: heading 'tool ctl stop' names no command (tool ctl has: pause, resume)
          no exit status      | "Exit status: 0 on success, 1 otherwise." | "That is all."                  | tool run: its section (or its group's) gives no exit status
          a group option not documented | "Every subcommand takes `--connect ENDPOINT`; exit" | "Every subcommand: exit" | tool ctl pause: option --connect is not in its section
          """)
  void check_eachKindOfDrift_isReported(String kind, String from, String to, String problem) {
    String doc = GOOD.replace(from.replace("\\n", "\n"), to.replace("\\n", "\n"));
    assertThat(doc).as(kind).isNotEqualTo(GOOD);
    assertThat(new CliDocCheck(new CommandLine(new Tool())).problems(doc))
        .as(kind)
        .contains(problem);
  }

  @Test
  void unparsable_staleExamples_reportedWithFileAndLine() {
    String md =
        """
        ```sh
        bin/fluxdrm sched --listen unix:/tmp/x --hosts 'node[0-3]' --cores 0-3 &
        bin/fluxdrm sched --listen unix:/tmp/x --no-such-option
        FLUXDRM_JAVA_OPTS=-Xmx1g bin/fluxdrm frobnicate 2>err.log
        ```

        ```
        $ fluxdrm hostlist -u 'n[1-3],n2' --sorted
        fluxdrm hostlist: this output line is not a command --nope
        ```

        ```json
        {"fluxdrm": "not a command --nope"}
        ```
        """;
    assertThat(unparsable("x.md", md))
        .containsExactly(
            "x.md:3: fluxdrm sched --listen unix:/tmp/x --no-such-option: Unknown option:"
                + " '--no-such-option'",
            "x.md:4: fluxdrm frobnicate: Unmatched argument at index 0: 'frobnicate'",
            "x.md:8: fluxdrm hostlist -u n[1-3],n2 --sorted: Unknown option: '--sorted'");
  }

  @Test
  void simpleCommands_shellLines_cutAsAShellDoes() {
    String[][] cases = {
      {
        "A=1 bin/fluxdrm x 'a b' \"c d\" | fluxdrm y > out 2>&1 # c",
        "[[bin/fluxdrm, x, a b, c d], [fluxdrm, y]]"
      },
      {
        "(fluxdrm a; fluxdrm b -c) | fluxdrm c && nohup fluxdrm d &",
        "[[fluxdrm, a], [fluxdrm, b, -c], [fluxdrm, c], [fluxdrm, d]]"
      },
      {
        "fluxdrm i --hosts $(hostname -s) -- /bin/sleep 300",
        "[[fluxdrm, i, --hosts, $(hostname -s), --, /bin/sleep, 300]]"
      },
      {"cat a.json b.json 2>>log | fluxdrm R diff", "[[cat, a.json, b.json], [fluxdrm, R, diff]]"},
      {
        "fluxdrm keygen --name x ~/.k/x.cert #comment",
        "[[fluxdrm, keygen, --name, x, ~/.k/x.cert]]"
      },
      {"fluxdrm x a#b", "[[fluxdrm, x, a#b]]"},
    };
    for (String[] c : cases) {
      assertThat(DocShell.simpleCommands(c[0]).toString()).as(c[0]).isEqualTo(c[1]);
    }
  }
}
