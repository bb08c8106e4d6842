package io.fluxdrm.sched.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.hub.ZmqHubListener;
import io.fluxdrm.rpc.hub.ZmqHubSettings;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.sched.QueueDepth;
import io.fluxdrm.sched.SchedulerOptions;
import io.fluxdrm.sched.service.SchedService;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * {@code sched.alloc} + {@code sched.free} pairs through the whole service over ZeroMQ loopback:
 * the scheduler (SchedService on a hub with a ZmqHubListener, its own reactor) and a job manager
 * client (DEALER, another reactor) that registered {@code job-manager}. Each pair: an alloc of one
 * core on a 1,024-node x 32-core pool, its SUCCESS (payloads checked against the schemas, jobspec
 * read, R encoded), then a final {@code sched.free} of that R. {@code window} allocs are in flight
 * at once ({@code 1}: strictly one after another; {@code 8}: sched-simple's limited=8). One
 * operation = one pair.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class SchedZmqBenchmark {
  static final int PAIRS = 1000;

  @Param({"1", "8"})
  public int window;

  private Reactor schedReactor;
  private Reactor clientReactor;
  private FluxHandle client;
  private ObjectNode jobspec;
  private long nextId = 1;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    schedReactor = Reactor.start("bench-sched");
    Hub hub = new Hub(schedReactor);
    ZmqHubListener l =
        ZmqHubListener.start(
            hub,
            schedReactor,
            "tcp://127.0.0.1:*",
            ZmqHubSettings.Options.loopback(Credentials.owner(0)));
    SchedService svc =
        SchedService.standalone(AllocBenchmark.pool())
            .options(SchedulerOptions.defaults().withQueueDepth(QueueDepth.unlimited()))
            .build();
    clientReactor = Reactor.start("bench-job-manager");
    client = FluxHandle.connectZmq(clientReactor, l.endpoint(), null);
    client
        .register(
            Service.builder("job-manager")
                .onStreaming("sched-hello", r -> r.end())
                .on("sched-ready", r -> r.respond(Json.object().put("count", 0)))
                .build())
        .get(5, TimeUnit.SECONDS);
    FluxHandle schedHandle = hub.attach(Credentials.owner(0));
    CompletableFuture<Void> started = new CompletableFuture<>();
    schedReactor.execute(
        () -> svc.start(schedHandle).whenComplete((v, e) -> started.complete(null)));
    started.get(5, TimeUnit.SECONDS);
    svc.online().get(10, TimeUnit.SECONDS);
    ObjectNode slot = Json.object().put("type", "slot").put("count", 1).put("label", "task");
    slot.putArray("with").addObject().put("type", "core").put("count", 1);
    jobspec = Json.object().put("version", 1);
    jobspec.putArray("resources").add(slot);
    ObjectNode task = jobspec.putArray("tasks").addObject().put("slot", "task");
    task.putArray("command").add("true");
    task.putObject("count").put("per_slot", 1);
    jobspec.putObject("attributes").putObject("system").put("duration", 0);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    client.close();
    clientReactor.close();
    schedReactor.close();
  }

  @Benchmark
  @OperationsPerInvocation(PAIRS)
  public Object allocFreePairs() throws Exception {
    CompletableFuture<Void> done = new CompletableFuture<>();
    long first = nextId;
    nextId += PAIRS;
    int[] issued = {0};
    int[] completed = {0};
    Runnable[] next = new Runnable[1];
    next[0] =
        () -> {
          long id = first + issued[0]++;
          ObjectNode p = Json.object().put("id", id).put("priority", 16).put("userid", 0);
          p.put("t_submit", 1.0);
          p.set("jobspec", jobspec);
          client
              .rpc("sched.alloc", p)
              .whenComplete(
                  (Message m, Throwable e) -> {
                    if (e != null) {
                      done.completeExceptionally(e);
                      return;
                    }
                    ObjectNode free = Json.object().put("id", id).put("final", true);
                    free.set("R", m.json().get("R"));
                    client.send("sched.free", free);
                    if (++completed[0] == PAIRS) {
                      done.complete(null);
                    } else if (issued[0] < PAIRS) {
                      next[0].run();
                    }
                  });
        };
    clientReactor.execute(
        () -> {
          for (int i = 0; i < window; i++) {
            next[0].run();
          }
        });
    return done.get(60, TimeUnit.SECONDS);
  }
}
