package io.fluxdrm.showcase.demo;

import io.fluxdrm.bridge.dvm.DvmJobScheduler;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.transcript.TranscriptRecorder;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.SchedulerOptions;
import io.fluxdrm.showcase.replay.DemoReplayProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scripted story of {@code fluxdrm demo}, played on the whole chain: the reference scheduler,
 * the job manager, and the reference DVM in elastic mode (simulated executor) with the bridge as
 * its scheduler ({@link DvmJobScheduler}), in one JVM or as processes ({@link World}). Every
 * request is an application's or a tool's, over a hub; every line of the timeline is read from an
 * answer, an event or the scheduler's state (decisions D440–D444).
 *
 * <p>The story ({@link Scenario} gives the sizes): job A, the DVM's job, starts on a quarter of the
 * pool and the DVM on its nodes; job B on half. A's application asks the DVM to grow ({@code PMIx
 * EXTEND}): the DVM forwards it to the bridge, {@code sched.realloc} grants it, the bridge
 * instantiates a session over the new nodes, the DVM starts their daemons (a grow campaign) and the
 * application gets {@code PMIX_SUCCESS}; a job it spawns into that allocation meanwhile is held,
 * and lands there once {@code PMIX_DVM_IS_READY} says the daemons are up. A NEW whose daemon fails
 * to start is rolled back ({@code PMIX_ERR_DVM_MOD}) and its node goes back to the scheduler. B's
 * grow waits in the scheduler's realloc FIFO until A releases its grown nodes: the DVM's daemons
 * there leave (a shrink campaign), then the job manager frees them ({@code sched.free final:false})
 * and B's grow is granted. A request larger than the pool is denied. The bridge instantiates a
 * session with an app on one of A's nodes, pauses, resumes and terminates it, and the DVM reports
 * {@code PMIX_SESSION_COMPLETE}. Both jobs end and the pool is whole again.
 *
 * <p>The story's parts (decision D541), package-private: {@link ElasticStory} tells it in order,
 * {@link JobSteps}, {@link SessionSteps} and {@link CrashSteps} are its steps by part, and {@link
 * DemoRun} holds what they share and records each step.
 */
public final class Demo {
  private static final Logger LOG = LoggerFactory.getLogger(Demo.class);

  /** The story's steps, in order. */
  public static final List<String> STEPS =
      List.of(
          "a-start",
          "b-start",
          "dvm-attach",
          "a-grow",
          "a-held",
          "a-ready",
          "a-landed",
          "a-grow-fail",
          "a-rollback",
          "a-handback",
          "b-grow",
          "a-release",
          "a-departed",
          "a-shrunk",
          "b-granted",
          "a-deny",
          "s-instantiate",
          "s-pause",
          "s-resume",
          "s-terminate",
          "s-complete",
          "b-end",
          "a-end",
          "pool");

  /** The steps {@link Config#crashes} adds, each after the step it names. */
  public static final java.util.Map<String, List<String>> CRASH_STEPS =
      java.util.Map.of(
          "b-granted", List.of("sched-restart"), "s-complete", List.of("dvm-grow", "dvm-lost"));

  /** The story's steps with {@link Config#crashes} or without. */
  public static List<String> steps(boolean crashes) {
    if (!crashes) {
      return STEPS;
    }
    List<String> l = new ArrayList<>();
    for (String s : STEPS) {
      l.add(s);
      l.addAll(CRASH_STEPS.getOrDefault(s, List.of()));
    }
    return List.copyOf(l);
  }

  /** The session the bridge instantiates with apps (no grant uses ids this large). */
  static final long SESSION_ID = 1000;

  /** The user of job A and of job B in this JVM (processes all run as the demo's user). */
  static final int UID_A = DemoReplayProvider.UID_A;

  static final int UID_B = DemoReplayProvider.UID_B;

  /** The instance owner's uid in this JVM. */
  static final int OWNER = DemoReplayProvider.OWNER;

