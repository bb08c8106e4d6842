package io.fluxdrm.jobmanager.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.testkit.InvariantsExtension;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The job manager core as step tables ({@code event | decisions | state}), one test per part of
 * flux-core's job manager: alloc, annotate, event (raise), realloc, release, the scheduler
 * interface's teardown and hello, and restart. The invariants of {@link Invariants} hold after
 * every step.
 */
class JobManagerCoreTest {
  @RegisterExtension final InvariantsExtension inv = new InvariantsExtension();

  private Harness harness() {
    return new Harness(Harness.pool(4, 2), inv);
  }

  /** Job 1 submitted, the scheduler online, job 1 holding rank0. */
  private Harness oneRunning() {
    Harness h = harness();
    h.run(
        """
        hello              | | offline
        ready              | respond count=0 | online
        submit 1000        | log 1 submit; submitted 1; sched.alloc 1 | online; 1 pending
        success 1 0        | log 1 alloc; allocated 1 | online; 1 held rank0/core[0-1]
        """);
    return h;
  }

  /**
   * Issue 29, finding 9: the job manager's log named job 1 "1" where the scheduler's, on the next
   * line, named it "ƒ2". Logs name jobs in F58, as flux-core's own logs do (decision D497).
   */
  @Test
  void logLines_nameJobsInF58() {
    Harness h = oneRunning();
    List<String> logs = new java.util.ArrayList<>();
    h.run(
        "submit 1000 | log 2 submit; submitted 2; sched.alloc 2 | online; 1 held rank0/core[0-1]; 2 pending");
    h.run(
        "deny 2 too big | log 2 exception; failed 2: sched.alloc 2: denied: too big | online; 1 held rank0/core[0-1]; 2 ended");
    for (Decision d : h.last) {
      if (d instanceof Decision.Log l) {
        logs.add(l.text());
      }
    }
    assertThat(logs).containsExactly("alloc \u01923: denied: too big");
  }

  @Test
  void alloc_queuedWhileOffline_sentAtReady_successRecorded() {
    Harness h = harness();
    h.run(
        """
        submit 1000        | log 1 submit; submitted 1 | offline; 1 queued
        submit 1001        | log 2 submit; submitted 2 | offline; 1 queued; 2 queued
        hello              | | offline; 1 queued; 2 queued
        ready              | respond count=2; sched.alloc 1; sched.alloc 2 | online; 1 pending; 2 pending
        success 2 1-2      | log 2 alloc; allocated 2 | online; 1 pending; 2 held rank[1-2]/core[0-1]
        # RFC 27 digest §4: an answer for a job with no alloc pending is ignored
        success 2 3        | | online; 1 pending; 2 held rank[1-2]/core[0-1]
        success 9 3        | | online; 1 pending; 2 held rank[1-2]/core[0-1]
        """);
    assertThat(inv.checks()).isEqualTo(7);
  }

  @Test
  void alloc_denyEndsTheJob_cancelRequeues_badTypeFails() {
    Harness h = harness();
    h.run(
        """
        hello              | | offline
        ready              | respond count=0 | online
        submit 1000        | log 1 submit; submitted 1; sched.alloc 1 | online; 1 pending
        submit 1000        | log 2 submit; submitted 2; sched.alloc 2 | online; 1 pending; 2 pending
        submit 1000        | log 3 submit; submitted 3; sched.alloc 3 | online; 1 pending; 2 pending; 3 pending
        deny 1 too big     | log 1 exception; failed 1: sched.alloc 1: denied: too big | online; 1 ended; 2 pending; 3 pending
        cancel 2           | | online; 1 ended; 2 queued; 3 pending
        badalloc 3         | failed 3: sched.alloc 3: /type: 7 (expected: 0, 1, 2 or 3) | online; 1 ended; 2 queued; 3 queued
        # the next ready sends the queued jobs again, never the ended one
        hello              | | offline; 1 ended; 2 queued; 3 queued
        ready              | respond count=2; sched.alloc 2; sched.alloc 3 | online; 1 ended; 2 pending; 3 pending
        """);
  }

