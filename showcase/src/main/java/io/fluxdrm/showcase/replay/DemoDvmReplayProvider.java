package io.fluxdrm.showcase.replay;

import io.fluxdrm.dvm.core.DvmConfig;
import io.fluxdrm.dvm.exec.DaemonPolicy;
import io.fluxdrm.dvm.service.DvmService;
import io.fluxdrm.dvm.wire.DvmHubService;
import io.fluxdrm.dvm.wire.DvmTopics;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.reactor.EventLoop;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rpc.transcript.Normalisation;
import io.fluxdrm.rpc.transcript.ReplayProvider;
import io.fluxdrm.rpc.transcript.ServiceFactory;
import io.fluxdrm.showcase.demo.Scenario;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The world of {@code fluxdrm dvm} as the default {@code fluxdrm demo --processes} starts it, and
 * its replay as {@code fluxdrm replay --service demo-dvm} (D517): the {@code dvm} service of an
 * elastic, simulated DVM on job A's nodes {@link #HOSTS} of 32 slots, whose daemons start and stop
 * in {@link Scenario#BASE_LATENCY_MS} ms and whose daemon on {@link #FAILING} never starts. The
 * transcript is the one the DVM records at its own endpoint ({@code --transcript}); the scheduler
 * it calls ({@code dvm-sched}, the demo's bridge) is played from it: each upcall is answered with
 * the recorded answer where the transcript has it (D518), and the scheduler's own requests ({@code
 * dvm.scheduler-attach}, {@code session-control}) are replayed as any sender's. The DVM's namespace
 * (its process id) and an event's target (the requester's hub route) are normalised away.
 */
public final class DemoDvmReplayProvider implements ReplayProvider {
  /** The name {@code fluxdrm replay --service} knows this world by. */
  public static final String NAME = "demo-dvm";

  /** The DVM's nodes: job A's of the default demo, the master first. */
  public static final List<String> HOSTS = List.of("node0", "node1", "node2", "node3");

  /** The host whose daemon fails to start: the pool's last. */
  public static final String FAILING = "node15";

  /** Slots per node. */
  public static final int SLOTS = 32;

  @Override
  public String serviceName() {
    return NAME;
  }

  @Override
  public ServiceFactory factory() {
    return loop -> {
      throw new UnsupportedOperationException(
          NAME + ": its DVM calls its scheduler through the replay's hub (services(loop, server))");
    };
  }

  @Override
  public List<Service> services(EventLoop loop, FluxHandle server) {
    List<DvmConfig.NodeSpec> nodes = new ArrayList<>();
    HOSTS.forEach(h -> nodes.add(new DvmConfig.NodeSpec(h, SLOTS)));
    DvmConfig config =
        new DvmConfig(
            nodes,
            HOSTS.get(0),
            "fluxdrm.dvm.0",
            0,
            Duration.ofSeconds(5),
            DvmConfig.DEFAULT_MAX_INFOS,
            true);
    Duration latency = Duration.ofMillis(Scenario.BASE_LATENCY_MS);
    DvmService dvm =
        DvmService.builder(config, loop)
            .mode(DvmService.Mode.SIMULATED)
            .daemons(
                DaemonPolicy.immediate().withLatency(latency, latency).failing(Set.of(FAILING)))
            .checkedEveryStep()
            .start();
    return List.of(new DvmHubService(dvm, HOSTS.get(0), server, dvm::schedulerEvent).service());
  }

  @Override
  public Set<String> played() {
    return Set.of(DvmTopics.SCHED_SERVICE);
  }

  @Override
  public List<Normalisation> normalisations() {
    return List.of(
        Normalisation.ignore("/payload/event/target"),
        Normalisation.replace("fluxdrm\\.dvm\\.[0-9]+", "fluxdrm.dvm.<pid>"));
  }
}
