package io.fluxdrm.cli;

import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.rset.RsetException;
import io.fluxdrm.sched.SchedulerOptions;
import io.fluxdrm.showcase.demo.Demo;
import io.fluxdrm.showcase.demo.ProcessWorld;
import io.fluxdrm.showcase.demo.PrrteDemo;
import io.fluxdrm.showcase.demo.Scenario;
import io.fluxdrm.showcase.demo.Step;
import io.fluxdrm.showcase.replay.DemoBridgeReplayProvider;
import io.fluxdrm.showcase.replay.DemoDvmReplayProvider;
import io.fluxdrm.showcase.replay.DemoReplayProvider;
import io.fluxdrm.showcase.timeline.Timeline;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fluxdrm demo}: the scripted story of {@link Demo} on embedded defaults, in this JVM or
 * with {@code --processes}, as a timeline on stdout and transcripts of the job manager's and the
 * DVM's endpoints.
 *
 * <p>Why one class: it is one picocli command, its options and their checks against each other; the
 * story itself is {@link Demo}'s.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    header =
        "Play a story of malleable jobs on the whole chain: the reference scheduler on a "
            + "16-node pool, the job manager, and the reference DVM in elastic mode (simulated "
            + "daemons) with the bridge as its scheduler.",
    description =
        "An application grows through the DVM (PMIx EXTEND, sched.realloc, grow "
            + "campaign, SUCCESS then PMIX_DVM_IS_READY), a job spawned meanwhile is held and "
            + "lands on the grown nodes, a grow whose daemon fails is rolled back, a second "
            + "job's grow waits until the first releases nodes, a request is denied, and a "
            + "session is instantiated, paused, resumed and terminated. Prints a timeline on "
            + "stdout (--json: one JSON object per step), a progress line on stderr when it is "
            + "a terminal (or --progress), writes the job manager's and the DVM's transcripts "
            + "(--transcript, --dvm-transcript), and draws the allocation over time "
            + "(--picture). Exit status: 0 every step as the story expects, 1 a step differed "
            + "(each difference is printed on stderr), 2 usage error.")
