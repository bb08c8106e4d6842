package io.fluxdrm.cli.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.bridge.alloc.PmixAllocator;
import io.fluxdrm.bridge.translate.PmixAnswer;
import io.fluxdrm.cli.replay.DemoReplayProvider;
import io.fluxdrm.jobmanager.JobManager;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.InfoCodec;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.protocol.Rfc27Topics;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.MessageType;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.client.MessageTap;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.transcript.TranscriptRecorder;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.ResourcePool;
import io.fluxdrm.sched.SchedulerOptions;
import io.fluxdrm.sched.service.SchedService;
import io.fluxdrm.shell.ShellPlugin;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scripted story of {@code fluxdrm demo}, played on the whole RFC 51 chain in one JVM: a {@link
 * Reactor} with an in-memory {@link Hub}, the reference scheduler ({@link SchedService}) over the
 * pool, the {@link JobManager} (eventlogs in a state directory), and per job its {@link
 * ShellPlugin} and {@link PmixAllocator}. Every request of the story goes to a job's facade as an
 * application's RPC ({@code <uid>-pmix-<f58plain>.allocation-request}); every line of the timeline
 * is read from the answers and from the messages the job manager sends. The job manager's endpoint
 * is recorded as a transcript from the moment the initial jobs are allocated (decision D145).
 *
 * <p>The story, for a pool of n nodes and a quarter q = n/4: job A starts on q nodes and job B on n
 * - 2q; A grows by q (granted, the pool is full); B asks to grow by q (waits); A releases its
 * reservation (granted), A's tasks there exit and the job manager frees them ({@code sched.free
 * final:false}), B's grow is granted; A asks for n + 1 nodes (denied, out of resource); A asks for
 * q more (waits) and cancels the request ({@code PMIX_ALLOC_REQ_CANCEL}); both jobs end ({@code
 * sched.free final:true}); the pool is whole again. The DVM stage of the architecture is not in the
 * chain yet; it would sit between the application and the facade (decision D146).
 *
 * <p>Why one class: it is one story told in order, each step a few lines that set up the next; the
 * actors it drives (scheduler, job manager, facades) live in their own modules.
 */
public final class Demo {
  private static final Logger LOG = LoggerFactory.getLogger(Demo.class);

  /** How long any one answer or event may take before the story stops. */
  static final Duration STEP_TIMEOUT = Duration.ofSeconds(5);

  private static final String FREE = Rfc27Topics.FREE;

  /**
   * What the demo runs on.
   *
   * @param pool the scheduler's pool, at least 4 nodes
   * @param options the scheduler's options (the story expects RFC 51 switched on)
   * @param stateDir the job manager's state directory, or null for a temporary one
   * @param transcript where the job manager's transcript goes
   */
  public record Config(
      ResourceSet pool, SchedulerOptions options, Path stateDir, Writer transcript) {
    public Config {
      Objects.requireNonNull(pool, "pool");
      Objects.requireNonNull(options, "options");
      Objects.requireNonNull(transcript, "transcript");
      if (pool.nnodes() < 4) {
        throw new IllegalArgumentException(
            "pool: " + pool.nnodes() + " nodes (expected: at least 4)");
      }
    }
  }

  /**
   * How a run went.
   *
   * @param steps the timeline
   * @param differences one line per step whose outcome is not the story's (empty: all as told)
   */
  public record Result(List<Step> steps, List<String> differences) {
    public Result {
      steps = List.copyOf(steps);
      differences = List.copyOf(differences);
    }

    /** Whether every step came out as the story expects. */
    public boolean ok() {
      return differences.isEmpty();
    }
  }

  /** The story could not go on (an answer never came, a job was never allocated). */
  private static final class Stopped extends RuntimeException {
    @java.io.Serial private static final long serialVersionUID = 1L;

    Stopped(String message) {
      super(message, null, false, false);
    }
  }

  /** One job's side: its shell plugin, its facade and an application's handle. */
  private record DemoJob(
      long id, int uid, ShellPlugin plugin, PmixAllocator pmix, FluxHandle app, String label) {}

  private final Config config;
  private final Consumer<Step> sink;
  private final List<Step> steps = new ArrayList<>();
  private final ConcurrentLinkedQueue<JsonNode> frees = new ConcurrentLinkedQueue<>();
  private Reactor reactor;
  private Hub hub;
  private JobManager jm;
  private SchedService sched;
  private long t0;

  private Demo(Config config, Consumer<Step> sink) {
    this.config = config;
    this.sink = sink;
  }

