package io.fluxdrm.sched;

import static io.fluxdrm.sched.PoolAssert.assertThatPool;
import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * RFC 51 {@code sched.realloc} and {@code sched.realloc_cancel} (RFC 51 §Realloc and §Realloc
 * Cancel, D1-D7, D13) as step tables; the pool's invariants are checked after every step.
 */
class ReallocTest {

  /** 4 nodes x 2 cores; job 1 holds rank0 whole. */
  private static Harness oneJobOnFour(SchedulerOptions o) {
    Harness h = new Harness(Harness.pool(4, 2, 0), o);
    h.run(
        """
        alloc 1 n=1 s=1 c=2 t=100 | success 1 rank0/core[0-1] | rank[1-3]/core[0-1]
        """);
    return h;
  }

  @Test
  void grow_fits_grantedWithFullRDeltaAdd() {
    Harness h = oneJobOnFour(SchedulerOptions.defaults());
    double jobExpiration = h.now + 100;
    h.run(
        """
        grow 1 7 n=2 s=1 c=2 | realloc 1 tag 7 SUCCESS add rank[1-2]/core[0-1] | rank3/core[0-1]
        """);
    Decision.ReallocResponse g = (Decision.ReallocResponse) h.log.get(h.log.size() - 1);
    assertThat(g.allocId()).isEqualTo(1);
    assertThat(g.sender()).isEqualTo("jm");
    assertThat(g.rDeltaSub()).isNull();
    ResourceSet add = g.rDeltaAdd();
    assertThat(add.nslots()).isEqualTo(2);
    assertThat(add.starttime()).isEqualTo(h.now);
    assertThat(add.expiration()).as("the job's current expiration (D6)").isEqualTo(jobExpiration);
    assertThat(add.nodelist().toString()).isEqualTo("node[1-2]");
    assertThat(h.held(1)).isEqualTo("rank[0-2]/core[0-1]");
  }

  @Test
  void grow_neverPicksRanksTheJobHolds() {
    Harness h = new Harness(Harness.pool(2, 4, 0), SchedulerOptions.defaults());
    h.run(
        """
        alloc 1 s=1 c=1       | success 1 rank0/core0 | rank0/core[1-3] rank1/core[0-3]
        alloc 2 s=1 c=4       | success 2 rank1/core[0-3] | rank0/core[1-3]
        grow 1 1 s=1 c=1      |  | rank0/core[1-3]
        free 2                | freed 2 rank1/core[0-3] final; realloc 1 tag 1 SUCCESS add rank1/core0 | rank[0-1]/core[1-3]
        """);
  }

  @Test
  void grow_doesNotFitNow_waitsThenGrantedAfterFree() {
    Harness h = oneJobOnFour(SchedulerOptions.defaults());
    h.run(
        """
        alloc 2 n=3 s=1 c=2  | success 2 rank[1-3]/core[0-1] |
        grow 1 1 n=1 s=1 c=2 |  |
        free 2               | freed 2 rank[1-3]/core[0-1] final; realloc 1 tag 1 SUCCESS add rank1/core[0-1] | rank[2-3]/core[0-1]
        """);
    assertThat(h.core.pendingReallocs()).isZero();
  }

  @Test
  void grow_couldNeverFit_deniedWithNote() {
    Harness h = oneJobOnFour(SchedulerOptions.defaults());
    h.run(
        """
        grow 1 1 n=4 s=1 c=2 | realloc 1 tag 1 DENY note unsatisfiable request: need 4 node(s) with 2 cores each, only 3 eligible | rank[1-3]/core[0-1]
        grow 1 2 s=1 c=3     | realloc 1 tag 2 DENY note unsatisfiable request: need 1 slot(s) of 3 core(s), only 0 such slot(s) available (total cores: 6) | rank[1-3]/core[0-1]
        grow 1 3 s=1 g=1     | realloc 1 tag 3 DENY note unsatisfiable request: need 1 slot(s) with 1 GPU(s) each, only 0 available (total GPUs: 0) | rank[1-3]/core[0-1]
        """);
  }

