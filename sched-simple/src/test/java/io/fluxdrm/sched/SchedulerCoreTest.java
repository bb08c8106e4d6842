package io.fluxdrm.sched;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The scenarios of flux-core's sched-simple tests (t2300, t2302, t2303, t2306) re-expressed as step
 * tables on the 2 ranks x 2 cores pool they use; the pool's invariants are checked after every
 * step.
 */
class SchedulerCoreTest {

  private static Harness twoByTwo(SchedulerOptions o) {
    return new Harness(Harness.pool(2, 2, 0), o);
  }

  private static final String FIVE_JOBS =
      """
      alloc 1 | success 1 rank0/core0 | rank0/core1 rank1/core[0-1]
      alloc 2 | success 2 rank1/core0 | rank[0-1]/core1
      alloc 3 | success 3 rank0/core1 | rank1/core1
      alloc 4 | success 4 rank1/core1 |
      alloc 5 |                       |
      """;

  @Test
  void alloc_fiveOneCoreJobsOnFourCores_worstFitAlternatesRanksAndFifthWaits() {
    Harness h = twoByTwo(SchedulerOptions.defaults());
    h.assertFree("rank[0-1]/core[0-1]");
    h.run(FIVE_JOBS);
    assertThat(h.core.pendingAllocs()).containsExactly(5L);
  }

  @Test
  void free_runningJobThree_fifthJobGetsItsCore() {
    Harness h = twoByTwo(SchedulerOptions.defaults());
    h.run(FIVE_JOBS);
    h.run(
        """
        free 3 | freed 3 rank0/core1 final; success 5 rank0/core1 |
        free 1 | freed 1 rank0/core0 final | rank0/core0
        free 2 | freed 2 rank1/core0 final | rank[0-1]/core0
        free 4 | freed 4 rank1/core1 final | rank0/core0 rank1/core[0-1]
        free 5 | freed 5 rank0/core1 final | rank[0-1]/core[0-1]
        """);
    assertThat(h.core.pool().jobs()).isEmpty();
  }

  @Test
  void cancel_pendingJob_answeredCancelAndQueueEmpty() {
    Harness h = twoByTwo(SchedulerOptions.defaults());
    h.run(FIVE_JOBS);
    h.run(
        """
        cancel 5 | cancel 5 |
        cancel 5 |          |
        cancel 9 |          |
        free 1   | freed 1 rank0/core0 final | rank0/core0
        """);
    assertThat(h.core.pendingAllocs()).isEmpty();
  }

  @Test
  void alloc_threeCoresPerSlotOnTwoCoreNodes_deniedUnsatisfiable() {
    Harness h = twoByTwo(SchedulerOptions.defaults());
    h.run(
        """
        alloc 1 c=3 | deny 1 unsatisfiable request: need 1 slot(s) of 3 core(s), only 0 such slot(s) available (total cores: 4) | rank[0-1]/core[0-1]
        """);
    assertThat(h.core.isRunning(1)).isFalse();
    assertThat(h.core.pendingAllocs()).isEmpty();
  }

  @Test
  void alloc_gpuWithoutGpus_deniedMentioningGpu() {
    Harness h = twoByTwo(SchedulerOptions.defaults());
    List<Decision> out = h.alloc(1, ResourceRequest.slots(1, 1).withGpusPerSlot(1));
    assertThat(Harness.describe(out))
        .containsExactly(
            "deny 1 unsatisfiable request: need 1 slot(s) with 1 GPU(s) each, only 0 available"
                + " (total GPUs: 0)");
  }

  @Test
  void alloc_infeasibleBehindBlockedHead_deniedWhenItReachesTheHead() {
    Harness h = twoByTwo(SchedulerOptions.defaults());
    h.run(
        """
        alloc 1 s=4 | success 1 rank[0-1]/core[0-1] |
        alloc 2     |                               |
        alloc 3 c=3 |                               |
        free 1      | freed 1 rank[0-1]/core[0-1] final; success 2 rank0/core0; deny 3 unsatisfiable request: need 1 slot(s) of 3 core(s), only 0 such slot(s) available (total cores: 4) | rank0/core1 rank1/core[0-1]
        """);
  }

