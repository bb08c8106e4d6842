package io.fluxdrm.showcase.replay;

import io.fluxdrm.jobmanager.BridgeService;
import io.fluxdrm.jobmanager.JobManager;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.reactor.EventLoop;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rpc.transcript.Normalisation;
import io.fluxdrm.rpc.transcript.ReplayProvider;
import io.fluxdrm.rpc.transcript.ServiceFactory;
import io.fluxdrm.sched.SchedulerOptions;
import io.fluxdrm.sched.service.SchedService;
import java.time.Duration;
import java.util.List;

/**
 * The world of {@code fluxdrm bridge} as {@code fluxdrm demo --processes} starts it, and its replay
 * as {@code fluxdrm replay --service demo-bridge} (D517): the {@code job-manager} and {@code
 * bridge} services of a job manager with no job yet, over the reference scheduler with the defaults
 * on the demo's pool ({@link DemoReplayProvider#POOL}), which is what the bridge process had when
 * it started recording. The transcript is the one the bridge records at its own endpoint ({@code
 * --transcript}): the scheduler's hello and ready, the demo's {@code bridge.submit} and {@code
 * bridge.finish}, the job shells' {@code job-manager.realloc} and {@code release}. R times are
 * normalised as for {@link JobManagerReplayProvider}.
 */
public final class DemoBridgeReplayProvider implements ReplayProvider {
  /** The name {@code fluxdrm replay --service} knows this world by. */
  public static final String NAME = "demo-bridge";

  @Override
  public String serviceName() {
    return NAME;
  }

  @Override
  public ServiceFactory factory() {
    return loop -> services(loop, null).get(0);
  }

  @Override
  public List<Service> services(EventLoop loop, FluxHandle server) {
    Hub hub = new Hub(loop);
    FluxHandle jmHandle = hub.attach(Credentials.owner(DemoReplayProvider.OWNER));
    JobManager jm = JobManager.inMemory(() -> 1000 + loop.nanoTime() / 1e9);
    jm.attach(jmHandle);
    jmHandle.register(jm.service());
    SchedService.standalone(DemoReplayProvider.POOL)
        .options(SchedulerOptions.defaults())
        .clock(() -> 1000 + loop.nanoTime() / 1e9)
        .retry(Duration.ofMillis(10), Duration.ofMillis(10))
        .build()
        .start(hub.attach(Credentials.owner(DemoReplayProvider.OWNER)));
    return List.of(jm.service(), new BridgeService(jm, loop).service());
  }

  @Override
  public List<Normalisation> normalisations() {
    return new JobManagerReplayProvider().normalisations();
  }
}
