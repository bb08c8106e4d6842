package io.fluxdrm.sched;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each {@link AllocMode} on the same pools and requests, one case a row with what each mode
 * allocates: a row whose columns were swapped between modes fails. The pool is given as in {@link
 * AllocatorTest} ({@code rank:cores:gpus} targets, cores already taken as {@code rank:cores}, down
 * ranks); the request as step-table SHAPE tokens.
 */
class AllocModeTest {

  private static ResourceSet target(String spec) {
    String[] p = spec.split(":", -1);
    return ResourceSet.of(
        IdSet.parse(p[0]),
        IdSet.parse(p[1]),
        p.length > 2 && !p[2].isEmpty() ? IdSet.parse(p[2]) : IdSet.empty(),
        null);
  }

  private static ResourcePool pool(String poolSpec, String taken, String down, AllocMode mode) {
    ResourceSet r = null;
    for (String t : poolSpec.strip().split("\\s+")) {
      r = r == null ? target(t) : r.append(target(t));
    }
    ResourcePool pool = ResourcePool.of(r, mode);
    if (taken != null) {
      long job = 1;
      for (String t : taken.strip().split("\\s+")) {
        assertThat(pool.claim(job++, target(t))).isNull();
      }
    }
    if (down != null) {
      pool.setUp(IdSet.parse(down.strip()), false);
    }
    pool.checkInvariants();
    return pool;
  }

  private static String outcome(ResourcePool pool, String shape) {
    ResourceRequest req = Harness.shape(shape.strip().split("\\s+"), 0);
    AllocOutcome out = Allocator.allocate(pool, req, Allocator.Scope.ALL);
    if (out instanceof AllocOutcome.Allocated a) {
      return a.r().summary() + " nslots " + a.nslots();
    }
    return out instanceof AllocOutcome.Infeasible x ? "infeasible " + x.note() : "insufficient";
  }

