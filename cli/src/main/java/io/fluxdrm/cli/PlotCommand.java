package io.fluxdrm.cli;

import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.transcript.Transcript;
import io.fluxdrm.rpc.transcript.TranscriptLine;
import io.fluxdrm.showcase.plot.LivePlot;
import io.fluxdrm.showcase.plot.Plots;
import io.fluxdrm.showcase.timeline.Timeline;
import io.fluxdrm.showcase.timeline.TimelineBuilder;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code fluxdrm plot}: allocation over time, from a transcript to an SVG or PNG picture, or live
 * in the terminal from a running scheduler's {@code sched.watch} stream (decisions D425-D427).
 */
@Command(
    name = "plot",
    mixinStandardHelpOptions = true,
    header =
        "Draw allocation over time from a transcript (JSON lines, such as 'fluxdrm demo''s),"
            + " or live from a running scheduler.",
    description =
        "One row per node, bars coloured by job with the job id on "
            + "them, grows and shrinks marked, held and denied requests written out, DVM "
            + "daemons starting and leaving. -o FILE.svg or FILE.png (or --format); '-o -' "
            + "writes SVG to stdout. --live draws the allocation of a running 'fluxdrm sched' "
            + "in the terminal instead, refreshed as it changes. Exit status: 0 written (or "
            + "--live ended), 1 error (missing, unreadable, malformed or empty transcript; "
            + "nothing about allocations in it; cannot write; no scheduler), 2 usage error.")
final class PlotCommand implements java.util.concurrent.Callable<Integer> {
  private static final Pattern DURATION = Pattern.compile("(\\d{1,9})(ms|s|m|h)?");

