package io.fluxdrm.sched.service;

import static io.fluxdrm.sched.service.SchedFixture.answer;
import static io.fluxdrm.sched.service.SchedFixture.error;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.QueueDepth;
import io.fluxdrm.sched.SchedulerOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The scheduler service over the in-memory hub: the RFC 27 handshake and flow as flux-core's job
 * manager drives it, payload shapes, bad requests, the job manager coming and going.
 */
@Timeout(10)
class SchedServiceTest {

  private SchedFixture fx;

  private SchedulerFacingJobManager online(ResourceSet pool, SchedulerOptions options) {
    fx = new SchedFixture(pool, options);
    SchedulerFacingJobManager jm = fx.jobManager();
    fx.start();
    assertThat(fx.svc.link()).isEqualTo(SchedService.LinkState.ONLINE);
    return jm;
  }

  @AfterEach
  void invariants() {
    if (fx != null && fx.svc.core() != null) {
      fx.checkInvariants();
    }
  }

  /** free, allocated, pending allocs, pending reallocs: what a refused request must not change. */
  private String state() {
    var core = fx.svc.core();
    return core.pool().free().summary()
        + " | "
        + core.pool().allocated().summary()
        + " | "
        + core.pendingAllocs()
        + " | "
        + core.pendingReallocs();
  }

  private static String summary(CompletableFuture<Message> f) {
    ObjectNode a = answer(f);
    assertThat(a.path("type").asInt()).as("type of %s", a).isZero();
    return a.path("annotations").path("sched").path("resource_summary").asText();
  }

  @Test
  void start_jobManagerPresent_helloThenReadyLimited8() {
    SchedulerFacingJobManager jm = online(SchedFixture.pool(2, 2), SchedulerOptions.defaults());
    assertThat(jm.hellos).isEqualTo(1);
    assertThat(jm.readies).hasSize(1);
    assertThat(jm.readies.get(0).toString()).isEqualTo("{\"mode\":\"limited\",\"limit\":8}");
    assertThat(fx.svc.online()).isCompleted();
  }

  @Test
  void start_unlimited_readyUnlimited() {
    SchedulerFacingJobManager jm =
        online(
            SchedFixture.pool(1, 2),
            SchedulerOptions.defaults().withQueueDepth(QueueDepth.unlimited()));
    assertThat(jm.readies.get(0).toString()).isEqualTo("{\"mode\":\"unlimited\"}");
  }

  @Test
  void alloc_granted_responseHasRTimesNslotsAndSummary() {
    SchedulerFacingJobManager jm = online(SchedFixture.pool(1, 2), SchedulerOptions.defaults());
    fx.advance(Duration.ofSeconds(5));
    CompletableFuture<Message> f =
        jm.alloc(22800236544L, SchedulerFacingJobManager.nodes(1, 2, 1).put("x", 0));
    fx.settle();
    ObjectNode a = answer(f);
    assertThat(a.get("id").asLong()).isEqualTo(22800236544L);
    assertThat(a.get("type").asInt()).isZero();
    JsonNode exec = a.get("R").get("execution");
    assertThat(exec.get("R_lite").toString())
        .isEqualTo("[{\"rank\":\"0\",\"children\":{\"core\":\"0-1\"}}]");
    assertThat(exec.get("nslots").asInt()).isEqualTo(2);
    assertThat(exec.get("starttime").asDouble()).isEqualTo(1005.0);
    assertThat(exec.get("expiration").asDouble()).isEqualTo(0.0);
    assertThat(exec.get("nodelist").toString()).isEqualTo("[\"node0\"]");
    assertThat(a.get("annotations").toString())
        .isEqualTo("{\"sched\":{\"resource_summary\":\"rank0/core[0-1]\"}}");
  }

  @Test
  void alloc_withDuration_expirationIsStartPlusDuration() {
    SchedulerFacingJobManager jm = online(SchedFixture.pool(1, 2), SchedulerOptions.defaults());
    CompletableFuture<Message> f = jm.alloc(1, SchedulerFacingJobManager.slots(1, 1, 60.0));
    fx.settle();
    JsonNode exec = answer(f).get("R").get("execution");
    assertThat(exec.get("expiration").asDouble() - exec.get("starttime").asDouble())
        .isEqualTo(60.0);
  }

