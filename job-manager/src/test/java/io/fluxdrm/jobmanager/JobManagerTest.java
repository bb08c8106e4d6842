package io.fluxdrm.jobmanager;

import static io.fluxdrm.jobmanager.JmFixture.ALICE;
import static io.fluxdrm.jobmanager.JmFixture.BOB;
import static io.fluxdrm.jobmanager.JmFixture.answer;
import static io.fluxdrm.jobmanager.JmFixture.error;
import static io.fluxdrm.jobmanager.JmFixture.nodes;
import static io.fluxdrm.jobmanager.JmFixture.realloc;
import static io.fluxdrm.jobmanager.JmFixture.release;
import static io.fluxdrm.jobmanager.JmFixture.sameResources;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.SchedulerOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The job manager's RFC 51 mediation against the real sched-simple scheduler, step by step. */
@Timeout(20)
class JobManagerTest {
  @TempDir Path dir;

  private static int type(ObjectNode a) {
    return a.get("type").asInt();
  }

  private static ResourceSet r(ObjectNode a, String key) {
    return ResourceSet.fromJson(a.get(key));
  }

  @Test
  void submit_freePool_allocatedWithSubmitAndAllocEvents() {
    JmFixture f = JmFixture.started(dir, 4, 4);
    long a = f.submitNodes(2, ALICE);
    assertThat(f.jm.jobR(a).orElseThrow().summary()).isEqualTo("rank[0-1]/core[0-3]");
    assertThat(f.eventNames(a)).containsExactly("submit", "alloc");
    f.checkAgree(a);
  }

  @Test
  void realloc_growThatFits_grantedAndRecorded() {
    JmFixture f = JmFixture.started(dir, 4, 4);
    long a = f.submitNodes(1, ALICE);
    CompletableFuture<Message> g = realloc(f.shell(ALICE), a, nodes(1), null, null);
    f.settle();
    ObjectNode ans = answer(g);
    assertThat(type(ans)).isZero();
    assertThat(r(ans, "R_delta_add").summary()).isEqualTo("rank1/core[0-3]");
    assertThat(r(ans, "R").summary()).isEqualTo("rank[0-1]/core[0-3]");
    assertThat(f.jm.jobR(a).orElseThrow().summary()).isEqualTo("rank[0-1]/core[0-3]");
    assertThat(f.eventNames(a)).containsExactly("submit", "alloc", "resource-update");
    assertThat(f.events(a).get(2).context().has("R_delta_add")).isTrue();
    f.checkAgree(a);
  }

  @Test
  void realloc_growWhilePoolBusy_waitsThenGrantedAfterAnotherJobFrees() {
    JmFixture f = JmFixture.started(dir, 4, 4);
    long a = f.submitNodes(1, ALICE);
    long b = f.submitNodes(3, BOB);
    CompletableFuture<Message> g = realloc(f.shell(ALICE), a, nodes(1), null, null);
    f.settle();
    assertThat(g).isNotDone();
    assertThat(f.jm.pendingReallocs()).isEqualTo(1);
    f.advance(Duration.ofSeconds(5));
    assertThat(g).isNotDone();
    f.jm.finish(b);
    f.settle();
    ObjectNode ans = answer(g);
    assertThat(type(ans)).isZero();
    assertThat(f.jm.jobR(a).orElseThrow().nnodes()).isEqualTo(2);
    assertThat(f.eventNames(b)).containsExactly("submit", "alloc", "release", "free");
    assertThat(f.events(b).get(2).context().get("final").asBoolean()).isTrue();
    f.checkAgree(a);
    f.checkAgree(b);
  }

  @Test
  void realloc_growLargerThanPool_deniedNothingChanges() {
    JmFixture f = JmFixture.started(dir, 4, 4);
    long a = f.submitNodes(1, ALICE);
    String before = f.eventlogText(a);
    CompletableFuture<Message> g = realloc(f.shell(ALICE), a, nodes(4), null, null);
    f.settle();
    ObjectNode ans = answer(g);
    assertThat(type(ans)).isEqualTo(1);
    assertThat(ans.get("note").asText()).isNotEmpty();
    assertThat(f.eventlogText(a)).isEqualTo(before);
    assertThat(f.jm.jobR(a).orElseThrow().nnodes()).isEqualTo(1);
    f.checkAgree(a);
  }

  @Test
  void realloc_schedulerWithReallocOff_unsupported() {
    JmFixture f =
        new JmFixture(dir)
            .startJobManager()
            .startScheduler(JmFixture.pool(4, 4), SchedulerOptions.defaults().withRealloc(false));
    long a = f.submitNodes(1, ALICE);
    CompletableFuture<Message> g = realloc(f.shell(ALICE), a, nodes(1), null, null);
    f.settle();
    assertThat(type(answer(g))).isEqualTo(3);
    assertThat(f.eventNames(a)).containsExactly("submit", "alloc");
  }