  @Test
  void annotate_mergedKeptInAllocEntry_clearedOnCancel() {
    Harness h = harness();
    h.run(
        """
        hello                                   | | offline
        ready                                   | respond count=0 | online
        submit 1000                             | log 1 submit; submitted 1; sched.alloc 1 | online; 1 pending
        annotate 1 {"sched":{"reason":"wait"}}  | | online; 1 pending
        cancel 1                                | | online; 1 queued
        ready                                   | respond count=1; sched.alloc 1 | online; 1 pending
        annotate 1 {"sched":{"t":1,"x":2}}      | | online; 1 pending
        annotate 1 {"sched":{"x":null}}         | | online; 1 pending
        annotate 1 []                           | | online; 1 pending
        success 1 0 {"user":{"k":"v"}}          | log 1 alloc; allocated 1 | online; 1 held rank0/core[0-1]
        """);
    assertThat(h.core.job(1).orElseThrow().annotations())
        .hasToString("{\"sched\":{\"t\":1},\"user\":{\"k\":\"v\"}}");
    assertThat(h.eventlogs.get(1L).get(1).context().get("annotations"))
        .hasToString("{\"sched\":{\"t\":1},\"user\":{\"k\":\"v\"}}");
  }

  @Test
  void realloc_growAndShrink_appliedToRAndEventlog_thenReleasedAndFreed() {
    Harness h = oneRunning();
    h.run(
        """
        grow 1 1-2         | log 1 resource-update; respond alloc_id=1 type=SUCCESS R_delta_add=rank[1-2]/core[0-1] R=rank[0-2]/core[0-1] | online; 1 held rank[0-2]/core[0-1]
        shrink 1 2         | log 1 resource-update; respond alloc_id=1 type=SUCCESS R_delta_sub=rank2/core[0-1] R=rank[0-2]/core[0-1] | online; 1 held rank[0-2]/core[0-1] releasing rank2/core[0-1]
        # RFC 51 "Background": only ranks a granted shrink took away may be released
        release 1 1        | refused EINVAL: job-manager.release: ranks 1 (expected: ranks the job was granted to release: 2) | online; 1 held rank[0-2]/core[0-1] releasing rank2/core[0-1]
        release 1 2        | log 1 release; sched.free 1 rank2/core[0-1]; respond R=rank[0-1]/core[0-1] | online; 1 held rank[0-1]/core[0-1]
        finish 1           | log 1 release; log 1 free; sched.free 1 rank[0-1]/core[0-1] final | online; 1 ended
        finish 1           | refused: finish 1: job holds no resources (expected: a running job) | online; 1 ended
        """);
  }

  @Test
  void realloc_badGrants_refusedAsEproto_nothingRecorded() {
    Harness h = oneRunning();
    h.run(
        """
        grow 1 0-1         | fail EPROTO: sched.realloc: bad answer from the scheduler: /R_delta_add: rank[0-1]/core[0-1] overlaps the job's rank0/core[0-1] (expected: new resources) | online; 1 held rank0/core[0-1]
        shrink 1 0         | log 1 resource-update; respond alloc_id=1 type=SUCCESS R_delta_sub=rank0/core[0-1] R=rank0/core[0-1] | online; 1 held rank0/core[0-1] releasing rank0/core[0-1]
        shrink 1 0         | fail EPROTO: sched.realloc: bad answer from the scheduler: /R_delta_sub: rank0/core[0-1] is not held by the job (expected: a subset of rank0/core[0-1]) | online; 1 held rank0/core[0-1] releasing rank0/core[0-1]
        """);
  }

  @Test
  void realloc_denyCancelUnsupportedAndErrors_answeredWithoutChange() {
    Harness h = oneRunning();
    h.run(
        """
        rdeny 1 no room    | respond alloc_id=1 type=DENY note="no room" R=rank0/core[0-1] | online; 1 held rank0/core[0-1]
        rcancel 1          | respond alloc_id=1 type=CANCEL R=rank0/core[0-1] | online; 1 held rank0/core[0-1]
        rfail 1 ENOSYS     | respond alloc_id=0 type=UNSUPPORTED note="scheduler does not implement sched.realloc (RFC 27 only)" R=rank0/core[0-1] | online; 1 held rank0/core[0-1]
        rfail 1 EIO        | fail EIO: EIO from the scheduler | online; 1 held rank0/core[0-1]
        # an answer for a job that ended meanwhile changes nothing
        finish 1           | log 1 release; log 1 free; sched.free 1 rank0/core[0-1] final | online; 1 ended
        grow 1 1           | respond alloc_id=1 type=SUCCESS R_delta_add=rank1/core[0-1] | online; 1 ended
        """);
  }