  /** flux-core t2300 items 9-11 on rank[0-1]/core[0-1]. */
  @Test
  void t2300_fiveOneCoreJobs_worstFitThenCancelThenReuse() {
    SchedulerFacingJobManager jm = online(SchedFixture.pool(2, 2), SchedulerOptions.defaults());
    List<CompletableFuture<Message>> f = new ArrayList<>();
    for (int id = 1; id <= 5; id++) {
      f.add(jm.alloc(id, SchedulerFacingJobManager.slots(1, 1, 0)));
    }
    fx.settle();
    assertThat(List.of(summary(f.get(0)), summary(f.get(1)), summary(f.get(2)), summary(f.get(3))))
        .containsExactly("rank0/core0", "rank1/core0", "rank0/core1", "rank1/core1");
    assertThat(f.get(4)).isNotDone();
    assertThat(fx.svc.core().pool().free().isEmpty()).isTrue();
    ResourceSet r3 = ResourceSet.fromJson(answer(f.get(2)).get("R"));
    jm.free(3, r3, true);
    fx.settle();
    assertThat(summary(f.get(4))).isEqualTo("rank0/core1");
  }

  @Test
  void cancel_pendingAlloc_answeredCancelAndCancelItselfUnanswered() {
    SchedulerFacingJobManager jm = online(SchedFixture.pool(1, 1), SchedulerOptions.defaults());
    CompletableFuture<Message> a1 = jm.alloc(1, SchedulerFacingJobManager.slots(1, 1, 0));
    CompletableFuture<Message> a2 = jm.alloc(2, SchedulerFacingJobManager.slots(1, 1, 0));
    fx.settle();
    assertThat(a2).isNotDone();
    jm.cancel(2);
    fx.settle();
    assertThat(answer(a2).toString()).isEqualTo("{\"id\":2,\"type\":3}");
    assertThat(summary(a1)).isEqualTo("rank0/core0");
    assertThat(fx.svc.core().pendingAllocs()).isEmpty();
  }

  /** Allocs of one jobspec are read as bytes after the first (D585): the same decisions. */
  @Test
  void alloc_aJobspecReadBefore_itsIdAndPriorityFromEachPayload_aBadOneDeniedEachTime() {
    SchedulerFacingJobManager jm = online(SchedFixture.pool(1, 1), SchedulerOptions.defaults());
    ObjectNode js = SchedulerFacingJobManager.slots(1, 1, 0);
    CompletableFuture<Message> a1 = jm.alloc(1, 16, js);
    CompletableFuture<Message> a2 = jm.alloc(2, 16, js);
    CompletableFuture<Message> a3 = jm.alloc(3, 20, js);
    fx.settle();
    assertThat(summary(a1)).isEqualTo("rank0/core0");
    assertThat(fx.svc.core().pendingAllocs()).containsExactly(3L, 2L);
    ObjectNode bad = js.deepCopy();
    bad.remove("resources");
    List<String> notes = new ArrayList<>();
    for (long id : new long[] {4, 5}) {
      CompletableFuture<Message> f = jm.alloc(id, 16, bad);
      fx.settle();
      ObjectNode deny = answer(f);
      assertThat(deny.path("type").asInt()).as("%s", deny).isEqualTo(2);
      notes.add(deny.path("note").asText());
    }
    assertThat(notes.get(0)).isNotEmpty().isEqualTo(notes.get(1));
    jm.free(1, ResourceSet.fromJson(answer(a1).get("R")), true);
    fx.settle();
    assertThat(summary(a3)).isEqualTo("rank0/core0");
    assertThat(a2).isNotDone();
  }

  @Test
  void prioritize_pendingJobs_higherPriorityServedFirst() {
    SchedulerFacingJobManager jm = online(SchedFixture.pool(1, 1), SchedulerOptions.defaults());
    CompletableFuture<Message> a1 = jm.alloc(1, SchedulerFacingJobManager.slots(1, 1, 0));
    CompletableFuture<Message> a2 = jm.alloc(2, SchedulerFacingJobManager.slots(1, 1, 0));
    CompletableFuture<Message> a3 = jm.alloc(3, SchedulerFacingJobManager.slots(1, 1, 0));
    fx.settle();
    jm.prioritize(3, 100);
    fx.settle();
    assertThat(fx.svc.core().pendingAllocs()).containsExactly(3L, 2L);
    jm.free(1, ResourceSet.fromJson(answer(a1).get("R")), true);
    fx.settle();
    assertThat(a3).isDone();
    assertThat(a2).isNotDone();
  }

