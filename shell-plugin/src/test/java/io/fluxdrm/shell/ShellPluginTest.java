package io.fluxdrm.shell;

import static io.fluxdrm.shell.ShellFixture.ALICE;
import static io.fluxdrm.shell.ShellFixture.JOB;
import static io.fluxdrm.shell.ShellFixture.answer;
import static io.fluxdrm.shell.ShellFixture.error;
import static io.fluxdrm.shell.ShellFixture.ranks;
import static io.fluxdrm.shell.ShellFixture.spec;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.protocol.ReallocResponseType;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** The shell plugin against a fake job manager: grants, shrinks, releases, refusals, cancels. */
@Timeout(20)
class ShellPluginTest {

  @Test
  void realloc_growGranted_rAndHostMapUpdated() {
    ShellFixture f = new ShellFixture("0-1");
    CompletableFuture<Message> g = f.call("realloc", Json.object().set("spec_add", spec(2)));
    assertThat(g).isNotDone();
    assertThat(f.jm.reallocs).hasSize(1);
    ObjectNode sent = f.jm.reallocs.get(0);
    assertThat(sent.get("id").asLong()).isEqualTo(JOB);
    assertThat(sent.get("spec_add")).isEqualTo(spec(2));
    assertThat(sent.has("spec_sub")).isFalse();
    assertThat(f.plugin.pendingReallocs()).isEqualTo(1);

    f.jm.grant(ranks("2-3"));
    f.settle();
    ObjectNode a = answer(g);
    assertThat(a.get("type").asInt()).isZero();
    assertThat(a.get("alloc_id").asLong()).isEqualTo(1);
    assertThat(ResourceSet.fromJson(a.get("R_delta_add")).summary())
        .isEqualTo("rank[2-3]/core[0-3]");
    assertThat(ResourceSet.fromJson(a.get("R")).summary()).isEqualTo("rank[0-3]/core[0-3]");
    assertThat(f.plugin.r().summary()).isEqualTo("rank[0-3]/core[0-3]");
    assertThat(f.plugin.r()).isEqualTo(f.jm.r);
    assertThat(f.plugin.hosts())
        .containsExactly(
            Map.entry(0, "node0"),
            Map.entry(1, "node1"),
            Map.entry(2, "node2"),
            Map.entry(3, "node3"));
    assertThat(f.plugin.pendingReallocs()).isZero();
  }

  @Test
  void realloc_javaApiGrowGranted_successAnswerValue() {
    ShellFixture f = new ShellFixture("0");
    CompletableFuture<Answer> g = f.plugin.realloc(spec(1), null, null);
    f.settle();
    f.jm.grant(ranks("5"));
    f.settle();
    assertThat(g).isCompleted();
    Answer.Success s = (Answer.Success) g.join();
    assertThat(s.added().summary()).isEqualTo("rank5/core[0-3]");
    assertThat(s.removed().isEmpty()).isTrue();
    assertThat(f.plugin.hosts()).containsExactly(Map.entry(0, "node0"), Map.entry(5, "node5"));
  }

  @Test
  void realloc_shrinkGranted_releasedOnlyAfterTasksExited() {
    ShellFixture f = new ShellFixture("0-1");
    ObjectNode p = Json.object();
    p.set("spec_sub", spec(1));
    p.set("R", ranks("1").toJson());
    CompletableFuture<Message> g = f.call("realloc", p);
    assertThat(ResourceSet.fromJson(f.jm.reallocs.get(0).get("R")).summary())
        .isEqualTo("rank1/core[0-3]");
    f.jm.shrink(ranks("1"));
    f.settle();
    ObjectNode a = answer(g);
    assertThat(ResourceSet.fromJson(a.get("R_delta_sub")).summary()).isEqualTo("rank1/core[0-3]");
    assertThat(ResourceSet.fromJson(a.get("R")).summary()).isEqualTo("rank[0-1]/core[0-3]");
    assertThat(f.plugin.releasing().summary()).isEqualTo("rank1/core[0-3]");
    assertThat(f.plugin.hosts()).containsOnlyKeys(0, 1);
    f.settle();
    assertThat(f.jm.releases).as("nothing released before the tasks exit").isEmpty();

    CompletableFuture<ResourceSet> done = f.plugin.tasksExited(IdSet.of(1));
    f.settle();
    assertThat(f.jm.releases).hasSize(1);
    ObjectNode rel = f.jm.releases.get(0);
    assertThat(rel.get("id").asLong()).isEqualTo(JOB);
    assertThat(rel.get("ranks").asText()).isEqualTo("1");
    assertThat(rel.get("final").asBoolean()).isFalse();
    assertThat(rel.size()).isEqualTo(3);
    assertThat(done).isCompleted();
    assertThat(done.join().summary()).isEqualTo("rank0/core[0-3]");
    assertThat(f.plugin.r()).isEqualTo(f.jm.r);
    assertThat(f.plugin.releasing().isEmpty()).isTrue();
    assertThat(f.plugin.hosts()).containsExactly(Map.entry(0, "node0"));
  }

