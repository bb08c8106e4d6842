package io.fluxdrm.sched.service;

import static io.fluxdrm.sched.service.SchedFixture.answer;
import static io.fluxdrm.sched.service.SchedFixture.error;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.SchedulerOptions;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * RFC 51 over the service (§Realloc, §Realloc Cancel, D1-D7, D13): one test per case of issue 5.
 */
@Timeout(10)
class SchedReallocServiceTest {

  private SchedFixture fx;
  private SchedulerFacingJobManager jm;

  private void online(int nodes, int cores, SchedulerOptions options) {
    online(nodes, cores, options, StateStore.inMemory());
  }

  private void online(int nodes, int cores, SchedulerOptions options, StateStore store) {
    fx = new SchedFixture(SchedFixture.pool(nodes, cores), options, store);
    jm = fx.jobManager();
    fx.start();
  }

  @AfterEach
  void invariants() {
    if (fx != null) {
      fx.checkInvariants();
    }
  }

  /** Allocates job {@code id} one node with all {@code cores} cores; returns its R. */
  private ResourceSet run(long id, int cores) {
    CompletableFuture<Message> f = jm.alloc(id, SchedulerFacingJobManager.nodes(1, 1, cores));
    fx.settle();
    return ResourceSet.fromJson(answer(f).get("R"));
  }

  private static String rendered(ObjectNode a) {
    StringBuilder sb = new StringBuilder();
    sb.append("alloc_id=").append(a.path("alloc_id").asLong());
    sb.append(" type=").append(a.path("type").asInt());
    if (a.has("R_delta_add")) {
      sb.append(" add=").append(ResourceSet.fromJson(a.get("R_delta_add")).summary());
    }
    if (a.has("R_delta_sub")) {
      sb.append(" sub=").append(ResourceSet.fromJson(a.get("R_delta_sub")).summary());
    }
    if (a.has("note")) {
      sb.append(" note=").append(a.get("note").asText());
    }
    return sb.toString();
  }

  @Test
  void grow_freeNode_grantedWithFullRDeltaAdd() {
    online(4, 4, SchedulerOptions.defaults());
    run(1, 4);
    CompletableFuture<Message> g =
        jm.realloc(1, SchedulerFacingJobManager.nodes(1, 1, 4), null, null);
    fx.settle();
    ObjectNode a = answer(g);
    assertThat(rendered(a)).isEqualTo("alloc_id=1 type=0 add=rank1/core[0-3]");
    assertThat(a.get("R_delta_add").get("execution").get("nodelist").toString())
        .isEqualTo("[\"node1\"]");
    assertThat(a.get("R_delta_add").get("execution").get("nslots").asInt()).isEqualTo(1);
    assertThat(fx.svc.core().pool().allocation(1).orElseThrow().summary())
        .isEqualTo("rank[0-1]/core[0-3]");
  }

  @Test
  void grow_noRoomNow_waitsThenGrantedAfterFree() {
    online(2, 4, SchedulerOptions.defaults());
    run(1, 4);
    ResourceSet r2 = run(2, 4);
    CompletableFuture<Message> g =
        jm.realloc(1, SchedulerFacingJobManager.nodes(1, 1, 4), null, null);
    fx.settle();
    assertThat(g).isNotDone();
    assertThat(fx.svc.core().pendingReallocs()).isEqualTo(1);
    jm.free(2, r2, true);
    fx.settle();
    assertThat(rendered(answer(g))).isEqualTo("alloc_id=1 type=0 add=rank1/core[0-3]");
  }

  @Test
  void grow_neverFits_denied() {
    online(2, 4, SchedulerOptions.defaults());
    run(1, 4);
    CompletableFuture<Message> g =
        jm.realloc(1, SchedulerFacingJobManager.nodes(3, 1, 4), null, null);
    fx.settle();
    assertThat(rendered(answer(g))).startsWith("alloc_id=1 type=1 note=unsatisfiable request");
  }

  @Test
  void shrink_withoutR_grantedAndKeptUntilFree() {
    online(4, 4, SchedulerOptions.defaults());
    CompletableFuture<Message> f = jm.alloc(1, SchedulerFacingJobManager.nodes(2, 1, 4));
    fx.settle();
    assertThat(f).isDone();
    CompletableFuture<Message> s =
        jm.realloc(1, null, SchedulerFacingJobManager.nodes(1, 1, 4), null);
    fx.settle();
    ObjectNode a = answer(s);
    assertThat(a.path("type").asInt()).isZero();
    ResourceSet sub = ResourceSet.fromJson(a.get("R_delta_sub"));
    assertThat(sub.nnodes()).isEqualTo(1);
    assertThat(fx.svc.core().pool().free().summary()).isEqualTo("rank[2-3]/core[0-3]");
    jm.free(1, sub, false);
    fx.settle();
    assertThat(fx.svc.core().pool().free().nnodes()).isEqualTo(3);
  }