  // The pool of most rows: three 4-core ranks with 3, 4 and 1 cores free (ranks 0, 1, 2).
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          one core                       | 0-2:0-3         | 0:0 2:0-2 |   | s=1 c=1     | rank1/core0 nslots 1                        | rank2/core3 nslots 1                          | rank0/core1 nslots 1
          best fit skips too-small ranks | 0-2:0-3         | 0:0 2:0-2 |   | s=1 c=2     | rank1/core[0-1] nslots 1                    | rank0/core[1-2] nslots 1                      | rank0/core[1-2] nslots 1
          slots fill ranks in mode order | 0-2:0-3         | 0:0 2:0-2 |   | s=5 c=1     | rank0/core1 rank1/core[0-3] nslots 5        | rank0/core[1-3] rank1/core0 rank2/core3 nslots 5 | rank0/core[1-3] rank1/core[0-1] nslots 5
          node count                     | 0-2:0-3         | 0:0 2:0-2 |   | n=2 s=1 c=1 | rank0/core1 rank1/core0 nslots 2            | rank0/core1 rank2/core3 nslots 2              | rank0/core1 rank1/core0 nslots 2
          down rank skipped              | 0-2:0-3         | 0:0 2:0-2 | 0 | s=1 c=1     | rank1/core0 nslots 1                        | rank2/core3 nslots 1                          | rank1/core0 nslots 1
          exclusive takes a whole node   | 0-2:0-3         | 1:0       |   | n=1 s=1 c=1 x | rank0/core[0-3] nslots 1                  | rank0/core[0-3] nslots 1                      | rank0/core[0-3] nslots 1
          gpus break a tie of cores      | 0:0-3:0-1 1:0-3 |           |   | s=1 c=1     | rank0/core0 nslots 1                        | rank1/core0 nslots 1                          | rank0/core0 nslots 1
          rank breaks a tie              | 0-2:0-3         |           |   | s=1 c=1     | rank0/core0 nslots 1                        | rank0/core0 nslots 1                          | rank0/core0 nslots 1
          too few free cores now         | 0-2:0-3         | 0:0 2:0-2 |   | s=9 c=1     | insufficient                                | insufficient                                  | insufficient
          never satisfiable              | 0-2:0-3         |           |   | s=1 c=5     | infeasible unsatisfiable request: need 1 slot(s) of 5 core(s), only 0 such slot(s) available (total cores: 12) | infeasible unsatisfiable request: need 1 slot(s) of 5 core(s), only 0 such slot(s) available (total cores: 12) | infeasible unsatisfiable request: need 1 slot(s) of 5 core(s), only 0 such slot(s) available (total cores: 12)
          """)
  void allocate_eachMode_picksItsRanks(
      String what,
      String poolSpec,
      String taken,
      String down,
      String shape,
      String worstFit,
      String bestFit,
      String firstFit) {
    assertThat(outcome(pool(poolSpec, taken, down, AllocMode.WORST_FIT), shape))
        .as("worst-fit")
        .isEqualTo(worstFit);
    assertThat(outcome(pool(poolSpec, taken, down, AllocMode.BEST_FIT), shape))
        .as("best-fit")
        .isEqualTo(bestFit);
    assertThat(outcome(pool(poolSpec, taken, down, AllocMode.FIRST_FIT), shape))
        .as("first-fit")
        .isEqualTo(firstFit);
  }

  @Test
  void grantsAndFrees_keepEachModesIndex_andItsOrderFollows() {
    for (AllocMode mode : AllocMode.values()) {
      ResourcePool pool = pool("0-2:0-3", "0:0 2:0-2", null, mode);
      AllocOutcome.Allocated a =
          (AllocOutcome.Allocated)
              Allocator.allocate(
                  pool, Harness.shape(new String[] {"s=1", "c=1"}, 0), Allocator.Scope.ALL);
      pool.grant(10, a.picks(), null);
      pool.checkInvariants();
      // free counts now: worst fit took from rank 1 (3, 3, 1), best fit from rank 2 (3, 4, 0),
      // first fit from rank 0 (2, 4, 1)
      String next = outcome(pool, "s=1 c=1");
      String expected =
          switch (mode) {
            case WORST_FIT -> "rank0/core1 nslots 1"; // 3 and 3 free: the lower rank
            case BEST_FIT -> "rank0/core1 nslots 1"; // rank 2 is full now: 3 free is the fewest
            case FIRST_FIT -> "rank0/core2 nslots 1";
          };
      assertThat(next).as(mode.toString()).isEqualTo(expected);
      pool.release(10, null, true);
      pool.checkInvariants();
      assertThat(outcome(pool, "s=1 c=1"))
          .as(mode + " after the free")
          .isEqualTo(outcome(pool("0-2:0-3", "0:0 2:0-2", null, mode), "s=1 c=1"));
    }
  }

  @Test
  void core_takesTheModeOfItsOptions() {
    ResourceSet r = Harness.pool(3, 4, 0);
    for (AllocMode mode : AllocMode.values()) {
      Harness h = new Harness(r, SchedulerOptions.defaults().withAllocMode(mode));
      assertThat(h.core.pool().allocMode()).isEqualTo(mode);
      // job 1 takes 3 cores of rank 0; job 2 (1 core) then shows the mode
      assertThat(Harness.granted(h.alloc(1, Harness.shape(new String[] {"s=1", "c=3"}, 0)), 1))
          .isEqualTo("rank0/core[0-2]");
      String second = Harness.granted(h.alloc(2, Harness.shape(new String[] {"s=1", "c=1"}, 0)), 2);
      String expected =
          switch (mode) {
            case WORST_FIT -> "rank1/core0"; // most free cores
            case BEST_FIT -> "rank0/core3"; // fewest free cores that fit
            case FIRST_FIT -> "rank0/core3"; // lowest rank that fits
          };
      assertThat(second).as(mode.toString()).isEqualTo(expected);
    }
  }

  @Test
  void parse_fluxCoreNames_andRefusesOthersNamingTheAccepted() {
    assertThat(AllocMode.parse("worst-fit")).isEqualTo(AllocMode.WORST_FIT);
    assertThat(AllocMode.parse("best-fit")).isEqualTo(AllocMode.BEST_FIT);
    assertThat(AllocMode.parse("first-fit")).isEqualTo(AllocMode.FIRST_FIT);
    for (AllocMode m : AllocMode.values()) {
      assertThat(AllocMode.parse(m.toString())).isEqualTo(m);
    }
    assertThatThrownBy(() -> AllocMode.parse("WORST_FIT"))
        .isInstanceOf(SchedException.class)
        .hasMessage("alloc-mode: \"WORST_FIT\" (expected: worst-fit, best-fit or first-fit)");
    assertThatThrownBy(() -> AllocMode.parse(null))
        .hasMessage("alloc-mode: missing (expected: worst-fit, best-fit or first-fit)");
  }

  @Test
  void defaults_worstFit() {
    assertThat(SchedulerOptions.defaults().allocMode()).isEqualTo(AllocMode.WORST_FIT);
    assertThat(ResourcePool.of(Harness.pool(1, 1, 0)).allocMode()).isEqualTo(AllocMode.WORST_FIT);
    assertThatThrownBy(() -> SchedulerOptions.defaults().withAllocMode(null))
        .hasMessage("options: alloc mode is missing");
  }
}