  @Test
  void realloc_cancelOfWaitingGrow_canceledAndNeverGranted() {
    JmFixture f = JmFixture.started(dir, 4, 4);
    long a = f.submitNodes(1, ALICE);
    long b = f.submitNodes(3, BOB);
    FluxHandle shell = f.shell(ALICE);
    CompletableFuture<Message> g = realloc(shell, a, nodes(1), null, null);
    f.settle();
    assertThat(g).isNotDone();
    // the shell's first RPC on a fresh handle has matchtag 1
    shell.send("job-manager.realloc_cancel", Json.object().put("matchtag", 1));
    f.settle();
    assertThat(type(answer(g))).isEqualTo(2);
    assertThat(f.jm.pendingReallocs()).isZero();
    assertThat(f.sched.core().pendingReallocs()).isZero();
    f.jm.finish(b);
    f.settle();
    assertThat(f.jm.jobR(a).orElseThrow().nnodes()).isEqualTo(1);
    assertThat(f.eventNames(a)).containsExactly("submit", "alloc");
    f.checkAgree(a);
  }

  @Test
  void realloc_cancelOfUnknownMatchtag_ignored() {
    JmFixture f = JmFixture.started(dir, 4, 4);
    long a = f.submitNodes(1, ALICE);
    f.submitNodes(3, BOB);
    FluxHandle shell = f.shell(ALICE);
    CompletableFuture<Message> g = realloc(shell, a, nodes(1), null, null);
    f.settle();
    shell.send("job-manager.realloc_cancel", Json.object().put("matchtag", 7));
    f.settle();
    assertThat(g).isNotDone();
    assertThat(f.jm.pendingReallocs()).isEqualTo(1);
  }

  @Test
  void shrink_releasedThenFreed_nodesReusableOnlyAfterRelease() {
    JmFixture f = JmFixture.started(dir, 4, 4);
    long a = f.submitNodes(2, ALICE);
    long b = f.submitNodes(2, BOB);
    FluxHandle shell = f.shell(ALICE);
    CompletableFuture<Message> s = realloc(shell, a, null, nodes(1), null);
    f.settle();
    ObjectNode ans = answer(s);
    assertThat(type(ans)).isZero();
    ResourceSet sub = r(ans, "R_delta_sub");
    assertThat(sub.summary()).isEqualTo("rank1/core[0-3]");
    // still held until released (D7)
    assertThat(f.jm.jobR(a).orElseThrow().nnodes()).isEqualTo(2);
    assertThat(f.jm.releasing(a).orElseThrow().summary()).isEqualTo("rank1/core[0-3]");
    CompletableFuture<Long> c = f.jm.submit(nodes(1), BOB);
    f.settle();
    assertThat(c).as("no node free before the release").isNotDone();
    CompletableFuture<Message> rel = release(shell, a, sub.ranks());
    f.settle();
    assertThat(r(answer(rel), "R").summary()).isEqualTo("rank0/core[0-3]");
    assertThat(c).as("allocated after sched.free final:false").isCompleted();
    assertThat(f.jm.jobR(c.join()).orElseThrow().summary()).isEqualTo("rank1/core[0-3]");
    assertThat(f.eventNames(a)).containsExactly("submit", "alloc", "resource-update", "release");
    JobEvent release = f.events(a).get(3);
    assertThat(release.context().toString()).isEqualTo("{\"ranks\":\"1\",\"final\":false}");
    f.checkAgree(a);
    f.checkAgree(b);
    f.checkAgree(c.join());
  }

  @Test
  void release_ranksNotBeingReleased_einvalNoChange() {
    JmFixture f = JmFixture.started(dir, 4, 4);
    long a = f.submitNodes(2, ALICE);
    String before = f.eventlogText(a);
    CompletableFuture<Message> rel = release(f.shell(ALICE), a, IdSet.of(1));
    f.settle();
    assertThat(error(rel).errnum()).isEqualTo(Errno.EINVAL);
    assertThat(error(rel).getMessage())
        .isEqualTo(
            "job-manager.release: ranks 1 (expected: ranks the job was granted to release: none)");
    assertThat(f.eventlogText(a)).isEqualTo(before);
    f.checkAgree(a);
  }

  @Test
  void realloc_severalJobsAtOnce_fifoGrantsWhatFitsRestWaits() {
    JmFixture f = JmFixture.started(dir, 5, 2);
    long a = f.submitNodes(1, ALICE);
    long b = f.submitNodes(1, BOB);
    long c = f.submitNodes(1, ALICE);
    CompletableFuture<Message> ga = realloc(f.shell(ALICE), a, nodes(1), null, null);
    CompletableFuture<Message> gb = realloc(f.shell(BOB), b, nodes(1), null, null);
    CompletableFuture<Message> gc = realloc(f.shell(ALICE), c, nodes(1), null, null);
    f.settle();
    assertThat(type(answer(ga))).isZero();
    assertThat(type(answer(gb))).isZero();
    assertThat(gc).isNotDone();
    f.jm.finish(a);
    f.settle();
    assertThat(type(answer(gc))).isZero();
    for (long id : List.of(b, c)) {
      assertThat(f.jm.jobR(id).orElseThrow().nnodes()).isEqualTo(2);
      f.checkAgree(id);
    }
  }

