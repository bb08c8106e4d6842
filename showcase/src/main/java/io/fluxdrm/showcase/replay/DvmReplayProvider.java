package io.fluxdrm.showcase.replay;

import io.fluxdrm.bridge.alloc.PmixAllocator;
import io.fluxdrm.bridge.dvm.FluxScheduler;
import io.fluxdrm.dvm.core.DvmConfig;
import io.fluxdrm.dvm.exec.DaemonPolicy;
import io.fluxdrm.dvm.service.DvmService;
import io.fluxdrm.dvm.wire.DvmHubService;
import io.fluxdrm.jobmanager.JobManager;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.reactor.EventLoop;
import io.fluxdrm.rpc.transcript.Normalisation;
import io.fluxdrm.rpc.transcript.ReplayProvider;
import io.fluxdrm.rpc.transcript.ServiceFactory;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.SchedulerOptions;
import io.fluxdrm.sched.service.SchedReplayProvider;
import io.fluxdrm.sched.service.SchedService;
import io.fluxdrm.shell.ShellPlugin;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * The elastic bridge's world, and its replay as {@code fluxdrm replay --service dvm} (issue 14
 * scope 6): the {@code dvm} service of an elastic reference DVM whose scheduler is the bridge.
 * Behind it, the world of {@link JobManagerReplayProvider} (the reference scheduler over {@code
 * node[0-3]} of four cores, job A of user 1000 on node0, job B of user 1001 on node1); job A hosts
 * the DVM, whose master is node0; the bridge ({@link FluxScheduler}) serves the DVM's allocation
 * requests through job A's shell plugin and PMIx facade. Daemons start and stop after {@link
 * #LATENCY}; the daemon of {@link #FAILING} never starts (so a grow onto it is rolled back). The
 * target of an event (the requester's hub route) is normalised away.
 */
public final class DvmReplayProvider implements ReplayProvider {
  /** The name {@code fluxdrm replay --service} knows this world by. */
  public static final String NAME = "dvm";

  /** How long a daemon takes to start and to stop. */
  public static final Duration LATENCY = Duration.ofSeconds(1);

  /** The host whose daemon fails to start. */
  public static final String FAILING = "node3";

  /** The world's parts, for a test that records in it. */
  public static final class World {
    /** The world's hub. */
    public final Hub hub;

    /** The job manager. */
    public final JobManager jm;

    /** The DVM. */
    public final DvmService dvm;

    /** The bridge as the DVM's scheduler. */
    public final FluxScheduler bridge;

    /** The DVM's {@code dvm} service (not registered: {@link DvmHubService#start} does that). */
    public final DvmHubService front;

    /** The DVM's connection to the world's hub (the instance owner's). */
    public final FluxHandle frontHandle;

    private DvmPort schedPort;
    private DvmPort selfPort;

    private World(EventLoop loop) {
      hub = new Hub(loop);
      FluxHandle jmHandle = hub.attach(Credentials.owner(JobManagerReplayProvider.OWNER));
      jm = JobManager.inMemory(() -> 1000 + loop.nanoTime() / 1e9);
      jm.attach(jmHandle);
      ResourceSet pool = SchedReplayProvider.POOL;
      ResourceSet a = pool.copyRanks(IdSet.of(0));
      jm.register(JobManagerReplayProvider.JOB_A, JobManagerReplayProvider.UID_A, a);
      jm.register(
          JobManagerReplayProvider.JOB_B,
          JobManagerReplayProvider.UID_B,
          pool.copyRanks(IdSet.of(1)));
      jmHandle.register(jm.service());
      SchedService.standalone(pool)
          .options(SchedulerOptions.defaults())
          .clock(() -> 1000 + loop.nanoTime() / 1e9)
          .retry(Duration.ofMillis(10), Duration.ofMillis(10))
          .build()
          .start(hub.attach(Credentials.owner(JobManagerReplayProvider.OWNER)));
      ShellPlugin plugin =
          ShellPlugin.create(JobManagerReplayProvider.JOB_A, JobManagerReplayProvider.UID_A, a);
      plugin.attach(hub.attach(Credentials.user(JobManagerReplayProvider.UID_A)));
      PmixAllocator pmix = PmixAllocator.create(plugin);
      int uid = JobManagerReplayProvider.UID_A;
      DvmConfig config =
          DvmConfig.of(List.of(new DvmConfig.NodeSpec("node0", 4)), "dvm", uid).withElastic(true);
      dvm =
          DvmService.builder(config, loop)
              .daemons(
                  DaemonPolicy.immediate().withLatency(LATENCY, LATENCY).failing(Set.of(FAILING)))
              .checkedEveryStep()
              .start();
      bridge = FluxScheduler.of(pmix, () -> schedPort, () -> selfPort);
      dvm.attachScheduler(
              new Client(new PmixProc("fluxdrm-bridge", 0), uid, uid, Client.Kind.SCHEDULER),
              bridge)
          .thenAccept(p -> schedPort = p);
      dvm.connect(
              new Client(new PmixProc("fluxdrm-bridge.self", 0), uid, uid, Client.Kind.TOOL),
              "node0")
          .thenAccept(p -> selfPort = p);
      frontHandle = hub.attach(Credentials.owner(uid));
      front = new DvmHubService(dvm, "node0", frontHandle, dvm::schedulerEvent);
    }
  }

  /**
   * Builds the world on {@code loop}; its setup completes as the loop runs.
   *
   * @param loop the loop
   * @return the world
   */
  public static World world(EventLoop loop) {
    return new World(loop);
  }

  @Override
  public String serviceName() {
    return NAME;
  }

  @Override
  public ServiceFactory factory() {
    return loop -> world(loop).front.service();
  }

  @Override
  public List<Normalisation> normalisations() {
    return List.of(Normalisation.ignore("/payload/event/target"));
  }
}
