package io.fluxdrm.jobmanager;

import static io.fluxdrm.jobmanager.JmFixture.ALICE;
import static io.fluxdrm.jobmanager.JmFixture.answer;
import static io.fluxdrm.jobmanager.JmFixture.error;
import static io.fluxdrm.jobmanager.JmFixture.nodes;
import static io.fluxdrm.jobmanager.JmFixture.realloc;
import static io.fluxdrm.jobmanager.JmFixture.release;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job manager against schedulers sched-simple cannot play: an RFC 27-only scheduler (no {@code
 * sched.realloc}: ENOSYS) and one that takes resources back on its own (D13), or answers wrongly.
 */
@Timeout(20)
class JobManagerFakeSchedulerTest {
  @TempDir Path dir;

  private final List<ObjectNode> frees = new ArrayList<>();

  /**
   * A job manager with job 1 of ALICE on node[0-1], and a {@code sched} made of {@code realloc}.
   */
  private JmFixture withFakeScheduler(Function<ObjectNode, ObjectNode> realloc) {
    JmFixture f = new JmFixture(dir).startJobManager();
    CompletableFuture<Long> reg = f.jm.register(1, ALICE, JmFixture.pool(2, 4));
    f.settle();
    assertThat(reg).isCompleted();
    CompletableFuture<Void> up =
        f.hub
            .attach(Credentials.owner(JmFixture.OWNER))
            .register(JmFixture.fakeScheduler(realloc, frees));
    f.settle();
    assertThat(up).isCompleted();
    return f;
  }

  @Test
  void realloc_rfc27OnlyScheduler_enosysAnsweredUnsupported() {
    JmFixture f = withFakeScheduler(null);
    CompletableFuture<Message> g = realloc(f.shell(ALICE), 1, nodes(1), null, null);
    f.settle();
    ObjectNode a = answer(g);
    assertThat(a.get("type").asInt()).isEqualTo(3);
    assertThat(a.get("alloc_id").asLong()).isZero();
    assertThat(f.eventNames(1)).containsExactly("submit", "alloc");
  }

  @Test
  void realloc_schedulerInitiatedShrink_appliedAsReleaseThenFreedFinalFalse() {
    ResourceSet rank1 = JmFixture.pool(2, 4).copyRanks(IdSet.of(1));
    JmFixture f =
        withFakeScheduler(
            p -> {
              ObjectNode a = Json.object().put("alloc_id", 7).put("type", 0);
              a.set("R_delta_sub", rank1.toJson());
              return a;
            });
    CompletableFuture<Message> g = realloc(f.shell(ALICE), 1, nodes(2), null, null);
    f.settle();
    ObjectNode a = answer(g);
    assertThat(a.get("type").asInt()).isZero();
    assertThat(f.jm.releasing(1).orElseThrow().summary()).isEqualTo("rank1/core[0-3]");
    assertThat(f.jm.jobR(1).orElseThrow().nnodes()).isEqualTo(2);
    assertThat(frees).isEmpty();
    CompletableFuture<Message> rel = release(f.shell(ALICE), 1, IdSet.of(1));
    f.settle();
    assertThat(answer(rel)).isNotNull();
    assertThat(frees).hasSize(1);
    assertThat(frees.get(0).get("final").asBoolean()).isFalse();
    assertThat(ResourceSet.fromJson(frees.get(0).get("R")).summary()).isEqualTo("rank1/core[0-3]");
    assertThat(f.jm.jobR(1).orElseThrow().summary()).isEqualTo("rank0/core[0-3]");
    assertThat(f.eventNames(1)).containsExactly("submit", "alloc", "resource-update", "release");
    f.jm.finish(1);
    f.settle();
    assertThat(frees).hasSize(2);
    assertThat(frees.get(1).get("final").asBoolean()).isTrue();
    assertThat(ResourceSet.fromJson(frees.get(1).get("R")).summary()).isEqualTo("rank0/core[0-3]");
    assertThat(f.eventNames(1))
        .containsExactly("submit", "alloc", "resource-update", "release", "release", "free");
  }

  @Test
  void realloc_schedulerShrinksWhatJobLacks_eprotoNoChange() {
    ResourceSet rank3 =
        ResourceSet.of(
            IdSet.of(3), IdSet.range(0, 3), IdSet.empty(), io.fluxdrm.rset.Hostlist.parse("node3"));
    JmFixture f =
        withFakeScheduler(
            p -> {
              ObjectNode a = Json.object().put("alloc_id", 7).put("type", 0);
              a.set("R_delta_sub", rank3.toJson());
              return a;
            });
    String before = f.eventlogText(1);
    CompletableFuture<Message> g = realloc(f.shell(ALICE), 1, nodes(1), null, null);
    f.settle();
    assertThat(error(g).errnum()).isEqualTo(Errno.EPROTO);
    assertThat(error(g).getMessage())
        .isEqualTo(
            "sched.realloc: bad answer from the scheduler: /R_delta_sub: rank3/core[0-3] is not"
                + " held by the job (expected: a subset of rank[0-1]/core[0-3])");
    assertThat(f.eventlogText(1)).isEqualTo(before);
  }

  @Test
  void register_afterSchedulerReady_refused() {
    JmFixture f = JmFixture.started(dir, 2, 2);
    CompletableFuture<Long> reg = f.jm.register(9, ALICE, JmFixture.pool(1, 2));
    f.settle();
    assertThat(reg)
        .failsWithin(java.time.Duration.ZERO)
        .withThrowableOfType(java.util.concurrent.ExecutionException.class)
        .havingCause()
        .isInstanceOf(JobManagerException.class)
        .withMessage(
            "register 9: scheduler already online (expected: register before its hello, or"
                + " submit)");
  }

  @Test
  void register_beforeHello_schedulerRebuildsJobFromHelloR() {
    JmFixture f = new JmFixture(dir).startJobManager();
    f.jm.register(5, ALICE, JmFixture.pool(2, 4).copyRanks(IdSet.of(1)));
    f.settle();
    f.startScheduler(JmFixture.pool(2, 4), io.fluxdrm.sched.SchedulerOptions.defaults());
    f.checkAgree(5);
    assertThat(f.schedView(5).summary()).isEqualTo("rank1/core[0-3]");
    long b = f.submitNodes(1, ALICE);
    assertThat(f.jm.jobR(b).orElseThrow().summary()).isEqualTo("rank0/core[0-3]");
  }
}
