package io.fluxdrm.cli;

import io.fluxdrm.rset.RsetException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of the {@code fluxdrm} command line. */
@Command(
    name = "fluxdrm",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = {
      "Dynamic resource management for Flux (RFC 51) bridged to PMIx.",
      "",
      "Exit status: 0 on success, 1 on an error (one line on stderr); 'fluxdrm hostlist',",
      "'fluxdrm bridge', 'fluxdrm demo', 'fluxdrm plot' and 'fluxdrm realloc' exit 2 on a",
      "usage error, as 'flux hostlist' does. Every command and its exit status: docs/cli.md."
    },
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
      CommandLine.HelpCommand.class
    })
public final class Main implements Runnable {

  /** Exit status of a failure, as flux-core's commands. */
  static final int EXIT_ERROR = 1;

  /**
   * Exit status of a usage error of the commands whose flux-core twin is a Python program (argparse
   * exits 2); flux-core's C commands exit 1 for those too.
   */
  static final int EXIT_USAGE_PYTHON = 2;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

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

  static CommandLine commandLine(InputStream in) {
    CommandLine cl = new CommandLine(new Main(), new Factory(in));
    cl.setExecutionExceptionHandler(
        (ex, line, parsed) -> {
          line.getErr().println(prefix(line) + message(ex));
          line.getErr().flush();
          return ex instanceof CliError c ? c.status() : EXIT_ERROR;
        });
    cl.setParameterExceptionHandler(
        (ex, args) -> {
          CommandLine line = ex.getCommandLine();
          line.getErr()
              .println(
                  prefix(line)
                      + firstLine(ex.getMessage())
                      + " (see '"
                      + line.getCommandSpec().qualifiedName()
                      + " --help')");
          line.getErr().flush();
          Object cmd = line.getCommand();
          return cmd instanceof HostlistCommand
                  || cmd instanceof BridgeCommand
                  || cmd instanceof DemoCommand
                  || cmd instanceof PlotCommand
                  || cmd instanceof ReallocCommand
                  || cmd instanceof ReallocCommand.Op
              ? EXIT_USAGE_PYTHON
              : EXIT_ERROR;
        });
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    return cl;
  }

  private static String prefix(CommandLine line) {
    return line.getCommandSpec().qualifiedName() + ": ";
  }

  private static String message(Exception ex) {
    if (ex instanceof CliError || ex instanceof RsetException) {
      return firstLine(ex.getMessage());
    }
    return "internal error: " + ex.getClass().getSimpleName() + ": " + firstLine(ex.getMessage());
  }

  static String firstLine(String s) {
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