  enum Format {
    svg,
    png
  }

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "TRANSCRIPT",
      description = "Transcript file")
  Path transcript;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE",
      description = "Where the picture goes: FILE.svg, FILE.png, or - for SVG on stdout")
  String output;

  @Option(
      names = "--format",
      paramLabel = "svg|png",
      description = "Picture format (default: from the -o name's extension, else svg)")
  Format format;

  @Option(
      names = "--width",
      paramLabel = "PX",
      defaultValue = "1200",
      description = "Picture width in pixels, 480 to 16384 (default: ${DEFAULT-VALUE})")
  int width;

  @Option(
      names = "--height",
      paramLabel = "PX",
      defaultValue = "0",
      description = "Picture height in pixels, up to 16384 (default 0: about 24 px per node)")
  int height;

  @Option(
      names = "--title",
      paramLabel = "TEXT",
      description = "What the title names (default: the transcript's file name)")
  String title;

  @Option(names = "--live", description = "Draw a running scheduler's allocation in the terminal")
  boolean live;

  @Option(
      names = "--connect",
      paramLabel = "ENDPOINT",
      description =
          "With --live: the hub of 'fluxdrm sched --listen': unix:DIR, local://PATH or"
              + " tcp://127.0.0.1:PORT (its --tcp-loopback-role owner); the instance owner only")
  String connect;

  @Option(
      names = "--for",
      paramLabel = "DURATION",
      description =
          "With --live: stop after this long, e.g. 30s, 500ms, 2m (default: until interrupted)")
  String forDuration;

  @Option(
      names = "--columns",
      paramLabel = "N",
      description = "With --live: the grid's width (default: $COLUMNS, else 100)")
  Integer columns;

  @Override
  public Integer call() throws InterruptedException {
    if (live) {
      return live();
    }
    if (transcript == null) {
      throw CliError.usage("TRANSCRIPT: missing (expected: a transcript file, or --live)");
    }
    if (connect != null || forDuration != null || columns != null) {
      throw CliError.usage("--connect, --for and --columns go with --live only");
    }
    if (output == null) {
      throw CliError.usage("-o: missing (expected: FILE.svg, FILE.png or -)");
    }
    Format f = format();
    checkSize();
    Timeline t = timeline(transcript);
    String name = title != null ? title : String.valueOf(transcript.getFileName());
    if (f == Format.svg && output.equals("-")) {
      PrintWriter out = spec.commandLine().getOut();
      out.print(Plots.svg(t, name, width, height));
      out.flush();
      return 0;
    }
    write("-o", Path.of(output), render(t, name, f, width, height));
    PrintWriter err = spec.commandLine().getErr();
    err.printf(
        Locale.ROOT,
        "fluxdrm plot: %s written: %d nodes, %d jobs, %d marks%s%n",
        output,
        t.rows().size(),
        t.jobs().size(),
        t.marks().size(),
        t.unattributed() == 0 ? "" : " (" + t.unattributed() + " answers matched no request)");
    err.flush();
    return 0;
  }

  private Format format() {
    if (format != null) {
      if (format == Format.png && output.equals("-")) {
        throw CliError.usage("--format png: not to stdout (expected: -o FILE.png)");
      }
      return format;
    }
    if (output.equals("-")) {
      return Format.svg;
    }
    checkExtension("-o", Path.of(output));
    return formatOf(Path.of(output));
  }

  /**
   * Refuses a picture file whose name asks for a format fluxdrm does not write ({@code one.gif}
   * would get SVG bytes): a usage error naming the option. A name without an extension is SVG.
   */
  static void checkExtension(String option, Path file) {
    String name = String.valueOf(file.getFileName());
    int dot = name.lastIndexOf('.');
    if (dot <= 0) {
      return;
    }
    String ext = name.substring(dot + 1).toLowerCase(Locale.ROOT);
    if (!ext.equals("svg") && !ext.equals("png")) {
      throw CliError.usage(
          option
              + ": "
              + file
              + ": a ."
              + ext
              + " picture (expected: FILE.svg or FILE.png, or --format svg|png)");
    }
  }

  private void checkSize() {
    if (width < Plots.MIN_WIDTH || width > Plots.MAX_SIDE) {
      throw CliError.usage(
          "--width: " + width + " (expected: " + Plots.MIN_WIDTH + " to " + Plots.MAX_SIDE + ")");
    }
    if (height != 0 && (height < 200 || height > Plots.MAX_SIDE)) {
      throw CliError.usage(
          "--height: " + height + " (expected: 0 for automatic, or 200 to " + Plots.MAX_SIDE + ")");
    }
  }

  /**
   * The picture of {@code t} in format {@code f}.
   *
   * @param t the timeline
   * @param name what the title names
   * @param f the format
   * @param width the width in pixels
   * @param height the height in pixels, 0 for about 24 px per node
   * @return the file's bytes
   */
  static byte[] render(Timeline t, String name, Format f, int width, int height) {
    if (f == Format.png) {
      System.setProperty("java.awt.headless", "true");
      return Plots.png(t, name, width, height);
    }
    return Plots.svg(t, name, width, height).getBytes(StandardCharsets.UTF_8);
  }

  /** The format a picture file's name asks for: PNG for {@code .png}, else SVG. */
  static Format formatOf(Path file) {
    return String.valueOf(file.getFileName()).toLowerCase(Locale.ROOT).endsWith(".png")
        ? Format.png
        : Format.svg;
  }

  /**
   * Reads a transcript into a timeline: every bad line is an error naming the file, line and rule.
   *
   * @param transcript the transcript file
   * @return its timeline, never empty
   * @throws CliError when the file is missing, bad, or has no allocation traffic
   */
  static Timeline timeline(Path... transcripts) {
    return timeline(null, transcripts);
  }

  /**
   * Reads transcripts into a timeline that starts no later than {@code origin} (D519).
   *
   * @param origin where the time axis may start at the latest, or null for the first line read
   */
  static Timeline timeline(java.time.Instant origin, Path... transcripts) {
    List<TranscriptLine> lines = new java.util.ArrayList<>();
    for (Path transcript : transcripts) {
      if (!Files.exists(transcript)) {
        throw new CliError(transcript + ": no such file");
      }
      if (Files.isDirectory(transcript)) {
        throw new CliError(transcript + ": a directory (expected: a transcript file)");
      }
      try {
        lines.addAll(Transcript.read(transcript));
      } catch (RpcException e) {
        throw new CliError(Main.firstLine(e.getMessage()));
      }
    }
    String named =
        String.join(" and ", java.util.Arrays.stream(transcripts).map(Path::toString).toList());
    if (lines.isEmpty()) {
      throw new CliError(named + ": empty (expected: one JSON transcript line or more)");
    }
    if (transcripts.length > 1) {
      // lines of several endpoints, each in time order: one story in time order (stable)
      lines.sort(java.util.Comparator.comparing(TranscriptLine::time));
    }
    TimelineBuilder b = new TimelineBuilder();
    if (origin != null) {
      b.origin(origin);
    }
    lines.forEach(b::accept);
    Timeline t = b.build();
    if (t.isEmpty()) {
      throw new CliError(
          named
              + ": "
              + lines.size()
              + " line(s), none about allocations (expected: sched.alloc, sched.realloc,"
              + " sched.free, job-manager.realloc or dvm.* traffic)");
    }
    return t;
  }

  /**
   * Writes a picture file.
   *
   * @param option the option that named it, for the error
   * @param p the file
   * @param bytes its content
   * @throws CliError when it cannot be written
   */
  static void write(String option, Path p, byte[] bytes) {
    try {
      Files.write(p, bytes);
    } catch (NoSuchFileException e) {
      throw new CliError(option + ": " + p + ": no such directory");
    } catch (IOException e) {
      throw new CliError(option + ": " + p + ": cannot write (" + e.getMessage() + ")");
    }
  }

  // ---- live
  // --------------------------------------------------------------------------------------

  private int live() throws InterruptedException {
    if (transcript != null || output != null || format != null) {
      throw CliError.usage(
          "--live: draws in the terminal (expected: no TRANSCRIPT, -o nor --format)");
    }
    if (connect == null) {
      throw CliError.usage(
          "--connect: missing (expected: unix:DIR, local://PATH or tcp://127.0.0.1:PORT)");
    }
    String uri = hubUri(connect);
    Duration limit = forDuration == null ? null : duration(forDuration);
    int cols = columns != null ? columns : envColumns();
    if (cols < 40 || cols > 1000) {
      throw CliError.usage("--columns: " + cols + " (expected: 40 to 1000)");
    }
    boolean ansi =
        System.console() != null
            && System.getenv("TERM") != null
            && !"dumb".equals(System.getenv("TERM"));
    PrintWriter out = spec.commandLine().getOut();
    Reactor reactor = Reactor.start("fluxdrm-plot");
    FluxHandle h = null;
    try {
      h =
          io.fluxdrm.rpc.endpoint.Connectors.open(
              reactor,
              uri,
              Daemon.START_TIMEOUT,
              null,
              io.fluxdrm.rpc.endpoint.Connectors.Absent.FAIL);
      LivePlot plot = new LivePlot(h, out, ansi, cols, Clock.systemUTC());
      CompletableFuture<LivePlot> started = reactor.submit(() -> plot.start().thenApply(v -> plot));
      try {
        started.get(Daemon.START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (ExecutionException e) {
        Throwable c = e.getCause() != null ? e.getCause() : e;
        if (c instanceof RpcException r && r.errnum() != Errno.ENOSYS) {
          throw CliError.connect("--connect " + connect, uri, r, EXPECTED);
        }
        throw new CliError("--connect " + connect + ": " + explain(c));
      } catch (TimeoutException e) {
        throw new CliError(
            "--connect "
                + connect
                + ": no answer from sched.watch in "
                + Daemon.START_TIMEOUT.toSeconds()
                + " s");
      }
      CompletableFuture<Void> ended = plot.ended();
      try {
        if (limit == null) {
          ended.get();
        } else {
          ended.get(limit.toNanos(), TimeUnit.NANOSECONDS);
        }
        throw new CliError("--connect " + connect + ": the scheduler ended the watch");
      } catch (TimeoutException e) {
        reactor.runAndWait(() -> plot.stop(), Daemon.START_TIMEOUT);
        return 0;
      } catch (ExecutionException e) {
        throw new CliError("--connect " + connect + ": " + explain(e.getCause()));
      }
    } catch (RpcException e) {
      throw CliError.connect("--connect " + connect, uri, e, EXPECTED);
    } finally {
      if (h != null) {
        h.close();
      }
      reactor.close();
    }
  }

  /** What a failed connect expects there. */
  private static final String EXPECTED = "'fluxdrm sched' listening there";

  private static String explain(Throwable c) {
    if (c instanceof RpcException r && r.errnum() == Errno.ENOSYS) {
      return "no scheduler there (expected: 'fluxdrm sched' on this hub)";
    }
    return c.getMessage();
  }

  private static int envColumns() {
    String c = System.getenv("COLUMNS");
    try {
      return c == null ? 100 : Integer.parseInt(c.strip());
    } catch (NumberFormatException e) {
      return 100;
    }
  }

  /** The connector URI of {@code --connect}, as the other hub clients read it. */
  static String hubUri(String arg) {
    java.util.Optional<io.fluxdrm.rpc.endpoint.Endpoint> e =
        io.fluxdrm.rpc.endpoint.Endpoint.parse(arg);
    if (e.isPresent()
        && !(e.get() instanceof io.fluxdrm.rpc.endpoint.Endpoint.Tcp t && !t.loopback())) {
      return e.get().connectorUri();
    }
    throw CliError.usage(
        "--connect: \"" + arg + "\" (expected: unix:DIR, local://PATH or tcp://127.0.0.1:PORT)");
  }

  /** {@code 30s}, {@code 500ms}, {@code 2m}, {@code 1h}; a bare number is seconds. */
  static Duration duration(String s) {
    Matcher m = DURATION.matcher(s.strip());
    if (!m.matches() || Long.parseLong(m.group(1)) == 0) {
      throw CliError.usage(
          "--for: \"" + s + "\" (expected: a positive duration such as 30s, 500ms, 2m or 1h)");
    }
    long n = Long.parseLong(m.group(1));
    String unit = m.group(2) == null ? "s" : m.group(2);
    return switch (unit) {
      case "ms" -> Duration.ofMillis(n);
      case "m" -> Duration.ofMinutes(n);
      case "h" -> Duration.ofHours(n);
      default -> Duration.ofSeconds(n);
    };
  }
}