  /**
   * Plays the story on {@code config}, handing each step to {@code sink} as it happens.
   *
   * @return the timeline and what differed from the story
   * @throws UncheckedIOException when the state directory cannot be made or the transcript written
   */
  public static Result run(Config config, Consumer<Step> sink) {
    return new Demo(config, Objects.requireNonNull(sink, "sink")).play();
  }

  private Result play() {
    Path dir = config.stateDir();
    boolean temporary = dir == null;
    TranscriptRecorder recorder = new TranscriptRecorder(config.transcript(), Clock.systemUTC());
    List<String> differences = new ArrayList<>();
    reactor = Reactor.start("fluxdrm-demo");
    try {
      if (temporary) {
        dir = Files.createTempDirectory("fluxdrm-demo-");
      }
      LOG.info("job manager state in {}", dir);
      story(dir, recorder);
    } catch (Stopped e) {
      differences.add("story stopped: " + e.getMessage());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      reactor.runAndWait(() -> recorder.flush(), STEP_TIMEOUT);
      reactor.close();
      recorder.close();
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
    return new Result(steps, differences);
  }

  private static void delete(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      LOG.warn("cannot remove {}: {}", dir, e.getMessage());
    }
  }

  // ---- the story --------------------------------------------------------------------------------

  private void story(Path dir, TranscriptRecorder recorder) {
    ResourceSet pool = config.pool();
    int n = pool.nnodes();
    int q = n / 4;
    t0 = reactor.nanoTime();
    hub = new Hub(reactor);
    jm = JobManager.create(dir, () -> System.currentTimeMillis() / 1e3);
    await("job manager start", jm.start(hub.attach(Credentials.owner(DemoReplayProvider.OWNER))));
    sched = SchedService.standalone(pool).options(config.options()).build();
    await("scheduler start", sched.start(hub.attach(Credentials.owner(DemoReplayProvider.OWNER))));
    if (!waitUntil(() -> jm.schedulerOnline())) {
      throw new Stopped("the scheduler never said sched-ready");
    }
    List<DemoReplayProvider.InitialJob> initial = DemoReplayProvider.initialJobs(n);
    DemoJob a = submit("a-start", "A", initial.get(0));
    DemoJob b = submit("b-start", "B", initial.get(1));
    // from here on the job manager's endpoint is recorded (D145)
    onLoop(
        () -> {
          jm.tap(
              (d, m) -> {
                recorder.onMessage(d, m);
                if (d == MessageTap.Direction.OUT
                    && m.type() == MessageType.REQUEST
                    && FREE.equals(m.topic())) {
                  frees.add(m.json());
                }
              });
          return null;
        });

    // A grows into the rest of the pool
    PmixAnswer grow =
        await("a-grow", ask(a, AllocDirective.NEW, nodes(q), reqId("a-grow")), STEP_TIMEOUT);
    String reservation = value(grow, PmixKey.PMIX_ALLOC_ID);
    step(
        "a-grow",
        a,
        "PMIX_ALLOC_NEW +" + q + " node(s)",
        grow.status().name(),
        PmixStatus.PMIX_SUCCESS.name(),
        granted(grow));

    // B asks too: nothing free, its request waits at the scheduler
    CompletableFuture<PmixAnswer> bGrow = ask(b, AllocDirective.EXTEND, nodes(q), reqId("b-grow"));
    waiting("b-grow", b, "PMIX_ALLOC_EXTEND +" + q + " node(s)", bGrow);

    // A gives its reservation back: granted, the nodes stay A's until its tasks there exit
    String rid = reservation == null ? "" : reservation;
    PmixAnswer rel =
        await(
            "a-release",
            ask(a, AllocDirective.RELEASE, Info.of(PmixKey.PMIX_ALLOC_ID, rid)),
            STEP_TIMEOUT);
    ResourceSet releasing = onLoop(() -> a.plugin().releasing());
    step(
        "a-release",
        a,
        "PMIX_ALLOC_RELEASE " + PmixKey.PMIX_ALLOC_ID + "=" + rid,
        rel.status().name(),
        PmixStatus.PMIX_SUCCESS.name(),
        releasing.isEmpty() ? rel.message() : "to give back " + nodelist(releasing));

    // A's tasks there exit: the shell hands the nodes back, the job manager frees them
    if (releasing.isEmpty()) {
      step("a-tasks-exit", a, "tasks exit", "nothing to give back", FREE + " final:false", "");
    } else {
      frees.clear();
      await("a-tasks-exit", a.plugin().tasksExited(releasing.ranks()), STEP_TIMEOUT);
      freed("a-tasks-exit", a, "tasks exit on " + releasing.nodelist(), false);
    }

    // which lets B's waiting grow through
    PmixAnswer bAns = await("b-granted", bGrow, STEP_TIMEOUT);
    step(
        "b-granted",
        b,
        "waiting PMIX_ALLOC_EXTEND answered",
        bAns.status().name(),
        PmixStatus.PMIX_SUCCESS.name(),
        granted(bAns));

    // a grow no pool of n nodes can ever satisfy
    PmixAnswer huge =
        await("a-huge", ask(a, AllocDirective.NEW, nodes(n + 1), reqId("a-huge")), STEP_TIMEOUT);
    step(
        "a-huge",
        a,
        "PMIX_ALLOC_NEW +" + (n + 1) + " node(s)",
        huge.status().name(),
        PmixStatus.PMIX_ERR_OUT_OF_RESOURCE.name(),
        huge.message());

    // a grow that waits, then the application changes its mind
    CompletableFuture<PmixAnswer> aWait = ask(a, AllocDirective.NEW, nodes(q), reqId("a-wait"));
    waiting("a-wait", a, "PMIX_ALLOC_NEW +" + q + " node(s)", aWait);
    PmixAnswer cancel =
        await("a-cancel", ask(a, AllocDirective.REQ_CANCEL, reqId("a-wait")), STEP_TIMEOUT);
    step(
        "a-cancel",
        a,
        "PMIX_ALLOC_REQ_CANCEL " + PmixKey.PMIX_ALLOC_REQ_ID + "=a-wait",
        cancel.status().name(),
        PmixStatus.PMIX_SUCCESS.name(),
        cancel.message());
    PmixAnswer canceled = await("a-canceled", aWait, STEP_TIMEOUT);
    step(
        "a-canceled",
        a,
        "waiting PMIX_ALLOC_NEW answered",
        canceled.status().name(),
        PmixStatus.PMIX_ERR_JOB_CANCELED.name(),
        canceled.message());

    // both jobs end
    for (DemoJob j : List.of(a, b)) {
      String name = j.label().toLowerCase(java.util.Locale.ROOT) + "-end";
      frees.clear();
      await(name, jm.finish(j.id()), STEP_TIMEOUT);
      freed(name, j, "job " + j.label() + " ends", true);
    }

    // the pool is whole again
    String check =
        onLoop(
            () -> {
              ResourcePool p = sched.core().pool();
              try {
                p.checkInvariants();
              } catch (RuntimeException e) {
                return "invariant broken: " + e.getMessage();
              }
              ResourceSet free = p.free();
              boolean whole = free.diff(p.all()).isEmpty() && p.all().diff(free).isEmpty();
              return whole ? "conserved" : "not conserved: free " + free.summary();
            });
    step(
        "pool",
        null,
        "pool after the story",
        check,
        "conserved",
        "free " + onLoop(() -> sched.core().pool().free().summary()) + " = pool");
  }

