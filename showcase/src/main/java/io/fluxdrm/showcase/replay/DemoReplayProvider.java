package io.fluxdrm.showcase.replay;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.jobmanager.JobManager;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.reactor.EventLoop;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rpc.transcript.Normalisation;
import io.fluxdrm.rpc.transcript.ReplayProvider;
import io.fluxdrm.rpc.transcript.ServiceFactory;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.SchedulerOptions;
import io.fluxdrm.sched.service.SchedService;
import java.time.Duration;
import java.util.List;

/**
 * The world of {@code fluxdrm demo}, and its replay as {@code fluxdrm replay --service demo}
 * (decision D145): the {@code job-manager} service of a job manager over the reference scheduler
 * (the defaults over {@link #POOL}, sixteen nodes {@code node[0-15]} of 32 cores), after the demo's
 * {@linkplain #initialJobs initial jobs} were submitted in order and allocated. The demo records
 * the job manager's endpoint from that point on, so the recorded {@code job-manager.realloc},
 * {@code realloc_cancel} and {@code release} requests reach the same state here. The world differs
 * from {@link JobManagerReplayProvider}'s (four nodes, two registered jobs), hence its own name;
 * the replayed service is still {@code job-manager}. R times are normalised as there.
 */
public final class DemoReplayProvider implements ReplayProvider {
  /** The name {@code fluxdrm replay --service} knows this world by. */
  public static final String NAME = "demo";

  /** The demo's default pool: {@code node[0-15]}, cores 0-31 each. */
  public static final ResourceSet POOL = pool(Hostlist.parse("node[0-15]"), IdSet.range(0, 31));

  /** The user of the demo's first job and of its second. */
  public static final int UID_A = 1000;

  public static final int UID_B = 1001;

  /** The uid of the instance owner (job manager and scheduler). */
  public static final int OWNER = 0;

  /** A job the demo submits before it starts recording: its user and its number of nodes. */
  public record InitialJob(int userid, int nodes) {}

  /**
   * The demo's jobs on a pool of {@code poolNodes} (at least 8) nodes: job A of {@link #UID_A}, the
   * DVM's job, on a quarter of the pool, job B of {@link #UID_B} on half of it.
   */
  public static List<InitialJob> initialJobs(int poolNodes) {
    return List.of(new InitialJob(UID_A, poolNodes / 4), new InitialJob(UID_B, poolNodes / 2));
  }

  /** The pool of {@code hosts} (ranks 0 up, in order), each with {@code cores}. */
  public static ResourceSet pool(Hostlist hosts, IdSet cores) {
    return ResourceSet.of(IdSet.range(0, (int) hosts.count() - 1), cores, IdSet.empty(), hosts);
  }

  /** A V1 jobspec of {@code nodes} exclusive nodes, one task per node. */
  public static ObjectNode jobspec(int nodes) {
    ObjectNode slot = Json.object().put("type", "slot").put("count", 1).put("label", "task");
    slot.putArray("with").addObject().put("type", "core").put("count", 1);
    ObjectNode node = Json.object().put("type", "node").put("count", nodes).put("exclusive", true);
    node.putArray("with").add(slot);
    ObjectNode js = Json.object().put("version", 1);
    js.putArray("resources").add(node);
    ObjectNode task = js.putArray("tasks").addObject();
    task.putArray("command").add("fluxdrm-demo-app");
    task.put("slot", "task");
    task.putObject("count").put("per_slot", 1);
    js.putObject("attributes").putObject("system").put("duration", 0);
    return js;
  }

  @Override
  public String serviceName() {
    return NAME;
  }

  @Override
  public ServiceFactory factory() {
    return DemoReplayProvider::world;
  }

  /** Builds the world on {@code loop} and returns the job manager's service for the replay hub. */
  static Service world(EventLoop loop) {
    Hub hub = new Hub(loop);
    FluxHandle jmHandle = hub.attach(Credentials.owner(OWNER));
    JobManager jm = JobManager.inMemory(() -> 1000 + loop.nanoTime() / 1e9);
    jm.attach(jmHandle);
    jmHandle.register(jm.service());
    SchedService.standalone(POOL)
        .options(SchedulerOptions.defaults())
        .clock(() -> 1000 + loop.nanoTime() / 1e9)
        .retry(Duration.ofMillis(10), Duration.ofMillis(10))
        .build()
        .start(hub.attach(Credentials.owner(OWNER)));
    for (InitialJob j : initialJobs(POOL.nnodes())) {
      jm.submit(jobspec(j.nodes()), j.userid());
    }
    return jm.service();
  }

  @Override
  public List<Normalisation> normalisations() {
    return new JobManagerReplayProvider().normalisations();
  }
}