final class DemoCommand implements Callable<Integer> {
  private static final String LOG_PROPERTY = "org.slf4j.simpleLogger.log.io.fluxdrm";
  private static final String DEFAULT_HOSTS = "node[0-15]";

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--hosts",
      paramLabel = "HOSTLIST",
      description = "Pool hosts, ranks 0.. (at least 8; default: " + DEFAULT_HOSTS + ")")
  String hosts;

  @Option(
      names = "--nodes",
      paramLabel = "N",
      description = "A pool of N hosts node[0-N-1] (at least 8; instead of --hosts)")
  Integer nodes;

  @Option(
      names = "--cores",
      paramLabel = "IDSET",
      defaultValue = "0-31",
      description = "Core ids of every host, the DVM's slots (default: ${DEFAULT-VALUE})")
  String cores;

  @Option(
      names = "--seed",
      paramLabel = "N",
      description =
          "Vary the story's sizes (the grow, the waiting request, the denied request, the"
              + " session's processes) from this seed (default: the canonical story)")
  Long seed;

  @Option(
      names = "--speed",
      paramLabel = "X",
      defaultValue = "1",
      description =
          "How fast the simulated daemons start: "
              + Scenario.BASE_LATENCY_MS
              + " ms / X (0.01 to 100; default: ${DEFAULT-VALUE})")
  double speed;

  @Option(
      names = "--processes",
      description =
          "Run the scheduler, the job manager and the DVM as processes ('fluxdrm sched',"
              + " 'fluxdrm bridge', 'fluxdrm dvm') on Unix sockets in a temporary directory")
  boolean processes;

  @Option(
      names = "--crash",
      description =
          "With --processes: also kill the scheduler (SIGKILL) after the second job's grow and"
              + " start it again, and kill the DVM during a last grow; the story then shows that"
              + " no allocation is lost and that the grow is rolled back")
  boolean crash;

  @Option(
      names = "--state-dir",
      paramLabel = "DIR",
      description =
          "Keep the job manager's eventlogs here (with --processes: every part's state and"
              + " logs; new or empty; default: a temporary directory, removed at the end)")
  Path stateDir;

  @Option(
      names = "--transcript",
      paramLabel = "PATH",
      defaultValue = "fluxdrm-demo.jsonl",
      description =
          "Write the job manager's transcript here (with --processes: the job shells'"
              + " connections; default: ${DEFAULT-VALUE})")
  Path transcript;

  @Option(
      names = "--dvm-transcript",
      paramLabel = "PATH",
      defaultValue = "fluxdrm-demo-dvm.jsonl",
      description = "Write the DVM endpoint's transcript here (default: ${DEFAULT-VALUE})")
  Path dvmTranscript;

  @Option(
      names = "--picture",
      paramLabel = "PATH",
      description =
          "Draw the allocation over time from both transcripts here, as 'fluxdrm plot' does: PNG"
              + " when PATH ends in .png, else SVG (default: beside --transcript, its name with"
              + " .svg for .jsonl: fluxdrm-demo.svg)")
  Path picture;

  @Option(names = "--no-picture", description = "Draw no picture")
  boolean noPicture;

  @Option(
      names = "--no-realloc",
      description =
          "Run the scheduler with RFC 51 switched off (as 'fluxdrm sched --no-realloc'): the"
              + " story's grows are then refused and the demo exits 1")
  boolean noRealloc;

  @Option(names = "--json", description = "One JSON object per step instead of the timeline")
  boolean json;

  @Option(
      names = "--progress",
      description = "Show the progress line on stderr even when it is not a terminal")
  boolean progress;

  @Option(names = "--verbose", description = "Log the components' info messages on stderr")
  boolean verbose;

  @Option(
      names = "--prrte",
      description =
          "Play the allocation story against a real PRRTE DVM, fluxdrm as its PMIx scheduler"
              + " (needs a JDK 22+ and the pmix-native jar; no transcript, no picture;"
              + " docs/cli.md)")
  boolean prrte;

  @Option(
      names = "--prrte-prefix",
      paramLabel = "DIR",
      description = "With --prrte: PRRTE's installation (default: " + PrrteDemo.PRRTE_DEFAULT + ")")
  Path prrtePrefix;

  @Option(
      names = "--pmix-prefix",
      paramLabel = "DIR",
      description =
          "With --prrte: OpenPMIx's installation (default: " + PrrteDemo.PMIX_DEFAULT + ")")
  Path pmixPrefix;

  @Option(
      names = "--ssh-agent",
      paramLabel = "PATH",
      description =
          "With --prrte: prte --prtemca plm_ssh_agent PATH (e.g. ../shared/tools/fakessh)")
  Path sshAgent;

  @Override
  public Integer call() {
    if (System.getProperty(LOG_PROPERTY) == null) {
      // the components' own log lines are diagnostics: warnings only unless asked for
      System.setProperty(LOG_PROPERTY, verbose ? "info" : "warn");
      if (!verbose) {
        // the story injects a daemon that fails to start: its warning is no news
        System.setProperty(LOG_PROPERTY + ".dvm.service.DvmService", "error");
      }
    }
    if (prrte) {
      return prrte();
    }
    for (String o : PRRTE_ONLY.split(" ")) {
      if (matched(o)) {
        throw CliError.usage(o + ": only with --prrte");
      }
    }
    if (crash && !processes) {
      throw CliError.usage("--crash: without --processes (expected: both)");
    }
    ResourceSet pool = pool();
    Scenario scenario = scenario(pool);
    checkStateDir();
    if (picture != null) {
      checkPicture();
    }
    // the default's directory is the transcript's, which opening --transcript reports on
    picture = picturePath();
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    boolean showProgress = progress || System.console() != null;
    Demo.Result result;
    try (Writer w = open(transcript, "--transcript");
        Writer dw = open(dvmTranscript, "--dvm-transcript")) {
      if (!json) {
        out.printf(
            "fluxdrm demo: pool %s (%d nodes, cores %s each), %s%n",
            pool.nodelist(),
            pool.nnodes(),
            cores,
            processes ? "scheduler, job manager and DVM as processes" : "all in this JVM");
        out.flush();
      }
      int[] done = {0};
      result =
          Demo.run(
              new Demo.Config(
                  pool,
                  SchedulerOptions.defaults().withRealloc(!noRealloc),
                  stateDir,
                  w,
                  dw,
                  scenario,
                  processes ? Demo.Mode.PROCESSES : Demo.Mode.IN_PROCESS,
                  ProcessWorld.Launcher.thisJvm(Main.class.getName()),
                  crash,
                  processes ? Demo.ServerTranscripts.beside(transcript) : null),
              s -> {
                out.println(json ? s.toJson().toString() : s.toLine());
                out.flush();
                if (showProgress) {
                  done[0]++;
                  err.printf(
                      "\rfluxdrm demo: [%d/%d] %-14s%s",
                      done[0], Demo.STEPS.size(), s.name(), s.ok() ? "" : " (differs)");
                  err.flush();
                }
              });
      if (showProgress) {
        err.print("\r" + " ".repeat(48) + "\r");
        err.flush();
      }
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
    // with --processes the job manager runs elsewhere: the transcript is its job shells' side,
    // whose
    // requests and answers replay against the same world (D493)
    String side = processes ? "the job shells' side, " : "";
    String how =
        sameResources(pool, DemoReplayProvider.POOL) && !noRealloc && seed == null && !crash
            ? " (" + side + "replay: " + replay + ")"
            : " ("
                + side
                + "recorded in a world other than the default: '"
                + replay
                + "' replays against the default story)";
    err.println(
        "fluxdrm demo: transcripts written to "
            + transcript
            + how
            + " and "
            + dvmTranscript
            + " (the DVM's endpoint)");
    if (processes) {
      // the bridge's and the DVM's own endpoints (D517), each replayed against its start's world
      Demo.ServerTranscripts st = Demo.ServerTranscripts.beside(transcript);
      // daemons no faster than the default story's: the replay's take its time (D517)
      boolean defaultWorld =
          sameResources(pool, DemoReplayProvider.POOL)
              && !noRealloc
              && seed == null
              && !crash
              && speed <= 1;
      String replays =
          "fluxdrm replay "
              + st.bridge()
              + " --service "
              + DemoBridgeReplayProvider.NAME
              + ", fluxdrm replay "
              + st.dvm()
              + " --service "
              + DemoDvmReplayProvider.NAME;
      err.println(
          "fluxdrm demo: the bridge and the DVM recorded their endpoints to "
              + st.bridge()
              + (crash ? " (and " + st.bridge(2) + " after the restart)" : "")
              + " and "
              + st.dvm()
              + (defaultWorld
                  ? " (replay: " + replays + ")"
                  : " (recorded in a world other than the default: '"
                      + replays
                      + "' replay against the default story)"));
    }
    if (!noPicture) {
      drawPicture(err, result.started());
    }
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

  private static final String PRRTE_ONLY = "--prrte-prefix --pmix-prefix --ssh-agent";
  private static final String NOT_WITH_PRRTE =
      "--processes --crash --hosts --nodes --cores --seed --speed --no-realloc --transcript"
          + " --dvm-transcript --picture";

  private boolean matched(String option) {
    CommandLine.ParseResult r = spec.commandLine().getParseResult();
    return r != null && r.hasMatchedOption(option);
  }

  /** {@code --prrte}: {@link PrrteDemo} (D463). */
  private int prrte() {
    for (String o : NOT_WITH_PRRTE.split(" ")) {
      if (matched(o)) {
        throw CliError.usage(o + ": not with --prrte (its story is fixed)");
      }
    }
    if (stateDir != null) {
      checkStateDir();
    }
    return PrrteDemo.play(
        PrrteDemo.config(prrtePrefix, pmixPrefix, sshAgent, stateDir, Main.class.getName()),
        json,
        progress || System.console() != null,
        spec.commandLine().getOut(),
        spec.commandLine().getErr());
  }

  /** A picture whose directory is missing is refused before anything runs. */
  private void checkPicture() {
    if (noPicture) {
      return;
    }
    PlotCommand.checkExtension("--picture", picture);
    Path dir = picture.toAbsolutePath().getParent();
    if (dir != null && !java.nio.file.Files.isDirectory(dir)) {
      throw new CliError("--picture: " + picture + ": no such directory");
    }
    if (java.nio.file.Files.isDirectory(picture)) {
      throw new CliError(
          "--picture: " + picture + ": a directory (expected: FILE.svg or FILE.png)");
    }
  }

  /** The default picture is beside the job manager's transcript, named after it (D460). */
  private Path picturePath() {
    if (picture != null) {
      return picture;
    }
    String name = String.valueOf(transcript.getFileName());
    String base = name.endsWith(".jsonl") ? name.substring(0, name.length() - 6) : name;
    return transcript.resolveSibling(base + ".svg");
  }

  /**
   * Draws the allocation over time from the two transcripts just written, their lines merged in
   * time order, so that the jobs' bars and the DVM's daemons are in one picture: the renderer of
   * {@code fluxdrm plot}, named on stderr (D447, D460). With {@code --processes} the job manager's
   * transcript is the job shells' side: the grants come from the job manager's answers to them, the
   * jobs' first nodes from the R those answers carry (D493, D494). Its time axis starts where the
   * timeline on stdout does, when the world started (D519).
   */
  private void drawPicture(PrintWriter err, java.time.Instant started) {
    Timeline t;
    try {
      t = PlotCommand.timeline(started, transcript, dvmTranscript);
    } catch (CliError e) {
      err.println("fluxdrm demo: no picture: " + e.getMessage());
      err.flush();
      return;
    }
    PlotCommand.write(
        "--picture",
        picture,
        PlotCommand.render(t, "fluxdrm demo", PlotCommand.formatOf(picture), 1200, 0));
    err.printf(
        "fluxdrm demo: picture of %s and %s written to %s: %d nodes, %d jobs, %d marks%n",
        transcript, dvmTranscript, picture, t.rows().size(), t.jobs().size(), t.marks().size());
    err.flush();
  }

  private ResourceSet pool() {
    if (nodes != null && hosts != null) {
      throw CliError.usage("--nodes: not with --hosts (expected: one of them)");
    }
    String list = hosts == null ? DEFAULT_HOSTS : hosts;
    if (nodes != null) {
      if (nodes < Scenario.MIN_NODES || nodes > MAX_NODES) {
        throw CliError.usage(
            "--nodes: " + nodes + " (expected: " + Scenario.MIN_NODES + " to " + MAX_NODES + ")");
      }
      list = "node[0-" + (nodes - 1) + "]";
    }
    Hostlist h;
    try {
      h = Hostlist.parse(list);
    } catch (RsetException e) {
      throw CliError.usage("--hosts: " + e.getMessage());
    }
    if (h.count() < Scenario.MIN_NODES || h.count() > MAX_NODES) {
      throw CliError.usage(
          "--hosts: "
              + h.count()
              + " hosts (expected: "
              + Scenario.MIN_NODES
              + " to "
              + MAX_NODES
              + ", the story needs a quarter, a half and two free nodes)");
    }
    IdSet c;
    try {
      c = IdSet.parse(cores);
    } catch (RsetException e) {
      throw CliError.usage("--cores: " + e.getMessage());
    }
    if (c.isEmpty()) {
      throw CliError.usage("--cores: empty (expected: at least one core id)");
    }
    try {
      return DemoReplayProvider.pool(h, c);
    } catch (RsetException e) {
      throw CliError.usage("pool: " + e.getMessage());
    }
  }

  /** The largest pool the demo plays on (the DVM holds a quarter of it). */
  static final int MAX_NODES = 4096;

  private Scenario scenario(ResourceSet pool) {
    if (!(speed >= Scenario.MIN_SPEED && speed <= Scenario.MAX_SPEED)) {
      throw CliError.usage(
          "--speed: "
              + speed
              + " (expected: "
              + Scenario.MIN_SPEED
              + " to "
              + (int) Scenario.MAX_SPEED
              + ")");
    }
    int slots = (int) IdSet.parse(cores).count();
    return Scenario.of(
        pool.nnodes(), slots, seed == null ? OptionalLong.empty() : OptionalLong.of(seed), speed);
  }

  private void checkStateDir() {
    if (stateDir == null) {
      return;
    }
    if (!Files.exists(stateDir)) {
      try {
        Files.createDirectories(stateDir);
      } catch (IOException e) {
        throw new CliError("--state-dir: " + stateDir + ": cannot create (" + e.getMessage() + ")");
      }
      return;
    }
    if (!Files.isDirectory(stateDir)) {
      throw new CliError(
          "--state-dir: " + stateDir + ": not a directory (expected: a new or empty directory)");
    }
    try (Stream<Path> s = Files.list(stateDir)) {
      if (s.findAny().isPresent()) {
        throw new CliError(
            "--state-dir: "
                + stateDir
                + ": not empty (expected: a new or empty directory; the story starts from no"
                + " jobs)");
      }
    } catch (IOException e) {
      throw CliError.cannotRead("--state-dir: " + stateDir, e);
    }
  }

  private static Writer open(Path file, String option) {
    try {
      return Files.newBufferedWriter(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new CliError(option + ": " + file + ": cannot write (" + e.getMessage() + ")");
    }
  }

  private static boolean sameResources(ResourceSet a, ResourceSet b) {
    return a.diff(b).isEmpty() && b.diff(a).isEmpty();
  }
}
