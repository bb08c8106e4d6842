package io.fluxdrm.showcase.replay;

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
import java.time.Duration;
import java.util.List;

/**
 * Registers the job manager with {@code fluxdrm replay --service job-manager}. Each replay gets a
 * fresh world on the replay's loop: a private in-memory hub with the reference scheduler (the
 * defaults over {@link SchedReplayProvider#POOL}, four nodes {@code node[0-3]} of four cores, clock
 * 1000 s plus the replay's elapsed time) and a job manager keeping its eventlogs in memory, which
 * holds {@link #JOB_A} of user {@link #UID_A} on rank 0 and {@link #JOB_B} of user {@link #UID_B}
 * on rank 1 before the scheduler's hello. The replayed requests ({@code job-manager.realloc},
 * {@code realloc_cancel}, {@code release}) reach that job manager's service with their recorded
 * credentials; it speaks to the scheduler over the private hub. R times are normalised.
 */
public final class JobManagerReplayProvider implements ReplayProvider {
  /** The first job of the replay world, on rank 0. */
  public static final long JOB_A = 1;

  /** The second job of the replay world, on rank 1. */
  public static final long JOB_B = 2;

  /** The owners of the two jobs. */
  public static final int UID_A = 1000;

  public static final int UID_B = 1001;

  /** The uid of the instance owner inside the replay world. */
  static final int OWNER = 0;

  @Override
  public String serviceName() {
    return JobManager.SERVICE;
  }

  @Override
  public ServiceFactory factory() {
    return JobManagerReplayProvider::world;
  }

  /** Builds the world on {@code loop} and returns the job manager's service for the replay hub. */
  static Service world(EventLoop loop) {
    Hub hub = new Hub(loop);
    FluxHandle jmHandle = hub.attach(Credentials.owner(OWNER));
    JobManager jm = JobManager.inMemory(() -> 1000 + loop.nanoTime() / 1e9);
    jm.attach(jmHandle);
    ResourceSet pool = SchedReplayProvider.POOL;
    jm.register(JOB_A, UID_A, pool.copyRanks(IdSet.of(0)));
    jm.register(JOB_B, UID_B, pool.copyRanks(IdSet.of(1)));
    jmHandle.register(jm.service());
    SchedService.standalone(pool)
        .options(SchedulerOptions.defaults())
        .clock(() -> 1000 + loop.nanoTime() / 1e9)
        .retry(Duration.ofMillis(10), Duration.ofMillis(10))
        .build()
        .start(hub.attach(Credentials.owner(OWNER)));
    return jm.service();
  }

  @Override
  public List<Normalisation> normalisations() {
    return List.of(
        Normalisation.ignore("/payload/R/execution/starttime"),
        Normalisation.ignore("/payload/R/execution/expiration"),
        Normalisation.ignore("/payload/R_delta_add/execution/starttime"),
        Normalisation.ignore("/payload/R_delta_add/execution/expiration"));
  }
}