  @Test
  void shrink_withR_removesExactlyTheNamedNode() {
    online(4, 4, SchedulerOptions.defaults());
    CompletableFuture<Message> f = jm.alloc(1, SchedulerFacingJobManager.nodes(2, 1, 4));
    fx.settle();
    ResourceSet held = ResourceSet.fromJson(answer(f).get("R"));
    ResourceSet last = held.copyRanks(IdSet.of(held.ranks().last()));
    CompletableFuture<Message> s =
        jm.realloc(1, null, SchedulerFacingJobManager.nodes(1, 1, 4), last);
    fx.settle();
    assertThat(ResourceSet.fromJson(answer(s).get("R_delta_sub")).summary())
        .isEqualTo(last.summary());
  }

  @Test
  void shrink_ofResourcesNotHeld_deniedAndNothingChanges() {
    online(4, 4, SchedulerOptions.defaults());
    run(1, 4);
    String before = fx.svc.core().pool().allocated().summary();
    ResourceSet notHeld = SchedFixture.pool(4, 4).copyRanks(IdSet.of(3));
    CompletableFuture<Message> s =
        jm.realloc(1, null, SchedulerFacingJobManager.nodes(1, 1, 4), notHeld);
    fx.settle();
    assertThat(rendered(answer(s))).startsWith("alloc_id=1 type=1 note=spec_sub: R names rank3");
    assertThat(fx.svc.core().pool().allocated().summary()).isEqualTo(before);
  }

  @Test
  void reallocCancel_pendingGrow_answeredCancelCancelItselfUnanswered() {
    online(2, 4, SchedulerOptions.defaults());
    run(1, 4);
    run(2, 4);
    // the alloc calls gave their matchtags back: the realloc gets the smallest, 1
    CompletableFuture<Message> g =
        jm.realloc(1, SchedulerFacingJobManager.nodes(1, 1, 4), null, null);
    fx.settle();
    assertThat(g).isNotDone();
    jm.h.send("sched.realloc_cancel", Json.object().put("matchtag", 1));
    jm.h.send("sched.realloc_cancel", Json.object().put("matchtag", 77));
    fx.settle();
    assertThat(rendered(answer(g))).isEqualTo("alloc_id=1 type=2");
    assertThat(fx.svc.core().pendingReallocs()).isZero();
  }

  @Test
  void realloc_noRealloc_unsupportedAtOnce() {
    online(2, 4, SchedulerOptions.defaults().withRealloc(false));
    run(1, 4);
    CompletableFuture<Message> g =
        jm.realloc(1, SchedulerFacingJobManager.nodes(1, 1, 4), null, null);
    fx.settle();
    assertThat(rendered(answer(g))).isEqualTo("alloc_id=1 type=3");
    assertThat(fx.svc.core().pool().allocated().summary()).isEqualTo("rank0/core[0-3]");
  }

  @Test
  void realloc_severalJobs_servedInFifoWithHeadOfLineBlocking() {
    online(3, 4, SchedulerOptions.defaults());
    run(1, 4);
    ResourceSet r2 = run(2, 4);
    ResourceSet r3 = run(3, 4);
    CompletableFuture<Message> g1 =
        jm.realloc(1, SchedulerFacingJobManager.nodes(2, 1, 4), null, null);
    CompletableFuture<Message> g3 =
        jm.realloc(3, SchedulerFacingJobManager.nodes(1, 1, 4), null, null);
    fx.settle();
    assertThat(g1).isNotDone();
    assertThat(g3).isNotDone();
    jm.free(2, r2, true);
    fx.settle();
    assertThat(g1).isNotDone();
    assertThat(g3).as("blocked behind job 1's grow").isNotDone();
    assertThat(r3.summary()).isEqualTo("rank2/core[0-3]");
    CompletableFuture<Message> s3 =
        jm.realloc(3, null, SchedulerFacingJobManager.nodes(1, 1, 4), null);
    fx.settle();
    assertThat(rendered(answer(s3)))
        .as("a shrink is decided at once, even behind a waiting grow (D142)")
        .isEqualTo("alloc_id=3 type=0 sub=rank2/core[0-3]");
    assertThat(g1).as("rank2 is being released, not free").isNotDone();
    jm.free(3, r3, true);
    fx.settle();
    assertThat(rendered(answer(g1))).isEqualTo("alloc_id=1 type=0 add=rank[1-2]/core[0-3]");
    assertThat(rendered(answer(g3)))
        .isEqualTo("alloc_id=2 type=1 note=job 3 no longer holds resources");
  }

