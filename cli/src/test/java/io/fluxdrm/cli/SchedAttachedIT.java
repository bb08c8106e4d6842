package io.fluxdrm.cli;

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
 * {@code fluxdrm sched --flux-uri local://PATH} as a real process against rpc's {@link
 * FakeFluxBroker} (which speaks a live broker's bytes) running in the test JVM, with {@code
 * resource}, {@code job-manager} and {@code kvs} served here. sched-simple's in-JVM {@code
 * SchedAttachIT} proves the service's attach sequence; this test proves the program: the command
 * line reaches the service ({@code --queue-depth}, {@code --no-realloc}), the attach sequence runs
 * in order across processes, decisions are logged on stderr, a second scheduler on the same
 * instance and a broker that is not there fail with one line and status 1, and SIGTERM ends the
 * process with status 143 and its services leave the broker.
 */
@Timeout(180)
class SchedAttachedIT {
  private static final long RUNNING = 22800236544L;
  private static final long NEW = 25266487296L;
  private static final Duration WAIT = Duration.ofSeconds(60);

  /** The instance's side: resource, job-manager and kvs services, recording what they serve. */
  private static final class Instance {
    final ResourceSet pool =
        ResourceSet.of(
                IdSet.range(0, 1), IdSet.range(0, 3), IdSet.empty(), Hostlist.parse("vm[0-1]"))
            .withProperty("+batch", IdSet.of(1));
    final ResourceSet runningR = pool.copyRanks(IdSet.of(0)).withNslots(1).withTimes(10, 0);
    final List<String> order = Collections.synchronizedList(new ArrayList<>());
    final Map<String, String> kvs = new ConcurrentHashMap<>();
    final CompletableFuture<Void> ready = new CompletableFuture<>();
    final FluxHandle h;

    Instance(Reactor reactor, FakeFluxBroker broker) throws Exception {
      kvs.put("job.0000.0005.4f00.0000.R", runningR.toString());
      h = FluxHandle.connect(reactor, broker.uri(), Duration.ofSeconds(10));
      h.register(
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
          .get(10, TimeUnit.SECONDS);
      h.register(
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
                        ready.complete(null);
                      })
                  .build())
          .get(10, TimeUnit.SECONDS);
      h.register(FakeKvs.service(kvs, (method, key) -> order.add("kvs." + method + " " + key)))
          .get(10, TimeUnit.SECONDS);
    }

    Message call(String topic, ObjectNode p) throws Exception {
      return h.rpc(topic, p).get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    String allocated() {
      try {
        return ResourceSet.fromJson(
                call("sched.resource-status", Json.object()).json().get("allocated"))
            .summary();
      } catch (Exception e) {
        throw new AssertionError("sched.resource-status failed", e);
      }
    }
  }

