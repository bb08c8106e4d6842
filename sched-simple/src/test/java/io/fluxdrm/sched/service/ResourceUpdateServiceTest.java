package io.fluxdrm.sched.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.reactor.ManualEventLoop;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rpc.service.ServiceRequest;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * RFC 28 {@code resource.acquire} updates of an attached scheduler, as steps over the in-memory
 * hub: a fake {@code resource} service streams {@code shrink}, {@code down}, {@code up}, {@code
 * expiration}, {@code property-add} and {@code property-remove} responses, a fake job manager sends
 * allocs and frees; the pool's invariants are checked after every step.
 */
@Timeout(10)
class ResourceUpdateServiceTest {
  private final ManualEventLoop loop = new ManualEventLoop();
  private int peers = 1;
  private final Hub hub = new Hub(loop, () -> "peer-" + peers++);
  private final FluxHandle flux = hub.attach(Credentials.owner(0));
  private ServiceRequest acquire;
  private SchedService svc;

  /** node[0-2], ranks 0-2, two cores each, rank 2 with property "big". */
  private static final ResourceSet POOL =
      ResourceSet.of(
              IdSet.range(0, 2), IdSet.range(0, 1), IdSet.empty(), Hostlist.parse("node[0-2]"))
          .withProperty("big", IdSet.of(2));

  private void start() {
    flux.register(
        Service.builder("resource")
            .onStreaming(
                "acquire",
                r -> {
                  acquire = r;
                  ObjectNode p = Json.object();
                  p.set("resources", POOL.toJson());
                  p.put("up", "0-2");
                  r.respond(p);
                })
            .build());
    flux.register(
        Service.builder("job-manager")
            .onStreaming("sched-hello", ServiceRequest::end)
            .on("sched-ready", r -> r.respond(Json.object().put("count", 0)))
            .build());
    flux.register(
        Service.builder("kvs")
            .on("commit", r -> r.respond(Json.object().put("rootref", "x").put("rootseq", 1)))
            .build());
    loop.runPending();
    svc = SchedService.attached().clock(() -> 1000.0).build();
    CompletableFuture<Void> started = svc.start(hub.attach(Credentials.owner(0)));
    loop.runPending();
    assertThat(started).isCompleted();
    step();
  }

  /** Streams one {@code resource.acquire} update. */
  private void update(String json) {
    acquire.respond(read(json));
    step();
  }

  private void step() {
    loop.runPending();
    svc.core().pool().checkInvariants();
  }

  private CompletableFuture<Message> alloc(long id, ObjectNode jobspec) {
    ObjectNode p = Json.object().put("id", id).put("priority", 16).put("userid", 0);
    p.put("t_submit", 1.0);
    p.set("jobspec", jobspec);
    CompletableFuture<Message> f = flux.rpc("sched.alloc", p);
    step();
    return f;
  }

  private void free(long id, Message granted) {
    ObjectNode p = Json.object().put("id", id).put("final", true);
    p.set("R", granted.json().get("R"));
    flux.send("sched.free", p);
    step();
  }

