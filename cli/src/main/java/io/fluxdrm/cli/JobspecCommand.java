package io.fluxdrm.cli;

import io.fluxdrm.jobspec.Counts;
import io.fluxdrm.jobspec.Documents;
import io.fluxdrm.jobspec.JobspecException;
import io.fluxdrm.jobspec.JobspecValidator;
import io.fluxdrm.jobspec.Level;
import io.fluxdrm.jobspec.Report;
import io.fluxdrm.schemas.Violation;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code fluxdrm jobspec}: validate jobspecs (as flux job-validator) and derive their counts. */
@Command(
    name = "jobspec",
    mixinStandardHelpOptions = true,
    description = "Validate RFC 14/25 jobspecs and derive what a scheduler needs from them.",
    subcommands = {JobspecCommand.Validate.class, JobspecCommand.CountsCommand.class})
final class JobspecCommand implements Runnable {

  @Override
  public void run() {
    throw new CliError(
        "a subcommand is required: validate or counts (see 'fluxdrm jobspec --help')");
  }

  /** Reads a named file, or stdin for "-", bounded to the jobspec reading limit. */
  static byte[] readSource(String source, InputStream stdin) throws IOException {
    if (source.equals("-")) {
      return stdin.readNBytes(Documents.MAX_BYTES + 1);
    }
    try (InputStream in = Files.newInputStream(Path.of(source))) {
      return in.readNBytes(Documents.MAX_BYTES + 1);
    } catch (NoSuchFileException e) {
      throw new CliError(source + ": no such file");
    } catch (IOException | SecurityException e) {
      throw new CliError(source + ": cannot read: " + Main.firstLine(e.getMessage()));
    }
  }

  @Command(
      name = "validate",
      mixinStandardHelpOptions = true,
      description = {
        "Validate jobspecs (YAML or JSON) at version 1 level, or canonical with --canonical.",
        "Prints 'FILE: ok' or one 'FILE: POINTER: MESSAGE' line per violation; exit status 0",
        "when every file is valid, 1 otherwise. Reads stdin when no FILE is given."
      })
  static final class Validate implements Callable<Integer>, Main.UsesStdin {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Option(
        names = "--canonical",
        description = "Validate against RFC 14 (canonical) instead of RFC 25 (version 1)")
    boolean canonical;

    @Option(
        names = "--json",
        description = "One JSON object per file: {\"file\",\"errnum\"[,\"errstr\"]}")
    boolean json;

    @Parameters(paramLabel = "FILE", arity = "0..*", description = "Jobspec files ('-': stdin)")
    List<String> files = new ArrayList<>();

    private InputStream stdin = System.in;

    @Override
    public void stdin(InputStream in) {
      this.stdin = in;
    }

    @Override
    public Integer call() throws IOException {
      Level level = canonical ? Level.CANONICAL : Level.V1;
      List<String> sources = files.isEmpty() ? List.of("-") : files;
      PrintWriter out = spec.commandLine().getOut();
      boolean allValid = true;
      for (String s : sources) {
        Report r =
            s.equals("-")
                ? JobspecValidator.check("-", stdin, level)
                : JobspecValidator.check(Path.of(s), level);
        allValid &= r.valid();
        print(out, r, json);
      }
      out.flush();
      return allValid ? 0 : Main.EXIT_ERROR;
    }
  }

  @Command(
      name = "counts",
      mixinStandardHelpOptions = true,
      description = {
        "Print, as JSON, what a scheduler derives from a jobspec: nnodes, nslots, slot_size,",
        "slot_gpus, exclusive, duration (and the constraint when there is one)."
      })
  static final class CountsCommand implements Callable<Integer>, Main.UsesStdin {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "A jobspec file ('-': stdin)")
    String file;

    private InputStream stdin = System.in;

    @Override
    public void stdin(InputStream in) {
      this.stdin = in;
    }

    @Override
    public Integer call() throws IOException {
      byte[] content = readSource(file, stdin);
      Counts counts;
      try {
        counts = Counts.of(Documents.read(content));
      } catch (JobspecException e) {
        throw new CliError(file + ": " + describe(e.violations()));
      }
      PrintWriter out = spec.commandLine().getOut();
      out.println(counts.toJson());
      out.flush();
      return 0;
    }
  }

  /** A report as {@code validate} prints it: one JSON object, or its text lines. */
  static void print(PrintWriter out, Report r, boolean json) {
    if (json) {
      out.println(r.toJson());
    } else {
      r.lines().forEach(out::println);
    }
  }

  /** Violations on one line: the first in full, then how many more. */
  static String describe(List<Violation> violations) {
    if (violations.isEmpty()) {
      return "invalid";
    }
    String first = violations.get(0).toString();
    return violations.size() == 1 ? first : first + " (and " + (violations.size() - 1) + " more)";
  }
}