  /** Where the story's parts run. */
  public enum Mode {
    /** Everything in this JVM, on one reactor. */
    IN_PROCESS,
    /** {@code fluxdrm sched}, {@code fluxdrm bridge} and {@code fluxdrm dvm} as processes. */
    PROCESSES
  }

  /**
   * What the demo runs on.
   *
   * @param pool the scheduler's pool, at least {@link Scenario#MIN_NODES} nodes
   * @param options the scheduler's options (the story expects RFC 51 switched on)
   * @param stateDir the job manager's state directory, or null for a temporary one
   * @param transcript where the job manager's transcript goes (in processes, the job shells')
   * @param dvmTranscript where the DVM's endpoint's transcript goes (in processes, the bridge's and
   *     the application's side of it)
   * @param scenario the story's sizes
   * @param mode where the parts run
   * @param launcher how a part is started as a process (ignored in {@link Mode#IN_PROCESS})
   * @param crashes in {@link Mode#PROCESSES}: the scheduler is killed and started again after B's
   *     grow ({@link #CRASH_STEPS} {@code sched-restart}), and the DVM is killed during a grow at
   *     the end ({@code dvm-grow}, {@code dvm-lost})
   * @param servers in {@link Mode#PROCESSES}: where the bridge and the DVM record their own
   *     endpoint's transcripts ({@code --transcript}), or null for none
   */
  public record Config(
      ResourceSet pool,
      SchedulerOptions options,
      Path stateDir,
      Writer transcript,
      Writer dvmTranscript,
      Scenario scenario,
      Mode mode,
      ProcessWorld.Launcher launcher,
      boolean crashes,
      ServerTranscripts servers) {
    /** A configuration whose processes record no transcript of their own. */
    public Config(
        ResourceSet pool,
        SchedulerOptions options,
        Path stateDir,
        Writer transcript,
        Writer dvmTranscript,
        Scenario scenario,
        Mode mode,
        ProcessWorld.Launcher launcher,
        boolean crashes) {
      this(
          pool,
          options,
          stateDir,
          transcript,
          dvmTranscript,
          scenario,
          mode,
          launcher,
          crashes,
          null);
    }

    public Config {
      Objects.requireNonNull(pool, "pool");
      Objects.requireNonNull(options, "options");
      Objects.requireNonNull(transcript, "transcript");
      Objects.requireNonNull(dvmTranscript, "dvmTranscript");
      Objects.requireNonNull(scenario, "scenario");
      Objects.requireNonNull(mode, "mode");
      if (crashes && mode != Mode.PROCESSES) {
        throw new IllegalArgumentException("crashes: only with the parts as processes");
      }
      if (pool.nnodes() != scenario.nodes()) {
        throw new IllegalArgumentException(
            "scenario: " + scenario.nodes() + " nodes for a pool of " + pool.nnodes());
      }
    }
  }

  /**
   * Where {@code fluxdrm bridge} and {@code fluxdrm dvm} record the transcripts of their own
   * endpoints (D517): {@code bridge} for the first job manager, {@code bridge-2.jsonl} and so on
   * beside it for one started again after a scheduler's restart.
   *
   * @param bridge the first bridge's transcript
   * @param dvm the DVM's
   */
  public record ServerTranscripts(Path bridge, Path dvm) {
    public ServerTranscripts {
      Objects.requireNonNull(bridge, "bridge");
      Objects.requireNonNull(dvm, "dvm");
    }

    /**
     * The transcripts beside {@code transcript} (the job shells'): its name, without {@code
     * .jsonl}, with {@code -bridge.jsonl} and {@code -dvm-server.jsonl}.
     */
    public static ServerTranscripts beside(Path transcript) {
      String name = String.valueOf(transcript.getFileName());
      String base = name.endsWith(".jsonl") ? name.substring(0, name.length() - 6) : name;
      return new ServerTranscripts(
          transcript.resolveSibling(base + "-bridge.jsonl"),
          transcript.resolveSibling(base + "-dvm-server.jsonl"));
    }