  @Test
  void schedulerTeardownAndHello_pendingAllocsSentAgain_hello_reportsHeldJobs() {
    Harness h = oneRunning();
    h.run(
        """
        submit 1001        | log 2 submit; submitted 2; sched.alloc 2 | online; 1 held rank0/core[0-1]; 2 pending
        # RFC 27 digest §11: an error answer or the scheduler's disconnect takes the interface down
        down sched.alloc: ENOSYS | | offline; 1 held rank0/core[0-1]; 2 queued
        success 2 1        | | offline; 1 held rank0/core[0-1]; 2 queued
        submit 1001        | log 3 submit; submitted 3 | offline; 1 held rank0/core[0-1]; 2 queued; 3 queued
        hello              | hello 1 rank0/core[0-1] | offline; 1 held rank0/core[0-1]; 2 queued; 3 queued
        ready              | respond count=2; sched.alloc 2; sched.alloc 3 | online; 1 held rank0/core[0-1]; 2 pending; 3 pending
        # a second hello starts afresh: the allocs in flight are forgotten, sent at the next ready
        hello              | hello 1 rank0/core[0-1] | offline; 1 held rank0/core[0-1]; 2 queued; 3 queued
        ready              | respond count=2; sched.alloc 2; sched.alloc 3 | online; 1 held rank0/core[0-1]; 2 pending; 3 pending
        """);
  }

  @Test
  void restart_midShrink_rebuildsRAndReleasing_schedulerResyncsByHello() {
    Harness h = oneRunning();
    h.run(
        """
        grow 1 1-3         | log 1 resource-update; respond alloc_id=1 type=SUCCESS R_delta_add=rank[1-3]/core[0-1] R=rank[0-3]/core[0-1] | online; 1 held rank[0-3]/core[0-1]
        shrink 1 3         | log 1 resource-update; respond alloc_id=1 type=SUCCESS R_delta_sub=rank3/core[0-1] R=rank[0-3]/core[0-1] | online; 1 held rank[0-3]/core[0-1] releasing rank3/core[0-1]
        submit 1001        | log 2 submit; submitted 2; sched.alloc 2 | online; 1 held rank[0-3]/core[0-1] releasing rank3/core[0-1]; 2 pending
        raise 1 node lost  | log 1 exception; respond {} | online; 1 held rank[0-3]/core[0-1] releasing rank3/core[0-1]; 2 pending
        restart            | | offline; 1 held rank[0-3]/core[0-1] releasing rank3/core[0-1]; 2 queued
        hello              | hello 1 rank[0-3]/core[0-1] | offline; 1 held rank[0-3]/core[0-1] releasing rank3/core[0-1]; 2 queued
        ready              | respond count=1; sched.alloc 2 | online; 1 held rank[0-3]/core[0-1] releasing rank3/core[0-1]; 2 pending
        release 1 3        | log 1 release; sched.free 1 rank3/core[0-1]; respond R=rank[0-2]/core[0-1] | online; 1 held rank[0-2]/core[0-1]; 2 pending
        """);
    // restart hands out ids after the highest one recovered
    h.run(
        """
        submit 1000        | log 3 submit; submitted 3; sched.alloc 3 | online; 1 held rank[0-2]/core[0-1]; 2 pending; 3 pending
        """);
  }

  @Test
  void register_onlyBeforeTheScheduler_andNeverTwice() {
    Harness h = harness();
    h.run(
        """
        register 5 1000 0-1 | log 5 submit; log 5 alloc | offline; 5 held rank[0-1]/core[0-1]
        register 5 1000 2   | refused: register 5: job exists (expected: new id) | offline; 5 held rank[0-1]/core[0-1]
        hello               | hello 5 rank[0-1]/core[0-1] | offline; 5 held rank[0-1]/core[0-1]
        ready               | respond count=0 | online; 5 held rank[0-1]/core[0-1]
        register 6 1000 2   | refused: register 6: scheduler already online (expected: register before its hello, or submit) | online; 5 held rank[0-1]/core[0-1]
        submit 1000         | log 6 submit; submitted 6; sched.alloc 6 | online; 5 held rank[0-1]/core[0-1]; 6 pending
        raise 9 x           | refused ENOENT: job-manager.raise: job 9 unknown | online; 5 held rank[0-1]/core[0-1]; 6 pending
        """);
  }
}