  @Test
  void alloc_unsatisfiable_deniedWithFluxNote() {
    SchedulerFacingJobManager jm = online(SchedFixture.pool(2, 2), SchedulerOptions.defaults());
    CompletableFuture<Message> f = jm.alloc(1, SchedulerFacingJobManager.slots(1, 3, 0));
    fx.settle();
    ObjectNode a = answer(f);
    assertThat(a.get("type").asInt()).isEqualTo(2);
    assertThat(a.get("note").asText()).startsWith("unsatisfiable request");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          t2300 item 8: no attributes.system | {"version":1,"resources":[{"type":"slot","count":1,"label":"task","with":[{"type":"core","count":1}]}],"tasks":[],"attributes":{}} | cannot parse jobspec: /attributes/system: getting duration: object item not found: system
          no slot                            | {"version":1,"resources":[{"type":"core","count":1}],"tasks":[],"attributes":{"system":{"duration":0}}} | cannot parse jobspec: /resources: unable to determine slot count (expected: a slot vertex)
          stepped count                      | {"version":1,"resources":[{"type":"slot","count":"1-9:2","label":"task","with":[{"type":"core","count":1}]}],"tasks":[],"attributes":{"system":{"duration":0}}} | unsatisfiable request: slot count 1-9:2 is stepped (expected: a number or a range with step 1)
          """)
  void alloc_jobspecNotReadable_deniedAndNothingChanges(String name, String jobspec, String note)
      throws Exception {
    SchedulerFacingJobManager jm = online(SchedFixture.pool(2, 2), SchedulerOptions.defaults());
    String before = state();
    CompletableFuture<Message> f = jm.alloc(7, Json.mapper().readTree(jobspec));
    fx.settle();
    assertThat(answer(f).toString())
        .isEqualTo("{\"id\":7,\"type\":2,\"note\":\"" + note.replace("\"", "\\\"") + "\"}");
    assertThat(state()).isEqualTo(before);
  }

  /** Requests with missing or mistyped keys: EPROTO with the location, nothing changes. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          alloc without id        | sched.alloc      | {"priority":16,"userid":1,"jobspec":{}}          | 71 | sched.alloc: /
          alloc id is a string    | sched.alloc      | {"id":"1","priority":16,"userid":1,"jobspec":{}} | 71 | sched.alloc: /id
          alloc jobspec not object| sched.alloc      | {"id":1,"priority":16,"userid":1,"jobspec":[]}   | 71 | sched.alloc: /jobspec
          alloc priority too big  | sched.alloc      | {"id":1,"priority":4294967296,"userid":1,"jobspec":{}} | 71 | sched.alloc: /priority
          expiration no id        | sched.expiration | {"expiration":5}                                 | 71 | sched.expiration: /
          expiration is a string  | sched.expiration | {"id":1,"expiration":"5"}                        | 71 | sched.expiration: /expiration
          realloc without spec    | sched.realloc    | {"job_id":1}                                     | 71 | sched.realloc: /
          realloc bad job_id      | sched.realloc    | {"job_id":-1,"spec_add":{}}                      | 71 | sched.realloc: /
          feasibility no jobspec  | feasibility.check | {}                                              | 71 | feasibility.check: /jobspec: missing (expected: an object)
          """)
  void request_malformed_eprotoAndNothingChanges(
      String name, String topic, String payload, int errno, String textStart) throws Exception {
    SchedulerFacingJobManager jm = online(SchedFixture.pool(2, 2), SchedulerOptions.defaults());
    CompletableFuture<Message> held = jm.alloc(1, SchedulerFacingJobManager.slots(1, 1, 0));
    fx.settle();
    assertThat(held).isDone();
    String before = state();
    CompletableFuture<Message> f = jm.h.rpc(topic, Json.mapper().readTree(payload));
    fx.settle();
    RpcException e = error(f);
    assertThat(e.errnum()).isEqualTo(errno);
    assertThat(e.getMessage()).startsWith(textStart);
    assertThat(state()).isEqualTo(before);
  }