  private static ObjectNode read(String json) {
    try {
      return (ObjectNode) Json.mapper().readTree(json);
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private ObjectNode status() {
    CompletableFuture<Message> f = flux.rpc("sched.resource-status", null);
    step();
    return f.join().json();
  }

  private static String summary(ObjectNode status, String key) {
    return ResourceSet.fromJson(status.get(key)).summary();
  }

  @Test
  void shrink_heldRanksStayWithJobsUntilFree_thenLeaveThePool() {
    start();
    CompletableFuture<Message> a1 = alloc(1, SchedulerFacingJobManager.nodes(1, 1, 2));
    assertThat(a1.join().json().at("/annotations/sched/resource_summary").asText())
        .isEqualTo("rank0/core[0-1]");
    // shrink wins over down: ranks 0-1 are removed, rank 0's cores stay with job 1
    update("{\"down\":\"0-1\",\"shrink\":\"0-1\"}");
    assertThat(svc.core().pool().removedRanks()).isEqualTo(IdSet.range(0, 1));
    assertThat(svc.core().pool().allocation(1).orElseThrow().summary())
        .isEqualTo("rank0/core[0-1]");
    ObjectNode st = status();
    assertThat(summary(st, "all")).isEqualTo("rank[0,2]/core[0-1]");
    assertThat(summary(st, "allocated")).isEqualTo("rank0/core[0-1]");
    assertThat(summary(st, "down")).isEmpty();
    CompletableFuture<Message> a2 = alloc(2, SchedulerFacingJobManager.nodes(1, 1, 2));
    assertThat(a2.join().json().at("/annotations/sched/resource_summary").asText())
        .isEqualTo("rank2/core[0-1]");
    CompletableFuture<Message> a3 = alloc(3, SchedulerFacingJobManager.nodes(1, 1, 2));
    assertThat(a3).isNotDone();
    // job 1 gives rank 0 back: it leaves the pool, job 3 is not placed there
    free(1, a1.join());
    assertThat(a3).isNotDone();
    assertThat(summary(status(), "all")).isEqualTo("rank2/core[0-1]");
    assertThat(svc.core().pool().free().isEmpty()).isTrue();
    // a request for two nodes can no longer be satisfied
    CompletableFuture<Message> a4 = alloc(4, SchedulerFacingJobManager.nodes(2, 1, 1));
    assertThat(a3).isNotDone();
    free(2, a2.join());
    assertThat(a3.join().json().at("/annotations/sched/resource_summary").asText())
        .isEqualTo("rank2/core[0-1]");
    assertThat(a4.join().json().get("note").asText())
        .isEqualTo("unsatisfiable request: need 2 node(s) with 1 cores each, only 1 eligible");
  }

  @Test
  void up_ofRemovedRank_isRefusedAndChangesNothing() {
    start();
    update("{\"shrink\":\"1\"}");
    update("{\"up\":\"1\"}");
    assertThat(svc.core().pool().removedRanks()).isEqualTo(IdSet.of(1));
    assertThat(summary(status(), "all")).isEqualTo("rank[0,2]/core[0-1]");
    CompletableFuture<Message> a = alloc(1, SchedulerFacingJobManager.nodes(3, 1, 1));
    assertThat(a.join().json().get("type").asInt()).isEqualTo(2);
  }

  @Test
  void expiration_givesJobsWithoutDurationTheInstanceExpiration() {
    start();
    CompletableFuture<Message> a0 = alloc(1, SchedulerFacingJobManager.slots(1, 1, 0));
    assertThat(a0.join().json().at("/R/execution/expiration").asDouble()).isEqualTo(0.0);
    update("{\"expiration\":5000.5}");
    assertThat(
            alloc(2, SchedulerFacingJobManager.slots(1, 1, 0))
                .join()
                .json()
                .at("/R/execution/expiration")
                .asDouble())
        .isEqualTo(5000.5);
    assertThat(
            alloc(3, SchedulerFacingJobManager.slots(1, 1, 60))
                .join()
                .json()
                .at("/R/execution/expiration")
                .asDouble())
        .isEqualTo(1060.0);
    assertThat(ResourceSet.fromJson(status().get("all")).expiration()).isEqualTo(5000.5);
    // a negative expiration is refused and changes nothing
    update("{\"expiration\":-1}");
    assertThat(svc.core().pool().expiration()).isEqualTo(5000.5);
  }

  @Test
  void properties_addAndRemove_changeConstraintsAndJobR() {
    start();
    ObjectNode fast = SchedulerFacingJobManager.nodes(1, 1, 1);
    ((ObjectNode) fast.get("attributes").get("system"))
        .set("constraints", read("{\"properties\":[\"fast\"]}"));
    // no rank has "fast": infeasible
    assertThat(alloc(1, fast.deepCopy()).join().json().get("note").asText())
        .startsWith("unsatisfiable request");
    update("{\"property-add\":{\"fast\":\"1\"}}");
    Message granted = alloc(2, fast.deepCopy()).join();
    assertThat(granted.json().at("/annotations/sched/resource_summary").asText())
        .isEqualTo("rank1/core0");
    assertThat(ResourceSet.fromJson(granted.json().get("R")).properties()).containsOnlyKeys("fast");
    update("{\"property-remove\":{\"big\":\"2\",\"fast\":\"1\"}}");
    assertThat(ResourceSet.fromJson(status().get("all")).properties()).isEmpty();
    assertThat(alloc(3, fast.deepCopy()).join().json().get("type").asInt()).isEqualTo(2);
    // a property of a rank outside the pool is refused and changes nothing
    update("{\"property-add\":{\"fast\":\"7\"}}");
    assertThat(ResourceSet.fromJson(status().get("all")).properties()).isEmpty();
  }
}