  @Test
  void grow_withR_onlyFromTheNamedResources() {
    Harness h = oneJobOnFour(SchedulerOptions.defaults());
    h.run(
        """
        grow 1 1 n=1 s=1 c=2 r=3 | realloc 1 tag 1 SUCCESS add rank3/core[0-1] | rank[1-2]/core[0-1]
        grow 1 2 n=1 s=1 c=2 r=0 | realloc 1 tag 2 DENY note unsatisfiable request: need 1 node(s) with 2 cores each, only 0 eligible | rank[1-2]/core[0-1]
        """);
  }

  @Test
  void shrink_withoutR_highestRanksRemovedAndKeptUntilFreed() {
    Harness h = new Harness(Harness.pool(4, 2, 0), SchedulerOptions.defaults());
    h.run(
        """
        alloc 1 n=3 s=1 c=2    | success 1 rank[0-2]/core[0-1] | rank3/core[0-1]
        shrink 1 1 n=1 s=1 c=2 | realloc 1 tag 1 SUCCESS sub rank2/core[0-1] | rank3/core[0-1]
        alloc 2 n=2 s=1 c=2    |  | rank3/core[0-1]
        """);
    assertThatPool(h.core.pool()).holds(1, "rank[0-2]/core[0-1]").releases(1, "rank2/core[0-1]");
    h.run(
        """
        pfree 1 2              | freed 1 rank2/core[0-1]; success 2 rank[2-3]/core[0-1] |
        """);
    assertThatPool(h.core.pool()).holds(1, "rank[0-1]/core[0-1]").releases(1, "").conserves();
  }

  @Test
  void shrink_withR_removesTheNamedNodes() {
    Harness h = new Harness(Harness.pool(4, 2, 0), SchedulerOptions.defaults());
    h.run(
        """
        alloc 1 n=3 s=1 c=2        | success 1 rank[0-2]/core[0-1] | rank3/core[0-1]
        shrink 1 1 n=1 s=1 c=2 r=0 | realloc 1 tag 1 SUCCESS sub rank0/core[0-1] | rank3/core[0-1]
        shrink 1 2 n=1 s=1 c=2 r=0 | realloc 1 tag 2 DENY note spec_sub: R names rank0/core[0-1] that job 1 does not hold or is already releasing (expected: a subset of its resources) | rank3/core[0-1]
        pfree 1 0                  | freed 1 rank0/core[0-1] | rank[0,3]/core[0-1]
        """);
    assertThat(h.core.pool().releasing(1).summary()).isEmpty();
  }

  @Test
  void shrink_slots_highestNumberedCoresOfHighestRank() {
    Harness h = new Harness(Harness.pool(2, 4, 0), SchedulerOptions.defaults());
    h.run(
        """
        alloc 1 s=6 c=1      | success 1 rank0/core[0-3] rank1/core[0-1] | rank1/core[2-3]
        shrink 1 1 s=3 c=1   | realloc 1 tag 1 SUCCESS sub rank0/core3 rank1/core[0-1] | rank1/core[2-3]
        """);
    Decision.ReallocResponse s = (Decision.ReallocResponse) h.log.get(h.log.size() - 1);
    List<Decision> out = h.step(new SchedEvent.Free(1, s.rDeltaSub(), false));
    assertThat(Harness.describe(out)).containsExactly("freed 1 rank0/core3 rank1/core[0-1]");
    h.assertFree("rank0/core3 rank1/core[0-3]");
  }

  @Test
  void shrink_resourcesNotHeld_denied() {
    Harness h = oneJobOnFour(SchedulerOptions.defaults());
    ResourceSet rank3 = h.core.pool().all().copyRanks(IdSet.of(3));
    List<Decision> out =
        h.step(
            new SchedEvent.Realloc(1, 1, "jm", 1000, null, ResourceRequest.nodes(1, 1, 2), rank3));
    assertThat(Harness.describe(out))
        .containsExactly(
            "realloc 1 tag 1 DENY note spec_sub: R names rank3/core[0-1] that job 1 does not hold"
                + " or is already releasing (expected: a subset of its resources)");
    h.run(
        """
        shrink 1 2 n=2 s=1 c=2 | realloc 1 tag 2 DENY note spec_sub: need 2 node(s) with 1 slot(s) of 2 core(s) held whole by the job, only 1 such node(s) (expected: a subset of the job's resources) | rank[1-3]/core[0-1]
        shrink 1 3 s=3 c=1     | realloc 1 tag 3 DENY note spec_sub: need 3 slot(s) of 1 core(s), the job holds only 2 (expected: a subset of the job's resources) | rank[1-3]/core[0-1]
        """);
    assertThat(h.held(1)).isEqualTo("rank0/core[0-1]");
  }

