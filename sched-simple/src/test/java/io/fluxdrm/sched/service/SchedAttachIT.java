package io.fluxdrm.sched.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.fixture.FakeFluxBroker;
import io.fluxdrm.rpc.fixture.FakeKvs;
import io.fluxdrm.rpc.fixture.Wait;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole attach sequence against the fake Flux broker of rpc's test fixtures, with {@code
 * resource}, {@code job-manager} and {@code kvs} served by another client of the broker:
 * service.add, resource.acquire, hello with a running job whose R comes from kvs.lookup, ready,
 * alloc answered only after kvs.commit of its R, free.
 */
@Timeout(30)
class SchedAttachIT {
  private static final long RUNNING = 22800236544L;
  private static final long NEW = 25266487296L;

  private static String allocated(FluxHandle flux) {
    try {
      Message m = flux.rpc("sched.resource-status", Json.object()).get(5, TimeUnit.SECONDS);
      return ResourceSet.fromJson(m.json().get("allocated")).summary();
    } catch (Exception e) {
      throw new AssertionError("sched.resource-status failed", e);
    }
  }

  /** Serves resource, job-manager (one running job) and kvs as the broker's other modules. */
  private static void serveInstance(
      FluxHandle flux, ResourceSet pool, Map<String, String> kvs, List<String> order)
      throws Exception {
    flux.register(
            Service.builder("resource")
                .onStreaming(
                    "acquire",
                    req -> {
                      order.add("resource.acquire");
                      ObjectNode r = Json.object();
                      r.set("resources", pool.toJson());
                      r.put("up", "0-1");
                      req.respond(r);
                    })
                .build())
        .get(5, TimeUnit.SECONDS);
    flux.register(
            Service.builder("job-manager")
                .onStreaming(
                    "sched-hello",
                    req -> {
                      order.add("hello " + req.json());
                      ObjectNode j = Json.object().put("id", RUNNING).put("priority", 16);
                      j.put("userid", 0).put("t_submit", 1.5);
                      req.respond(j);
                      req.end();
                    })
                .on(
                    "sched-ready",
                    req -> {
                      order.add("ready " + req.json());
                      req.respond(Json.object().put("count", 0));
                    })
                .build())
        .get(5, TimeUnit.SECONDS);
    flux.register(FakeKvs.service(kvs, (method, key) -> order.add("kvs." + method + " " + key)))
        .get(5, TimeUnit.SECONDS);
  }

  /** The instance's handle, the scheduler's handle and its service, once online. */
  private record Attached(FluxHandle flux, FluxHandle sched, SchedService svc) {}

  /** Serves the instance on a handle of its own, then starts an attached scheduler on another. */
  private static Attached attach(
      Reactor reactor,
      FakeFluxBroker broker,
      ResourceSet pool,
      Map<String, String> kvs,
      List<String> order)
      throws Exception {
    FluxHandle flux = FluxHandle.connect(reactor, broker.uri(), Duration.ofSeconds(5));
    serveInstance(flux, pool, kvs, order);
    Attached a = attach(reactor, broker);
    return new Attached(flux, a.sched(), a.svc());
  }

  /** Starts an attached scheduler on a handle of its own and waits until it is online. */
  private static Attached attach(Reactor reactor, FakeFluxBroker broker) throws Exception {
    FluxHandle h = FluxHandle.connect(reactor, broker.uri(), Duration.ofSeconds(5));
    SchedService svc = SchedService.attached().build();
    reactor.execute(() -> svc.start(h));
    Wait.until(Duration.ofSeconds(10), () -> svc.online().isDone());
    return new Attached(null, h, svc);
  }