  @Test
  void hello_fourRunningJobs_allRestoredAndNothingFree() {
    Harness h = twoByTwo(SchedulerOptions.defaults());
    h.run(FIVE_JOBS);
    List<SchedEvent.RunningJob> jobs =
        h.core.pool().jobs().stream()
            .map(
                id ->
                    new SchedEvent.RunningJob(
                        id,
                        16,
                        1000,
                        1.0,
                        h.core.pool().allocation(id).orElseThrow(),
                        IdSet.empty()))
            .toList();
    List<Decision> out = h.step(new SchedEvent.Hello(jobs));
    assertThat(Harness.describe(out))
        .containsExactly(
            "restored 1 rank0/core0",
            "restored 2 rank1/core0",
            "restored 3 rank0/core1",
            "restored 4 rank1/core1");
    h.assertFree("");
    assertThat(h.core.pendingAllocs()).as("pending allocs are sent again after ready").isEmpty();
  }

  @Test
  void hello_rankOutsidePool_jobGetsSchedulerRestartAndResourcesStayUsable() {
    Harness h = twoByTwo(SchedulerOptions.defaults());
    ResourceSet elsewhere = Harness.pool(3, 2, 0).copyRanks(IdSet.of(2));
    ResourceSet rank0 = h.core.pool().all().copyRanks(IdSet.of(0));
    List<Decision> out =
        h.step(
            new SchedEvent.Hello(
                List.of(
                    new SchedEvent.RunningJob(7, 16, 1000, 1.0, elsewhere, IdSet.empty()),
                    new SchedEvent.RunningJob(8, 16, 1000, 1.0, rank0, IdSet.empty()))));
    assertThat(Harness.describe(out))
        .containsExactly(
            "exception 7 scheduler-restart failed to reallocate R for running job",
            "restored 8 rank0/core[0-1]");
    assertThat(((Decision.JobException) out.get(0)).reason())
        .isEqualTo("rank 2 is not in the pool");
    h.run(
        """
        alloc 9 s=2 | success 9 rank1/core[0-1] |
        """);
  }

  @Test
  void hello_twoJobsClaimSameCore_secondGetsSchedulerRestart() {
    Harness h = twoByTwo(SchedulerOptions.defaults());
    ResourceSet rank0 = h.core.pool().all().copyRanks(IdSet.of(0));
    List<Decision> out =
        h.step(
            new SchedEvent.Hello(
                List.of(
                    new SchedEvent.RunningJob(1, 16, 1000, 1.0, rank0, IdSet.empty()),
                    new SchedEvent.RunningJob(2, 16, 1000, 1.0, rank0, IdSet.empty()))));
    assertThat(Harness.describe(out))
        .containsExactly(
            "restored 1 rank0/core[0-1]",
            "exception 2 scheduler-restart failed to reallocate R for running job");
  }

  @Test
  void hello_partiallyFreedJob_freeRanksNotAllocated() {
    Harness h = twoByTwo(SchedulerOptions.defaults());
    List<Decision> out =
        h.step(
            new SchedEvent.Hello(
                List.of(
                    new SchedEvent.RunningJob(
                        1, 16, 1000, 1.0, h.core.pool().all(), IdSet.of(1)))));
    assertThat(Harness.describe(out)).containsExactly("restored 1 rank0/core[0-1]");
    h.assertFree("rank1/core[0-1]");
  }

  @Test
  void prioritize_unlimitedMode_boostedFifthJobGetsFirstFreedCore() {
    Harness h = twoByTwo(SchedulerOptions.defaults().withQueueDepth(QueueDepth.unlimited()));
    h.run(FIVE_JOBS);
    h.run(
        """
        alloc 6    |                                 |
        prio 6=10,5=20 |                             |
        free 1     | freed 1 rank0/core0 final; success 5 rank0/core0 |
        free 2     | freed 2 rank1/core0 final; success 6 rank1/core0 |
        """);
  }

  @Test
  void alloc_priorityOrder_higherPriorityServedFirstThenLowerId() {
    Harness h = twoByTwo(SchedulerOptions.defaults());
    h.run(
        """
        alloc 1 s=4     | success 1 rank[0-1]/core[0-1] |
        alloc 3 p=10    |  |
        alloc 4 p=20    |  |
        alloc 2 p=20    |  |
        free 1          | freed 1 rank[0-1]/core[0-1] final; success 2 rank0/core0; success 4 rank1/core0; success 3 rank0/core1 | rank1/core1
        """);
  }

