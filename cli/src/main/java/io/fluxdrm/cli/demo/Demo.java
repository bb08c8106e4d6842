package io.fluxdrm.cli.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.bridge.alloc.PmixAllocator;
import io.fluxdrm.bridge.translate.PmixAnswer;
import io.fluxdrm.cli.replay.DemoReplayProvider;
import io.fluxdrm.dvm.wire.HubDvmPort;
import io.fluxdrm.dvm.wire.SchedulerEndpoint;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.InfoCodec;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Event;
import io.fluxdrm.pmix.port.SpawnResult;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.transcript.TranscriptRecorder;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.SchedulerOptions;
import io.fluxdrm.shell.ShellPlugin;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scripted story of {@code fluxdrm demo}, played on the whole chain: the reference scheduler,
 * the job manager, and the reference DVM in elastic mode (simulated executor) with the bridge as
 * its scheduler ({@link DvmScheduler}), in one JVM or as processes ({@link World}). Every request
 * is an application's or a tool's, over a hub; every line of the timeline is read from an answer,
 * an event or the scheduler's state (decisions D440–D444).
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
 * <p>Why one class: it is one story told in order, each step a few lines that set up the next; the
 * actors it drives (scheduler, job manager, DVM, facades) live in their own modules and the two
 * worlds in their own classes.
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

  /** One job's side: its shell plugin, its facade and its application's handle to the facade. */
  private record FluxJob(
      World.Job job, String label, ShellPlugin plugin, PmixAllocator pmix, FluxHandle app) {
    long id() {
      return job.id();
    }
  }

  private final Config config;
  private final Scenario sc;
  private final Consumer<Step> sink;
  private final List<Step> steps = new ArrayList<>();
  private final ConcurrentLinkedQueue<Event> events = new ConcurrentLinkedQueue<>();
  private World world;
  private DvmSide dvm;
  private long t0;
  private java.time.Instant started;

  private Demo(Config config, Consumer<Step> sink) {
    this.config = config;
    this.sc = config.scenario();
    this.sink = sink;
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
    Path dir = config.stateDir();
    boolean temporary = dir == null;
    TranscriptRecorder recorder = new TranscriptRecorder(config.transcript(), Clock.systemUTC());
    TranscriptRecorder dvmRecorder =
        new TranscriptRecorder(config.dvmTranscript(), Clock.systemUTC());
    Reactor reactor = Reactor.start("fluxdrm-demo");
    try {
      if (temporary) {
        dir = Files.createTempDirectory("fluxdrm-demo-");
      }
      LOG.info("state in {}", dir);
      try (World w = open(reactor, dir, recorder, dvmRecorder)) {
        world = w;
        dvm = new DvmSide(w, events);
        t0 = System.nanoTime();
        started = Clock.systemUTC().instant();
        story();
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
    for (Step s : steps) {
      if (!s.ok()) {
        differences.add(
            (s.name() + ": " + s.outcome() + " (expected: " + s.expected() + ") " + s.detail())
                .strip());
      }
    }
    return new Result(steps, differences, started);
  }

  private World open(
      Reactor reactor, Path dir, TranscriptRecorder recorder, TranscriptRecorder dvmRecorder) {
    if (config.mode() == Mode.PROCESSES) {
      return ProcessWorld.start(
          reactor,
          config.pool(),
          config.options(),
          dir,
          config.launcher(),
          recorder,
          dvmRecorder,
          config.servers());
    }
    return InProcessWorld.start(
        reactor, config.pool(), config.options(), dir, recorder, dvmRecorder);
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

  // ---- the story --------------------------------------------------------------------------------

  private void story() {
    int uidA = world instanceof ProcessWorld p ? p.uid() : UID_A;
    int uidB = world instanceof ProcessWorld p ? p.uid() : UID_B;
    FluxJob a = submit("a-start", "A", uidA, sc.aNodes(), "the DVM's job");
    FluxJob b = submit("b-start", "B", uidB, sc.bNodes(), "");
    world.recordFromNow();

    // the DVM on A's nodes, the bridge as its scheduler, A's application as a tool of it
    List<String> aHosts = a.job().r().nodelist().expand();
    List<String> poolHosts = world.pool().nodelist().expand();
    String failing = poolHosts.get(poolHosts.size() - 1);
    Waits.await(
        "dvm start",
        world.startDvm(
            new World.DvmSpec(
                aHosts, sc.slots(), sc.startLatencyMs(), sc.startLatencyMs(), failing)));
    DvmScheduler bridge = new DvmScheduler(a.pmix());
    FluxHandle schedSide = world.dvmHub(ownerUid());
    SchedulerEndpoint endpoint =
        Waits.await("dvm-sched", SchedulerEndpoint.start(schedSide, bridge, Waits.STEP_TIMEOUT));
    boolean attached = waitDone(endpoint.attached());
    bridge.attached(endpoint.port());
    step(
        "dvm-attach",
        "bridge",
        a.id(),
        "DVM on " + Hostlist.of(aHosts) + ", the bridge its scheduler",
        attached ? "attached" : "not attached",
        "attached",
        sc.slots() + " slot(s) per node, daemons start and stop in " + sc.startLatencyMs() + " ms");
    HubDvmPort app = new HubDvmPort(world.dvmHub(uidA), Waits.STEP_TIMEOUT);
    Waits.await(
        "event registration",
        app.registerEvents(
            List.of(PmixStatus.PMIX_DVM_IS_READY.code(), PmixStatus.PMIX_ERR_DVM_MOD.code()),
            events::add));

    // A's application grows: EXTEND → sched.realloc → grant → grow campaign → SUCCESS
    StatusInfos grow =
        Waits.await(
            "a-grow",
            app.allocationRequest(
                AllocDirective.EXTEND, List.of(nodes(sc.grow()), reqId("a-grow"))));
    String growId = value(grow.infos(), PmixKey.PMIX_ALLOC_ID).orElse("");
    String growNodes = value(grow.infos(), PmixKey.PMIX_ALLOC_NODE_LIST).orElse("");
    step(
        "a-grow",
        "A",
        a.id(),
        "PMIx EXTEND +" + sc.grow() + " node(s) through the DVM",
        grow.status().name(),
        PmixStatus.PMIX_SUCCESS.name(),
        granted(grow.infos()));

    // a job spawned into the grown allocation while the daemons start: held, then lands there
    App held =
        new App("fluxdrm-demo-app", List.of("fluxdrm-demo-app"), sc.grow() * sc.slots(), List.of());
    CompletableFuture<SpawnResult> spawn =
        app.spawn(List.of(held), List.of(Info.of(PmixKey.PMIX_ALLOC_ID, growId)))
            .toCompletableFuture();
    // a request on the same connection after the spawn: answered before the DVM's ready event,
    // it shows the DVM had the spawn while the grow was still open
    CompletableFuture<?> barrier =
        app.registerEvents(List.of(PmixStatus.PMIX_DVM_IS_READY.code()), e -> {})
            .toCompletableFuture();
    Waits.await("barrier", barrier);
    boolean readyBefore =
        events.stream().anyMatch(e -> e.status() == PmixStatus.PMIX_DVM_IS_READY.code());
    String heldState = dvm.heldState(growId);
    step(
        "a-held",
        "A",
        a.id(),
        "spawn of " + held.maxprocs() + " proc(s) into " + "PMIX_ALLOC_ID=" + growId,
        spawn.isDone()
            ? spawn.join().status() == PmixStatus.PMIX_SUCCESS
                ? "launched at once"
                : spawn.join().status().name()
            : readyBefore ? "grow already over" : "held",
        "held",
        heldState);

    // phase two follows only an accepted change (D12)
    Event ready = grow.succeeded() ? dvm.awaitEvent(e -> true) : null;
    step(
        "a-ready",
        "dvm",
        a.id(),
        "grow campaign over " + growNodes,
        ready == null ? "no event" : DvmSide.statusName(ready.status()),
        PmixStatus.PMIX_DVM_IS_READY.name(),
        ready == null ? "" : dvm.eventDetail(ready, uidA));

    SpawnResult landed = Waits.await("a-landed", spawn);
    String where = landed.nspace().map(dvm::placement).orElse("");
    boolean onGrown = landed.nspace().map(ns -> dvm.landedOn(ns, growNodes)).orElse(false);
    step(
        "a-landed",
        "A",
        a.id(),
        "held spawn answered",
        landed.status().name()
            + (landed.status() == PmixStatus.PMIX_SUCCESS && !onGrown ? " elsewhere" : ""),
        PmixStatus.PMIX_SUCCESS.name(),
        landed.nspace().orElse("") + " " + where);

    // a NEW whose daemon fails to start: rolled back, the node back to the scheduler
    int beforeFail = freesSoFar();
    StatusInfos bad =
        Waits.await(
            "a-grow-fail",
            app.allocationRequest(
                AllocDirective.NEW,
                List.of(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, failing), reqId("a-grow-fail"))));
    String badId = value(bad.infos(), PmixKey.PMIX_ALLOC_ID).orElse("");
    step(
        "a-grow-fail",
        "A",
        a.id(),
        "PMIx NEW " + failing + " (its daemon fails to start)",
        bad.status().name(),
        PmixStatus.PMIX_SUCCESS.name(),
        granted(bad.infos()));
    Event mod = bad.succeeded() ? dvm.awaitEvent(e -> true) : null;
    step(
        "a-rollback",
        "dvm",
        a.id(),
        "grow campaign over " + failing,
        mod == null ? "no event" : DvmSide.statusName(mod.status()),
        PmixStatus.PMIX_ERR_DVM_MOD.name(),
        mod == null ? "" : dvm.eventDetail(mod, uidA));
    // the bridge hands the grant back once the DVM reports the node released (D424)
    freed(
        "a-handback",
        "bridge",
        a,
        "the bridge hands the rolled-back grant back",
        mod == null ? List.of() : List.of(failing),
        false,
        beforeFail,
        mod == null ? "nothing to hand back" : "");

    // B's grow waits in the realloc FIFO: the pool is short
    CompletableFuture<PmixAnswer> bGrow =
        ask(b, AllocDirective.EXTEND, nodes(sc.bAsk()), reqId("b-grow"));
    waiting("b-grow", b, "PMIx EXTEND +" + sc.bAsk() + " node(s)", bGrow);

    // A releases its grown nodes: shrink campaign, departure, then sched.free final:false
    List<String> grown = DvmSide.hostsOf(growNodes);
    int before = freesSoFar();
    StatusInfos rel =
        Waits.await(
            "a-release",
            app.allocationRequest(
                AllocDirective.RELEASE,
                List.of(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, growNodes), reqId("a-release"))));
    step(
        "a-release",
        "A",
        a.id(),
        "PMIx RELEASE " + Hostlist.of(grown) + " through the DVM",
        rel.status().name(),
        PmixStatus.PMIX_SUCCESS.name(),
        rel.succeeded() ? "granted: the DVM shrinks them (the job there ends)" : "");
    freed(
        "a-departed",
        "dvm",
        a,
        Hostlist.of(grown) + ": daemons leave, then freed",
        rel.succeeded() ? grown : List.of(),
        false,
        before,
        "",
        true);
    Event shrunk = rel.succeeded() ? dvm.awaitEvent(e -> true) : null;
    step(
        "a-shrunk",
        "dvm",
        a.id(),
        "shrink campaign over " + Hostlist.of(grown),
        shrunk == null ? "no event" : DvmSide.statusName(shrunk.status()),
        PmixStatus.PMIX_DVM_IS_READY.name(),
        shrunk == null ? "" : dvm.eventDetail(shrunk, uidA));

    PmixAnswer bAns = Waits.await("b-granted", bGrow);
    step(
        "b-granted",
        "B",
        b.id(),
        "waiting EXTEND answered",
        bAns.status().name(),
        PmixStatus.PMIX_SUCCESS.name(),
        granted(bAns.infos()));

    if (config.crashes()) {
      FluxJob[] again = schedulerRestart(a, b, bridge);
      a = again[0];
      b = again[1];
    }

    // a request no pool of this size can satisfy
    StatusInfos deny =
        Waits.await(
            "a-deny",
            app.allocationRequest(AllocDirective.NEW, List.of(nodes(sc.deny()), reqId("a-deny"))));
    step(
        "a-deny",
        "A",
        a.id(),
        "PMIx NEW +" + sc.deny() + " node(s) through the DVM",
        deny.status().name(),
        PmixStatus.PMIX_ERR_OUT_OF_RESOURCE.name(),
        deny.status() == PmixStatus.PMIX_ERR_OUT_OF_RESOURCE ? "denied by the scheduler" : "");

    session(bridge, endpoint, a, aHosts);
    if (config.crashes()) {
      dvmCrash(a, app, bridge, schedSide);
    }

    // both jobs end
    before = freesSoFar();
    Waits.await("b-end", world.finish(b.id()));
    freed("b-end", "B", b, "job B ends", b.plugin().r().nodelist().expand(), true, before, "");
    app.disconnect();
    endpoint.close();
    world.stopDvm();
    before = freesSoFar();
    Waits.await("a-end", world.finish(a.id()));
    freed("a-end", "A", a, "the DVM stops, job A ends", aHosts, true, before, "");

    ResourceSet free = Waits.await("pool", world.free());
    boolean whole = free.diff(world.pool()).isEmpty() && world.pool().diff(free).isEmpty();
    step(
        "pool",
        "pool",
        0,
        "pool after the story",
        whole ? "conserved" : "not conserved",
        "conserved",
        "free " + free.summary() + (whole ? " = pool" : " (pool " + world.pool().summary() + ")"));
  }

  /** The bridge instantiates a session with an app, pauses, resumes and terminates it. */
  private void session(
      DvmScheduler bridge, SchedulerEndpoint endpoint, FluxJob a, List<String> aHosts) {
    String host = aHosts.get(aHosts.size() - 1);
    App app =
        new App("fluxdrm-demo-app", List.of("fluxdrm-demo-app"), sc.sessionProcs(), List.of());
    int completes = Waits.onLoop(world.reactor(), () -> bridge.flux().completes().size());
    StatusInfos inst =
        Waits.await(
            "s-instantiate",
            endpoint
                .port()
                .sessionControl(
                    SESSION_ID,
                    List.of(
                        Info.of(PmixKey.PMIX_SESSION_INSTANTIATE, true),
                        Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, host + ":" + sc.slots()),
                        Info.of(PmixKey.PMIX_SESSION_APP, List.of(app)))));
    step(
        "s-instantiate",
        "bridge",
        a.id(),
        "session " + SESSION_ID + " on " + host + " with " + sc.sessionProcs() + " proc(s)",
        inst.status().name(),
        PmixStatus.PMIX_SUCCESS.name(),
        "answered once its app runs");
    for (String op : List.of("PAUSE", "RESUME", "TERMINATE")) {
      String key =
          switch (op) {
            case "PAUSE" -> PmixKey.PMIX_SESSION_PAUSE;
            case "RESUME" -> PmixKey.PMIX_SESSION_RESUME;
            default -> PmixKey.PMIX_SESSION_TERMINATE;
          };
      StatusInfos s =
          Waits.await(
              "s-" + op, endpoint.port().sessionControl(SESSION_ID, List.of(Info.of(key, true))));
      step(
          "s-" + op.toLowerCase(java.util.Locale.ROOT),
          "bridge",
          a.id(),
          "session control PMIX_SESSION_" + op + " " + SESSION_ID,
          s.status().name(),
          PmixStatus.PMIX_SUCCESS.name(),
          switch (op) {
            case "PAUSE" -> "SIGSTOP to its jobs";
            case "RESUME" -> "SIGCONT to its jobs";
            default -> "its jobs end, the session is reclaimed";
          });
    }
    boolean complete =
        Waits.until(
            world.reactor(),
            () ->
                bridge.flux().completes().stream()
                    .skip(completes)
                    .anyMatch(d -> sessionOf(d) == SESSION_ID));
    step(
        "s-complete",
        "dvm",
        a.id(),
        "the DVM tells the bridge",
        complete ? "PMIX_SESSION_COMPLETE" : "no notice",
        "PMIX_SESSION_COMPLETE",
        "session " + SESSION_ID);
  }

  // ---- crashes (processes only) -----------------------------------------------------------------

  /** SIGKILL the scheduler, start it and the job manager again: every allocation survives. */
  private FluxJob[] schedulerRestart(FluxJob a, FluxJob b, DvmScheduler bridge) {
    ProcessWorld pw = (ProcessWorld) world;
    ResourceSet before = allocated();
    pw.restartScheduler();
    FluxJob a2 = reattach(a);
    FluxJob b2 = reattach(b);
    Waits.onLoop(
        world.reactor(),
        () -> {
          bridge.rebind(a2.pmix());
          return null;
        });
    ResourceSet[] now = {ResourceSet.empty()};
    boolean same =
        Waits.until(
            () -> {
              now[0] = allocated();
              return now[0].diff(before).isEmpty() && before.diff(now[0]).isEmpty();
            });
    step(
        "sched-restart",
        "sched",
        0,
        "SIGKILL the scheduler, start it again",
        same ? "no allocation lost" : "allocations differ",
        "no allocation lost",
        "allocated "
            + before.summary()
            + (same ? " before and after" : ", now " + now[0].summary()));
    return new FluxJob[] {a2, b2};
  }

  /** What the scheduler has allocated now: its pool but what it has free. */
  private ResourceSet allocated() {
    return world.pool().diff(Waits.await("free", world.free()));
  }

  /** A job's shell plugin and facade again, on new connections to the (restarted) hub. */
  private FluxJob reattach(FluxJob j) {
    ResourceSet r = Waits.onLoop(world.reactor(), () -> j.plugin().r());
    int uid = j.job().userid();
    ShellPlugin plugin = ShellPlugin.create(j.id(), uid, r);
    PmixAllocator pmix = PmixAllocator.create(plugin);
    FluxHandle shell = world.schedHub(uid);
    world.recordShell(plugin);
    Waits.await(j.label() + " shell", plugin.start(shell));
    Waits.await(j.label() + " facade", pmix.start(shell));
    return new FluxJob(new World.Job(j.id(), uid, r), j.label(), plugin, pmix, world.schedHub(uid));
  }

  /** SIGKILL the DVM while a grow is open: the bridge hands the grant back (D377). */
  private void dvmCrash(FluxJob a, HubDvmPort app, DvmScheduler bridge, FluxHandle schedSide) {
    ProcessWorld pw = (ProcessWorld) world;
    events.clear();
    StatusInfos g =
        Waits.await(
            "dvm-grow",
            app.allocationRequest(AllocDirective.EXTEND, List.of(nodes(1), reqId("dvm-grow"))));
    List<String> hosts = DvmSide.hostsOf(value(g.infos(), PmixKey.PMIX_ALLOC_NODE_LIST).orElse(""));
    boolean open = events.isEmpty();
    pw.killDvm();
    step(
        "dvm-grow",
        "A",
        a.id(),
        "PMIx EXTEND +1 node(s), SIGKILL the DVM mid-grow",
        g.status().name() + (open ? "" : " (grow already over)"),
        PmixStatus.PMIX_SUCCESS.name(),
        granted(g.infos()));
    // the bridge sees its connection to the DVM close, as fluxdrm bridge --dvm does (D377)
    boolean lost = Waits.until(schedSide::isClosed);
    if (lost) {
      Waits.await(
          "dvm lost", world.reactor().submit(() -> bridge.flux().dvmLost().toCompletableFuture()));
    }
    boolean back =
        lost
            && Waits.until(
                world.reactor(),
                () -> a.plugin().r().nodelist().expand().stream().noneMatch(hosts::contains));
    step(
        "dvm-lost",
        "bridge",
        a.id(),
        "DVM gone: the bridge hands its grants back",
        back ? "rolled back" : lost ? "not handed back" : "connection still open",
        "rolled back",
        Hostlist.of(hosts) + " gone from the job's R (sched.free final:false)");
  }

  private static long sessionOf(List<Info> d) {
    for (Info i : d) {
      if (i.key().equals(PmixKey.PMIX_SESSION_ID) && i.value() instanceof Number n) {
        return n.longValue();
      }
    }
    return -1;
  }

  // ---- jobs -------------------------------------------------------------------------------------

  /** Submits a job, waits for its alloc, starts its shell plugin and facade. */
  private FluxJob submit(String name, String label, int uid, int nodes, String what) {
    World.Job j = Waits.await(name, world.submit(uid, nodes));
    if (j.r().isEmpty()) {
      throw new Waits.Stopped(name + ": job " + Step.f58(j.id()) + " holds no resources");
    }
    ShellPlugin plugin = ShellPlugin.create(j.id(), uid, j.r());
    PmixAllocator pmix = PmixAllocator.create(plugin);
    FluxHandle shell = world.schedHub(uid);
    world.recordShell(plugin);
    Waits.await(name + " shell", plugin.start(shell));
    Waits.await(name + " facade", pmix.start(shell));
    FluxJob job = new FluxJob(j, label, plugin, pmix, world.schedHub(uid));
    step(
        name,
        label,
        j.id(),
        "job "
            + label
            + (what.isEmpty() ? "" : " (" + what + ")")
            + " submitted, "
            + nodes
            + " node(s)",
        "allocated",
        "allocated",
        nodelist(j.r()));
    return job;
  }

  /** {@code PMIx_Allocation_request} from {@code j}'s application, over the facade's RPC. */
  private CompletableFuture<PmixAnswer> ask(FluxJob j, AllocDirective d, Info... infos) {
    ObjectNode p = Json.object().put("directive", d.code());
    p.set("info", InfoCodec.encode(Arrays.asList(infos)));
    return j.app()
        .rpc(j.pmix().serviceName() + "." + PmixAllocator.METHOD, p)
        .thenApply(Demo::decode);
  }

  private static PmixAnswer decode(Message m) {
    ObjectNode o = m.json();
    int code = o.path("status").asInt();
    PmixStatus s =
        PmixStatus.byCode(code)
            .orElseThrow(() -> new IllegalStateException("status " + code + ": not a PMIx status"));
    return new PmixAnswer(s, InfoCodec.decode(o.get("info")), o.path("message").asText(""));
  }

  /** A request the story expects to wait: unanswered, and queued where the scheduler is seen. */
  private void waiting(String name, FluxJob j, String action, CompletableFuture<PmixAnswer> f) {
    boolean queued =
        world.pendingReallocs().isEmpty()
            || Waits.until(() -> f.isDone() || world.pendingReallocs().getAsInt() > 0);
    String outcome;
    String detail;
    if (f.isDone()) {
      PmixAnswer x = f.join();
      outcome = x.status().name();
      detail = x.message();
    } else if (queued) {
      outcome = "waiting";
      detail =
          world.pendingReallocs().isPresent()
              ? "in the scheduler's realloc FIFO ("
                  + world.pendingReallocs().getAsInt()
                  + " pending)"
              : "unanswered: the pool is short";
    } else {
      outcome = "no answer";
      detail = "not queued at the scheduler";
    }
    step(name, j.label(), j.id(), action, outcome, "waiting", detail);
  }

  private int freesSoFar() {
    return world.freesSent().map(List::size).orElse(0);
  }

  /**
   * A step whose outcome is a {@code sched.free}: the job manager's request where it is tapped,
   * otherwise the scheduler having {@code hosts} free again while the job goes on ({@code
   * final:false}) or after it ended.
   */
  private void freed(
      String name,
      String actor,
      FluxJob j,
      String action,
      List<String> hosts,
      boolean fin,
      int before,
      String note) {
    freed(name, actor, j, action, hosts, fin, before, note, false);
  }

  /** As above; with {@code departure}, also that the DVM had no daemon there any more. */
  private void freed(
      String name,
      String actor,
      FluxJob j,
      String action,
      List<String> hosts,
      boolean fin,
      int before,
      String note,
      boolean departure) {
    String expected = "sched.free final:" + fin;
    String outcome;
    String detail = note;
    Optional<List<JsonNode>> sent = world.freesSent();
    if (hosts.isEmpty()) {
      // nothing was granted that could be freed: no wait
      outcome = "nothing freed";
    } else if (sent.isPresent()) {
      boolean seen = Waits.until(() -> world.freesSent().orElseThrow().size() > before);
      if (!seen) {
        outcome = "no sched.free";
      } else {
        JsonNode p = world.freesSent().orElseThrow().get(before);
        outcome = "sched.free final:" + p.path("final").asBoolean();
        detail = (freedNodes(p) + " " + note).strip();
        if (departure) {
          // the DVM as it was when the job manager sent the free: the daemons there gone
          List<String> still =
              world.dvmHostsAtFree(before).orElse(java.util.Set.of()).stream()
                  .filter(hosts::contains)
                  .toList();
          if (!still.isEmpty()) {
            outcome = "sched.free before departure";
            detail = (detail + " while " + Hostlist.of(still) + " still in the DVM").strip();
          } else {
            detail = (detail + " after their daemons left (shrink campaign over)").strip();
          }
        }
      }
    } else {
      // final:false: the job's shell saw the job manager take them (its R shrank); final:true:
      // the scheduler has them free
      boolean back =
          fin
              ? Waits.until(() -> freeHas(hosts))
              : Waits.until(
                  world.reactor(),
                  () -> j.plugin().r().nodelist().expand().stream().noneMatch(hosts::contains));
      outcome = back ? expected : "not freed";
      detail =
          (Hostlist.of(hosts)
                  + (fin ? " free at the scheduler " : " gone from the job's R ")
                  + note)
              .strip();
    }
    step(name, actor, j.id(), action, outcome, expected, detail);
  }

  private boolean freeHas(List<String> hosts) {
    ResourceSet free = Waits.await("free", world.free());
    return free.nodelist().expand().containsAll(hosts);
  }

  private static String freedNodes(JsonNode p) {
    try {
      return nodelist(ResourceSet.fromJson(p.get("R")));
    } catch (RuntimeException e) {
      return "R unreadable: " + e.getMessage();
    }
  }

  // ---- plumbing ---------------------------------------------------------------------------------

  private int ownerUid() {
    return world instanceof ProcessWorld p ? p.uid() : OWNER;
  }

  private static Info nodes(int n) {
    return Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, (long) n);
  }

  private static Info reqId(String id) {
    return Info.of(PmixKey.PMIX_ALLOC_REQ_ID, id);
  }

  private static Optional<String> value(List<Info> infos, String key) {
    return infos.stream()
        .filter(i -> i.key().equals(key))
        .map(i -> String.valueOf(i.value()))
        .findFirst();
  }

  /** What a grant says: its node list, summary and alloc id. */
  private String granted(List<Info> infos) {
    Optional<String> list = value(infos, PmixKey.PMIX_ALLOC_NODE_LIST);
    Optional<String> id = value(infos, PmixKey.PMIX_ALLOC_ID);
    if (list.isEmpty()) {
      return "";
    }
    String summary = summaryOf(DvmSide.hostsOf(list.get()));
    return list.get() + summary + id.map(x -> " PMIX_ALLOC_ID=" + x).orElse("");
  }

  /** The pool's {@code rank[..]/core[..]} of {@code hosts}, in parentheses. */
  private String summaryOf(List<String> hosts) {
    try {
      ResourceSet p = world.pool();
      return " (" + p.copyRanks(p.hostsToRanks(Hostlist.of(hosts))).summary() + ")";
    } catch (RuntimeException e) {
      return "";
    }
  }

  private static String nodelist(ResourceSet r) {
    return r.hasNodelist() ? r.nodelist() + " (" + r.summary() + ")" : r.summary();
  }

  private boolean waitDone(CompletableFuture<?> f) {
    try {
      f.get(Waits.STEP_TIMEOUT.toNanos(), TimeUnit.NANOSECONDS);
      return true;
    } catch (Exception e) {
      return false;
    }
  }

  private void step(
      String name,
      String actor,
      long job,
      String action,
      String outcome,
      String expected,
      String detail) {
    ResourceSet free = Waits.await("free", world.free());
    Step s =
        new Step(
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0),
            name,
            actor,
            job,
            action,
            outcome,
            expected,
            detail == null ? "" : detail.strip(),
            free.nnodes(),
            world.pool().nnodes());
    LOG.info("{} {}: {} -> {} {}", s.job(), name, action, outcome, s.detail());
    steps.add(s);
    sink.accept(s);
  }
}
