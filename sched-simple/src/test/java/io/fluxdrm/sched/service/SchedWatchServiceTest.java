package io.fluxdrm.sched.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.client.RpcStream;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.SchedulerOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code sched.watch} (D427): the instance owner's stream of the scheduler's allocation decisions,
 * first what is held, then each alloc, realloc and free, as the payloads the scheduler sent.
 */
@Timeout(10)
class SchedWatchServiceTest {
  private final SchedFixture fx =
      new SchedFixture(SchedFixture.pool(4, 2), SchedulerOptions.defaults());

  @Test
  void watch_owner_snapshotThenEveryDecision() {
    SchedulerFacingJobManager jm = fx.jobManager();
    fx.start();
    jm.alloc(1, SchedulerFacingJobManager.nodes(1, 1, 2));
    fx.settle();
    List<ObjectNode> seen = new ArrayList<>();
    FluxHandle w = fx.hub.attach(Credentials.owner(SchedFixture.OWNER));
    RpcStream s = w.stream("sched.watch", Json.object(), m -> seen.add(m.json()), null);
    fx.settle();
    assertThat(seen).hasSize(1);
    ObjectNode snap = seen.get(0);
    assertThat(ResourceSet.fromJson(snap.get("pool")).summary()).isEqualTo("rank[0-3]/core[0-1]");
    assertThat(snap.get("jobs")).hasSize(1);
    assertThat(snap.get("jobs").get(0).get("id").asLong()).isEqualTo(1);
    assertThat(ResourceSet.fromJson(snap.get("jobs").get(0).get("R")).summary())
        .isEqualTo("rank0/core[0-1]");

    jm.alloc(2, SchedulerFacingJobManager.nodes(2, 1, 2));
    fx.settle();
    jm.alloc(3, SchedulerFacingJobManager.nodes(9, 1, 2));
    fx.settle();
    ResourceSet r2 = ResourceSet.fromJson(seen.get(1).get("payload").get("R"));
    jm.free(2, r2, true);
    fx.settle();
    jm.realloc(1, SchedulerFacingJobManager.nodes(1, 1, 2), null, null);
    fx.settle();
    List<String> items = new ArrayList<>();
    for (ObjectNode o : seen.subList(1, seen.size())) {
      ObjectNode p = (ObjectNode) o.get("payload");
      items.add(
          o.get("topic").asText()
              + " "
              + (p.has("id")
                  ? p.get("id").asLong()
                  : o.get("id").asLong() + " " + o.get("request").asText())
              + (p.has("final")
                  ? " final " + p.get("final").asBoolean()
                  : " type " + p.get("type").asInt()));
    }
    assertThat(items)
        .containsExactly(
            "sched.alloc 2 type 0",
            "sched.alloc 3 type 2",
            "sched.free 2 final true",
            "sched.realloc 1 grow type 0");
    assertThat(ResourceSet.fromJson(seen.get(4).get("payload").get("R_delta_add")).nnodes())
        .isEqualTo(1);
    assertThat(r2.summary()).isEqualTo("rank[1-2]/core[0-1]");
    assertThat(s.done()).isNotDone();
    fx.checkInvariants();
  }

