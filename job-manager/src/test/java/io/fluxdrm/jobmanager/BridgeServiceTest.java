package io.fluxdrm.jobmanager;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.reactor.ManualEventLoop;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.service.SchedService;
import io.fluxdrm.testkit.JobspecBuilder;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The {@code bridge} service of {@code fluxdrm bridge} with the real job manager and sched-simple
 * on one in-memory hub driven by a manual loop: submit and finish, and every refusal.
 */
class BridgeServiceTest {
  private static final int OWNER = 100;
  private static final int ALICE = 1000;

  private final ManualEventLoop loop = new ManualEventLoop();
  private final Hub hub = new Hub(loop);
  private JobManager jm;
  private FluxHandle owner;

  private void start(Path dir, boolean withScheduler) {
    jm = JobManager.create(dir, () -> 1000.0);
    FluxHandle jmHandle = hub.attach(Credentials.owner(OWNER));
    jm.start(jmHandle);
    jmHandle.register(new BridgeService(jm, loop).service());
    loop.runPending();
    if (withScheduler) {
      ResourceSet pool =
          ResourceSet.of(
              IdSet.range(0, 1), IdSet.range(0, 3), IdSet.empty(), Hostlist.parse("node[0-1]"));
      SchedService.standalone(pool).build().start(hub.attach(Credentials.owner(OWNER)));
      loop.runPending();
      assertThat(jm.schedulerOnline()).isTrue();
    }
    owner = hub.attach(Credentials.owner(OWNER));
  }

  private Message call(FluxHandle h, String topic, ObjectNode p) {
    CompletableFuture<Message> f = h.rpc(topic, p);
    loop.runPending();
    assertThat(f).as("answered").isDone();
    return f.join();
  }

  private RpcException refused(FluxHandle h, String topic, ObjectNode p) {
    try {
      Message m = call(h, topic, p);
      throw new AssertionError("answered " + m.json());
    } catch (CompletionException e) {
      return (RpcException) e.getCause();
    }
  }

  private String allocated() {
    Message m = call(owner, "sched.resource-status", Json.object());
    return ResourceSet.fromJson(m.json().get("allocated")).summary();
  }