  @Test
  void alloc_headNeedsTwoCores_laterOneCoreJobBlocked() {
    Harness h = twoByTwo(SchedulerOptions.defaults());
    h.run(
        """
        alloc 1 s=3 | success 1 rank0/core[0-1] rank1/core0 | rank1/core1
        """);
    h.run(
        """
        alloc 2 c=2 |  | rank1/core1
        alloc 3     |  | rank1/core1
        free 1      | freed 1 rank0/core[0-1] rank1/core0 final; success 2 rank0/core[0-1]; success 3 rank1/core0 | rank1/core1
        """);
  }

  @Test
  void alloc_nodeCountRequests_wholeRanksWorstFit() {
    Harness h = new Harness(Harness.pool(4, 4, 0), SchedulerOptions.defaults());
    h.run(
        """
        alloc 1 n=1 s=1 c=2     | success 1 rank0/core[0-1] | rank0/core[2-3] rank[1-3]/core[0-3]
        alloc 2 n=2 s=2 c=1 x   | success 2 rank[1-2]/core[0-3] | rank0/core[2-3] rank3/core[0-3]
        alloc 3 n=2 s=1 c=1 x   |  | rank0/core[2-3] rank3/core[0-3]
        alloc 4 n=5 s=1 c=1     |  | rank0/core[2-3] rank3/core[0-3]
        free 2                  | freed 2 rank[1-2]/core[0-3] final; success 3 rank[1-2]/core[0-3]; deny 4 unsatisfiable request: need 5 node(s) with 1 cores each, only 4 eligible | rank0/core[2-3] rank3/core[0-3]
        """);
  }

  @Test
  void alloc_exclusiveWithoutNodeCount_eachSlotAWholeNode() {
    Harness h = new Harness(Harness.pool(3, 2, 0), SchedulerOptions.defaults());
    h.run(
        """
        alloc 1 s=2 x | success 1 rank[0-1]/core[0-1] | rank2/core[0-1]
        """);
    assertThat(((Decision.AllocSuccess) h.log.get(0)).r().nslots()).isEqualTo(2);
  }

  @Test
  void alloc_constraint_onlyMatchingRanks() {
    ResourceSet r = Harness.pool(3, 2, 0).withProperty("fast", IdSet.of(2));
    Harness h = new Harness(r, SchedulerOptions.defaults());
    h.run(
        """
        alloc 1 req={"properties":["fast"]}        | success 1 rank2/core0 | rank[0-1]/core[0-1] rank2/core1
        alloc 2 req={"hostlist":["node1"]} s=2     | success 2 rank1/core[0-1] | rank0/core[0-1] rank2/core1
        alloc 3 req={"properties":["slow"]}        | deny 3 unsatisfiable request: need 1 slot(s) of 1 core(s), only 0 such slot(s) available (total cores: 0) | rank0/core[0-1] rank2/core1
        """);
    assertThat(((Decision.AllocSuccess) h.log.get(0)).r().properties())
        .containsEntry("fast", IdSet.of(2));
  }

  @Test
  void alloc_gpus_lowestFreeGpusWithCores() {
    Harness h = new Harness(Harness.pool(2, 4, 2), SchedulerOptions.defaults());
    h.run(
        """
        alloc 1 s=2 c=1 g=1 | success 1 rank0/core[0-1],gpu[0-1] | rank0/core[2-3] rank1/core[0-3],gpu[0-1]
        alloc 2 s=1 c=1 g=1 | success 2 rank1/core0,gpu0 | rank0/core[2-3] rank1/core[1-3],gpu1
        alloc 3 s=2 c=1 g=1 |  | rank0/core[2-3] rank1/core[1-3],gpu1
        free 1              | freed 1 rank0/core[0-1],gpu[0-1] final; success 3 rank0/core[0-1],gpu[0-1] | rank0/core[2-3] rank1/core[1-3],gpu1
        """);
  }