  @Test
  void realloc_growAndShrinkTogether_bothDeltas() {
    Harness h = new Harness(Harness.pool(4, 2, 0), SchedulerOptions.defaults());
    h.run(
        """
        alloc 1 n=2 s=1 c=2 | success 1 rank[0-1]/core[0-1] | rank[2-3]/core[0-1]
        """);
    List<Decision> out =
        h.step(
            new SchedEvent.Realloc(
                1,
                4,
                "jm",
                1000,
                ResourceRequest.nodes(1, 1, 2),
                ResourceRequest.nodes(1, 1, 2),
                null));
    assertThat(Harness.describe(out))
        .containsExactly("realloc 1 tag 4 SUCCESS add rank2/core[0-1] sub rank1/core[0-1]");
    assertThat(h.held(1)).isEqualTo("rank[0-2]/core[0-1]");
    h.assertFree("rank3/core[0-1]");
  }

  @Test
  void reallocCancel_pendingGrow_answeredCancelOthersIgnored() {
    Harness h = oneJobOnFour(SchedulerOptions.defaults());
    h.run(
        """
        alloc 2 n=3 s=1 c=2  | success 2 rank[1-3]/core[0-1] |
        grow 1 5 n=1 s=1 c=2 |  |
        rcancel 5 from=other |  |
        rcancel 6            |  |
        rcancel 5            | realloc 1 tag 5 CANCEL |
        rcancel 5            |  |
        free 2               | freed 2 rank[1-3]/core[0-1] final | rank[1-3]/core[0-1]
        """);
  }

  @Test
  void cancel_runningJobWithPendingGrow_growAnsweredCancel() {
    Harness h = oneJobOnFour(SchedulerOptions.defaults());
    h.run(
        """
        alloc 2 n=3 s=1 c=2  | success 2 rank[1-3]/core[0-1] |
        grow 1 5 n=1 s=1 c=2 |  |
        grow 2 6 n=1 s=1 c=2 |  |
        cancel 1             | realloc 1 tag 5 CANCEL |
        free 1               | freed 1 rank0/core[0-1] final; realloc 2 tag 6 SUCCESS add rank0/core[0-1] |
        """);
  }

  @Test
  void disconnect_dropsThatSendersPendingReallocs() {
    Harness h = oneJobOnFour(SchedulerOptions.defaults());
    h.run(
        """
        alloc 2 n=3 s=1 c=2             | success 2 rank[1-3]/core[0-1] |
        grow 1 1 n=1 s=1 c=2 from=a     |  |
        grow 1 2 n=1 s=1 c=2 from=b     |  |
        disconnect a                    |  |
        free 2                          | freed 2 rank[1-3]/core[0-1] final; realloc 1 tag 2 SUCCESS add rank1/core[0-1] | rank[2-3]/core[0-1]
        """);
  }

  @Test
  void realloc_noRealloc_everyRequestUnsupportedAtOnce() {
    Harness h = oneJobOnFour(SchedulerOptions.defaults().withRealloc(false));
    h.run(
        """
        grow 1 1 n=1 s=1 c=2   | realloc 1 tag 1 UNSUPPORTED | rank[1-3]/core[0-1]
        shrink 1 2 n=1 s=1 c=2 | realloc 1 tag 2 UNSUPPORTED | rank[1-3]/core[0-1]
        grow 9 3 n=1           | realloc 9 tag 3 UNSUPPORTED | rank[1-3]/core[0-1]
        """);
    assertThat(h.log.stream().skip(1).map(d -> ((Decision.ReallocResponse) d).allocId()))
        .containsExactly(1L, 2L, 3L);
  }

