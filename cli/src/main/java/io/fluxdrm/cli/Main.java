package io.fluxdrm.cli;

import io.fluxdrm.rset.RsetException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of the {@code fluxdrm} command line. */
@Command(
    name = "fluxdrm",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    header = "Dynamic resource management for Flux (RFC 51) bridged to PMIx.",
    description =
        "Exit status of every command: 0 on success; 1 on an error (bad input, a peer "
            + "that cannot be reached, a failed operation); 2 on a usage error (the command "
            + "line is wrong); 128+N when signal N ends it. Errors are one line on stderr. "
            + "Details: docs/cli.md.",
    subcommands = {
      RCommand.class,
      HostlistCommand.class,
      JobspecCommand.class,
      SchemaCommand.class,
      SchedCommand.class,
      BridgeCommand.class,
      KeygenCommand.class,
      ReplayCommand.class,
      PlotCommand.class,
      DemoCommand.class,
      DvmCommand.class,
      SessionCtrlCommand.class,
      AllocCommand.class,
      ReallocCommand.class,
      HelpCommand.class
    })
public final class Main {

  /**
   * Exit status of an error: the command line is right, but the input, a file it names, a peer or
   * the operation fails (docs/cli.md, "Exit status"; decision D484).
   */
  static final int EXIT_ERROR = 1;

  /**
   * Exit status of a usage error: the command line itself is wrong, found before anything is read,
   * written or connected, as argparse and POSIX utilities have it (docs/cli.md, "Exit status";
   * decision D484).
   */
  static final int EXIT_USAGE = 2;

  public static void main(String[] args) {
    System.exit(run(args, System.in, System.out, System.err));
  }

  /** Runs one command line against the given streams and returns its exit status. */
  static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
    CommandLine cl = commandLine(in);
    cl.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
    cl.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
    try {
      return cl.execute(args);
    } catch (OutOfMemoryError | StackOverflowError e) {
      // a last guard: inputs are bounded before they are expanded, but a user still gets one line
      err.println("fluxdrm: input too large for this JVM: " + e.getClass().getSimpleName());
      err.flush();
      return EXIT_ERROR;
    }
  }

  /** The command tree as {@code fluxdrm} parses it, its standard input {@code in}. */
  public static CommandLine commandLine(InputStream in) {
    CommandLine cl = new CommandLine(new Main(), new Factory(in));
    cl.setExecutionStrategy(Main::execute);
    cl.setExecutionExceptionHandler(
        (ex, line, parsed) -> {
          if (ex instanceof CliError c && c.status() == EXIT_USAGE) {
            return usageError(line, c.getMessage());
          }
          line.getErr().println(prefix(line) + message(ex));
          line.getErr().flush();
          return ex instanceof CliError c ? c.status() : EXIT_ERROR;
        });
    cl.setParameterExceptionHandler((ex, args) -> usageError(ex.getCommandLine(), ex.getMessage()));
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    return cl;
  }

  /**
   * Runs the command the line names, after the checks of usage that picocli leaves to its caller:
   * arguments it did not match (it ignores them when a help command is asked for) and a group
   * without its subcommand.
   */
  private static int execute(CommandLine.ParseResult parsed) {
    CommandLine.ParseResult last = parsed;
    boolean help = false;
    while (true) {
      help |= last.isUsageHelpRequested() || last.isVersionHelpRequested();
      if (!last.hasSubcommand()) {
        break;
      }
      last = last.subcommand();
    }
    CommandLine line = last.commandSpec().commandLine();
    if (!last.unmatched().isEmpty()) {
      throw new CommandLine.UnmatchedArgumentException(line, last.unmatched());
    }
    if (!help && !last.commandSpec().subcommands().isEmpty()) {
      List<String> names =
          line.getSubcommands().values().stream()
              .map(CommandLine::getCommandName)
              .distinct()
              .toList();
      throw new CommandLine.ParameterException(
          line,
          "missing subcommand (expected: "
              + String.join(", ", names.subList(0, names.size() - 1))
              + (names.size() > 1 ? " or " : "")
              + names.get(names.size() - 1)
              + ")");
    }
    return new CommandLine.RunLast().execute(parsed);
  }

  /** Reports a usage error: one line, what is wrong and where the help is; status 2. */
  private static int usageError(CommandLine line, String message) {
    String text = firstLine(message);
    String help = "'" + line.getCommandSpec().qualifiedName() + " --help'";
    // a message that already says where to look (a list of names, the help) keeps to its own
    line.getErr()
        .println(prefix(line) + text + (text.contains("(see '") ? "" : " (see " + help + ")"));
    line.getErr().flush();
    return EXIT_USAGE;
  }

  private static String prefix(CommandLine line) {
    return line.getCommandSpec().qualifiedName() + ": ";
  }

  private static String message(Exception ex) {
    if (ex instanceof CliError
        || ex instanceof RsetException
        || ex instanceof io.fluxdrm.rpc.curve.CurveFileException) {
      return firstLine(ex.getMessage());
    }
    return "internal error: " + ex.getClass().getSimpleName() + ": " + firstLine(ex.getMessage());
  }

  /** The first line of {@code s} (a message of many lines shortened). */
  public static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  /** Gives commands the process's standard input, or a test's. */
  static final class Factory implements CommandLine.IFactory {
    private final InputStream in;
    private final CommandLine.IFactory fallback = CommandLine.defaultFactory();

    Factory(InputStream in) {
      this.in = in;
    }

    @Override
    public <K> K create(Class<K> cls) throws Exception {
      K k = fallback.create(cls);
      if (k instanceof UsesStdin u) {
        u.stdin(in);
      }
      return k;
    }
  }

  /** Commands that read standard input. */
  interface UsesStdin {
    void stdin(InputStream in);
  }

  /** Version from the jar manifest, or the build's when run from classes. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = Main.class.getPackage().getImplementationVersion();
      return new String[] {"fluxdrm " + (v == null ? "(development build)" : v)};
    }
  }
}
