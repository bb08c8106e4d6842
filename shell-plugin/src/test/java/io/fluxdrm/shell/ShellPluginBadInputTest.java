package io.fluxdrm.shell;

import static io.fluxdrm.shell.ShellFixture.BOB;
import static io.fluxdrm.shell.ShellFixture.answer;
import static io.fluxdrm.shell.ShellFixture.error;
import static io.fluxdrm.shell.ShellFixture.ranks;
import static io.fluxdrm.shell.ShellFixture.spec;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.protocol.ReallocResponseType;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rset.IdSet;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Bad input to the shell service and from the job manager: refused, located, and no change. */
@Timeout(20)
class ShellPluginBadInputTest {
  private static final String S = "1000-shell-f2qSNrX7Ky.";

  /** A plugin on ranks 0-3 whose rank 3 is being released. */
  private static ShellFixture shrinking() {
    ShellFixture f = new ShellFixture("0-3");
    CompletableFuture<Answer> g = f.plugin.realloc(null, spec(1), ranks("3"));
    f.settle();
    f.jm.shrink(ranks("3"));
    f.settle();
    assertThat(g.join().type()).isEqualTo(ReallocResponseType.SUCCESS);
    return f;
  }

  private static void assertUnchanged(ShellFixture f) {
    assertThat(f.plugin.r()).isEqualTo(ranks("0-3"));
    assertThat(f.plugin.releasing()).isEqualTo(ranks("3"));
    assertThat(f.plugin.pendingReallocs()).isZero();
    assertThat(f.jm.reallocs).hasSize(1);
    assertThat(f.jm.releases).isEmpty();
    assertThat(f.jm.cancels).isEmpty();
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          realloc        | {}                                 | realloc: /: no spec_add and no spec_sub (expected: at least one)
          realloc        | {"spec_add":3}                     | realloc: /spec_add: number (expected: a jobspec object)
          realloc        | {"spec_add":{},"spec_sub":"x"}     | realloc: /spec_sub: string (expected: a jobspec object)
          realloc        | {"spec_add":{},"id":5}             | realloc: /id: unknown key (expected: one of [R, spec_add, spec_sub])
          realloc        | {"spec_sub":{},"R":{"version":9}}  | realloc: /R: R: /version: invalid version=9 (expected: 1)
          release        | {}                                 | release: /ranks: missing (expected: an idset string)
          release        | {"ranks":3}                        | release: /ranks: 3 (expected: an idset string)
          release        | {"ranks":"3,2"}                    | release: /ranks: idset "3,2": "2" is out of order (expected: ascending, no duplicates)
          release        | {"ranks":"3","final":false}        | release: /final: unknown key (expected: one of [ranks])
          task-exit      | {"ranks":"x"}                      | task-exit: /ranks: idset "x": "x" is not an id or a range (expected: decimal ids and lo-hi ranges)
          realloc_cancel | {"matchtag":"1"}                   | realloc_cancel: /matchtag: "1" (expected: an integer matchtag)
          realloc_cancel | {}                                 | realloc_cancel: /matchtag: missing (expected: an integer matchtag)
          """)
  void service_malformedPayload_eprotoNoChange(String method, String payload, String message)
      throws Exception {
    ShellFixture f = shrinking();
    JsonNode p = Json.mapper().readTree(payload);
    CompletableFuture<Message> g = f.call(method, p);
    RpcException e = (RpcException) error(g);
    assertThat(e.errnum()).isEqualTo(Errno.EPROTO);
    assertThat(e.getMessage()).isEqualTo(S + message);
    assertUnchanged(f);
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          release   | 2   | release: ranks 2 (expected: ranks being released: 3)
          release   | 2-3 | release: ranks 2-3 (expected: ranks being released: 3)
          task-exit | 0   | task-exit: ranks 0 (expected: ranks being released: 3)
          task-exit | 7   | task-exit: ranks 7 (expected: ranks being released: 3)
          release   |     | release: ranks (none) (expected: ranks being released: 3)
          """)
  void service_ranksNotBeingReleased_einvalNoChange(String method, String ranks, String message) {
    ShellFixture f = shrinking();
    CompletableFuture<Message> g =
        f.call(method, Json.object().put("ranks", ranks == null ? "" : ranks));
    RpcException e = (RpcException) error(g);
    assertThat(e.errnum()).isEqualTo(Errno.EINVAL);
    assertThat(e.getMessage()).isEqualTo(S + message);
    assertUnchanged(f);
  }

