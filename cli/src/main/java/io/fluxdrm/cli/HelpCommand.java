package io.fluxdrm.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code fluxdrm help [COMMAND [SUBCOMMAND...]]}: the usage of a command at any depth, as its
 * {@code --help} prints it ({@code fluxdrm help R encode} is {@code fluxdrm R encode --help}).
 * Picocli's own help command takes one word only, so that {@code help R encode} printed the help of
 * {@code R} or refused {@code encode} (issue 29, finding 7; decision D496).
 */
@Command(
    name = "help",
    helpCommand = true,
    header = "Print the usage of a command, as its --help does.",
    description =
        "COMMAND is a command with its subcommands, e.g. 'sessionctrl instantiate'; without"
            + " one, the usage of fluxdrm.")
final class HelpCommand implements CommandLine.IHelpCommandInitializable2, Runnable {

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Show the usage of the help command and exit.")
  boolean helpRequested;

  @Parameters(
      paramLabel = "COMMAND",
      arity = "0..*",
      description = "The command and its subcommands, e.g. 'alloc new'")
  List<String> words = new ArrayList<>();

  private CommandLine self;
  private CommandLine.Help.ColorScheme colors;
  private PrintWriter out;

  @Override
  public void init(
      CommandLine helpCommandLine,
      CommandLine.Help.ColorScheme colorScheme,
      PrintWriter outWriter,
      PrintWriter errWriter) {
    this.self = helpCommandLine;
    this.colors = colorScheme;
    this.out = outWriter;
  }

  @Override
  public void run() {
    CommandLine c = self.getParent();
    for (String w : words) {
      CommandLine sub = c.getSubcommands().get(w);
      if (sub == null) {
        // the command the word was looked for in is the one whose help lists the names
        throw new CommandLine.ParameterException(c, "Unknown subcommand '" + w + "'.", null, w);
      }
      c = sub;
    }
    c.usage(out, colors);
    out.flush();
  }
}