  @Test
  void alloc_duration_expirationIsStartPlusDuration() {
    Harness h = twoByTwo(SchedulerOptions.defaults());
    List<Decision> out = h.alloc(1, ResourceRequest.slots(2, 1).withDuration(60));
    ResourceSet r = ((Decision.AllocSuccess) out.get(0)).r();
    assertThat(r.starttime()).isEqualTo(h.now);
    assertThat(r.expiration()).isEqualTo(h.now + 60);
    assertThat(r.nslots()).isEqualTo(2);
    assertThat(r.toString())
        .isEqualTo(
            "{\"version\":1,\"execution\":{\"R_lite\":[{\"rank\":\"0\",\"children\":{\"core\":"
                + "\"0-1\"}}],\"nslots\":2,\"starttime\":"
                + h.now
                + ",\"expiration\":"
                + (h.now + 60)
                + ",\"nodelist\":[\"node0\"]}}");
  }

  @Test
  void alloc_noDurationWithInstanceExpiration_expirationIsTheInstances() {
    Harness h = new Harness(Harness.pool(1, 2, 0).withTimes(10, 5000), SchedulerOptions.defaults());
    List<Decision> out = h.alloc(1, ResourceRequest.slots(1, 1));
    assertThat(((Decision.AllocSuccess) out.get(0)).r().expiration()).isEqualTo(5000);
  }

  @Test
  void alloc_instanceLocalPropertyAndScheduling_constraintUsesItJobRDoesNotCarryIt() {
    ResourceSet r =
        ResourceSet.parse(
            "{\"version\":1,\"execution\":{\"R_lite\":[{\"rank\":\"0-1\",\"children\":"
                + "{\"core\":\"0-1\"}}],\"nodelist\":[\"node[0-1]\"],\"properties\":"
                + "{\"+batch\":\"1\",\"xx\":\"1\"},\"starttime\":0,\"expiration\":0},"
                + "\"scheduling\":{\"test\":\"data\"}}");
    Harness h = new Harness(r, SchedulerOptions.defaults());
    List<Decision> out =
        h.alloc(
            1,
            ResourceRequest.slots(1, 1)
                .withConstraint(io.fluxdrm.rset.Constraint.parse("{\"properties\":[\"+batch\"]}")));
    ResourceSet got = ((Decision.AllocSuccess) out.get(0)).r();
    assertThat(got.summary()).isEqualTo("rank1/core0");
    assertThat(got.properties()).containsOnlyKeys("xx");
    assertThat(got.scheduling().path("test").asText()).isEqualTo("data");
    assertThat(h.core.pool().all().properties()).containsKey("+batch");
  }

  @Test
  void resourceUpdate_drainedRank_neverAllocatedUntilUp() {
    Harness h = twoByTwo(SchedulerOptions.defaults());
    h.run(
        """
        down 1      |  | rank[0-1]/core[0-1]
        alloc 1 s=2 | success 1 rank0/core[0-1] | rank1/core[0-1]
        alloc 2     |  | rank1/core[0-1]
        down 0      |  | rank1/core[0-1]
        up 1        | success 2 rank1/core0 | rank1/core1
        """);
    assertThat(h.core.pool().downRanks()).isEqualTo(IdSet.of(0));
    assertThat(h.core.pool().allocation(1).orElseThrow().summary()).isEqualTo("rank0/core[0-1]");
    assertThat(h.core.pool().down().summary()).isEqualTo("rank0/core[0-1]");
  }

  @Test
  void resourceUpdate_nothingUp_jobBlocksThenRuns() {
    Harness h = twoByTwo(SchedulerOptions.defaults());
    h.run(
        """
        down 0-1 |  | rank[0-1]/core[0-1]
        alloc 1  |  | rank[0-1]/core[0-1]
        up 0-1   | success 1 rank0/core0 | rank0/core1 rank1/core[0-1]
        """);
  }

  @Test
  void alloc_limitedQueueDepth_allocBeyondLimitRejected() {
    Harness h = twoByTwo(SchedulerOptions.defaults().withQueueDepth(QueueDepth.limited(2)));
    h.run(
        """
        alloc 1 s=4 | success 1 rank[0-1]/core[0-1] |
        alloc 2     |  |
        alloc 3     |  |
        alloc 4     | rejected EINVAL alloc: job 4 would be pending request 3 (expected: at most queue-depth 2) |
        cancel 2    | cancel 2 |
        alloc 4     |  |
        """);
    assertThat(h.core.pendingAllocs()).containsExactly(3L, 4L);
  }

