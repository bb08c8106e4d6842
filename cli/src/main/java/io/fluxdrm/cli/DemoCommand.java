package io.fluxdrm.cli;

import io.fluxdrm.cli.demo.Demo;
import io.fluxdrm.cli.demo.Step;
import io.fluxdrm.cli.replay.DemoReplayProvider;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.rset.RsetException;
import io.fluxdrm.sched.SchedulerOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fluxdrm demo}: the scripted RFC 51 story of {@link Demo} on embedded defaults, as a
 * timeline on stdout and a transcript of the job manager's endpoint.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = {
      "Run the whole RFC 51 chain in one JVM (scheduler, job manager, shell",
      "plugins, PMIx facades) on a 16-node pool, and play a story of jobs that",
      "grow and shrink through PMIx_Allocation_request. Prints a timeline on",
      "stdout (--json: one JSON object per step) and diagnostics on stderr, and",
      "records the job manager's endpoint to --transcript.",
      "Exit status: 0 every step as the story expects, 1 a step differed (each",
      "difference is printed on stderr), 2 usage error."
    })
final class DemoCommand implements Callable<Integer> {
  static final int EXIT_USAGE = 2;
  private static final String LOG_PROPERTY = "org.slf4j.simpleLogger.log.io.fluxdrm";

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--hosts",
      paramLabel = "HOSTLIST",
      defaultValue = "node[0-15]",
      description = "Pool hosts, ranks 0.. (at least 4; default: ${DEFAULT-VALUE})")
  String hosts;

  @Option(
      names = "--cores",
      paramLabel = "IDSET",
      defaultValue = "0-31",
      description = "Core ids of every host (default: ${DEFAULT-VALUE})")
  String cores;

  @Option(
      names = "--state-dir",
      paramLabel = "DIR",
      description =
          "Keep the job manager's eventlogs here (new or empty; default: a temporary"
              + " directory, removed at the end)")
  Path stateDir;

  @Option(
      names = "--transcript",
      paramLabel = "PATH",
      defaultValue = "fluxdrm-demo.jsonl",
      description = "Write the job manager's transcript here (default: ${DEFAULT-VALUE})")
  Path transcript;

  @Option(
      names = "--no-realloc",
      description =
          "Run the scheduler with RFC 51 switched off (as 'fluxdrm sched --no-realloc'): the"
              + " story's grows are then refused and the demo exits 1")
  boolean noRealloc;

  @Option(names = "--json", description = "One JSON object per step instead of the timeline")
  boolean json;

  @Option(names = "--verbose", description = "Log the components' info messages on stderr")
  boolean verbose;

  @Override
  public Integer call() {
    if (System.getProperty(LOG_PROPERTY) == null) {
      // the components' own log lines are diagnostics: warnings only unless asked for
      System.setProperty(LOG_PROPERTY, verbose ? "info" : "warn");
    }
    ResourceSet pool = pool();
    checkStateDir();
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Demo.Result result;
    try (Writer w = open()) {
      if (!json) {
        out.printf(
            "fluxdrm demo: pool %s (%d nodes, cores %s each)%n",
            pool.nodelist(), pool.nnodes(), cores);
        out.flush();
      }
      result =
          Demo.run(
              new Demo.Config(
                  pool, SchedulerOptions.defaults().withRealloc(!noRealloc), stateDir, w),
              s -> {
                out.println(json ? s.toJson().toString() : s.toLine());
                out.flush();
              });
    } catch (IOException e) {
      throw new CliError("--transcript: " + transcript + ": " + e.getMessage());
    } catch (UncheckedIOException e) {
      throw new CliError("state directory: " + e.getCause().getMessage());
    }
    if (result.ok() && !json) {
      Step last = result.steps().get(result.steps().size() - 1);
      out.printf(
          "fluxdrm demo: %d steps as the story expects in %d ms%n",
          result.steps().size(), last.elapsedMs());
      out.flush();
    }
    String replay = "fluxdrm replay " + transcript + " --service " + DemoReplayProvider.NAME;
    err.println(
        "fluxdrm demo: transcript written to "
            + transcript
            + (sameResources(pool, DemoReplayProvider.POOL) && !noRealloc
                ? " (replay: " + replay + ")"
                : " (recorded in a world other than the default: '"
                    + replay
                    + "' replays against the default pool with RFC 51 on)"));
    if (!result.ok()) {
      for (String d : result.differences()) {
        err.println("fluxdrm demo: " + d);
      }
      err.flush();
      return Main.EXIT_ERROR;
    }
    out.flush();
    err.flush();
    return 0;
  }

  private ResourceSet pool() {
    Hostlist h;
    try {
      h = Hostlist.parse(hosts);
    } catch (RsetException e) {
      throw new CliError("--hosts: " + e.getMessage(), EXIT_USAGE);
    }
    if (h.count() < 4 || h.count() > ResourceSet.MAX_RANKS) {
      throw new CliError(
          "--hosts: "
              + h.count()
              + " hosts (expected: 4 to "
              + ResourceSet.MAX_RANKS
              + ", the story needs a quarter of the pool)",
          EXIT_USAGE);
    }
    IdSet c;
    try {
      c = IdSet.parse(cores);
    } catch (RsetException e) {
      throw new CliError("--cores: " + e.getMessage(), EXIT_USAGE);
    }
    if (c.isEmpty()) {
      throw new CliError("--cores: empty (expected: at least one core id)", EXIT_USAGE);
    }
    try {
      return DemoReplayProvider.pool(h, c);
    } catch (RsetException e) {
      throw new CliError("pool: " + e.getMessage(), EXIT_USAGE);
    }
  }

  private void checkStateDir() {
    if (stateDir == null) {
      return;
    }
    if (!Files.exists(stateDir)) {
      try {
        Files.createDirectories(stateDir);
      } catch (IOException e) {
        throw new CliError(
            "--state-dir: " + stateDir + ": cannot create (" + e.getMessage() + ")", EXIT_USAGE);
      }
      return;
    }
    if (!Files.isDirectory(stateDir)) {
      throw new CliError(
          "--state-dir: " + stateDir + ": not a directory (expected: a new or empty directory)",
          EXIT_USAGE);
    }
    try (Stream<Path> s = Files.list(stateDir)) {
      if (s.findAny().isPresent()) {
        throw new CliError(
            "--state-dir: "
                + stateDir
                + ": not empty (expected: a new or empty directory; the story starts from no"
                + " jobs)",
            EXIT_USAGE);
      }
    } catch (IOException e) {
      throw new CliError(
          "--state-dir: " + stateDir + ": cannot read (" + e.getMessage() + ")", EXIT_USAGE);
    }
  }

  private Writer open() {
    try {
      return Files.newBufferedWriter(transcript, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new CliError(
          "--transcript: " + transcript + ": cannot write (" + e.getMessage() + ")", EXIT_USAGE);
    }
  }

  private static boolean sameResources(ResourceSet a, ResourceSet b) {
    return a.diff(b).isEmpty() && b.diff(a).isEmpty();
  }
}