  @Test
  void attach_wholeSequence_helloFromKvsAndCommitBeforeAnswer(@TempDir Path dir) throws Exception {
    ResourceSet pool =
        ResourceSet.of(
                IdSet.range(0, 1), IdSet.range(0, 3), IdSet.empty(), Hostlist.parse("vm[0-1]"))
            .withProperty("+batch", IdSet.of(1));
    ResourceSet runningR = pool.copyRanks(IdSet.of(0)).withNslots(1).withTimes(10, 0);
    List<String> order = Collections.synchronizedList(new ArrayList<>());
    Map<String, String> kvs = new ConcurrentHashMap<>();
    kvs.put("job.0000.0005.4f00.0000.R", runningR.toString());
    try (FakeFluxBroker broker = FakeFluxBroker.start(dir, FakeFluxBroker.Options.defaults());
        Reactor reactor = Reactor.start("attach-it")) {
      FluxHandle flux = FluxHandle.connect(reactor, broker.uri(), Duration.ofSeconds(5));
      serveInstance(flux, pool, kvs, order);

      FluxHandle schedHandle = FluxHandle.connect(reactor, broker.uri(), Duration.ofSeconds(5));
      SchedService svc = SchedService.attached().build();
      reactor.execute(() -> svc.start(schedHandle));
      Wait.until(Duration.ofSeconds(10), () -> svc.online().isDone());
      assertThat(svc.online()).isCompleted();
      assertThat(broker.hasService("sched")).isTrue();
      assertThat(broker.hasService("feasibility")).isTrue();
      assertThat(order)
          .containsExactly(
              "resource.acquire",
              "hello {\"partial-ok\":true}",
              "kvs.lookup job.0000.0005.4f00.0000.R",
              "ready {\"mode\":\"limited\",\"limit\":8}");
      assertThat(allocated(flux)).isEqualTo("rank0/core[0-3]");

      ObjectNode alloc = Json.object().put("id", NEW).put("priority", 16).put("userid", 0);
      alloc.put("t_submit", 2.0);
      alloc.set("jobspec", SchedulerFacingJobManager.nodes(1, 1, 4));
      Message answer =
          flux.rpc("sched.alloc", alloc)
              .whenComplete((m, e) -> order.add("alloc answered"))
              .get(5, TimeUnit.SECONDS);
      assertThat(order.subList(4, order.size()))
          .containsExactly("kvs.commit job.0000.0005.e200.0000.R", "alloc answered");
      ResourceSet granted = ResourceSet.fromJson(answer.json().get("R"));
      assertThat(granted.summary()).isEqualTo("rank1/core[0-3]");
      assertThat(ResourceSet.parse(kvs.get("job.0000.0005.e200.0000.R"))).isEqualTo(granted);
      assertThat(granted.properties()).as("instance-local + properties stripped").isEmpty();

      ObjectNode free = Json.object().put("id", RUNNING).put("final", true);
      free.set("R", runningR.toJson());
      flux.send("sched.free", free);
      Wait.until(Duration.ofSeconds(10), () -> allocated(flux).equals("rank1/core[0-3]"));
      CompletableFuture.runAsync(() -> svc.core().pool().checkInvariants(), reactor::execute)
          .get(5, TimeUnit.SECONDS);
      schedHandle.close();
      flux.close();
    }
  }

  @Test
  void attach_grow_committedToKvsBeforeAnswerAndKeptAcrossRestart(@TempDir Path dir)
      throws Exception {
    ResourceSet pool =
        ResourceSet.of(
            IdSet.range(0, 1), IdSet.range(0, 3), IdSet.empty(), Hostlist.parse("vm[0-1]"));
    ResourceSet runningR = pool.copyRanks(IdSet.of(0)).withNslots(1).withTimes(10, 0);
    List<String> order = Collections.synchronizedList(new ArrayList<>());
    Map<String, String> kvs = new ConcurrentHashMap<>();
    String key = "job.0000.0005.4f00.0000.R";
    kvs.put(key, runningR.toString());
    try (FakeFluxBroker broker = FakeFluxBroker.start(dir, FakeFluxBroker.Options.defaults());
        Reactor reactor = Reactor.start("attach-grow-it")) {
      Attached a = attach(reactor, broker, pool, kvs, order);
      FluxHandle flux = a.flux();
      FluxHandle first = a.sched();
      order.clear();

      ObjectNode grow = Json.object().put("job_id", RUNNING);
      grow.set("spec_add", SchedulerFacingJobManager.nodes(1, 1, 4));
      Message answer =
          flux.rpc("sched.realloc", grow)
              .whenComplete((m, e) -> order.add("realloc answered"))
              .get(5, TimeUnit.SECONDS);
      assertThat(answer.json().get("type").asInt()).as("SUCCESS").isZero();
      assertThat(order)
          .as("the grown R is in the KVS before the grant is answered")
          .containsExactly("kvs.lookup " + key, "kvs.commit " + key, "realloc answered");
      ResourceSet committed = ResourceSet.parse(kvs.get(key));
      assertThat(committed.summary()).isEqualTo("rank[0-1]/core[0-3]");
      assertThat(committed.starttime()).as("the job's start time is kept").isEqualTo(10.0);
      assertThat(committed.nslots()).isEqualTo(2);

      first.close();
      Wait.until(Duration.ofSeconds(10), () -> !broker.hasService("sched"));
      Attached b = attach(reactor, broker);
      FluxHandle second = b.sched();
      SchedService restarted = b.svc();
      assertThat(allocated(flux))
          .as("a restarted scheduler rebuilds the grown job, so the grown rank is not free")
          .isEqualTo("rank[0-1]/core[0-3]");
      CompletableFuture.runAsync(() -> restarted.core().pool().checkInvariants(), reactor::execute)
          .get(5, TimeUnit.SECONDS);
      second.close();
      flux.close();
    }
  }