  @Test
  void expiration_runningJob_setAndUsedByLaterGrow() {
    Harness h = twoByTwo(SchedulerOptions.defaults());
    h.run(
        """
        alloc 1     | success 1 rank0/core0 | rank0/core1 rank1/core[0-1]
        expire 1 4242 | expiration 1 4242.0 | rank0/core1 rank1/core[0-1]
        expire 1 -1 | rejected EINVAL expiration: -1.0 (expected: finite, >= 0) | rank0/core1 rank1/core[0-1]
        expire 7 10 | rejected ENOENT expiration: job 7 is not running | rank0/core1 rank1/core[0-1]
        grow 1 1 n=1 | realloc 1 tag 1 SUCCESS add rank1/core0 | rank[0-1]/core1
        """);
    Decision.ReallocResponse g = (Decision.ReallocResponse) h.log.get(h.log.size() - 1);
    assertThat(g.rDeltaAdd().expiration()).isEqualTo(4242);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          second alloc of a pending job  | alloc 2         | rejected EPROTO alloc: job 2 already has a pending alloc request
          alloc of a running job         | alloc 1         | rejected EPROTO alloc: job 1 already holds resources
          priority beyond u32            | alloc 9 p=4294967296 | rejected EPROTO alloc: priority 4294967296 (expected: 0 to 4294967295)
          free of an unknown job         | free 9          | rejected ENOENT free: unknown job 9
          free of a pending job          | free 2          | rejected EINVAL free: job 2 holds no resources (its alloc is pending)
          update of an unknown rank      | down 5          | rejected EINVAL resource update: ranks 5 are not in the pool
          realloc of an unknown job      | grow 9 1 n=1    | rejected ENOENT realloc: unknown job 9
          realloc of a pending job       | grow 2 1 n=1    | rejected EINVAL realloc: job 2 is not running (its alloc is pending)
          """)
  void handle_badRequest_rejectedAndNothingChanges(String what, String op, String expected) {
    Harness h = twoByTwo(SchedulerOptions.defaults());
    h.run(
        """
        alloc 1 s=4 | success 1 rank[0-1]/core[0-1] |
        alloc 2     |  |
        """);
    String before = h.core.pool().allocated().toString() + h.core.pendingAllocs();
    h.run(op + " | " + expected + " |");
    assertThat(h.core.pool().allocated().toString() + h.core.pendingAllocs()).isEqualTo(before);
  }

  @Test
  void free_resourcesTheJobDoesNotHold_rejectedEinval() {
    Harness h = twoByTwo(SchedulerOptions.defaults());
    h.run(
        """
        alloc 1 | success 1 rank0/core0 | rank0/core1 rank1/core[0-1]
        """);
    List<Decision> out =
        h.step(new SchedEvent.Free(1, h.core.pool().all().copyRanks(IdSet.of(0)), true));
    assertThat(Harness.describe(out))
        .containsExactly(
            "rejected EINVAL free: R names rank0/core1 that job 1 does not hold (expected: a subset"
                + " of its allocation)");
    h.assertFree("rank0/core1 rank1/core[0-1]");
  }

  @Test
  void free_partialThenFinal_ranksReturnedInSteps() {
    Harness h = new Harness(Harness.pool(3, 2, 0), SchedulerOptions.defaults());
    h.run(
        """
        alloc 1 n=3 s=1 c=2 | success 1 rank[0-2]/core[0-1] |
        pfree 1 2           | freed 1 rank2/core[0-1] | rank2/core[0-1]
        pfree 1 1           | freed 1 rank1/core[0-1] | rank[1-2]/core[0-1]
        free 1              | freed 1 rank0/core[0-1] final | rank[0-2]/core[0-1]
        """);
  }

  @Test
  void feasibility_tooManyNodes_noteElseEmpty() {
    Harness h = twoByTwo(SchedulerOptions.defaults());
    assertThat(h.core.feasibility(ResourceRequest.nodes(2, 1, 2))).isEmpty();
    assertThat(h.core.feasibility(ResourceRequest.nodes(3, 1, 1)))
        .contains("unsatisfiable request: need 3 node(s) with 1 cores each, only 2 eligible");
  }
}
