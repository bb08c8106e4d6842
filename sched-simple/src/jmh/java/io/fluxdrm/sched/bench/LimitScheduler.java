package io.fluxdrm.sched.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.JobId;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.endpoint.Connectors;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rpc.service.ServiceRequest;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * A scheduler that decides nothing, the limit a whole Flux instance puts on any scheduler
 * (bench/flux-throughput.sh, issue 32): it says hello and ready (queue depth unlimited) like any
 * RFC 27 scheduler, then answers every {@code sched.alloc} at once with a fixed R of the job's size
 * (its node count from the jobspec, every core of the first nodes; one core for a job without
 * nodes), after the KVS commit of that R that flux-core's job manager requires. It keeps no pool,
 * checks nothing, logs nothing and ignores {@code sched.free}: only the test execution system,
 * which starts no process, can run what it grants. The same transport and JVM as {@code fluxdrm
 * sched}, so the difference between the two is the scheduler's own work.
 *
 * <p>With {@code --capacity=NODES} it still decides nothing, but never grants more than the
 * instance has: NODES nodes of CORES_PER_NODE cores, a job of n nodes taking n whole nodes and a
 * job without nodes one core, in the order the allocs came, each waiting until the frees of earlier
 * jobs give back enough. It shows what holding to the machine's size costs the instance, apart from
 * any decision (issue 32).
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.fluxdrm.sched.bench.LimitScheduler local://PATH
 * CORES_PER_NODE [--as-a-scheduler] [--capacity=NODES]}; prints {@code ready} on stdout once the
 * job manager answered sched-ready.
 */
public final class LimitScheduler {
  private final FluxHandle h;
  private final int cores;
  private final Map<Integer, JsonNode> rByNodes = new HashMap<>();
  private final Map<Integer, byte[]> textByNodes = new HashMap<>();

  /**
   * With {@code --as-a-scheduler}: each R carries the job's start time (so no two are the same
   * text, as with any scheduler) and each answer the {@code resource_summary} annotation that
   * flux-core's sched-simple and fluxdrm send; still no pool, no check, no log (issue 32: what the
   * instance costs with what every real answer carries).
   */
  private final boolean asAScheduler;

  /** With {@code --capacity}: the cores not granted, or -1 for no limit. */
  private long freeCores;

  /** With {@code --capacity}: the cores each running job holds, by id. */
  private final Map<Long, Long> held = new HashMap<>();

  /** With {@code --capacity}: the allocs that wait, in the order they came. */
  private final ArrayDeque<ServiceRequest> waiting = new ArrayDeque<>();

  private LimitScheduler(FluxHandle h, int cores, boolean asAScheduler, long capacityNodes) {
    this.h = h;
    this.cores = cores;
    this.asAScheduler = asAScheduler;
    this.freeCores = capacityNodes < 0 ? -1 : capacityNodes * cores;
  }

  public static void main(String[] args) throws Exception {
    boolean asAScheduler = false;
    long capacity = -1;
    boolean ok = args.length >= 2;
    for (int i = 2; ok && i < args.length; i++) {
      if (args[i].equals("--as-a-scheduler")) {
        asAScheduler = true;
      } else if (args[i].matches("--capacity=[1-9][0-9]{0,6}")) {
        capacity = Long.parseLong(args[i].substring("--capacity=".length()));
      } else {
        ok = false;
      }
    }
    if (!ok) {
      System.err.println(
          "usage: LimitScheduler local://PATH CORES_PER_NODE [--as-a-scheduler]"
              + " [--capacity=NODES]");
      System.exit(2);
    }
    Reactor reactor = Reactor.start("limit-sched");
    FluxHandle h = Connectors.openLocal(reactor, args[0], Duration.ofSeconds(30));
    LimitScheduler s = new LimitScheduler(h, Integer.parseInt(args[1]), asAScheduler, capacity);
    CountDownLatch ready = new CountDownLatch(1);
    reactor.execute(
        () ->
            h.register(
                    Service.builder("sched")
                        .on("alloc", s::alloc)
                        .on("free", s::free)
                        .on("cancel", r -> {})
                        .on("prioritize", r -> {})
                        .on("expiration", r -> r.respond(Json.object()))
                        .build())
                .thenCompose(
                    v -> {
                      java.util.concurrent.CompletableFuture<Void> hello =
                          new java.util.concurrent.CompletableFuture<>();
                      h.stream(
                              "job-manager.sched-hello",
                              Json.object().put("partial-ok", true),
                              m -> {},
                              null)
                          .done()
                          .whenComplete((x, e) -> hello.complete(null));
                      return hello;
                    })
                .thenCompose(
                    v -> h.rpc("job-manager.sched-ready", Json.object().put("mode", "unlimited")))
                .whenComplete(
                    (m, e) -> {
                      if (e != null) {
                        System.err.println("LimitScheduler: " + e);
                        System.exit(1);
                      }
                      ready.countDown();
                    }));
    ready.await();
    System.out.println("ready");
    System.out.flush();
    Thread.currentThread().join();
  }

