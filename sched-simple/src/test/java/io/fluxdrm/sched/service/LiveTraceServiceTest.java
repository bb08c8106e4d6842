package io.fluxdrm.sched.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.MessageType;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.client.MessageTap;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.reactor.ManualEventLoop;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rset.ResourceSet;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The exchanges of the live flux-core 0.88 traces (conformance/flux/live, one node "vm" with two
 * cores) re-expressed as the project's own vectors and run through an attached scheduler on the
 * in-memory hub, with resource, job-manager and kvs served by a test client: the requests the
 * scheduler sends, in order and byte for byte as JSON, and the answers it gives.
 */
@Timeout(10)
class LiveTraceServiceTest {
  private static final String POOL =
      "{\"version\":1,\"execution\":{\"R_lite\":[{\"rank\":\"0\",\"children\":{\"core\":\"0-1\"}}],"
          + "\"starttime\":0.0,\"expiration\":0.0,\"nodelist\":[\"vm\"]}}";
  private static final String RUNNING_R =
      "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"0\", \"children\": {\"core\":"
          + " \"0\"}}], \"starttime\": 1795966044.387459, \"expiration\": 0.0, \"nslots\": 1,"
          + " \"nodelist\": [\"vm\"]}}";

  private final ManualEventLoop loop = new ManualEventLoop();
  private int peers = 1;
  private final Hub hub = new Hub(loop, () -> "peer-" + peers++);
  private final List<String> sent = new ArrayList<>();
  private final List<String> committed = new ArrayList<>();
  private SchedService svc;
  private FluxHandle flux;

  private void attach(List<ObjectNode> running) {
    flux = hub.attach(Credentials.owner(0));
    flux.register(
        Service.builder("resource")
            .onStreaming(
                "acquire",
                r -> {
                  ObjectNode p = Json.object();
                  p.set("resources", read(POOL));
                  p.put("up", "0");
                  r.respond(p);
                })
            .build());
    flux.register(
        Service.builder("job-manager")
            .onStreaming(
                "sched-hello",
                r -> {
                  running.forEach(r::respond);
                  r.end();
                })
            .on("sched-ready", r -> r.respond(Json.object().put("count", 1)))
            .build());
    flux.register(
        Service.builder("kvs")
            .on(
                "lookup",
                r -> {
                  ObjectNode v = Json.object();
                  v.putObject("val")
                      .put("ver", 1)
                      .put("type", "val")
                      .put(
                          "data",
                          Base64.getEncoder()
                              .encodeToString(RUNNING_R.getBytes(StandardCharsets.UTF_8)));
                  r.respond(v);
                })
            .on(
                "commit",
                r -> {
                  committed.add(r.json().get("ops").get(0).get("key").asText());
                  r.respond(Json.object().put("rootref", "sha1-0").put("rootseq", 6));
                })
            .build());
    loop.runPending();
    FluxHandle h = hub.attach(Credentials.owner(0));
    h.tap(
        (d, m) -> {
          if (d == MessageTap.Direction.OUT && m.type() == MessageType.REQUEST) {
            sent.add(m.topic() + " " + (m.payload() == null ? "" : m.json().toString()));
          }
        });
    svc = SchedService.attached().clock(() -> 1795966037.7357202).build();
    CompletableFuture<Void> started = svc.start(h);
    loop.runPending();
    assertThat(started).isCompleted();
  }

