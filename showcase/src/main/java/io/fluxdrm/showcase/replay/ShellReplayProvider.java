package io.fluxdrm.showcase.replay;

import io.fluxdrm.bridge.alloc.PmixAllocator;
import io.fluxdrm.jobmanager.JobManager;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.reactor.EventLoop;
import io.fluxdrm.rpc.service.Service;
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
import java.util.function.Function;

/**
 * Registers the job shell's side of RFC 51 with {@code fluxdrm replay}: {@code --service shell}
 * replays a transcript recorded at a shell plugin's service ({@code 1000-shell-f2}) and {@code
 * --service pmix} one recorded at the PMIx facade's service ({@code 1000-pmix-f2}). Each replay
 * gets the world of {@link JobManagerReplayProvider} (the reference scheduler over four nodes
 * {@code node[0-3]} of four cores, a job manager with eventlogs in memory holding {@link
 * JobManagerReplayProvider#JOB_A} of user 1000 on rank 0 and {@link JobManagerReplayProvider#JOB_B}
 * of user 1001 on rank 1) plus the shell plugin of job A (and, for {@code pmix}, its facade), which
 * speaks to the job manager over the world's private hub. R times are normalised.
 */
public final class ShellReplayProvider implements ReplayProvider {
  private final String name;
  private final boolean pmix;

  /** The {@code shell} provider (the service loader's constructor). */
  public ShellReplayProvider() {
    this("shell", false);
  }

  private ShellReplayProvider(String name, boolean pmix) {
    this.name = name;
    this.pmix = pmix;
  }

  /** The {@code pmix} provider: the facade's service over the same world. */
  public static final class Pmix implements ReplayProvider {
    private final ShellReplayProvider p = new ShellReplayProvider("pmix", true);

    @Override
    public String serviceName() {
      return p.serviceName();
    }

    @Override
    public ServiceFactory factory() {
      return p.factory();
    }

    @Override
    public List<Normalisation> normalisations() {
      return p.normalisations();
    }
  }

  @Override
  public String serviceName() {
    return name;
  }

  @Override
  public ServiceFactory factory() {
    return loop -> world(loop, SchedulerOptions.defaults(), pmix);
  }

  /**
   * Builds the world on {@code loop} with a scheduler of {@code options} and returns the shell
   * plugin's service of job A, or its facade's when {@code pmix}.
   */
  static Service world(EventLoop loop, SchedulerOptions options, boolean pmix) {
    return world(
        loop,
        h ->
            SchedService.standalone(SchedReplayProvider.POOL)
                .options(options)
                .clock(() -> 1000 + loop.nanoTime() / 1e9)
                .retry(Duration.ofMillis(10), Duration.ofMillis(10))
                .build()
                .start(h),
        pmix);
  }

  /**
   * Builds the world on {@code loop}, starting the scheduler with {@code sched} on an owner's
   * handle of the private hub, and returns the shell plugin's service of job A, or its facade's.
   */
  static Service world(EventLoop loop, Function<FluxHandle, ?> sched, boolean pmix) {
    Hub hub = new Hub(loop);
    FluxHandle jmHandle = hub.attach(Credentials.owner(JobManagerReplayProvider.OWNER));
    JobManager jm = JobManager.inMemory(() -> 1000 + loop.nanoTime() / 1e9);
    jm.attach(jmHandle);
    ResourceSet pool = SchedReplayProvider.POOL;
    ResourceSet a = pool.copyRanks(IdSet.of(0));
    jm.register(JobManagerReplayProvider.JOB_A, JobManagerReplayProvider.UID_A, a);
    jm.register(
        JobManagerReplayProvider.JOB_B,
        JobManagerReplayProvider.UID_B,
        pool.copyRanks(IdSet.of(1)));
    jmHandle.register(jm.service());
    sched.apply(hub.attach(Credentials.owner(JobManagerReplayProvider.OWNER)));
    ShellPlugin plugin =
        ShellPlugin.create(JobManagerReplayProvider.JOB_A, JobManagerReplayProvider.UID_A, a);
    plugin.attach(hub.attach(Credentials.user(JobManagerReplayProvider.UID_A)));
    return pmix ? PmixAllocator.create(plugin).service() : plugin.service();
  }

  @Override
  public List<Normalisation> normalisations() {
    return List.of(
        Normalisation.ignore("/payload/R/execution/starttime"),
        Normalisation.ignore("/payload/R/execution/expiration"),
        Normalisation.ignore("/payload/R_delta_add/execution/starttime"),
        Normalisation.ignore("/payload/R_delta_add/execution/expiration"),
        Normalisation.ignore("/payload/R_delta_sub/execution/starttime"),
        Normalisation.ignore("/payload/R_delta_sub/execution/expiration"));
  }
}