  /**
   * A job manager that restarts without the grant it never recorded (D502): its hello frees the
   * grant with no {@code sched.free}, so the watcher gets what is held after the hello (D521), and
   * nothing it follows still holds the freed rank (the chaos soak saw a rank "handed out twice").
   */
  @Test
  void watch_jobManagerHelloAgain_watcherGetsWhatIsHeldNow() {
    SchedulerFacingJobManager jm = fx.jobManager();
    fx.start();
    CompletableFuture<Message> a = jm.alloc(1, SchedulerFacingJobManager.nodes(1, 1, 2));
    fx.settle();
    ResourceSet r1 = ResourceSet.fromJson(a.join().json().get("R"));
    List<ObjectNode> seen = new ArrayList<>();
    FluxHandle w = fx.hub.attach(Credentials.owner(SchedFixture.OWNER));
    w.stream("sched.watch", Json.object(), m -> seen.add(m.json()), null);
    fx.settle();
    jm.realloc(1, SchedulerFacingJobManager.nodes(1, 1, 2), null, null);
    fx.settle();
    assertThat(seen).hasSize(2);
    assertThat(seen.get(1).get("topic").asText()).isEqualTo("sched.realloc");

    jm.h.close();
    fx.settle();
    SchedulerFacingJobManager jm2 =
        new SchedulerFacingJobManager(fx.hub.attach(Credentials.owner(SchedFixture.OWNER)));
    jm2.runningJob(1, null).set("R", r1.toJson());
    jm2.register();
    fx.advance(Duration.ofSeconds(2));
    assertThat(jm2.hellos).isEqualTo(1);
    assertThat(seen).hasSize(3);
    ObjectNode again = seen.get(2);
    assertThat(again.get("topic").asText()).isEqualTo("job-manager.sched-hello");
    JsonNode held = again.get("payload");
    assertThat(ResourceSet.fromJson(held.get("pool")).summary()).isEqualTo("rank[0-3]/core[0-1]");
    assertThat(held.get("jobs")).hasSize(1);
    assertThat(ResourceSet.fromJson(held.get("jobs").get(0).get("R")).summary())
        .isEqualTo(r1.summary());
    fx.checkInvariants();
  }

  /**
   * D520: {@code RpcStream.cancel} sends the watch's own cancel, {@code sched.watch-cancel}; the
   * stream ends with ENODATA, the scheduler keeps no watcher, no {@code sched.cancel} reaches it,
   * and a later decision goes to no one. Another sender's cancel of the same matchtag ends nothing.
   */
  @Test
  void watch_canceled_endsCleanly_noWatcherLeft_noSchedCancel() {
    SchedulerFacingJobManager jm = fx.jobManager();
    fx.start();
    List<String> in = new ArrayList<>();
    fx.schedHandle.addTap(
        (d, m) -> {
          if (d == io.fluxdrm.rpc.client.MessageTap.Direction.IN
              && m.type() == io.fluxdrm.rpc.MessageType.REQUEST) {
            in.add(m.topic());
          }
        });
    List<ObjectNode> seen = new ArrayList<>();
    FluxHandle w = fx.hub.attach(Credentials.owner(SchedFixture.OWNER));
    RpcStream s = w.stream("sched.watch", Json.object(), m -> seen.add(m.json()), null);
    FluxHandle other = fx.hub.attach(Credentials.owner(SchedFixture.OWNER));
    RpcStream o = other.stream("sched.watch", Json.object(), m -> {}, null);
    fx.settle();
    assertThat(fx.svc.watches()).isEqualTo(2);
    // the other watcher's cancel names its own matchtag, the same number as w's
    assertThat(o.matchtag().join()).isEqualTo(s.matchtag().join());
    o.cancel();
    fx.settle();
    assertThat(o.done()).isCompleted();
    assertThat(s.done()).isNotDone();
    s.cancel();
    fx.settle();
    assertThat(s.done()).isCompleted();
    s.done().join();
    assertThat(fx.svc.watches()).isZero();
    assertThat(in).contains("sched.watch-cancel").doesNotContain("sched.cancel");
    jm.alloc(1, SchedulerFacingJobManager.nodes(1, 1, 2));
    fx.settle();
    assertThat(seen).hasSize(1);
    fx.checkInvariants();
  }

  @Test
  void watch_notOwner_eperm() {
    fx.jobManager();
    fx.start();
    RpcStream s = fx.user(1000).stream("sched.watch", Json.object(), m -> {}, null);
    fx.settle();
    assertThat(s.done()).isCompletedExceptionally();
    Throwable c =
        s.done().handle((v, e) -> e instanceof CompletionException ? e.getCause() : e).join();
    assertThat(((RpcException) c).errnum()).isEqualTo(Errno.EPERM);
  }
}