  @Test
  void disconnect_requesterWithWaitingGrow_growCanceledAtScheduler() {
    JmFixture f = JmFixture.started(dir, 4, 4);
    long a = f.submitNodes(1, ALICE);
    long b = f.submitNodes(3, BOB);
    FluxHandle shell = f.shell(ALICE);
    CompletableFuture<Message> g = realloc(shell, a, nodes(1), null, null);
    f.settle();
    assertThat(f.sched.core().pendingReallocs()).isEqualTo(1);
    shell.close();
    f.settle();
    assertThat(f.jm.pendingReallocs()).isZero();
    assertThat(f.sched.core().pendingReallocs()).isZero();
    f.jm.finish(b);
    f.settle();
    assertThat(f.jm.jobR(a).orElseThrow().nnodes()).isEqualTo(1);
    assertThat(f.eventNames(a)).containsExactly("submit", "alloc");
    f.checkAgree(a);
  }

  @Test
  void restart_midFlight_recoversRAndPendingReleaseFromEventlogs() {
    JmFixture f = JmFixture.started(dir, 4, 4);
    long a = f.submitNodes(1, ALICE);
    long b = f.submitNodes(1, BOB);
    FluxHandle shell = f.shell(ALICE);
    assertThat(type(answer(settled(f, realloc(shell, a, nodes(2), null, null))))).isZero();
    assertThat(type(answer(settled(f, realloc(shell, a, null, nodes(1), null))))).isZero();
    ResourceSet rBefore = f.jm.jobR(a).orElseThrow();
    ResourceSet releasingBefore = f.jm.releasing(a).orElseThrow();
    assertThat(rBefore.nnodes()).isEqualTo(3);
    assertThat(releasingBefore.nnodes()).isEqualTo(1);
    // a job waiting for its alloc when the job manager dies
    CompletableFuture<Long> waiting = f.jm.submit(nodes(1), BOB);
    f.settle();
    assertThat(waiting).isNotDone();
    long c = b + 1;
    // crash: the handle goes away, the scheduler notices and says hello again to whoever comes
    f.jmHandle.close();
    f.settle();
    f.startJobManager();
    f.advance(Duration.ofSeconds(2));
    assertThat(f.jm.schedulerOnline()).isTrue();
    assertThat(sameResources(f.jm.jobR(a).orElseThrow(), rBefore)).isTrue();
    assertThat(sameResources(f.jm.releasing(a).orElseThrow(), releasingBefore)).isTrue();
    f.checkAgree(a);
    f.checkAgree(b);
    // the release granted before the crash goes through after it
    FluxHandle shell2 = f.shell(ALICE);
    ObjectNode rel = answer(settled(f, release(shell2, a, releasingBefore.ranks())));
    assertThat(r(rel, "R").nnodes()).isEqualTo(2);
    // the recovered job manager sent the waiting job's alloc again after sched-ready
    assertThat(f.jm.jobR(c).orElseThrow().ranks()).isEqualTo(releasingBefore.ranks());
    assertThat(f.eventNames(c)).containsExactly("submit", "alloc");
    assertThat(f.eventNames(a))
        .containsExactly("submit", "alloc", "resource-update", "resource-update", "release");
    f.checkAgree(a);
    f.checkAgree(c);
    // new job ids continue after the recovered ones
    f.jm.finish(b);
    f.settle();
    assertThat(f.submitNodes(1, ALICE)).isGreaterThan(c);
  }

  @Test
  void hello_jobRNotInPool_schedulerRaisesExceptionRecorded() {
    JmFixture f = new JmFixture(dir).startJobManager();
    f.jm.register(
        3,
        ALICE,
        ResourceSet.of(
            IdSet.of(9),
            IdSet.range(0, 3),
            IdSet.empty(),
            io.fluxdrm.rset.Hostlist.parse("node9")));
    f.settle();
    f.startScheduler(JmFixture.pool(4, 4), SchedulerOptions.defaults());
    assertThat(f.eventNames(3)).containsExactly("submit", "alloc", "exception");
    JobEvent e = f.events(3).get(2);
    assertThat(e.context().get("type").asText()).isEqualTo("scheduler-restart");
    assertThat(e.context().get("note").asText())
        .isEqualTo("failed to reallocate R for running job");
  }

  private static <T> CompletableFuture<T> settled(JmFixture f, CompletableFuture<T> x) {
    f.settle();
    return x;
  }
}