  /** Submits an initial job, waits for its alloc, starts its shell plugin and facade. */
  private DemoJob submit(String name, String label, DemoReplayProvider.InitialJob j) {
    long id =
        await(name, jm.submit(DemoReplayProvider.jobspec(j.nodes()), j.userid()), STEP_TIMEOUT);
    ResourceSet r = onLoop(() -> jm.jobR(id).orElse(ResourceSet.empty()));
    if (r.isEmpty()) {
      throw new Stopped(name + ": job " + Step.f58(id) + " holds no resources after its alloc");
    }
    ShellPlugin plugin = ShellPlugin.create(id, j.userid(), r);
    PmixAllocator pmix = PmixAllocator.create(plugin);
    FluxHandle shell = hub.attach(Credentials.user(j.userid()));
    await(name + " shell", plugin.start(shell), STEP_TIMEOUT);
    await(name + " facade", pmix.start(shell), STEP_TIMEOUT);
    DemoJob job =
        new DemoJob(id, j.userid(), plugin, pmix, hub.attach(Credentials.user(j.userid())), label);
    step(
        name,
        job,
        "job " + label + " of user " + j.userid() + " submitted, " + j.nodes() + " node(s)",
        "allocated",
        "allocated",
        nodelist(r));
    return job;
  }

  /** Steps of a request the story expects to wait: it reached the scheduler's queue. */
  private void waiting(String name, DemoJob j, String action, CompletableFuture<PmixAnswer> f) {
    boolean queued = waitUntil(() -> f.isDone() || sched.core().pendingReallocs() > 0);
    String outcome;
    String detail;
    if (f.isDone()) {
      PmixAnswer a = f.join();
      outcome = a.status().name();
      detail = a.message();
    } else if (queued) {
      outcome = "waiting";
      detail =
          "queued at the scheduler ("
              + onLoop(() -> sched.core().pendingReallocs())
              + " realloc(s) pending)";
    } else {
      outcome = "no answer";
      detail = "not queued at the scheduler after " + STEP_TIMEOUT.toSeconds() + " s";
    }
    step(name, j, action, outcome, "waiting", detail);
  }