  @Test
  void realloc_fromUserWhoDoesNotOwnJob_epermAndNothingChanges() {
    online(2, 4, SchedulerOptions.defaults());
    run(1, 4);
    FluxHandle other = fx.user(2000);
    ObjectNode p = Json.object().put("job_id", 1);
    p.set("spec_add", SchedulerFacingJobManager.nodes(1, 1, 4));
    CompletableFuture<Message> g = other.rpc("sched.realloc", p);
    FluxHandle owner = fx.user(1000);
    CompletableFuture<Message> mine = owner.rpc("sched.realloc", p);
    fx.settle();
    assertThat(error(g).errnum()).isEqualTo(1);
    assertThat(error(g).getMessage())
        .isEqualTo("realloc: user 2000 may not act on job 1 of user 1000");
    assertThat(rendered(answer(mine))).isEqualTo("alloc_id=1 type=0 add=rank1/core[0-3]");
  }

  @Test
  void realloc_unknownJob_enoent() {
    online(2, 4, SchedulerOptions.defaults());
    CompletableFuture<Message> g =
        jm.realloc(9, SchedulerFacingJobManager.nodes(1, 1, 4), null, null);
    fx.settle();
    assertThat(error(g).errnum()).isEqualTo(2);
    assertThat(error(g).getMessage()).isEqualTo("realloc: unknown job 9");
  }

  @Test
  void restart_grownJob_helloRebuildsGrownR(@TempDir Path dir) {
    online(4, 4, SchedulerOptions.defaults(), StateStore.open(dir));
    run(1, 4);
    CompletableFuture<Message> g =
        jm.realloc(1, SchedulerFacingJobManager.nodes(1, 1, 4), null, null);
    fx.settle();
    assertThat(answer(g).path("type").asInt()).isZero();
    String grown = fx.svc.core().pool().allocation(1).orElseThrow().summary();
    assertThat(grown).isEqualTo("rank[0-1]/core[0-3]");
    fx.checkInvariants();

    // a new scheduler process on the same state directory; the job manager's hello lists job 1
    fx =
        new SchedFixture(
            SchedFixture.pool(4, 4), SchedulerOptions.defaults(), StateStore.open(dir));
    jm = fx.jobManager();
    jm.runningJob(1, null);
    fx.start();
    assertThat(fx.svc.core().pool().allocated().summary()).isEqualTo(grown);
    CompletableFuture<Message> again =
        jm.realloc(1, SchedulerFacingJobManager.nodes(1, 1, 4), null, null);
    fx.settle();
    assertThat(rendered(answer(again))).isEqualTo("alloc_id=2 type=0 add=rank2/core[0-3]");
  }

  @Test
  void jobManagerRestart_grantItNeverRecorded_helloRFreesIt(@TempDir Path dir) {
    online(4, 4, SchedulerOptions.defaults(), StateStore.open(dir));
    run(1, 4);
    ResourceSet before = fx.svc.core().pool().allocation(1).orElseThrow();
    CompletableFuture<Message> g =
        jm.realloc(1, SchedulerFacingJobManager.nodes(1, 1, 4), null, null);
    fx.settle();
    assertThat(answer(g).path("type").asInt()).isZero();
    assertThat(fx.svc.core().pool().allocated().summary()).isEqualTo("rank[0-1]/core[0-3]");

    // the job manager died before writing the grant (D502): its hello carries the R it knows,
    // which wins over the scheduler's own record of the grant
    fx =
        new SchedFixture(
            SchedFixture.pool(4, 4), SchedulerOptions.defaults(), StateStore.open(dir));
    jm = fx.jobManager();
    jm.runningJob(1, null).set("R", before.toJson());
    fx.start();
    assertThat(fx.svc.core().pool().allocated().summary()).isEqualTo("rank0/core[0-3]");
    fx.checkInvariants();
  }
}
