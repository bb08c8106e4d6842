package io.fluxdrm.cli.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.bridge.alloc.PmixAllocator;
import io.fluxdrm.bridge.dvm.FluxScheduler;
import io.fluxdrm.dvm.core.DvmConfig;
import io.fluxdrm.dvm.exec.DaemonPolicy;
import io.fluxdrm.dvm.service.DvmService;
import io.fluxdrm.dvm.wire.DvmHubService;
import io.fluxdrm.dvm.wire.HubDvmPort;
import io.fluxdrm.dvm.wire.SchedulerEndpoint;
import io.fluxdrm.jobmanager.JobManager;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Event;
import io.fluxdrm.pmix.port.Registration;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.SchedulerOptions;
import io.fluxdrm.sched.service.SchedService;
import io.fluxdrm.shell.ShellPlugin;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Issue 16's figure for the reference DVM, beside {@code PrrteGrowBenchmark} (pmix-native): the
 * allocation request round trip tool → DVM → fluxdrm → scheduler → DVM → tool of a 1-node grow, all
 * reference parts in this JVM on one {@link Reactor}, as the demo's in-process world runs them: the
 * reference scheduler ({@link SchedService}) over 4 nodes of 2 cores and the {@link JobManager} on
 * the scheduler's hub; the DVM's job, allocated by the job manager on {@code node0}, with its
 * {@link ShellPlugin} and {@link PmixAllocator}; the reference DVM in elastic mode ({@link
 * DvmService}, simulated daemons that start and stop with zero latency) served on its own hub by
 * {@link DvmHubService}; the bridge ({@link FluxScheduler} over that facade) attached as the DVM's
 * scheduler through a {@link SchedulerEndpoint}; and a tool on the DVM's hub speaking the DVM
 * protocol through a {@link HubDvmPort}, as {@code fluxdrm alloc} does (here over the in-memory
 * hub, not a socket).
 *
 * <p>Each invocation is one {@code NEW node1:2} ({@code PMIX_ALLOC_NODE_LIST}, {@code
 * PMIX_ALLOC_REQ_ID bench-N}) from the tool: the DVM forwards it to the bridge, which makes it a
 * {@code sched.realloc} of the DVM's job; the grant becomes a session control toward the DVM, the
 * DVM answers the tool ({@code phase1} ends: {@code PMIX_SUCCESS} granting node1, checked), starts
 * the simulated daemon on node1 and sends the tool {@code PMIX_DVM_IS_READY} ({@code phase2} ends:
 * the event for {@code bench-N}, checked). The invocation's teardown, unmeasured, waits for the
 * phase-two event if {@code phase1} did not, releases node1 through the DVM ({@code RELEASE
 * node1}), waits for its answer and its {@code PMIX_DVM_IS_READY}, then for node1 to be gone from
 * the job's R and free at the scheduler. Both figures include the handoff from the reactor thread
 * to the benchmark thread. Run single-shot, e.g. {@code -bm ss -wi 5 -i 200 -f 1}.
 */