  @Test
  void release_partialTaskExit_waitsForAllRemovedRanks() {
    ShellFixture f = new ShellFixture("0-3");
    CompletableFuture<Message> g = f.call("realloc", Json.object().set("spec_sub", spec(2)));
    f.jm.shrink(ranks("2-3"));
    f.settle();
    assertThat(answer(g).get("type").asInt()).isZero();

    CompletableFuture<Message> exit2 = f.call("task-exit", Json.object().put("ranks", "2"));
    assertThat(answer(exit2)).isEqualTo(Json.object());
    assertThat(f.jm.releases).as("rank 3 still has tasks").isEmpty();
    assertThat(f.plugin.r().summary()).isEqualTo("rank[0-3]/core[0-3]");

    CompletableFuture<Message> rel3 = f.call("release", Json.object().put("ranks", "3"));
    assertThat(f.jm.releases).hasSize(1);
    assertThat(f.jm.releases.get(0).get("ranks").asText()).isEqualTo("2-3");
    assertThat(ResourceSet.fromJson(answer(rel3).get("R")).summary())
        .isEqualTo("rank[0-1]/core[0-3]");
    assertThat(f.plugin.hosts()).containsOnlyKeys(0, 1);
  }

  @Test
  void release_beforeOtherRanksExit_answeredOnceAllHandedBack() {
    ShellFixture f = new ShellFixture("0-3");
    CompletableFuture<Answer> g = f.plugin.realloc(null, spec(2), ranks("1-2"));
    f.settle();
    f.jm.shrink(ranks("1-2"));
    f.settle();
    assertThat(g.join().type()).isEqualTo(ReallocResponseType.SUCCESS);
    CompletableFuture<Message> rel1 = f.call("release", Json.object().put("ranks", "1"));
    assertThat(rel1).as("rank 2 has tasks still").isNotDone();
    assertThat(f.jm.releases).isEmpty();
    f.plugin.tasksExited(IdSet.of(2));
    f.settle();
    assertThat(ResourceSet.fromJson(answer(rel1).get("R")).summary())
        .isEqualTo("rank[0,3]/core[0-3]");
  }