  @Test
  void alloc_secondForSameJob_eprotoAndFirstStillPending() {
    SchedulerFacingJobManager jm = online(SchedFixture.pool(1, 1), SchedulerOptions.defaults());
    CompletableFuture<Message> a1 = jm.alloc(1, SchedulerFacingJobManager.slots(1, 1, 0));
    CompletableFuture<Message> a2 = jm.alloc(2, SchedulerFacingJobManager.slots(1, 1, 0));
    fx.settle();
    String before = state();
    CompletableFuture<Message> again = jm.alloc(2, SchedulerFacingJobManager.slots(1, 1, 0));
    CompletableFuture<Message> running = jm.alloc(1, SchedulerFacingJobManager.slots(1, 1, 0));
    fx.settle();
    assertThat(error(again).errnum()).isEqualTo(71);
    assertThat(error(again).getMessage())
        .isEqualTo("alloc: job 2 already has a pending alloc request");
    assertThat(error(running).getMessage()).isEqualTo("alloc: job 1 already holds resources");
    assertThat(state()).isEqualTo(before);
    jm.free(1, ResourceSet.fromJson(answer(a1).get("R")), true);
    fx.settle();
    assertThat(summary(a2)).isEqualTo("rank0/core0");
  }

  @Test
  void free_unknownJobOrResourcesNotHeld_ignoredAndNothingChanges() {
    SchedulerFacingJobManager jm = online(SchedFixture.pool(2, 2), SchedulerOptions.defaults());
    CompletableFuture<Message> a1 = jm.alloc(1, SchedulerFacingJobManager.slots(1, 1, 0));
    fx.settle();
    String before = state();
    jm.free(99, SchedFixture.pool(1, 1), true);
    jm.free(1, SchedFixture.pool(2, 2), false);
    ObjectNode bad = Json.object().put("id", 1).put("R", "rank0");
    jm.h.send("sched.free", bad);
    fx.settle();
    assertThat(state()).isEqualTo(before);
    assertThat(a1).isDone();
  }

  @Test
  void free_sentExpectingAResponseAsFluxCoreDoes_neverAnsweredAndNotKeptPending() {
    SchedulerFacingJobManager jm = online(SchedFixture.pool(2, 2), SchedulerOptions.defaults());
    CompletableFuture<Message> a1 = jm.alloc(1, SchedulerFacingJobManager.slots(1, 1, 0));
    fx.settle();
    ObjectNode free = Json.object().put("id", 1).put("final", true);
    free.set("R", answer(a1).get("R"));
    CompletableFuture<Message> f = jm.h.rpc("sched.free", free);
    CompletableFuture<Message> c = jm.h.rpc("sched.cancel", Json.object().put("id", 7));
    fx.settle();
    assertThat(f).isNotDone();
    assertThat(c).isNotDone();
    assertThat(fx.schedHandle.pendingServiceRequests("sched")).isZero();
    assertThat(fx.svc.core().isRunning(1)).isFalse();
  }

  @Test
  void free_partialThenFinal_resourcesComeBackInSteps() {
    SchedulerFacingJobManager jm = online(SchedFixture.pool(2, 2), SchedulerOptions.defaults());
    CompletableFuture<Message> a1 = jm.alloc(1, SchedulerFacingJobManager.nodes(2, 1, 2));
    fx.settle();
    ResourceSet r = ResourceSet.fromJson(answer(a1).get("R"));
    assertThat(r.summary()).isEqualTo("rank[0-1]/core[0-1]");
    jm.free(1, r.copyRanks(io.fluxdrm.rset.IdSet.of(1)), false);
    fx.settle();
    assertThat(fx.svc.core().pool().free().summary()).isEqualTo("rank1/core[0-1]");
    jm.free(1, r.copyRanks(io.fluxdrm.rset.IdSet.of(0)), true);
    fx.settle();
    assertThat(fx.svc.core().pool().free().summary()).isEqualTo("rank[0-1]/core[0-1]");
    assertThat(fx.svc.core().isRunning(1)).isFalse();
  }