@State(Scope.Benchmark)
@Fork(1)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class RefDvmGrowBenchmark {
  /** The DVM's job's user, the tool's too (as job A in the demo). */
  static final int UID = 1000;

  /** The instance owner: the job manager, the scheduler, the DVM and the bridge's side of it. */
  static final int OWNER = 0;

  static final String HEAD = "node0";
  static final String GROWN = "node1";
  static final Duration TIMEOUT = Duration.ofSeconds(30);

  private Reactor reactor;
  private SchedService sched;
  private ShellPlugin shell;
  private DvmService dvm;
  private SchedulerEndpoint endpoint;
  private HubDvmPort tool;
  private final Map<String, CompletableFuture<Event>> events = new ConcurrentHashMap<>();
  private int n;
  private boolean pendingPhase2;

  @Setup(Level.Trial)
  public void start() throws Exception {
    reactor = Reactor.start("refdvm-bench");
    Hub schedHub = new Hub(reactor);
    Hub dvmHub = new Hub(reactor);
    ResourceSet pool =
        ResourceSet.of(
            IdSet.parse("0-3"), IdSet.parse("0-1"), IdSet.empty(), Hostlist.parse("node[0-3]"));
    JobManager jm = JobManager.inMemory(() -> System.currentTimeMillis() / 1e3);
    jm.start(schedHub.attach(Credentials.owner(OWNER))).get(30, TimeUnit.SECONDS);
    sched = SchedService.standalone(pool).options(SchedulerOptions.defaults()).build();
    sched.start(schedHub.attach(Credentials.owner(OWNER))).get(30, TimeUnit.SECONDS);
    if (!until(() -> onLoop(() -> jm.schedulerOnline()))) {
      throw new IllegalStateException("the scheduler never said sched-ready");
    }

    // the DVM's job on node0, its shell plugin and its facade
    long job = jm.submit(jobspec(), UID).get(30, TimeUnit.SECONDS);
    ResourceSet r = onLoop(() -> jm.jobR(job).orElseThrow());
    if (!r.nodelist().expand().equals(List.of(HEAD))) {
      throw new IllegalStateException("the DVM's job got " + r.summary() + " (expected: " + HEAD);
    }
    shell = ShellPlugin.create(job, UID, r);
    FluxHandle sh = schedHub.attach(Credentials.user(UID));
    shell.start(sh).get(30, TimeUnit.SECONDS);
    PmixAllocator allocator = PmixAllocator.create(shell);
    allocator.start(sh).get(30, TimeUnit.SECONDS);

    // the reference DVM on the job's node, elastic, daemons with zero latency, on its hub
    DvmConfig config =
        DvmConfig.of(List.of(new DvmConfig.NodeSpec(HEAD, 2)), "fluxdrm.bench.dvm", OWNER)
            .withElastic(true);
    dvm =
        DvmService.builder(config, reactor)
            .daemons(DaemonPolicy.immediate().withLatency(Duration.ZERO, Duration.ZERO))
            .start();
    FluxHandle dh = dvmHub.attach(Credentials.owner(OWNER));
    new DvmHubService(dvm, config.master(), dh, dvm::schedulerEvent)
        .start()
        .get(30, TimeUnit.SECONDS);

    // the bridge as its scheduler
    SchedulerEndpoint[] down = new SchedulerEndpoint[1];
    FluxScheduler bridge = FluxScheduler.of(allocator, () -> down[0].port());
    endpoint =
        SchedulerEndpoint.start(dvmHub.attach(Credentials.owner(OWNER)), bridge, TIMEOUT)
            .get(30, TimeUnit.SECONDS);
    down[0] = endpoint;
    endpoint.attached().get(30, TimeUnit.SECONDS);

    // the tool, on the DVM's hub as fluxdrm alloc, its phase-two events by PMIX_ALLOC_REQ_ID
    tool = new HubDvmPort(dvmHub.attach(Credentials.user(UID)), TIMEOUT);
    Registration reg =
        tool.registerEvents(
                List.of(PmixStatus.PMIX_DVM_IS_READY.code(), PmixStatus.PMIX_ERR_DVM_MOD.code()),
                e -> event(reqId(e.infos())).complete(e))
            .toCompletableFuture()
            .get(30, TimeUnit.SECONDS);
    if (reg.status() != PmixStatus.PMIX_SUCCESS) {
      throw new IllegalStateException("event registration: " + reg.status());
    }
  }

  private CompletableFuture<Event> event(String reqId) {
    return events.computeIfAbsent(reqId, k -> new CompletableFuture<>());
  }

  private static String reqId(List<Info> infos) {
    return value(infos, PmixKey.PMIX_ALLOC_REQ_ID);
  }

  private static String value(List<Info> infos, String key) {
    return infos.stream()
        .filter(i -> i.key().equals(key))
        .map(i -> String.valueOf(i.value()))
        .findFirst()
        .orElse("");
  }

  private static ObjectNode jobspec() {
    ObjectNode js = Jobspecs.nodes(1);
    ObjectNode system = (ObjectNode) js.get("attributes").get("system");
    system.putObject("constraints").putArray("hostlist").add(HEAD);
    return js;
  }

  private <T> T onLoop(java.util.function.Supplier<T> f) {
    try {
      return reactor
          .submit(() -> CompletableFuture.completedFuture(f.get()))
          .get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("on the loop: " + e, e);
    }
  }

  private static boolean until(BooleanSupplier cond) throws InterruptedException {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (!cond.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(0, 200_000);
    }
    return true;
  }

  private StatusInfos answer(CompletableFuture<StatusInfos> f, String what) throws Exception {
    StatusInfos a = f.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    if (a.status() != PmixStatus.PMIX_SUCCESS) {
      throw new IllegalStateException(what + ": " + a.status() + " " + a.infos());
    }
    return a;
  }

  private Event ready(String reqId) throws Exception {
    Event e = event(reqId).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    events.remove(reqId);
    if (e.status() != PmixStatus.PMIX_DVM_IS_READY.code()) {
      throw new IllegalStateException(reqId + ": event " + e.status() + " " + e.infos());
    }
    return e;
  }

  /** The tool's {@code NEW node1:2}, to its answer, which must grant node1. */
  private StatusInfos grow() throws Exception {
    String id = "bench-" + (++n);
    StatusInfos a =
        answer(
            tool.allocationRequestRaw(
                AllocDirective.NEW,
                List.of(
                    Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, GROWN + ":2"),
                    Info.of(PmixKey.PMIX_ALLOC_REQ_ID, id))),
            id);
    if (!value(a.infos(), PmixKey.PMIX_ALLOC_NODE_LIST).startsWith(GROWN)) {
      throw new IllegalStateException(id + ": granted " + a.infos() + " (expected: " + GROWN + ")");
    }
    return a;
  }

  /** The grow's answer (phase one): tool → DVM → bridge → scheduler → DVM → tool. */
  @Benchmark
  public StatusInfos phase1() throws Exception {
    pendingPhase2 = true;
    return grow();
  }

  /** The grow to its {@code PMIX_DVM_IS_READY} (phase two): the daemon on node1 is up. */
  @Benchmark
  public Event phase2() throws Exception {
    grow();
    return ready("bench-" + n);
  }

  /**
   * Finishes the grow (if phase1 only), releases node1 through the DVM and waits until the
   * scheduler has it free again; unmeasured.
   */
  @TearDown(Level.Invocation)
  public void shrinkBack() throws Exception {
    if (pendingPhase2) {
      ready("bench-" + n);
      pendingPhase2 = false;
    }
    String id = "bench-release-" + n;
    answer(
        tool.allocationRequestRaw(
            AllocDirective.RELEASE,
            List.of(
                Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, GROWN),
                Info.of(PmixKey.PMIX_ALLOC_REQ_ID, id))),
        id);
    ready(id);
    boolean back =
        until(
            () ->
                onLoop(
                    () ->
                        !shell.r().nodelist().expand().contains(GROWN)
                            && sched.core().pool().free().nodelist().expand().contains(GROWN)));
    if (!back) {
      throw new IllegalStateException(GROWN + " not back at the scheduler after " + id);
    }
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    // the scheduler's pool conserved after every grow and shrink
    onLoop(
        () -> {
          sched.core().pool().checkInvariants();
          return null;
        });
    tool.disconnect().toCompletableFuture().get(30, TimeUnit.SECONDS);
    endpoint.close();
    onLoop(
        () -> {
          dvm.close();
          return null;
        });
    reactor.close();
  }

  /** Runs a few grows (a check that the benchmark's world holds together). */
  public static void main(String[] args) throws Exception {
    RefDvmGrowBenchmark b = new RefDvmGrowBenchmark();
    b.start();
    try {
      for (int i = 0; i < 3; i++) {
        long t0 = System.nanoTime();
        b.phase2();
        long t1 = System.nanoTime();
        b.shrinkBack();
        long t2 = System.nanoTime();
        b.phase1();
        long t3 = System.nanoTime();
        b.shrinkBack();
        System.out.printf("phase2 %.3f ms, phase1 %.3f ms%n", (t1 - t0) / 1e6, (t3 - t2) / 1e6);
      }
      System.out.println("grows: " + b.n);
    } finally {
      b.stop();
    }
  }
}