  private void alloc(ServiceRequest req) {
    if (freeCores < 0) {
      grant(req);
      return;
    }
    waiting.add(req);
    serve();
  }

  /** Grants the waiting allocs in order while the first fits. */
  private void serve() {
    while (!waiting.isEmpty()) {
      ServiceRequest req = waiting.peek();
      long need = need(req);
      if (need > freeCores) {
        return;
      }
      waiting.poll();
      freeCores -= need;
      held.put(req.json().get("id").asLong(), need);
      grant(req);
    }
  }

  /** The cores a job takes with {@code --capacity}: its whole nodes, or one core. */
  private long need(ServiceRequest req) {
    int nodes = nodes(req.json().get("jobspec"));
    return nodes == 0 ? 1 : (long) nodes * cores;
  }

  /** With {@code --capacity}, a final free gives the job's cores back; otherwise nothing. */
  private void free(ServiceRequest req) {
    if (freeCores < 0) {
      return;
    }
    JsonNode p = req.json();
    if (!p.path("final").asBoolean(true)) {
      return;
    }
    Long n = held.remove(p.path("id").asLong());
    if (n != null) {
      freeCores += n;
      serve();
    }
  }

  private void grant(ServiceRequest req) {
    ObjectNode p = req.json();
    long id = p.get("id").asLong();
    int nodes = nodes(p.get("jobspec"));
    JsonNode fixed = rByNodes.computeIfAbsent(nodes, this::r);
    JsonNode r = fixed;
    byte[] text;
    if (asAScheduler) {
      ObjectNode timed = fixed.deepCopy();
      ((ObjectNode) timed.get("execution")).put("starttime", System.currentTimeMillis() / 1000.0);
      r = timed;
      text = r.toString().getBytes(StandardCharsets.UTF_8);
    } else {
      text =
          textByNodes.computeIfAbsent(
              nodes, n -> fixed.toString().getBytes(StandardCharsets.UTF_8));
    }
    JsonNode answerR = r;
    ObjectNode commit = Json.object().put("namespace", "primary").put("flags", 0);
    ObjectNode op = commit.putArray("ops").addObject();
    op.put("key", "job." + JobId.dothex(id) + ".R").put("flags", 0);
    op.putObject("dirent")
        .put("ver", 1)
        .put("type", "val")
        .put("data", Base64.getEncoder().encodeToString(text));
    h.rpc("kvs.commit", commit)
        .whenComplete(
            (m, e) -> {
              if (e != null) {
                req.fail(5, "kvs.commit failed");
                return;
              }
              ObjectNode answer = Json.object().put("id", id).put("type", 0);
              answer.set("R", answerR);
              if (asAScheduler) {
                answer
                    .putObject("annotations")
                    .putObject("sched")
                    .put("resource_summary", nodes == 0 ? "rank0/core0" : "rank0/core0-1");
              }
              req.respond(answer);
            });
  }

  /** The jobspec's node count (its top-level node resource), 0 when it names none. */
  private static int nodes(JsonNode jobspec) {
    JsonNode top = jobspec.path("resources").path(0);
    if (!"node".equals(top.path("type").asText())) {
      return 0;
    }
    JsonNode count = top.path("count");
    return Math.max(1, count.isObject() ? count.path("min").asInt(1) : count.asInt(1));
  }

  /** The fixed R of a job of {@code nodes} nodes: every core of nodes 0..; one core for 0. */
  private JsonNode r(int nodes) {
    int n = Math.max(1, nodes);
    return ResourceSet.of(
            IdSet.range(0, n - 1),
            nodes == 0 ? IdSet.range(0, 0) : IdSet.range(0, cores - 1),
            IdSet.empty(),
            Hostlist.parse(n == 1 ? "fake0" : "fake[0-" + (n - 1) + "]"))
        .toJson();
  }
}