  @Test
  void realloc_severalJobs_servedFifoWithHeadOfLineBlocking() {
    Harness h = new Harness(Harness.pool(5, 1, 0), SchedulerOptions.defaults());
    h.run(
        """
        alloc 1 n=1 | success 1 rank0/core0 | rank[1-4]/core0
        alloc 2 n=1 | success 2 rank1/core0 | rank[2-4]/core0
        alloc 3 n=3 | success 3 rank[2-4]/core0 |
        grow 2 1 n=2 |  |
        grow 1 2 n=1 |  |
        pfree 3 4    | freed 3 rank4/core0 | rank4/core0
        pfree 3 3    | freed 3 rank3/core0; realloc 2 tag 1 SUCCESS add rank[3-4]/core0 |
        free 3       | freed 3 rank2/core0 final; realloc 1 tag 2 SUCCESS add rank2/core0 |
        """);
    List<Long> ids =
        h.log.stream()
            .filter(d -> d instanceof Decision.ReallocResponse)
            .map(d -> ((Decision.ReallocResponse) d).allocId())
            .toList();
    assertThat(ids).as("alloc ids are given in arrival order").containsExactly(1L, 2L);
  }

  @Test
  void shrink_behindWaitingGrow_decidedAtOnceAndItsNodesGoToTheGrow() {
    Harness h = new Harness(Harness.pool(4, 1, 0), SchedulerOptions.defaults());
    h.run(
        """
        alloc 1 n=1   | success 1 rank0/core0 | rank[1-3]/core0
        alloc 2 n=3   | success 2 rank[1-3]/core0 |
        grow 1 1 n=1  |  |
        shrink 2 2 n=1 | realloc 2 tag 2 SUCCESS sub rank3/core0 |
        pfree 2 3     | freed 2 rank3/core0; realloc 1 tag 1 SUCCESS add rank3/core0 |
        """);
    assertThatPool(h.core.pool()).holds(1, "rank[0,3]/core0").holds(2, "rank[1-2]/core0");
    assertThat(h.core.pendingReallocs()).isZero();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          REALLOC_FIRST          | realloc 1 tag 1 SUCCESS add rank1/core0 | 3
          REALLOC_FIRST_BLOCKING | realloc 1 tag 1 SUCCESS add rank1/core0 | 3
          ALLOC_FIRST            | success 3 rank1/core0                   | 1
          """)
  void realloc_order_decidesWhoGetsAFreedRank(ReallocOrder order, String first, long stillWaiting) {
    Harness h =
        new Harness(Harness.pool(3, 1, 0), SchedulerOptions.defaults().withReallocOrder(order));
    h.run(
        """
        alloc 1 n=1 | success 1 rank0/core0 | rank[1-2]/core0
        alloc 2 n=2 | success 2 rank[1-2]/core0 |
        grow 1 1 n=1 |  |
        alloc 3 n=1 |  |
        """);
    List<Decision> out =
        h.step(new SchedEvent.Free(2, h.core.pool().all().copyRanks(IdSet.of(1)), false));
    assertThat(Harness.describe(out)).containsExactly("freed 2 rank1/core0", first);
    h.assertFree("");
    if (stillWaiting == 3) {
      assertThat(h.core.pendingAllocs()).containsExactly(3L);
    } else {
      assertThat(h.core.pendingReallocs()).isEqualTo(1);
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          REALLOC_FIRST          | success 3 rank1/core0 |
          REALLOC_FIRST_BLOCKING |                       | rank1/core0
          ALLOC_FIRST            | success 3 rank1/core0 |
          """)
  void realloc_waitingGrow_blocksAllocsOnlyInBlockingOrder(
      ReallocOrder order, String decisions, String free) {
    Harness h =
        new Harness(Harness.pool(3, 1, 0), SchedulerOptions.defaults().withReallocOrder(order));
    h.run(
        """
        alloc 1 n=1 | success 1 rank0/core0 | rank[1-2]/core0
        alloc 2 n=1 | success 2 rank1/core0 | rank2/core0
        alloc 4 n=1 | success 4 rank2/core0 |
        grow 1 1 n=2 |  |
        """);
    h.run("free 2 | freed 2 rank1/core0 final |  rank1/core0");
    h.run(
        "alloc 3 n=1 | "
            + (decisions == null ? "" : decisions)
            + " | "
            + (free == null ? "" : free));
  }