  /**
   * D471: a shrink's answer comes after {@code job.<id>.R} lost the released rank, the pool keeps
   * it until {@code sched.free} names it, and a restarted scheduler rebuilds the job without the
   * rank (the disconnect of the free's sender is checked live, in {@code FluxReallocPluginIT}).
   */
  @Test
  void attach_shrink_committedToKvsBeforeAnswerAndKeptAcrossRestart(@TempDir Path dir)
      throws Exception {
    ResourceSet pool =
        ResourceSet.of(
            IdSet.range(0, 1), IdSet.range(0, 3), IdSet.empty(), Hostlist.parse("vm[0-1]"));
    ResourceSet runningR = pool.withNslots(2).withTimes(10, 0);
    List<String> order = Collections.synchronizedList(new ArrayList<>());
    Map<String, String> kvs = new ConcurrentHashMap<>();
    String key = "job.0000.0005.4f00.0000.R";
    kvs.put(key, runningR.toString());
    try (FakeFluxBroker broker = FakeFluxBroker.start(dir, FakeFluxBroker.Options.defaults());
        Reactor reactor = Reactor.start("attach-shrink-it")) {
      Attached a = attach(reactor, broker, pool, kvs, order);
      FluxHandle flux = a.flux();
      FluxHandle first = a.sched();
      assertThat(allocated(flux)).isEqualTo("rank[0-1]/core[0-3]");
      order.clear();

      ResourceSet rank1 = runningR.copyRanks(IdSet.of(1));
      FluxHandle client = FluxHandle.connect(reactor, broker.uri(), Duration.ofSeconds(5));
      ObjectNode shrink = Json.object().put("job_id", RUNNING);
      shrink.set("spec_sub", SchedulerFacingJobManager.nodes(1, 1, 4));
      shrink.set("R", rank1.toJson());
      Message answer =
          client
              .rpc("sched.realloc", shrink)
              .whenComplete((m, e) -> order.add("realloc answered"))
              .get(5, TimeUnit.SECONDS);
      assertThat(answer.json().get("type").asInt()).as("SUCCESS").isZero();
      assertThat(order)
          .as("the shrunk R is in the KVS before the shrink is answered")
          .containsExactly("kvs.lookup " + key, "kvs.commit " + key, "realloc answered");
      ResourceSet committed = ResourceSet.parse(kvs.get(key));
      assertThat(committed.summary()).isEqualTo("rank0/core[0-3]");
      assertThat(committed.starttime()).as("the job's start time is kept").isEqualTo(10.0);
      assertThat(allocated(flux))
          .as("held until sched.free names it")
          .isEqualTo("rank[0-1]/core[0-3]");

      ObjectNode free = Json.object().put("id", RUNNING).put("final", false);
      free.set("R", rank1.toJson());
      client.send("sched.free", free);
      Wait.until(Duration.ofSeconds(10), () -> allocated(flux).equals("rank0/core[0-3]"));
      client.close();

      first.close();
      Wait.until(Duration.ofSeconds(10), () -> !broker.hasService("sched"));
      Attached b = attach(reactor, broker);
      FluxHandle second = b.sched();
      SchedService restarted = b.svc();
      assertThat(allocated(flux))
          .as("a restarted scheduler rebuilds the shrunk job: the released rank stays free")
          .isEqualTo("rank0/core[0-3]");
      second.close();
      flux.close();
    }
  }
}
