package io.fluxdrm.showcase.replay;

import static io.fluxdrm.jobmanager.JmFixture.ALICE;
import static io.fluxdrm.jobmanager.JmFixture.BOB;
import static io.fluxdrm.jobmanager.JmFixture.answer;
import static io.fluxdrm.jobmanager.JmFixture.error;
import static io.fluxdrm.jobmanager.JmFixture.nodes;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.MessageType;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.client.MessageTap;
import io.fluxdrm.rpc.transcript.ReplayRegistry;
import io.fluxdrm.rpc.transcript.ReplayResult;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.SchedulerOptions;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The golden transcript of a shell plugin's own service ({@code 1000-shell-f2}): an application
 * grows, is denied, cancels a waiting grow, shrinks, hands the node back, reports a task exit for a
 * rank not being released, and another user is refused, all against the real job manager and
 * sched-simple; the transcript replays against a fresh {@code shell} world of {@link
 * ShellReplayProvider}, directly and through {@code fluxdrm replay}'s registry.
 */
@Timeout(20)
class ShellTranscriptTest {
  @TempDir Path dir;

  private int lastTag;

  @Test
  void shellService_recordedScenario_replaysAgainstFreshShellWorld() {
    ChainFixture c = ChainFixture.registered(dir, SchedulerOptions.defaults());
    ChainFixture.Job a = c.shell(JobManagerReplayProvider.JOB_A, ALICE);
    c.shell(JobManagerReplayProvider.JOB_B, BOB);
    FluxHandle app = c.app(a);
    app.tap(
        (d, m) -> {
          if (d == MessageTap.Direction.OUT && m.type() == MessageType.REQUEST) {
            lastTag = m.matchtag();
          }
        });
    String svc = a.plugin.serviceName() + ".";
    assertThat(svc).isEqualTo("1000-shell-f2.");

    CompletableFuture<Message> grow = rpc(c, app, svc + "realloc", spec("spec_add", 1));
    assertThat(answer(grow).get("type").asInt()).isZero();
    assertThat(answer(grow).get("R").toString()).contains("node[0,2]");
    CompletableFuture<Message> deny = rpc(c, app, svc + "realloc", spec("spec_add", 4));
    assertThat(answer(deny).get("type").asInt()).isEqualTo(1);
    CompletableFuture<Message> waits = rpc(c, app, svc + "realloc", spec("spec_add", 2));
    assertThat(waits).isNotDone();
    rpc(c, app, svc + "realloc_cancel", Json.object().put("matchtag", lastTag));
    assertThat(answer(waits).get("type").asInt()).isEqualTo(2);
    ObjectNode shrink = spec("spec_sub", 1);
    shrink.set("R", a.plugin.r().copyRanks(io.fluxdrm.rset.IdSet.of(2)).toJson());
    CompletableFuture<Message> sub = rpc(c, app, svc + "realloc", shrink);
    assertThat(ResourceSet.fromJson(answer(sub).get("R_delta_sub")).summary())
        .isEqualTo("rank2/core[0-3]");
    CompletableFuture<Message> badExit =
        rpc(c, app, svc + "task-exit", Json.object().put("ranks", "3"));
    assertThat(error(badExit).errnum()).isEqualTo(Errno.EINVAL);
    CompletableFuture<Message> rel = rpc(c, app, svc + "release", Json.object().put("ranks", "2"));
    assertThat(ResourceSet.fromJson(answer(rel).get("R")).summary()).isEqualTo("rank0/core[0-3]");
    CompletableFuture<Message> bob =
        rpc(
            c,
            c.f.hub.attach(io.fluxdrm.rpc.Credentials.user(BOB)),
            svc + "realloc",
            spec("spec_add", 1));
    assertThat(error(bob).errnum()).isEqualTo(Errno.EPERM);
    c.check();

    Path golden =
        ChainGoldens.check("shell-service", a.transcript(), new ShellReplayProvider().factory());
    ReplayResult viaRegistry = ReplayRegistry.load().run("shell", golden);
    assertThat(viaRegistry.same()).as(viaRegistry.unifiedDiff()).isTrue();
    assertThat(viaRegistry.responses()).isEqualTo(8);
  }

  private static ObjectNode spec(String key, int n) {
    ObjectNode p = Json.object();
    p.set(key, nodes(n));
    return p;
  }

  private static CompletableFuture<Message> rpc(
      ChainFixture c, FluxHandle h, String topic, ObjectNode payload) {
    CompletableFuture<Message> f = h.rpc(topic, payload);
    c.f.settle();
    return f;
  }
}