  @Test
  void realloc_badRequests_rejectedWithErrnoAndNothingQueued() {
    Harness h = oneJobOnFour(SchedulerOptions.defaults().withInstanceOwner(0));
    ResourceRequest one = ResourceRequest.nodes(1, 1, 2);
    List<List<String>> got =
        List.of(
            Harness.describe(h.step(new SchedEvent.Realloc(1, 1, "jm", 1000, null, null, null))),
            Harness.describe(h.step(new SchedEvent.Realloc(1, 1, "jm", 1001, one, null, null))),
            Harness.describe(h.step(new SchedEvent.Realloc(1, 1, "jm", 0, one, null, null))));
    assertThat(got.get(0))
        .containsExactly(
            "rejected EPROTO realloc: neither spec_add nor spec_sub (expected: at least one)");
    assertThat(got.get(1))
        .containsExactly("rejected EPERM realloc: user 1001 may not act on job 1 of user 1000");
    assertThat(got.get(2)).containsExactly("realloc 1 tag 1 SUCCESS add rank1/core[0-1]");
  }

  @Test
  void realloc_sameMatchtagPendingTwice_rejectedEproto() {
    Harness h = oneJobOnFour(SchedulerOptions.defaults());
    h.run(
        """
        alloc 2 n=3 s=1 c=2  | success 2 rank[1-3]/core[0-1] |
        grow 1 5 n=1 s=1 c=2 |  |
        grow 1 5 n=1 s=1 c=2 | rejected EPROTO realloc: matchtag 5 is already pending from this sender (expected: one request per matchtag) |
        """);
    assertThat(h.core.pendingReallocs()).isEqualTo(1);
  }

  @Test
  void free_finalWithPendingGrow_growDenied() {
    Harness h = oneJobOnFour(SchedulerOptions.defaults());
    h.run(
        """
        alloc 2 n=3 s=1 c=2  | success 2 rank[1-3]/core[0-1] |
        grow 1 5 n=1 s=1 c=2 |  |
        free 1               | freed 1 rank0/core[0-1] final; realloc 1 tag 5 DENY note job 1 no longer holds resources | rank0/core[0-1]
        """);
  }

  @Test
  void hello_grownJob_restoredWithItsGrownR() {
    Harness h = oneJobOnFour(SchedulerOptions.defaults());
    h.run(
        """
        grow 1 1 n=2 s=1 c=2 | realloc 1 tag 1 SUCCESS add rank[1-2]/core[0-1] | rank3/core[0-1]
        """);
    Decision.AllocSuccess first = (Decision.AllocSuccess) h.log.get(0);
    Decision.ReallocResponse grow = (Decision.ReallocResponse) h.log.get(1);
    ResourceSet current =
        first.r().union(grow.rDeltaAdd()).withTimes(first.r().starttime(), first.r().expiration());
    List<Decision> out =
        h.step(
            new SchedEvent.Hello(
                List.of(new SchedEvent.RunningJob(1, 16, 1000, 1.0, current, IdSet.empty()))));
    assertThat(Harness.describe(out)).containsExactly("restored 1 rank[0-2]/core[0-1]");
    h.assertFree("rank3/core[0-1]");
    h.run(
        """
        grow 1 2 n=1 s=1 c=2 | realloc 1 tag 2 SUCCESS add rank3/core[0-1] |
        """);
    Decision.ReallocResponse again = (Decision.ReallocResponse) h.log.get(h.log.size() - 1);
    assertThat(again.rDeltaAdd().expiration()).isEqualTo(first.r().expiration());
  }

  @Test
  void allocId_firstAllocIdOption_monotonicUnsigned() {
    long big = Long.parseUnsignedLong("18446744073709551000");
    Harness h = oneJobOnFour(SchedulerOptions.defaults().withFirstAllocId(big));
    h.run(
        """
        grow 1 1 n=1 s=1 c=2 | realloc 1 tag 1 SUCCESS add rank1/core[0-1] | rank[2-3]/core[0-1]
        grow 1 2 n=1 s=1 c=2 | realloc 1 tag 2 SUCCESS add rank2/core[0-1] | rank3/core[0-1]
        """);
    assertThat(Long.toUnsignedString(((Decision.ReallocResponse) h.log.get(2)).allocId()))
        .isEqualTo("18446744073709551001");
    assertThat(Long.toUnsignedString(h.core.nextAllocId())).isEqualTo("18446744073709551002");
  }
}