  @Test
  void submitFinish_validJob_allocatedThenFreed(@TempDir Path dir) {
    start(dir, true);
    FluxHandle alice = hub.attach(Credentials.user(ALICE));
    ObjectNode a =
        call(
                alice,
                "bridge.submit",
                Json.object()
                    .set("jobspec", JobspecBuilder.jobspec().nodes(1).exclusive().toTree()))
            .json();
    assertThat(a.get("id").asLong()).isEqualTo(1);
    assertThat(a.get("userid").asInt()).isEqualTo(ALICE);
    assertThat(ResourceSet.fromJson(a.get("R")).summary()).isEqualTo("rank0/core[0-3]");
    assertThat(allocated()).isEqualTo("rank0/core[0-3]");

    assertThat(call(owner, "bridge.finish", Json.object().put("id", 1)).json().toString())
        .isEqualTo("{}");
    assertThat(jm.jobR(1)).isEmpty();
    assertThat(allocated()).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          submit no jobspec      | bridge.submit | {}                       | 71 | bridge.submit: /jobspec: missing (expected: a jobspec object)
          submit number jobspec  | bridge.submit | {"jobspec":1}            | 71 | bridge.submit: /jobspec: number (expected: a jobspec object)
          submit unknown key     | bridge.submit | {"jobspec":{},"queue":1} | 71 | bridge.submit: /queue: unknown key (expected: jobspec)
          submit too big         | bridge.submit | BIG                      | 22 | bridge.submit: sched.alloc 1: denied: unsatisfiable request
          finish no id           | bridge.finish | {}                       | 71 | bridge.finish: /id: missing (expected: an integer from 0 to 18446744073709551615)
          finish negative id     | bridge.finish | {"id":-1}                | 71 | bridge.finish: /id: -1 (expected: an integer from 0 to 18446744073709551615)
          finish unknown key     | bridge.finish | {"id":1,"x":0}           | 71 | bridge.finish: /x: unknown key (expected: id)
          finish unknown job     | bridge.finish | {"id":7}                 | 2  | bridge.finish: finish 7: unknown job (expected: a running job)
          """)
  void call_badInput_refusedNothingChanges(
      String name, String topic, String payload, int errnum, String text, @TempDir Path dir)
      throws Exception {
    start(dir, true);
    ObjectNode p =
        payload.equals("BIG")
            ? Json.object().set("jobspec", JobspecBuilder.jobspec().nodes(3).exclusive().toTree())
            : (ObjectNode) new ObjectMapper().readTree(payload);
    RpcException e = refused(owner, topic, p);
    assertThat(e.errnum()).as(e.getMessage()).isEqualTo(errnum);
    assertThat(e.getMessage()).startsWith(text);
    assertThat(allocated()).isEmpty();
  }

  @Test
  void submit_schedulerNotOnline_eagain(@TempDir Path dir) {
    start(dir, false);
    RpcException e =
        refused(
            owner,
            "bridge.submit",
            Json.object().set("jobspec", JobspecBuilder.jobspec().nodes(1).exclusive().toTree()));
    assertThat(e.errnum()).isEqualTo(BridgeService.EAGAIN);
    assertThat(e.getMessage())
        .isEqualTo(
            "bridge.submit: scheduler not online yet (expected: retry after its sched-ready)");
  }

  @Test
  void finish_notOwner_eperm(@TempDir Path dir) {
    start(dir, true);
    FluxHandle alice = hub.attach(Credentials.user(ALICE));
    call(
        alice,
        "bridge.submit",
        Json.object().set("jobspec", JobspecBuilder.jobspec().nodes(1).exclusive().toTree()));
    RpcException e = refused(alice, "bridge.finish", Json.object().put("id", 1));
    assertThat(e.errnum()).isEqualTo(Errno.EPERM);
    assertThat(e.getMessage())
        .isEqualTo(
            "bridge.finish: user 1000 is not the instance owner (expected: the owner ends jobs)");
    assertThat(allocated()).isEqualTo("rank0/core[0-3]");
  }

  @Test
  void list_runningJobs_idUserRAndReleasing(@TempDir Path dir) {
    start(dir, true);
    FluxHandle alice = hub.attach(Credentials.user(ALICE));
    call(
        alice,
        "bridge.submit",
        Json.object().set("jobspec", JobspecBuilder.jobspec().nodes(1).exclusive().toTree()));
    call(
        owner,
        "bridge.submit",
        Json.object().set("jobspec", JobspecBuilder.jobspec().nodes(1).exclusive().toTree()));
    com.fasterxml.jackson.databind.JsonNode jobs =
        call(owner, "bridge.list", Json.object()).json().get("jobs");
    assertThat(jobs).hasSize(2);
    for (int k = 0; k < 2; k++) {
      com.fasterxml.jackson.databind.JsonNode j = jobs.get(k);
      assertThat(j.get("id").asLong()).isEqualTo(k + 1);
      assertThat(j.get("userid").asInt()).isEqualTo(k == 0 ? ALICE : OWNER);
      assertThat(ResourceSet.fromJson(j.get("R")).summary()).isEqualTo("rank" + k + "/core[0-3]");
      assertThat(ResourceSet.fromJson(j.get("releasing")).isEmpty()).isTrue();
    }
    call(owner, "bridge.finish", Json.object().put("id", 1));
    assertThat(call(owner, "bridge.list", Json.object()).json().get("jobs"))
        .extracting(j -> j.get("id").asLong())
        .containsExactly(2L);
  }

  @Test
  void list_notOwnerOrBadPayload_refused(@TempDir Path dir) {
    start(dir, true);
    FluxHandle alice = hub.attach(Credentials.user(ALICE));
    RpcException e = refused(alice, "bridge.list", Json.object());
    assertThat(e.errnum()).isEqualTo(Errno.EPERM);
    assertThat(e.getMessage())
        .isEqualTo(
            "bridge.list: user 1000 is not the instance owner (expected: the owner lists jobs)");
    RpcException bad = refused(owner, "bridge.list", Json.object().put("all", true));
    assertThat(bad.errnum()).isEqualTo(Errno.EPROTO);
    assertThat(bad.getMessage()).isEqualTo("bridge.list: /all: unknown key (expected: no keys)");
  }
}
