package io.fluxdrm.jobmanager;

import static io.fluxdrm.jobmanager.JmFixture.ALICE;
import static io.fluxdrm.jobmanager.JmFixture.answer;
import static io.fluxdrm.jobmanager.JmFixture.error;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Bad requests to {@code job-manager.realloc} and {@code job-manager.release}: each refused with
 * the right errno (or the scheduler's DENY passed back) and no change of state anywhere.
 */
@Timeout(20)
class JobManagerBadInputTest {
  @TempDir Path dir;

  private static final String NODE = JmFixture.nodes(1).toString();

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          realloc_noId_eproto          | 1000 | job-manager.realloc | {"spec_add": NODE}                     | 71 | job-manager.realloc: /id: missing (expected: an integer from 0 to 18446744073709551615)
          realloc_negativeId_eproto    | 1000 | job-manager.realloc | {"id": -1, "spec_add": NODE}           | 71 | job-manager.realloc: /id: -1 (expected: an integer from 0 to 18446744073709551615)
          realloc_textId_eproto        | 1000 | job-manager.realloc | {"id": "ID", "spec_add": NODE}         | 71 | job-manager.realloc: /id: "ID" (expected: an integer from 0 to 18446744073709551615)
          realloc_noSpec_eproto        | 1000 | job-manager.realloc | {"id": ID}                             | 71 | job-manager.realloc: /: no spec_add and no spec_sub (expected: at least one)
          realloc_specNotObject_eproto | 1000 | job-manager.realloc | {"id": ID, "spec_add": 3}              | 71 | job-manager.realloc: /spec_add: number (expected: a jobspec object)
          realloc_unknownKey_eproto    | 1000 | job-manager.realloc | {"id": ID, "spec_add": NODE, "x": 1}   | 71 | job-manager.realloc: /x: unknown key (expected: one of [R, id, spec_add, spec_sub])
          realloc_badR_eproto          | 1000 | job-manager.realloc | {"id": ID, "spec_sub": NODE, "R": {"version": 9}} | 71 | job-manager.realloc: /R: R: /version: invalid version=9 (expected: 1)
          realloc_unknownJob_enoent    | 1000 | job-manager.realloc | {"id": 999, "spec_add": NODE}          | 2  | job-manager.realloc: job 999 unknown (expected: a running job)
          realloc_notCallersJob_eperm  | 1001 | job-manager.realloc | {"id": ID, "spec_add": NODE}           | 1  | job-manager.realloc: user 1001 may not act on job ID (expected: its owner or the instance owner)
          realloc_badJobspec_schedulerErrorPassedBack | 1000 | job-manager.realloc | {"id": ID, "spec_add": {"version": 1}} | 71 | sched.realloc: /spec_add/attributes: missing (expected: present)
          release_noRanks_eproto       | 1000 | job-manager.release | {"id": ID, "final": false}             | 71 | job-manager.release: /: ranks and R: neither given (expected: exactly one)
          release_finalTrue_einval     | 1000 | job-manager.release | {"id": ID, "ranks": "0", "final": true} | 22 | job-manager.release: /final: true (expected: false; a job ends by finishing)
          release_badRanks_eproto      | 1000 | job-manager.release | {"id": ID, "ranks": "3,1"}             | 71 | job-manager.release: /ranks:
          release_notCallersJob_eperm  | 1001 | job-manager.release | {"id": ID, "ranks": "0"}               | 1  | job-manager.release: user 1001 may not act on job ID
          release_notReleasing_einval  | 1000 | job-manager.release | {"id": ID, "ranks": "0"}               | 22 | job-manager.release: ranks 0 (expected: ranks the job was granted to release: none)
          """)
  void request_bad_refusedWithoutStateChange(
      String name, int uid, String topic, String payload, int errnum, String message) {
    JmFixture f = JmFixture.started(dir, 4, 4);
    long a = f.submitNodes(2, ALICE);
    String before = f.eventlogText(a);
    ResourceSet schedBefore = f.schedView(a);
    ObjectNode p = parse(payload.replace("NODE", NODE).replace("ID", Long.toString(a)));
    CompletableFuture<Message> r = f.shell(uid).rpc(topic, p);
    f.settle();
    RpcException e = error(r);
    assertThat(e.errnum()).as(e.getMessage()).isEqualTo(errnum);
    assertThat(e.getMessage()).startsWith(message.replace("ID", Long.toString(a)));
    assertThat(f.eventlogText(a)).isEqualTo(before);
    assertThat(f.jm.pendingReallocs()).isZero();
    assertThat(f.sched.core().pendingReallocs()).isZero();
    assertThat(f.schedView(a)).isEqualTo(schedBefore);
    f.checkAgree(a);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          shrinkMoreNodesThanHeld_denied | 3 |
          shrinkRankNotHeld_denied       | 1 | 3
          """)
  void realloc_specSubNotHeld_schedulerDenyPassedBackNoChange(String name, int count, String rank) {
    JmFixture f = JmFixture.started(dir, 4, 4);
    long a = f.submitNodes(2, ALICE);
    String before = f.eventlogText(a);
    ResourceSet r =
        rank == null
            ? null
            : ResourceSet.of(
                IdSet.parse(rank), IdSet.range(0, 3), IdSet.empty(), Hostlist.parse("node" + rank));
    FluxHandle shell = f.shell(ALICE);
    CompletableFuture<Message> s = JmFixture.realloc(shell, a, null, JmFixture.nodes(count), r);
    f.settle();
    ObjectNode ans = answer(s);
    assertThat(ans.get("type").asInt()).isEqualTo(1);
    assertThat(ans.get("note").asText()).contains("(expected: a subset of");
    assertThat(f.eventlogText(a)).isEqualTo(before);
    assertThat(f.jm.releasing(a).orElseThrow().isEmpty()).isTrue();
    f.checkAgree(a);
  }

  private static ObjectNode parse(String s) {
    try {
      return (ObjectNode) Json.mapper().readTree(s);
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }
}