  @Test
  void alloc_fromNonOwner_epermAndNothingChanges() {
    online(SchedFixture.pool(2, 2), SchedulerOptions.defaults());
    FluxHandle user = fx.user(1000);
    ObjectNode p = Json.object().put("id", 1).put("priority", 16).put("userid", 1000);
    p.set("jobspec", SchedulerFacingJobManager.slots(1, 1, 0));
    String before = state();
    CompletableFuture<Message> f = user.rpc("sched.alloc", p);
    fx.settle();
    assertThat(error(f).errnum()).isEqualTo(1);
    assertThat(error(f).getMessage())
        .isEqualTo("sched.alloc: user 1000 is not the instance owner (expected: the job manager)");
    assertThat(state()).isEqualTo(before);
  }

  @Test
  void expiration_runningJob_emptySuccessAndNegativeEinval() {
    SchedulerFacingJobManager jm = online(SchedFixture.pool(1, 1), SchedulerOptions.defaults());
    jm.alloc(1, SchedulerFacingJobManager.slots(1, 1, 0));
    fx.settle();
    CompletableFuture<Message> ok =
        jm.h.rpc("sched.expiration", Json.object().put("id", 1).put("expiration", 5000.5));
    CompletableFuture<Message> neg =
        jm.h.rpc("sched.expiration", Json.object().put("id", 1).put("expiration", -1.0));
    CompletableFuture<Message> unknown =
        jm.h.rpc("sched.expiration", Json.object().put("id", 9).put("expiration", 1.0));
    fx.settle();
    assertThat(answer(ok).toString()).isEqualTo("{}");
    assertThat(error(neg).errnum()).isEqualTo(22);
    assertThat(error(unknown).errnum()).isEqualTo(2);
  }

  @Test
  void feasibility_check_okOverflowOrInvalid() {
    online(SchedFixture.pool(2, 2), SchedulerOptions.defaults());
    FluxHandle c = fx.user(1000);
    CompletableFuture<Message> ok =
        c.rpc(
            "feasibility.check",
            Json.object().set("jobspec", SchedulerFacingJobManager.slots(4, 1, 0)));
    CompletableFuture<Message> big =
        c.rpc(
            "feasibility.check",
            Json.object().set("jobspec", SchedulerFacingJobManager.slots(5, 1, 0)));
    CompletableFuture<Message> bad =
        c.rpc("feasibility.check", Json.object().set("jobspec", Json.object().put("version", 1)));
    fx.settle();
    assertThat(answer(ok).toString()).isEqualTo("{}");
    assertThat(error(big).errnum()).isEqualTo(75);
    assertThat(error(big).getMessage()).startsWith("unsatisfiable request");
    assertThat(error(bad).errnum()).isEqualTo(22);
    assertThat(error(bad).getMessage()).startsWith("cannot parse jobspec: /resources");
  }

  @Test
  void resourceStatus_oneJobRunning_allAllocatedDown() {
    SchedulerFacingJobManager jm = online(SchedFixture.pool(2, 2), SchedulerOptions.defaults());
    jm.alloc(1, SchedulerFacingJobManager.slots(1, 1, 0));
    fx.settle();
    CompletableFuture<Message> f = fx.user(1000).rpc("sched.resource-status", Json.object());
    fx.settle();
    ObjectNode a = answer(f);
    assertThat(ResourceSet.fromJson(a.get("all")).summary()).isEqualTo("rank[0-1]/core[0-1]");
    assertThat(ResourceSet.fromJson(a.get("allocated")).summary()).isEqualTo("rank0/core0");
    assertThat(ResourceSet.fromJson(a.get("down")).isEmpty()).isTrue();
  }

  @Test
  void jobManager_appearsLate_helloRetriedUntilItIsThere() {
    fx = new SchedFixture(SchedFixture.pool(1, 2), SchedulerOptions.defaults());
    fx.start();
    assertThat(fx.svc.link()).isEqualTo(SchedService.LinkState.OFFLINE);
    fx.advance(Duration.ofSeconds(3));
    assertThat(fx.svc.link()).isEqualTo(SchedService.LinkState.OFFLINE);
    SchedulerFacingJobManager jm = fx.jobManager();
    fx.advance(Duration.ofSeconds(2));
    assertThat(fx.svc.link()).isEqualTo(SchedService.LinkState.ONLINE);
    assertThat(jm.readies).hasSize(1);
  }