  @Test
  void tasksExited_nothingBeingReleased_einval() {
    ShellFixture f = new ShellFixture("0-1");
    CompletableFuture<?> g = f.plugin.tasksExited(IdSet.of(1));
    f.settle();
    ShellException e = (ShellException) error(g);
    assertThat(e.errnum()).isEqualTo(Errno.EINVAL);
    assertThat(e.getMessage())
        .isEqualTo(S + "task-exit: ranks 1 (expected: ranks being released: none)");
    assertThat(f.jm.releases).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          realloc        | {"spec_add":{}}
          release        | {"ranks":"3"}
          task-exit      | {"ranks":"3"}
          realloc_cancel | {"matchtag":1}
          """)
  void service_otherUser_epermNoChange(String method, String payload) throws Exception {
    ShellFixture f = shrinking();
    CompletableFuture<Message> g = f.call(f.as(BOB), method, Json.mapper().readTree(payload));
    RpcException e = (RpcException) error(g);
    assertThat(e.errnum()).isEqualTo(Errno.EPERM);
    assertThat(e.getMessage())
        .isEqualTo(
            S
                + method
                + ": user 1001 may not act on job \u01922qSNrX7Ky (expected: user 1000 or the"
                + " instance owner)");
    assertUnchanged(f);
  }

  @Test
  void service_instanceOwner_allowed() {
    ShellFixture f = shrinking();
    CompletableFuture<Message> g =
        f.call(
            f.hub.attach(io.fluxdrm.rpc.Credentials.owner(ShellFixture.OWNER)),
            "task-exit",
            Json.object().put("ranks", "3"));
    assertThat(answer(g)).isEqualTo(Json.object());
    assertThat(f.jm.releases).hasSize(1);
  }

  @Test
  void javaApi_noSpecs_eprotoNothingSent() {
    ShellFixture f = new ShellFixture("0-1");
    CompletableFuture<Answer> g = f.plugin.realloc(null, null, null);
    f.settle();
    ShellException e = (ShellException) error(g);
    assertThat(e.errnum()).isEqualTo(Errno.EPROTO);
    assertThat(e.getMessage())
        .isEqualTo(S + "realloc: /: no spec_add and no spec_sub (expected: at least one)");
    assertThat(f.jm.reallocs).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          {"alloc_id":1,"type":7}                 | /type: 7 (expected: 0 to 3)
          {"alloc_id":1}                          | /type: null (expected: 0 to 3)
          {"alloc_id":-1,"type":1}                | /alloc_id: -1 (expected: an integer from 0 to 18446744073709551615)
          {"alloc_id":1,"type":1,"note":5}        | /note: 5 (expected: a string)
          {"alloc_id":1,"type":0}                 | /: SUCCESS without R_delta_add or R_delta_sub (expected: one of them)
          ADD_OVERLAP                             | /R_delta_add: rank2/core[0-3] overlaps the job's rank[0-3]/core[0-3] (expected: new resources)
          SUB_FOREIGN                             | /R_delta_sub: rank5/core[0-3] is not held by the job (expected: a subset of rank[0-2]/core[0-3])
          SUB_AGAIN                               | /R_delta_sub: rank3/core[0-3] is not held by the job (expected: a subset of rank[0-2]/core[0-3])
          """)
  void realloc_badAnswerFromJobManager_eprotoNoChange(String answer, String message)
      throws Exception {
    ShellFixture f = shrinking();
    CompletableFuture<Answer> g = f.plugin.realloc(spec(1), null, null);
    f.settle();
    ObjectNode a =
        switch (answer) {
          case "ADD_OVERLAP" -> delta("R_delta_add", "2");
          case "SUB_FOREIGN" -> delta("R_delta_sub", "5");
          case "SUB_AGAIN" -> delta("R_delta_sub", "3");
          default -> (ObjectNode) Json.mapper().readTree(answer);
        };
    f.jm.answerRaw(a);
    f.settle();
    ShellException e = (ShellException) error(g);
    assertThat(e.errnum()).isEqualTo(Errno.EPROTO);
    assertThat(e.getMessage()).isEqualTo("job-manager.realloc: bad answer: " + message);
    assertThat(f.plugin.r()).isEqualTo(ranks("0-3"));
    assertThat(f.plugin.releasing()).isEqualTo(ranks("3"));
  }

  private static ObjectNode delta(String key, String idset) {
    ObjectNode a = Json.object().put("alloc_id", 4).put("type", 0);
    a.set(key, ranks(idset).toJson());
    return a;
  }
}
