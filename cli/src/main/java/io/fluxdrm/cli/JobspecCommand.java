package io.fluxdrm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import java.util.stream.Collectors;
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
final class JobspecCommand {

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
      header =
          "Validate jobspecs (YAML or JSON) at version 1 level, or canonical with --canonical.",
      description =
          "Prints 'FILE: ok' or one 'FILE: POINTER: MESSAGE' line per violation; exit "
              + "status 0 when every file is valid, 1 otherwise. Reads stdin when no FILE is "
              + "given. --stream speaks flux-core's 'flux job-validator' protocol instead: one "
              + "JSON job {\"jobspec\",\"userid\",...} per line of stdin (a bare jobspec with "
              + "--jobspec-only), one {\"errnum\"[,\"errstr\"]} line out for each, flushed at "
              + "once.")
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

    @Option(
        names = "--stream",
        description =
            "Validate jobs line by line on stdin, answering each as flux job-validator does"
                + " (for flux-core's job-ingest; see docs/operations.md)")
    boolean stream;

    @Option(
        names = "--jobspec-only",
        description = "With --stream: each line is a jobspec, not a job-ingest job object")
    boolean jobspecOnly;

    @Option(
        names = {"--plugins", "--plugin"},
        paramLabel = "LIST",
        description =
            "With --stream: flux job-validator's plugin list, as job-ingest passes it from"
                + " [ingest.validator] plugins; only 'jobspec' is provided")
    List<String> plugins = new ArrayList<>();

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
      if (stream) {
        return stream(level);
      }
      if (jobspecOnly || !plugins.isEmpty()) {
        throw CliError.usage(
            (jobspecOnly ? "--jobspec-only" : "--plugins") + ": only with --stream");
      }
      List<String> sources = files.isEmpty() ? List.of("-") : files;
      PrintWriter out = spec.commandLine().getOut();
      boolean allValid = true;
      for (String s : sources) {
        Report r =
            s.equals("-")
                ? JobspecValidator.check("-", stdin, level)
                : JobspecValidator.check(Path.of(s), level);
        allValid &= r.valid();
        if (!json && r.violations().stream().anyMatch(v -> v.rule().equals("io"))) {
          // a file that cannot be read is an error of the command, not a verdict on a jobspec:
          // stderr, like every other error (D487)
          out.flush();
          PrintWriter err = spec.commandLine().getErr();
          r.lines().forEach(err::println);
          err.flush();
          continue;
        }
        print(out, r, json);
      }
      out.flush();
      return allValid ? 0 : Main.EXIT_ERROR;
    }

    /**
     * flux-core's validator line protocol (src/cmd/flux-job-validator.py, job-ingest's worker.c):
     * job-ingest writes one compact JSON job per line, {@code {"jobspec":{...}, "userid":N,
     * "rolemask":N, "urgency":N, "flags":N}}, and reads one {@code {"errnum":0}} or {@code
     * {"errnum":N,"errstr":S}} line for each, in order. Every input line gets exactly one answer, a
     * bad line included (EINVAL with where and why), so the worker never loses step; the status is
     * 0 at end of input, or 1 with --jobspec-only when a jobspec was invalid, as flux
     * job-validator's.
     */
    private int stream(Level level) throws IOException {
      if (!files.isEmpty()) {
        throw CliError.usage("--stream: reads stdin only (expected: no FILE, found " + files + ")");
      }
      for (String list : plugins) {
        for (String p : list.split(",", -1)) {
          if (!p.equals("jobspec")) {
            throw CliError.usage(
                "--plugins: \""
                    + p
                    + "\" (expected: jobspec, the only validator plugin fluxdrm provides)");
          }
        }
      }
      PrintWriter out = spec.commandLine().getOut();
      LineReader lines = new LineReader(stdin, Documents.MAX_BYTES);
      boolean allValid = true;
      long n = 0;
      for (byte[] line = lines.next(); line != null; line = lines.next()) {
        n++;
        String verdict = streamVerdict(n, line, lines.truncated(), level);
        allValid &= verdict == null;
        out.print(verdict == null ? "{\"errnum\":0}" : verdict);
        out.print('\n');
        out.flush();
      }
      return jobspecOnly && !allValid ? Main.EXIT_ERROR : 0;
    }

    /** null when line {@code n} is valid, else its {@code {"errnum":22,"errstr":...}} line. */
    private String streamVerdict(long n, byte[] line, boolean truncated, Level level) {
      String where = "line " + n;
      if (truncated) {
        return error(
            where
                + ": longer than "
                + Documents.MAX_BYTES
                + " bytes (expected: one job of at most "
                + Documents.MAX_BYTES
                + " bytes per line)");
      }
      if (jobspecOnly) {
        Report r = JobspecValidator.check(where, line, level);
        return r.valid() ? null : error(describeAll(r.violations()));
      }
      JsonNode job;
      try {
        job = Documents.read(line);
      } catch (JobspecException e) {
        return error(where + ": " + describeAll(e.violations()));
      }
      JsonNode jobspec = job.get("jobspec");
      if (!job.isObject() || jobspec == null || !jobspec.isObject()) {
        return error(
            where
                + ": "
                + (job.isObject() ? "/jobspec: missing or not an object" : "not a JSON object")
                + " (expected: {\"jobspec\":{...},\"userid\":N,...}, or --jobspec-only)");
      }
      List<Violation> v = JobspecValidator.validate(jobspec, level);
      return v.isEmpty() ? null : error(describeAll(v));
    }

    private static String error(String errstr) {
      ObjectNode o = JsonNodeFactory.instance.objectNode();
      o.put("errnum", Report.EINVAL);
      o.put("errstr", errstr);
      return o.toString();
    }
  }

  /** Lines of a stream as bytes, each bounded; the excess of a longer line is skipped. */
  static final class LineReader {
    private final InputStream in;
    private final int max;
    private final byte[] buf = new byte[64 * 1024];
    private int pos;
    private int end;
    private boolean truncated;

    LineReader(InputStream in, int max) {
      this.in = in;
      this.max = max;
    }

    /** The next line without its terminator, or null at end of input. */
    byte[] next() throws IOException {
      java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
      truncated = false;
      boolean any = false;
      while (true) {
        if (pos == end) {
          end = in.read(buf);
          pos = 0;
          if (end <= 0) {
            end = 0;
            return any ? line.toByteArray() : null;
          }
        }
        any = true;
        int i = pos;
        while (i < end && buf[i] != '\n') {
          i++;
        }
        int take = Math.min(i - pos, Math.max(0, max - line.size()));
        line.write(buf, pos, take);
        if (i - pos > take) {
          truncated = true;
        }
        if (i < end) {
          pos = i + 1;
          return line.toByteArray();
        }
        pos = end;
      }
    }

    /** Whether the line last returned was longer than the bound (and was cut). */
    boolean truncated() {
      return truncated;
    }
  }

  @Command(
      name = "counts",
      mixinStandardHelpOptions = true,
      header =
          "Print, as JSON, what a scheduler derives from a jobspec: nnodes, nslots, "
              + "slot_size, slot_gpus, exclusive, duration (and the constraint when there is "
              + "one).")
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
      // a scheduler only ever sees what job-ingest's validator let through: the same rules as
      // jobspec validate (version 1), so the two never disagree on a jobspec (D490)
      Report valid = JobspecValidator.check(file, content, Level.V1);
      if (!valid.valid()) {
        throw new CliError(file + ": " + describe(valid.violations()));
      }
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

  /** Every violation on one line, separated by "; " (as flux's validator joins its errors). */
  static String describeAll(List<Violation> violations) {
    return violations.stream().map(Violation::toString).collect(Collectors.joining("; "));
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