  static Stream<Arguments> unsupportedAnswers() {
    return Stream.of(
        Arguments.of(
            "type 3", (Consumer<ShellFacingJobManager>) jm -> jm.answer(3, "no realloc"), true),
        Arguments.of(
            "errnum ENOSYS",
            (Consumer<ShellFacingJobManager>)
                jm -> jm.fail(Errno.ENOSYS, "sched.realloc: not here"),
            true),
        Arguments.of(
            "job manager without realloc", (Consumer<ShellFacingJobManager>) jm -> {}, false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("unsupportedAnswers")
  void realloc_unsupportedOrEnosys_unsupportedAtOnce(
      String name, Consumer<ShellFacingJobManager> answer, boolean withRealloc) {
    ShellFixture f = new ShellFixture("0-1", withRealloc);
    CompletableFuture<Answer> g = f.plugin.realloc(spec(1), null, null);
    f.settle();
    answer.accept(f.jm);
    f.settle();
    assertThat(g).isCompleted();
    assertThat(g.join()).isInstanceOf(Answer.Unsupported.class);
    assertThat(g.join().type()).isEqualTo(ReallocResponseType.UNSUPPORTED);
    assertThat(f.plugin.r()).isEqualTo(ranks("0-1"));

    CompletableFuture<Message> viaRpc = f.call("realloc", Json.object().set("spec_add", spec(1)));
    answer.accept(f.jm);
    f.settle();
    assertThat(answer(viaRpc).get("type").asInt()).isEqualTo(3);
  }

  @ParameterizedTest(name = "type {0}")
  @CsvSource({"1, DENY, nodes: 9 requested but the pool has 8", "2, CANCEL, canceled"})
  void realloc_denyOrCancel_passedThrough(int type, ReallocResponseType expected, String note) {
    ShellFixture f = new ShellFixture("0-1");
    CompletableFuture<Answer> g = f.plugin.realloc(spec(9), null, null);
    CompletableFuture<Message> viaRpc = f.call("realloc", Json.object().set("spec_add", spec(9)));
    f.jm.answer(type, note);
    f.jm.answer(type, note);
    f.settle();
    assertThat(g.join().type()).isEqualTo(expected);
    assertThat(g.join().note()).isEqualTo(note);
    ObjectNode a = answer(viaRpc);
    assertThat(a.get("type").asInt()).isEqualTo(type);
    assertThat(a.get("note").asText()).isEqualTo(note);
    assertThat(f.plugin.r()).isEqualTo(ranks("0-1"));
    assertThat(f.plugin.releasing().isEmpty()).isTrue();
  }

  @Test
  void reallocCancel_waitingGrowViaService_canceledByJobManagerMatchtag() {
    ShellFixture f = new ShellFixture("0-1");
    CompletableFuture<Message> g = f.call("realloc", Json.object().set("spec_add", spec(4)));
    int appTag = f.lastAppTag();
    int jmTag = f.jm.pending.get(0).matchtag();
    f.app.send(f.plugin.serviceName() + ".realloc_cancel", Json.object().put("matchtag", appTag));
    f.settle();
    assertThat(f.jm.cancels).hasSize(1);
    assertThat(f.jm.cancels.get(0).get("matchtag").asInt()).isEqualTo(jmTag);
    ObjectNode a = answer(g);
    assertThat(a.get("type").asInt()).isEqualTo(2);
    assertThat(f.plugin.pendingReallocs()).isZero();
    assertThat(f.plugin.r()).isEqualTo(ranks("0-1"));
  }

  @Test
  void reallocCancel_waitingGrowViaJavaApi_canceled() {
    ShellFixture f = new ShellFixture("0-1");
    CompletableFuture<Answer> g = f.plugin.realloc(spec(4), null, null);
    f.settle();
    CompletableFuture<Boolean> c = f.plugin.reallocCancel(g);
    f.settle();
    assertThat(c.join()).isTrue();
    assertThat(g.join()).isInstanceOf(Answer.Cancel.class);
    CompletableFuture<Boolean> again = f.plugin.reallocCancel(g);
    f.settle();
    assertThat(again).isCompletedWithValue(false);
  }

  @Test
  void reallocCancel_otherSendersMatchtag_ignored() {
    ShellFixture f = new ShellFixture("0-1");
    CompletableFuture<Message> g = f.call("realloc", Json.object().set("spec_add", spec(4)));
    int appTag = f.lastAppTag();
    f.call(f.as(ALICE), "realloc_cancel", Json.object().put("matchtag", appTag));
    assertThat(f.jm.cancels).isEmpty();
    assertThat(g).isNotDone();
  }

  @Test
  void disconnect_pendingRealloc_canceled() {
    ShellFixture f = new ShellFixture("0-1");
    var other = f.as(ALICE);
    f.call(other, "realloc", Json.object().set("spec_add", spec(4)));
    other.close();
    f.settle();
    assertThat(f.jm.cancels).hasSize(1);
    assertThat(f.plugin.pendingReallocs()).isZero();
  }

  @Test
  void disconnect_javaApiAndServiceReallocsPending_onlyTheSendersCanceled() {
    ShellFixture f = new ShellFixture("0-1");
    CompletableFuture<Answer> java = f.plugin.realloc(spec(4), null, null);
    var other = f.as(ALICE);
    f.call(other, "realloc", Json.object().set("spec_add", spec(4)));
    f.call("realloc", Json.object().set("spec_add", spec(4)));
    assertThat(f.plugin.pendingReallocs()).isEqualTo(3);
    int otherJmTag = f.jm.pending.get(1).matchtag();
    other.close();
    f.settle();
    assertThat(f.jm.cancels).hasSize(1);
    assertThat(f.jm.cancels.get(0).get("matchtag").asInt()).isEqualTo(otherJmTag);
    assertThat(f.plugin.pendingReallocs()).isEqualTo(2);
    assertThat(java).isNotDone();
    CompletableFuture<Boolean> notOurs = f.plugin.reallocCancel(new CompletableFuture<>());
    f.settle();
    assertThat(notOurs).isCompletedWithValue(false);
    assertThat(f.jm.cancels).hasSize(1);
  }

  @ParameterizedTest(name = "errnum {0}")
  @CsvSource({"1", "2", "22", "71"})
  void realloc_errorAnswer_errnumPassedOnNoChange(int errnum) {
    ShellFixture f = new ShellFixture("0-1");
    CompletableFuture<Answer> g = f.plugin.realloc(spec(1), null, null);
    CompletableFuture<Message> viaRpc = f.call("realloc", Json.object().set("spec_add", spec(1)));
    f.jm.fail(errnum, "job-manager.realloc: refused");
    f.jm.fail(errnum, "job-manager.realloc: refused");
    f.settle();
    assertThat(((ShellException) error(g)).errnum()).isEqualTo(errnum);
    RpcException e = (RpcException) error(viaRpc);
    assertThat(e.errnum()).isEqualTo(errnum);
    assertThat(e.getMessage()).isEqualTo("job-manager.realloc: refused");
    assertThat(f.plugin.r()).isEqualTo(ranks("0-1"));
  }
}
