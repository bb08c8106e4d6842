package io.fluxdrm.showcase.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.bridge.dvm.FluxScheduler;
import io.fluxdrm.dvm.core.DvmConfig;
import io.fluxdrm.dvm.exec.DaemonPolicy;
import io.fluxdrm.dvm.service.DvmService;
import io.fluxdrm.jobmanager.JmFixture;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.Event;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.SchedulerOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * The elastic bridge end to end in one JVM (issue 14 scope 6): the real sched-simple over four
 * nodes of four cores, the job manager, job A (ALICE, node0) whose Flux job hosts an elastic
 * reference DVM with its master on node0, the bridge ({@link FluxScheduler} over A's {@code
 * PmixAllocator}) as the DVM's scheduler, and a tool of ALICE at the master asking for allocations
 * and listening for the second-phase events. Job B (BOB) holds node1. Every answer and event the
 * tool sees goes to {@link #timeline} in the order it arrives; {@link #check()} is the three-way
 * invariant.
 */
final class ElasticWorld {
  final ChainFixture c;
  final ChainFixture.Job a;
  final DvmService dvm;
  final FluxScheduler bridge;
  final DvmPort tool;
  final List<String> timeline = new ArrayList<>();
  final List<Event> events = new ArrayList<>();
  private DvmPort schedPort;
  private DvmPort selfPort;

  /** The world over the real sched-simple. */
  ElasticWorld(Path dir, DaemonPolicy daemons) {
    this(ChainFixture.registered(dir, SchedulerOptions.defaults()), daemons);
  }

  /**
   * The world over the scheduler of {@code c} (jobs A and B registered, no shell started): a
   * scripted one has no pool, so the scheduler's part of the three-way invariant is left out.
   */
  ElasticWorld(ChainFixture c, DaemonPolicy daemons) {
    this.c = c;
    a = c.shell(JobManagerReplayProvider.JOB_A, JmFixture.ALICE);
    DvmConfig config =
        DvmConfig.of(List.of(new DvmConfig.NodeSpec("node0", 4)), "dvm", JmFixture.ALICE)
            .withElastic(true);
    dvm = DvmService.builder(config, c.f.loop).daemons(daemons).checkedEveryStep().start();
    c.f.settle();
    bridge = FluxScheduler.of(a.pmix, () -> schedPort, () -> selfPort);
    schedPort =
        done(
            dvm.attachScheduler(
                new Client(
                    new PmixProc("fluxdrm-bridge", 0),
                    JmFixture.ALICE,
                    JmFixture.ALICE,
                    Client.Kind.SCHEDULER),
                bridge));
    selfPort =
        done(
            dvm.connect(
                new Client(
                    new PmixProc("fluxdrm-bridge.self", 0),
                    JmFixture.ALICE,
                    JmFixture.ALICE,
                    Client.Kind.TOOL),
                "node0"));
    tool =
        done(
            dvm.connect(
                new Client(
                    new PmixProc("tool", 0), JmFixture.ALICE, JmFixture.ALICE, Client.Kind.TOOL),
                "node0"));
    done(
        tool.registerEvents(
            List.of(PmixStatus.PMIX_DVM_IS_READY.code(), PmixStatus.PMIX_ERR_DVM_MOD.code()),
            e -> {
              events.add(e);
              timeline.add("event " + name(e.status()) + " " + infos(e.infos()));
            }));
    check();
  }

  private <T> T done(java.util.concurrent.CompletionStage<T> s) {
    c.f.settle();
    CompletableFuture<T> f = s.toCompletableFuture();
    assertThat(f).as("completed").isDone();
    return f.join();
  }

  private static String name(int code) {
    return PmixStatus.byCode(code).map(PmixStatus::name).orElse(String.valueOf(code));
  }

  /** Infos as {@code key=value,...}, in order, the DVM's reason left out. */
  static String infos(List<Info> infos) {
    return infos.stream()
        .filter(i -> !i.key().equals("fluxdrm.dvm.reason"))
        .map(i -> i.key() + "=" + i.value())
        .collect(Collectors.joining(",", "{", "}"));
  }

  /** {@code PMIx_Allocation_request} from the tool; its answer goes to the timeline on arrival. */
  CompletableFuture<StatusInfos> ask(AllocDirective d, Info... infos) {
    CompletableFuture<StatusInfos> f =
        tool.allocationRequest(d, List.of(infos))
            .toCompletableFuture()
            .whenComplete(
                (a, err) ->
                    timeline.add(
                        err != null
                            ? "answer failed " + err
                            : "answer " + a.status() + " " + infos(a.infos())));
    c.f.settle();
    return f;
  }

  /** The loop's clock moves on by {@code d}; everything due runs. */
  void advance(Duration d) {
    c.f.advance(d);
  }

  /** The value of {@code key} in {@code a}'s infos. */
  static String info(StatusInfos a, String key) {
    return a.infos().stream()
        .filter(i -> i.key().equals(key))
        .map(i -> String.valueOf(i.value()))
        .findFirst()
        .orElseThrow(() -> new AssertionError(key + " not in " + a.infos()));
  }

  static Info nodes(long n) {
    return Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, n);
  }

  static Info reqId(String id) {
    return Info.of(PmixKey.PMIX_ALLOC_REQ_ID, id);
  }

  /** The hosts of job A's R in the scheduler's pool. */
  java.util.Set<String> schedHosts() {
    return ThreeWayInvariant.hosts(c.f.schedView(a.id));
  }

  /** The hosts free in the scheduler's pool. */
  java.util.Set<String> freeHosts() {
    ResourceSet all = JmFixture.pool(4, 4);
    ResourceSet held = ResourceSet.empty();
    for (long id : List.of(JobManagerReplayProvider.JOB_A, JobManagerReplayProvider.JOB_B)) {
      held = held.union(c.f.schedView(id));
    }
    return ThreeWayInvariant.hosts(all.diff(held));
  }

  /** The hosts of the DVM's nodes (daemons starting, up or failed), the master included. */
  java.util.Set<String> dvmHosts() {
    return dvm.view().nodes().stream()
        .map(n -> n.host())
        .collect(Collectors.toCollection(java.util.TreeSet::new));
  }

  /** The three-way invariant, the chain's own checks, and the DVM's invariants. */
  void check() {
    c.f.settle();
    c.check();
    dvm.checkInvariants();
    assertThat(dvm.invariantViolations()).as("DVM invariants after every step").isZero();
    ThreeWayInvariant.check(c.f, a.id, dvm, bridge);
  }
}