    /** The transcript of the bridge started {@code n}th (1: the first). */
    public Path bridge(int n) {
      if (n == 1) {
        return bridge;
      }
      String name = String.valueOf(bridge.getFileName());
      String base = name.endsWith(".jsonl") ? name.substring(0, name.length() - 6) : name;
      return bridge.resolveSibling(base + "-" + n + ".jsonl");
    }
  }

  /**
   * How a run went.
   *
   * @param steps the timeline
   * @param differences one line per step whose outcome is not the story's (empty: all as told)
   * @param started when the timeline's clock started (its steps' milliseconds count from there), on
   *     the transcripts' clock; null when the story did not start
   */
  public record Result(List<Step> steps, List<String> differences, java.time.Instant started) {
    public Result {
      steps = List.copyOf(steps);
      differences = List.copyOf(differences);
    }

    /** A run whose start is not known. */
    public Result(List<Step> steps, List<String> differences) {
      this(steps, differences, null);
    }

    /** Whether every step came out as the story expects. */
    public boolean ok() {
      return differences.isEmpty();
    }
  }

  private final DemoRun st;
  private final ElasticStory story;

  private Demo(Config config, Consumer<Step> sink) {
    this.st = new DemoRun(config, sink);
    this.story = new ElasticStory(st);
  }

  /**
   * Plays the story on {@code config}, handing each step to {@code sink} as it happens.
   *
   * @return the timeline and what differed from the story
   * @throws java.io.UncheckedIOException when a state directory cannot be made or a transcript
   *     written
   */
  public static Result run(Config config, Consumer<Step> sink) {
    return new Demo(config, Objects.requireNonNull(sink, "sink")).play();
  }

  private Result play() {
    List<String> differences = new ArrayList<>();
    Path dir = st.config.stateDir();
    boolean temporary = dir == null;
    TranscriptRecorder recorder = new TranscriptRecorder(st.config.transcript(), Clock.systemUTC());
    TranscriptRecorder dvmRecorder =
        new TranscriptRecorder(st.config.dvmTranscript(), Clock.systemUTC());
    Reactor reactor = Reactor.start("fluxdrm-demo");
    try {
      if (temporary) {
        dir = Files.createTempDirectory("fluxdrm-demo-");
      }
      LOG.info("state in {}", dir);
      try (World w = open(reactor, dir, recorder, dvmRecorder)) {
        st.world = w;
        st.dvm = new DvmSide(w, st.events);
        st.t0 = System.nanoTime();
        st.started = Clock.systemUTC().instant();
        story.story();
        w.problems().ifPresent(p -> differences.add("invariant broken: " + p));
      }
    } catch (Waits.Stopped e) {
      differences.add("story stopped: " + e.getMessage());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      reactor.runAndWait(
          () -> {
            recorder.flush();
            dvmRecorder.flush();
          },
          Waits.STEP_TIMEOUT);
      reactor.close();
      recorder.close();
      dvmRecorder.close();
      if (temporary && dir != null) {
        delete(dir);
      }
    }
    for (Step s : st.steps) {
      if (!s.ok()) {
        differences.add(
            (s.name() + ": " + s.outcome() + " (expected: " + s.expected() + ") " + s.detail())
                .strip());
      }
    }
    return new Result(st.steps, differences, st.started);
  }

  private World open(
      Reactor reactor, Path dir, TranscriptRecorder recorder, TranscriptRecorder dvmRecorder) {
    if (st.config.mode() == Mode.PROCESSES) {
      return ProcessWorld.start(
          reactor,
          st.config.pool(),
          st.config.options(),
          dir,
          st.config.launcher(),
          recorder,
          dvmRecorder,
          st.config.servers());
    }
    return InProcessWorld.start(
        reactor, st.config.pool(), st.config.options(), dir, recorder, dvmRecorder);
  }

  static void delete(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      LOG.warn("cannot remove {}: {}", dir, e.getMessage());
    }
  }
}
