package io.fluxdrm.sched.service;

import io.fluxdrm.rpc.transcript.Normalisation;
import io.fluxdrm.rpc.transcript.ReplayProvider;
import io.fluxdrm.rpc.transcript.ServiceFactory;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.SchedulerOptions;
import java.util.List;

/**
 * Registers the scheduler with {@code fluxdrm replay --service sched}: a fresh standalone scheduler
 * with the defaults ({@code limited=8}, realloc on) over the replay pool, four nodes {@code
 * node[0-3]} of four cores, whose clock is 1000 s plus the replay's elapsed time. Start and
 * expiration times of R are normalised, so transcripts recorded at other times replay too.
 */
public final class SchedReplayProvider implements ReplayProvider {

  /** The pool every replay runs on. */
  public static final ResourceSet POOL =
      ResourceSet.of(
          IdSet.range(0, 3), IdSet.range(0, 3), IdSet.empty(), Hostlist.parse("node[0-3]"));

  @Override
  public String serviceName() {
    return "sched";
  }

  @Override
  public ServiceFactory factory() {
    return loop ->
        SchedService.standalone(POOL)
            .options(SchedulerOptions.defaults())
            .clock(() -> 1000 + loop.nanoTime() / 1e9)
            .build()
            .schedService();
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
