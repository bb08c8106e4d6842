package io.fluxdrm.showcase.demo;

import com.fasterxml.jackson.databind.JsonNode;
import io.fluxdrm.dvm.core.DvmConfig;
import io.fluxdrm.dvm.core.DvmView;
import io.fluxdrm.dvm.exec.DaemonPolicy;
import io.fluxdrm.dvm.service.DvmService;
import io.fluxdrm.dvm.wire.DvmHubService;
import io.fluxdrm.jobmanager.JobManager;
import io.fluxdrm.protocol.Rfc27Topics;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.MessageType;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.client.MessageTap;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.transcript.TranscriptRecorder;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.SchedulerOptions;
import io.fluxdrm.sched.service.SchedService;
import io.fluxdrm.showcase.replay.DemoReplayProvider;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The story's world in this JVM: one {@link Reactor}; the scheduler's hub with the reference
 * scheduler ({@link SchedService}) and the {@link JobManager} (eventlogs in a state directory); the
 * DVM's hub with the reference DVM ({@link DvmService}, simulated executor, elastic mode) served by
 * its {@link DvmHubService}, as {@code fluxdrm dvm} serves it. The job manager's endpoint is
 * recorded as a transcript once {@link #record} is called (decision D145), the DVM's endpoint from
 * its start.
 */
final class InProcessWorld implements World {
  private final Reactor reactor;
  private final ResourceSet pool;
  private final Hub schedHub;
  private final Hub dvmHub;
  private final JobManager jm;
  private final SchedService sched;
  private final TranscriptRecorder recorder;
  private final TranscriptRecorder dvmRecorder;
  private final List<JsonNode> frees = new ArrayList<>();
  private final List<Set<String>> dvmAtFrees = new ArrayList<>();
  private DvmService dvm;

  private InProcessWorld(
      Reactor reactor,
      ResourceSet pool,
      SchedulerOptions options,
      Path stateDir,
      TranscriptRecorder recorder,
      TranscriptRecorder dvmRecorder) {
    this.reactor = reactor;
    this.recorder = recorder;
    this.pool = pool;
    this.dvmRecorder = dvmRecorder;
    schedHub = new Hub(reactor);
    dvmHub = new Hub(reactor);
    jm = JobManager.create(stateDir, () -> System.currentTimeMillis() / 1e3);
    sched = SchedService.standalone(pool).options(options).build();
  }

  /**
   * Starts the scheduler and the job manager; completes once the scheduler said {@code
   * sched-ready}.
   */
  static InProcessWorld start(
      Reactor reactor,
      ResourceSet pool,
      SchedulerOptions options,
      Path stateDir,
      TranscriptRecorder recorder,
      TranscriptRecorder dvmRecorder) {
    InProcessWorld w = new InProcessWorld(reactor, pool, options, stateDir, recorder, dvmRecorder);
    Waits.await("job manager start", w.jm.start(w.schedHub.attach(owner())));
    Waits.await("scheduler start", w.sched.start(w.schedHub.attach(owner())));
    if (!Waits.until(reactor, w.jm::schedulerOnline)) {
      throw new Waits.Stopped("the scheduler never said sched-ready");
    }
    return w;
  }

  private static Credentials owner() {
    return Credentials.owner(DemoReplayProvider.OWNER);
  }

  @Override
  public void recordFromNow() {
    Waits.onLoop(
        reactor,
        () -> {
          jm.tap(
              (d, m) -> {
                recorder.onMessage(d, m);
                if (d == MessageTap.Direction.OUT
                    && m.type() == MessageType.REQUEST
                    && Rfc27Topics.FREE.equals(m.topic())) {
                  frees.add(m.json());
                  dvmAtFrees.add(dvmHosts());
                }
              });
          return null;
        });
  }

  @Override
  public Reactor reactor() {
    return reactor;
  }

  @Override
  public CompletableFuture<Job> submit(int uid, int nodes) {
    return jm.submit(DemoReplayProvider.jobspec(nodes), uid)
        .thenApplyAsync(
            id -> new Job(id, uid, jm.jobR(id).orElse(ResourceSet.empty())), reactor::execute);
  }

  @Override
  public CompletableFuture<Void> finish(long id) {
    return jm.finish(id);
  }

  @Override
  public FluxHandle schedHub(int uid) {
    return schedHub.attach(Credentials.user(uid));
  }

  @Override
  public CompletableFuture<ResourceSet> free() {
    return reactor.submit(() -> CompletableFuture.completedFuture(sched.core().pool().free()));
  }

  @Override
  public ResourceSet pool() {
    return pool;
  }

  @Override
  public CompletableFuture<Void> startDvm(DvmSpec spec) {
    List<DvmConfig.NodeSpec> nodes = new ArrayList<>();
    for (String h : spec.hosts()) {
      nodes.add(new DvmConfig.NodeSpec(h, spec.slots()));
    }
    DvmConfig config =
        DvmConfig.of(nodes, "fluxdrm.demo.dvm", DemoReplayProvider.OWNER).withElastic(true);
    DaemonPolicy daemons =
        DaemonPolicy.immediate()
            .withLatency(
                Duration.ofMillis(spec.startLatencyMs()), Duration.ofMillis(spec.stopLatencyMs()))
            .failing(Set.of(spec.failingHost()));
    dvm = DvmService.builder(config, reactor).daemons(daemons).checked().start();
    FluxHandle h = dvmHub.attach(owner());
    h.tap(dvmRecorder);
    DvmHubService front = new DvmHubService(dvm, config.master(), h, dvm::schedulerEvent);
    return front.start();
  }

  @Override
  public FluxHandle dvmHub(int uid) {
    return dvmHub.attach(uid == DemoReplayProvider.OWNER ? owner() : Credentials.user(uid));
  }

  @Override
  public void stopDvm() {
    if (dvm != null) {
      DvmService d = dvm;
      Waits.onLoop(
          reactor,
          () -> {
            d.close();
            return null;
          });
    }
  }

  @Override
  public Optional<Supplier<DvmView>> dvmView() {
    DvmService d = dvm;
    return d == null ? Optional.empty() : Optional.of(d::view);
  }

  @Override
  public Optional<String> problems() {
    return poolProblem().or(this::dvmProblem);
  }

  /** The DVM's own invariants (issue 13 and issue 14), on the loop: a problem, or empty. */
  private Optional<String> dvmProblem() {
    DvmService d = dvm;
    if (d == null) {
      return Optional.empty();
    }
    return Waits.onLoop(
        reactor,
        () -> {
          try {
            d.checkInvariants();
            return Optional.<String>empty();
          } catch (AssertionError e) {
            return Optional.of(e.getMessage());
          }
        });
  }

  /** The scheduler's pool invariants, on the loop: a problem, or empty. */
  private Optional<String> poolProblem() {
    return Waits.onLoop(
        reactor,
        () -> {
          try {
            sched.core().pool().checkInvariants();
            return Optional.<String>empty();
          } catch (RuntimeException e) {
            return Optional.of(e.getMessage());
          }
        });
  }

  @Override
  public OptionalInt pendingReallocs() {
    return OptionalInt.of(Waits.onLoop(reactor, () -> sched.core().pendingReallocs()));
  }

  /** The hosts of the DVM's nodes and of its open campaigns' targets; on the loop. */
  private Set<String> dvmHosts() {
    Set<String> h = new java.util.TreeSet<>();
    if (dvm == null) {
      return h;
    }
    DvmView v = dvm.view();
    v.nodes().forEach(n -> h.add(n.host()));
    v.elastic().campaigns().forEach(c -> h.addAll(c.targets().values()));
    return h;
  }

  @Override
  public Optional<Set<String>> dvmHostsAtFree(int index) {
    return Waits.onLoop(
        reactor,
        () -> index < dvmAtFrees.size() ? Optional.of(dvmAtFrees.get(index)) : Optional.empty());
  }

  @Override
  public Optional<List<JsonNode>> freesSent() {
    return Optional.of(Waits.onLoop(reactor, () -> List.copyOf(frees)));
  }

  @Override
  public String where() {
    return "in this JVM";
  }

  @Override
  public void close() {
    stopDvm();
  }
}
