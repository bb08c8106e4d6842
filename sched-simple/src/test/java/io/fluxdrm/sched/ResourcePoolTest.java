package io.fluxdrm.sched;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The allocation state and its invariants. */
class ResourcePoolTest {

  private ResourcePool pool = ResourcePool.of(Harness.pool(3, 4, 2));

  @AfterEach
  void invariantsHold() {
    pool.checkInvariants();
  }

  private ResourceSet r(String json) {
    return ResourceSet.parse(json);
  }

  private static String lite(String rank, String cores) {
    return "{\"version\":1,\"execution\":{\"R_lite\":[{\"rank\":\""
        + rank
        + "\",\"children\":{\"core\":\""
        + cores
        + "\"}}]}}";
  }

  @Test
  void of_freshPool_everythingFreeNothingAllocated() {
    assertThat(pool.free()).isEqualTo(pool.all());
    assertThat(pool.allocated().isEmpty()).isTrue();
    assertThat(pool.jobs()).isEmpty();
    assertThat(pool.coreCount()).isEqualTo(12);
    assertThat(pool.gpuCount()).isEqualTo(6);
    assertThat(pool.downRanks().isEmpty()).isTrue();
  }

  @Test
  void claim_freeResources_allocatedWithPoolNames() {
    assertThat(pool.claim(5, r(lite("1", "0-1")))).isNull();
    assertThat(pool.allocation(5).orElseThrow().summary()).isEqualTo("rank1/core[0-1]");
    assertThat(pool.allocation(5).orElseThrow().nodelist().toString()).isEqualTo("node1");
    assertThat(pool.allocated().summary()).isEqualTo("rank1/core[0-1]");
    assertThat(pool.free().summary())
        .isEqualTo("rank[0,2]/core[0-3],gpu[0-1] rank1/core[2-3],gpu[0-1]");
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          5   | 0     | rank 5 is not in the pool
          0   | 3-4   | rank 0 has no core 4
          1   | 1     | rank 1: core 1 already allocated
          """)
  void claim_outsidePoolOrTaken_reasonAndNothingChanges(String rank, String cores, String why) {
    assertThat(pool.claim(1, r(lite("1", "1")))).isNull();
    String before = pool.allocated().toString();
    assertThat(pool.claim(2, r(lite(rank, cores)))).isEqualTo(why);
    assertThat(pool.allocated().toString()).isEqualTo(before);
    assertThat(pool.allocation(2)).isEmpty();
  }

  @Test
  void releasing_thenPartialRelease_leavesPoolWhenFreed() {
    pool.claim(1, r(lite("0-1", "0-3")));
    ResourceSet rank1 = pool.allocation(1).orElseThrow().copyRanks(IdSet.of(1));
    pool.markReleasing(1, rank1);
    assertThat(pool.releasing(1).summary()).isEqualTo("rank1/core[0-3]");
    assertThat(pool.free().summary()).doesNotContain("rank1/core[0-3]");
    pool.checkInvariants();
    pool.release(1, rank1, false);
    assertThat(pool.releasing(1).isEmpty()).isTrue();
    assertThat(pool.allocation(1).orElseThrow().summary()).isEqualTo("rank0/core[0-3]");
    pool.release(1, ResourceSet.empty(), true);
    assertThat(pool.jobs()).isEmpty();
    assertThat(pool.free()).isEqualTo(pool.all());
  }

  @Test
  void grant_resourcesNotFree_refusedAsABug() {
    pool.claim(1, r(lite("0", "0")));
    List<ResourcePool.Pick> taken = List.of(new ResourcePool.Pick(0, IdSet.of(0), IdSet.empty()));
    assertThatThrownBy(() -> pool.grant(2, taken, null))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("grant to job 2: rank 0 not free");
  }

  @Test
  void markReleasing_notHeld_refusedAsABug() {
    pool.claim(1, r(lite("0", "0")));
    assertThatThrownBy(() -> pool.markReleasing(1, r(lite("0", "1"))))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void checkInvariants_resourceFreeWhileAnotherJobHoldsIt_detected() {
    pool.claim(1, r(lite("0", "0")));
    pool.claim(2, r(lite("0", "1")));
    // a caller that skipped the "job holds it" check frees job 2's core as job 1's
    pool.release(1, r(lite("0", "1")), false);
    assertThatThrownBy(pool::checkInvariants)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("job 2 holds resources of rank 0 that are free or held by another job");
    assertThatThrownBy(() -> PoolAssert.assertThatPool(pool).conserves())
        .isInstanceOf(AssertionError.class)
        .hasMessage(
            "expected the pool to conserve its resources, but job 2 holds resources of rank 0"
                + " that are free or held by another job (free: <rank0/core[1-3],gpu[0-1]"
                + " rank[1-2]/core[0-3],gpu[0-1]>, allocated: <rank0/core0>)");
    pool = ResourcePool.of(Harness.pool(3, 4, 2));
  }

  @Test
  void setUp_downRank_reportedDownAndStillCounted() {
    pool.setUp(IdSet.of(2), false);
    assertThat(pool.downRanks()).isEqualTo(IdSet.of(2));
    assertThat(pool.down().summary()).isEqualTo("rank2/core[0-3],gpu[0-1]");
    assertThat(pool.free()).isEqualTo(pool.all());
    pool.setUp(IdSet.of(2), true);
    assertThat(pool.downRanks().isEmpty()).isTrue();
  }

  @Test
  void of_rankWithTooManyCores_rejected() {
    ResourceSet huge = ResourceSet.of(IdSet.of(0), IdSet.range(0, 1 << 21), IdSet.empty(), null);
    assertThatThrownBy(() -> ResourcePool.of(huge))
        .isInstanceOf(SchedException.class)
        .hasMessage("pool: rank 0 has 2097153 cores (expected: at most 2097151)");
  }

  @Test
  void build_poolWithoutNodelist_rWithoutNodelist() {
    pool = ResourcePool.of(r(lite("0-1", "0-1")));
    assertThat(pool.claim(1, r(lite("1", "0")))).isNull();
    assertThat(pool.allocation(1).orElseThrow().hasNodelist()).isFalse();
    assertThat(pool.allocation(1).orElseThrow().summary()).isEqualTo("rank1/core0");
  }
}