  private static ObjectNode read(String json) {
    try {
      return (ObjectNode) Json.mapper().readTree(json);
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @AfterEach
  void invariants() {
    svc.core().pool().checkInvariants();
  }

  private static ObjectNode jobspec(String resources, double duration) {
    return read(
        "{\"resources\":"
            + resources
            + ",\"tasks\":[{\"command\":[\"true\"],\"slot\":\"task\",\"count\":{\"per_slot\":1}}],"
            + "\"attributes\":{\"system\":{\"duration\":"
            + duration
            + ",\"cwd\":\"/tmp/fluxpeer\"}},\"version\":1}");
  }

  private CompletableFuture<Message> alloc(long id, ObjectNode jobspec) {
    ObjectNode p = Json.object().put("id", id).put("priority", 16).put("userid", 0);
    p.put("t_submit", 1795966037.7124448);
    p.set("jobspec", jobspec);
    CompletableFuture<Message> f = flux.rpc("sched.alloc", p);
    loop.runPending();
    return f;
  }

  /** rfc27-trace-1: an alloc granted after kvs.commit, its free, an unsatisfiable alloc. */
  @Test
  void trace1_allocFreeDeny_payloadsAsFluxCore() {
    attach(List.of());
    CompletableFuture<Message> a =
        alloc(
            22800236544L,
            jobspec(
                "[{\"type\":\"node\",\"count\":1,\"with\":[{\"type\":\"slot\",\"count\":2,"
                    + "\"with\":[{\"type\":\"core\",\"count\":1}],\"label\":\"task\"}]}]",
                60.0));
    assertThat(committed).containsExactly("job.0000.0005.4f00.0000.R");
    assertThat(a.join().json())
        .isEqualTo(
            read(
                "{\"id\":22800236544,\"type\":0,\"R\":{\"version\":1,\"execution\":{\"R_lite\":"
                    + "[{\"rank\":\"0\",\"children\":{\"core\":\"0-1\"}}],"
                    + "\"nslots\":2,\"starttime\":1795966037.7357202,"
                    + "\"expiration\":1795966097.7357202,\"nodelist\":[\"vm\"]}},"
                    + "\"annotations\":{\"sched\":{\"resource_summary\":\"rank0/core[0-1]\"}}}"));
    ObjectNode free = Json.object().put("id", 22800236544L).put("final", true);
    free.set("R", a.join().json().get("R"));
    flux.send("sched.free", free);
    loop.runPending();
    CompletableFuture<Message> d =
        alloc(
            25266487296L,
            jobspec(
                "[{\"type\":\"slot\",\"count\":1,\"with\":[{\"type\":\"core\",\"count\":3}],"
                    + "\"label\":\"task\"}]",
                0));
    assertThat(d.join().json().toString())
        .isEqualTo(
            "{\"id\":25266487296,\"type\":2,\"note\":\"unsatisfiable request: need 1 slot(s) of 3"
                + " core(s), only 0 such slot(s) available (total cores: 2)\"}");
    assertThat(ResourceSet.fromJson(read(POOL)).summary())
        .isEqualTo(svc.core().pool().free().summary());
  }

  /**
   * rfc27-trace-2: a restart with one running job: the scheduler's requests in the live order and
   * shapes (after D473's reset), the job's R from kvs.lookup, then an alloc that must wait for the
   * busy core.
   */
  @Test
  void trace2_restartWithRunningJob_requestsInLiveOrder() {
    ObjectNode job = Json.object().put("id", 6375342080L).put("priority", 16).put("userid", 0);
    job.put("t_submit", 1795966044.364176);
    attach(List.of(job));
    // first fluxdrm's own job-manager.realloc_reset (D473, not RFC 27: not in sched-simple's
    // trace), then the live trace's requests in its order
    assertThat(sent)
        .containsExactly(
            "job-manager.realloc_reset {}",
            "service.add {\"service\":\"sched\"}",
            "service.add {\"service\":\"feasibility\"}",
            "resource.acquire ",
            "job-manager.sched-hello {\"partial-ok\":true}",
            "kvs.lookup {\"key\":\"job.0000.0001.7c00.0000.R\",\"namespace\":\"primary\",\"flags\":0}",
            "job-manager.sched-ready {\"mode\":\"limited\",\"limit\":8}");
    assertThat(svc.core().pool().allocated().summary()).isEqualTo("rank0/core0");
    CompletableFuture<Message> a =
        alloc(
            8489271296L,
            jobspec(
                "[{\"type\":\"slot\",\"count\":2,\"with\":[{\"type\":\"core\",\"count\":1}],"
                    + "\"label\":\"task\"}]",
                0));
    assertThat(a).isNotDone();
    assertThat(svc.core().pendingAllocs()).containsExactly(8489271296L);
  }
}
