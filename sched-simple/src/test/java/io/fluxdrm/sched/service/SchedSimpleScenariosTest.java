package io.fluxdrm.sched.service;

import static io.fluxdrm.sched.service.SchedFixture.answer;
import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.SchedulerOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The scenarios of flux-core's t2300 (its {@code t2300-sched-simple.t}) that no other test
 * re-expresses at the service level: a second scheduler refused (3), a fresh scheduler's free set
 * (5), cancel all (11, and the scheduler's side of 13), a reload with four running jobs (12) after
 * which the queue still drains (15). Setup as t2300: two ranks of two cores, one-core jobs.
 */
@Timeout(20)
class SchedSimpleScenariosTest {
  private static final ResourceSet POOL = SchedFixture.pool(2, 2);

  private static String summary(Message m, String key) {
    return ResourceSet.fromJson(m.json().get(key)).summary();
  }

  private static Message status(SchedFixture fx, SchedulerFacingJobManager jm) {
    CompletableFuture<Message> f = jm.h.rpc("sched.resource-status", Json.object());
    fx.settle();
    return f.join();
  }

  @Test
  void t2300_3_secondScheduler_serviceAddRefusedEexistFirstKeepsServing() {
    SchedFixture fx = new SchedFixture(POOL, SchedulerOptions.defaults());
    SchedulerFacingJobManager jm = fx.jobManager();
    fx.start();
    SchedService second = SchedService.standalone(POOL).build();
    CompletableFuture<Void> started =
        second.start(fx.hub.attach(Credentials.owner(SchedFixture.OWNER)));
    fx.settle();
    assertThat(started).isCompletedExceptionally();
    try {
      started.join();
    } catch (CompletionException e) {
      assertThat(e.getCause()).isInstanceOf(RpcException.class);
      assertThat(((RpcException) e.getCause()).errnum()).isEqualTo(Errno.EEXIST);
    }
    assertThat(jm.hellos).as("only the first scheduler said hello").isEqualTo(1);
    CompletableFuture<Message> a = jm.alloc(1, SchedulerFacingJobManager.slots(1, 1, 0));
    fx.settle();
    assertThat(summary(a.join(), "R")).isEqualTo("rank0/core0");
    fx.checkInvariants();
  }

  @Test
  void t2300_5_freshScheduler_wholePoolFree() {
    SchedFixture fx = new SchedFixture(POOL, SchedulerOptions.defaults());
    SchedulerFacingJobManager jm = fx.jobManager();
    fx.start();
    Message s = status(fx, jm);
    assertThat(summary(s, "all")).isEqualTo("rank[0-1]/core[0-1]");
    assertThat(summary(s, "allocated")).isEmpty();
    assertThat(summary(s, "down")).isEmpty();
    assertThat(fx.svc.core().pool().free().summary()).isEqualTo("rank[0-1]/core[0-1]");
    fx.checkInvariants();
  }

  @Test
  void t2300_11_13_cancelAll_freeSetFullAndNothingPending() {
    SchedFixture fx = new SchedFixture(POOL, SchedulerOptions.defaults());
    SchedulerFacingJobManager jm = fx.jobManager();
    fx.start();
    List<CompletableFuture<Message>> a = new ArrayList<>();
    for (int id = 1; id <= 5; id++) {
      a.add(jm.alloc(id, SchedulerFacingJobManager.slots(1, 1, 0)));
    }
    fx.settle();
    assertThat(a.get(4)).isNotDone();
    // flux cancel --all: the pending job is canceled, the running ones are freed
    jm.cancel(5);
    for (int id = 1; id <= 4; id++) {
      jm.free(id, ResourceSet.fromJson(answer(a.get(id - 1)).get("R")), true);
    }
    fx.settle();
    assertThat(answer(a.get(4)).get("type").asInt()).as("CANCEL (RFC 27)").isEqualTo(3);
    assertThat(fx.svc.core().pendingAllocs()).as("0 alloc requests pending").isEmpty();
    assertThat(summary(status(fx, jm), "allocated")).isEmpty();
    assertThat(fx.svc.core().pool().free().summary()).isEqualTo("rank[0-1]/core[0-1]");
    fx.checkInvariants();
  }

  @Test
  void t2300_12_15_reloadWithFourRunningJobs_allRestoredThenQueueDrains() {
    SchedFixture fx1 = new SchedFixture(POOL, SchedulerOptions.defaults());
    SchedulerFacingJobManager jm1 = fx1.jobManager();
    fx1.start();
    List<ResourceSet> held = new ArrayList<>();
    for (int id = 1; id <= 4; id++) {
      CompletableFuture<Message> f = jm1.alloc(id, SchedulerFacingJobManager.slots(1, 1, 0));
      fx1.settle();
      held.add(ResourceSet.fromJson(answer(f).get("R")));
    }
    fx1.checkInvariants();

    // the scheduler is reloaded: the job manager's hello lists the four jobs with their R
    SchedFixture fx2 = new SchedFixture(POOL, SchedulerOptions.defaults());
    SchedulerFacingJobManager jm2 = fx2.jobManager();
    for (int id = 1; id <= 4; id++) {
      jm2.runningJob(id, null).set("R", held.get(id - 1).toJson());
    }
    fx2.start();
    assertThat(jm2.raised).isEmpty();
    assertThat(fx2.svc.core().pool().free().isEmpty()).as("free set empty").isTrue();
    for (int id = 1; id <= 4; id++) {
      assertThat(fx2.svc.core().isRunning(id)).as("job %d still active", id).isTrue();
    }
    // the queue drains: a new job waits, then takes the core job 3 frees
    CompletableFuture<Message> a5 = jm2.alloc(5, SchedulerFacingJobManager.slots(1, 1, 0));
    fx2.settle();
    assertThat(a5).isNotDone();
    jm2.free(3, held.get(2), true);
    fx2.settle();
    assertThat(summary(a5.join(), "R")).isEqualTo(held.get(2).summary());
    for (int id : new int[] {1, 2, 4}) {
      jm2.free(id, held.get(id - 1), true);
    }
    jm2.free(5, held.get(2), true);
    fx2.settle();
    assertThat(fx2.svc.core().pool().free().summary()).isEqualTo("rank[0-1]/core[0-1]");
    fx2.checkInvariants();
  }
}