  @Test
  void jobManager_disconnectsAndRestarts_helloAgainRebuildsRunningJobs() {
    SchedulerFacingJobManager jm = online(SchedFixture.pool(2, 2), SchedulerOptions.defaults());
    CompletableFuture<Message> a1 = jm.alloc(1, SchedulerFacingJobManager.nodes(1, 1, 2));
    jm.alloc(2, SchedulerFacingJobManager.nodes(1, 1, 2));
    CompletableFuture<Message> a3 = jm.alloc(3, SchedulerFacingJobManager.slots(1, 1, 0));
    fx.settle();
    assertThat(a3).isNotDone();
    jm.h.close();
    fx.settle();
    assertThat(fx.svc.link()).isEqualTo(SchedService.LinkState.OFFLINE);
    assertThat(fx.svc.core().pendingAllocs()).isEmpty();
    // a job manager knows its running jobs before it registers (the hello may come at once)
    SchedulerFacingJobManager jm2 =
        new SchedulerFacingJobManager(fx.hub.attach(Credentials.owner(SchedFixture.OWNER)));
    jm2.runningJob(1, null);
    jm2.register();
    fx.advance(Duration.ofSeconds(2));
    assertThat(fx.svc.link()).isEqualTo(SchedService.LinkState.ONLINE);
    assertThat(jm2.hellos).isEqualTo(1);
    assertThat(fx.svc.core().pool().allocated().summary())
        .isEqualTo(ResourceSet.fromJson(answer(a1).get("R")).summary());
    assertThat(fx.svc.core().isRunning(2)).isFalse();
  }

  @Test
  void jobManager_leavesBeforeAnyRequest_noticedThenHelloToTheNextOne() {
    SchedulerFacingJobManager jm = online(SchedFixture.pool(1, 2), SchedulerOptions.defaults());
    jm.h.close();
    fx.settle();
    // the hub's service.removed event: noticed at once, no time passes
    assertThat(fx.svc.link()).isEqualTo(SchedService.LinkState.OFFLINE);
    fx.checkInvariants();
    SchedulerFacingJobManager jm2 = fx.jobManager();
    fx.advance(Duration.ofSeconds(2));
    assertThat(fx.svc.link()).isEqualTo(SchedService.LinkState.ONLINE);
    assertThat(jm2.hellos).isEqualTo(1);
    assertThat(jm2.readies).hasSize(1);
    CompletableFuture<Message> a = jm2.alloc(1, SchedulerFacingJobManager.slots(1, 1, 0));
    fx.settle();
    assertThat(answer(a).get("type").asInt()).isZero();
    fx.checkInvariants();
  }

  @Test
  void jobManager_staysWithoutRequests_notHelloedAgain() {
    SchedulerFacingJobManager jm = online(SchedFixture.pool(1, 2), SchedulerOptions.defaults());
    fx.advance(Duration.ofSeconds(10));
    assertThat(fx.svc.link()).isEqualTo(SchedService.LinkState.ONLINE);
    assertThat(jm.hellos).isEqualTo(1);
    assertThat(jm.readies).hasSize(1);
  }

  @Test
  void hello_jobWithoutKnownR_raisesSchedulerRestartException() {
    fx = new SchedFixture(SchedFixture.pool(1, 2), SchedulerOptions.defaults());
    SchedulerFacingJobManager jm = fx.jobManager();
    jm.runningJob(42, null);
    fx.start();
    assertThat(jm.raised).hasSize(1);
    assertThat(jm.raised.get(0).toString())
        .isEqualTo(
            "{\"id\":42,\"severity\":0,\"type\":\"scheduler-restart\","
                + "\"note\":\"failed to reallocate R for running job\"}");
  }

  @Test
  void hello_rFromResponseWithFreeRanks_freeRanksNotAllocated() {
    fx = new SchedFixture(SchedFixture.pool(2, 2), SchedulerOptions.defaults());
    SchedulerFacingJobManager jm = fx.jobManager();
    jm.runningJob(5, "1").set("R", SchedFixture.pool(2, 2).toJson());
    fx.start();
    assertThat(fx.svc.core().pool().allocated().summary()).isEqualTo("rank0/core[0-1]");
  }
}