  @Test
  void sched_fluxUri_attachAllocNoReallocFreeSecondSchedulerRefusedSigterm(@TempDir Path dir)
      throws Exception {
    try (FakeFluxBroker broker =
            FakeFluxBroker.start(dir.resolve("broker"), FakeFluxBroker.Options.defaults());
        Reactor reactor = Reactor.start("sched-attached-it")) {
      Instance inst = new Instance(reactor, broker);
      try (SchedProcess p =
          SchedProcess.start(
              dir, "sched", "--flux-uri", broker.uri(), "--queue-depth", "4", "--no-realloc")) {
        inst.ready.get(SchedProcess.SLOW.toSeconds(), TimeUnit.SECONDS);
        assertThat(broker.hasService("sched")).isTrue();
        assertThat(broker.hasService("feasibility")).isTrue();
        assertThat(inst.order)
            .containsExactly(
                "resource.acquire",
                "hello {\"partial-ok\":true}",
                "kvs.lookup job.0000.0005.4f00.0000.R",
                "ready {\"mode\":\"limited\",\"limit\":4}");
        assertThat(inst.allocated()).isEqualTo("rank0/core[0-3]");

        // alloc: answered only after kvs.commit of the job's R, + properties stripped
        ObjectNode alloc = ItJobManager.alloc(NEW, Jobspecs.nodes(1, 4, false));
        alloc.put("userid", 0);
        Message answer =
            inst.h
                .rpc("sched.alloc", alloc)
                .whenComplete((m, e) -> inst.order.add("alloc answered"))
                .get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(inst.order.subList(4, inst.order.size()))
            .containsExactly("kvs.commit job.0000.0005.e200.0000.R", "alloc answered");
        ResourceSet granted = ResourceSet.fromJson(answer.json().get("R"));
        assertThat(granted.summary()).isEqualTo("rank1/core[0-3]");
        assertThat(ResourceSet.parse(inst.kvs.get("job.0000.0005.e200.0000.R"))).isEqualTo(granted);
        assertThat(granted.properties()).isEmpty();

        // --no-realloc reached the service: UNSUPPORTED (3) at once
        ObjectNode grow = Json.object().put("job_id", NEW);
        grow.set("spec_add", Jobspecs.nodes(1, 4, false));
        Message g = inst.call("sched.realloc", grow);
        assertThat(g.json().get("type").asInt()).as("%s", g.json()).isEqualTo(3);

        // a second scheduler on the same instance: refused, one line, status 1; the first stays
        try (SchedProcess second = SchedProcess.start(dir, "second", "--flux-uri", broker.uri())) {
          assertThat(second.awaitExit()).isEqualTo(1);
          String err = second.stderr();
          assertThat(err.lines().filter(l -> l.startsWith("fluxdrm sched: ")).toList())
              .as(err)
              .containsExactly(
                  "fluxdrm sched: --flux-uri "
                      + broker.uri()
                      + ": service.add: EEXIST (expected: no other scheduler on the instance;"
                      + " flux module remove sched-simple first)");
          assertThat(err).doesNotContain("Exception").doesNotContain("\tat ");
        }
        assertThat(broker.hasService("sched")).isTrue();

        // free of the running job: its rank comes back
        ObjectNode free = Json.object().put("id", RUNNING).put("final", true);
        free.set("R", inst.runningR.toJson());
        inst.h.send("sched.free", free);
        Wait.until(WAIT, () -> inst.allocated().equals("rank1/core[0-3]"));

        assertThat(p.terminate()).isEqualTo(SchedTcpIT.EXIT_SIGTERM);
        Wait.until(WAIT, () -> !broker.hasService("sched") && !broker.hasService("feasibility"));
        String log = p.stderr();
        assertThat(log)
            .containsPattern("resource\\.acquire: pool rank\\[0-1\\]/core\\[0-3\\] up 0-1")
            .containsPattern("hello ƒ\\S+: rank0/core\\[0-3\\]")
            .containsPattern("alloc ƒ\\S+: rank1/core\\[0-3\\]")
            .containsPattern("realloc ƒ\\S+ alloc_id=\\d+: UNSUPPORTED")
            .containsPattern("free ƒ\\S+: rank0/core\\[0-3\\] \\(final\\)")
            .contains("stopping");
        assertThat(log).doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(p.stdout()).isEmpty();
      }
      inst.h.close();
    }
  }

  @Test
  void sched_fluxUriWithoutBroker_oneLineExit1(@TempDir Path dir) throws Exception {
    String uri = "local://" + dir.resolve("no-broker");
    try (SchedProcess p = SchedProcess.start(dir, "sched", "--flux-uri", uri)) {
      assertThat(p.awaitExit()).isEqualTo(1);
      List<String> lines = p.stderr().lines().toList();
      assertThat(lines).hasSize(1);
      assertThat(lines.get(0))
          .isEqualTo(
              "fluxdrm sched: --flux-uri "
                  + uri
                  + ": no server listens there (the socket "
                  + dir.resolve("no-broker")
                  + " does not exist) (expected: a Flux broker there)");
      assertThat(p.stdout()).isEmpty();
    }
  }
}