  /** A step whose outcome is the {@code sched.free} the job manager sent. */
  private void freed(String name, DemoJob j, String action, boolean fin) {
    boolean seen = waitUntil(() -> !frees.isEmpty());
    String expected = FREE + " final:" + fin;
    if (!seen) {
      step(name, j, action, "no " + FREE, expected, "");
      return;
    }
    JsonNode p = frees.poll();
    String outcome = FREE + " final:" + p.path("final").asBoolean();
    String detail;
    try {
      detail = nodelist(ResourceSet.fromJson(p.get("R")));
    } catch (RuntimeException e) {
      detail = "R unreadable: " + e.getMessage();
    }
    step(name, j, action, outcome, expected, detail);
  }

  // ---- the application side ---------------------------------------------------------------------

  /**
   * {@code PMIx_Allocation_request} from {@code j}'s application, over the facade's RPC service.
   */
  private CompletableFuture<PmixAnswer> ask(DemoJob j, AllocDirective d, Info... infos) {
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

  private static Info nodes(int n) {
    return Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, (long) n);
  }

  private static Info reqId(String id) {
    return Info.of(PmixKey.PMIX_ALLOC_REQ_ID, id);
  }

  private static String value(PmixAnswer a, String key) {
    return a.infos().stream()
        .filter(i -> i.key().equals(key))
        .map(i -> String.valueOf(i.value()))
        .findFirst()
        .orElse(null);
  }

  /** What a grant says: its node list and alloc id, or the answer's message. */
  private static String granted(PmixAnswer a) {
    String list = value(a, PmixKey.PMIX_ALLOC_NODE_LIST);
    String id = value(a, PmixKey.PMIX_ALLOC_ID);
    if (list == null) {
      return a.message();
    }
    return list + (id == null ? "" : " " + PmixKey.PMIX_ALLOC_ID + "=" + id);
  }

  private static String nodelist(ResourceSet r) {
    return r.hasNodelist() ? r.nodelist() + " (" + r.summary() + ")" : r.summary();
  }

  // ---- plumbing ---------------------------------------------------------------------------------

  private void step(
      String name, DemoJob j, String action, String outcome, String expected, String detail) {
    ResourceSet free = onLoop(() -> sched.core().pool().free());
    Step s =
        new Step(
            TimeUnit.NANOSECONDS.toMillis(reactor.nanoTime() - t0),
            name,
            j == null ? 0 : j.id(),
            action,
            outcome,
            expected,
            detail == null ? "" : detail,
            free.nnodes(),
            config.pool().nnodes());
    LOG.info("{} {}: {} -> {} {}", s.job(), name, action, outcome, s.detail());
    steps.add(s);
    sink.accept(s);
  }

  /** Runs {@code f} on the loop and returns its value. */
  private <T> T onLoop(Supplier<T> f) {
    return await("loop", reactor.submit(() -> CompletableFuture.completedFuture(f.get())));
  }

  /** Polls {@code cond} on the loop until it holds or {@link #STEP_TIMEOUT} passes. */
  private boolean waitUntil(BooleanSupplier cond) {
    long deadline = System.nanoTime() + STEP_TIMEOUT.toNanos();
    while (true) {
      if (onLoop(cond::getAsBoolean)) {
        return true;
      }
      if (System.nanoTime() > deadline) {
        return false;
      }
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new Stopped("interrupted");
      }
    }
  }

  private static <T> T await(String what, CompletableFuture<T> f) {
    return await(what, f, STEP_TIMEOUT);
  }

  private static <T> T await(String what, CompletableFuture<T> f, Duration limit) {
    try {
      return f.get(limit.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new Stopped(what + ": no answer within " + limit.toSeconds() + " s");
    } catch (ExecutionException e) {
      Throwable c = e.getCause() == null ? e : e.getCause();
      throw new Stopped(what + ": " + c.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Stopped(what + ": interrupted");
    }
  }
}
