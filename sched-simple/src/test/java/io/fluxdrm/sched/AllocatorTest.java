package io.fluxdrm.sched;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The allocator alone, one case a row: the pool ({@code rank:cores:gpus} targets separated by
 * spaces), cores already taken ({@code rank:cores}), down ranks, the request (step-table SHAPE
 * tokens) and the outcome.
 */
class AllocatorTest {

  private static ResourceSet target(String spec) {
    String[] p = spec.split(":", -1);
    return ResourceSet.of(
        IdSet.parse(p[0]),
        IdSet.parse(p[1]),
        p.length > 2 && !p[2].isEmpty() ? IdSet.parse(p[2]) : IdSet.empty(),
        null);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          worst fit: most free cores         | 0-1:0-3            | 0:0-1 |     | s=1 c=1       | allocated rank1/core0 nslots 1
          tie: most free gpus first          | 0:0-3 1:0-3:0-1    |       |     | s=1 c=1       | allocated rank1/core0 nslots 1
          tie: rank order                    | 0-2:0-3            |       |     | s=1 c=1       | allocated rank0/core0 nslots 1
          lowest-numbered free cores         | 0:0-7              | 0:0,2 |     | s=1 c=3       | allocated rank0/core[1,3-4] nslots 1
          most free rank first, then next    | 0-1:0-3            | 0:0   |     | s=5 c=1       | allocated rank0/core1 rank1/core[0-3] nslots 5
          slots never span ranks             | 0-1:0-2            |       |     | s=3 c=2       | infeasible unsatisfiable request: need 3 slot(s) of 2 core(s), only 2 such slot(s) available (total cores: 6)
          open slot count takes all          | 0-1:0-1            | 1:0   |     | s=2+ c=1      | allocated rank0/core[0-1] rank1/core1 nslots 3
          open node count takes all fitting  | 0-3:0-1            | 3:0   |     | n=2+ s=1 c=2  | allocated rank[0-2]/core[0-1] nslots 3
          node range capped at max           | 0-3:0-1            |       |     | n=1-2 s=1 c=1 | allocated rank[0-1]/core0 nslots 2
          too few nodes now                  | 0-1:0-1            | 1:0   |     | n=2 s=1 c=2   | insufficient
          exclusive takes cores and gpus     | 0-1:0-3:0-1        | 0:3   |     | n=1 s=1 c=1 x | allocated rank1/core[0-3],gpu[0-1] nslots 1
          exclusive needs a whole free node  | 0-1:0-3            | 0:3 1:0 |   | n=1 s=1 c=1 x | insufficient
          gpus per slot beyond the pool      | 0:0-3:0-1 1:0-3    |       |     | s=3 c=1 g=1   | infeasible unsatisfiable request: need 3 slot(s) with 1 GPU(s) each, only 2 available (total GPUs: 2)
          gpus taken now                     | 0:0-3:0-1 1:0-3    | 0:0:0 |     | s=2 c=1 g=1   | insufficient
          gpus per slot fit                  | 0:0-3:0-1 1:0-3    |       |     | s=2 c=1 g=1   | allocated rank0/core[0-1],gpu[0-1] nslots 2
          down rank skipped                  | 0-1:0-3            |       | 0   | s=1 c=4       | allocated rank1/core[0-3] nslots 1
          all down is not infeasible         | 0-1:0-3            |       | 0-1 | s=1 c=4       | insufficient
          more nodes than the pool           | 0-1:0-3            |       |     | n=3 s=1 c=1   | infeasible unsatisfiable request: need 3 node(s) with 1 cores each, only 2 eligible
          node too small for its slots       | 0-1:0-3            |       |     | n=1 s=2 c=3   | infeasible unsatisfiable request: need 1 node(s) with 6 cores each, only 0 eligible
          node short of its slots' gpus      | 0:0-3:0-1 1:0-3    |       |     | n=1 s=2 c=1 g=2 | infeasible unsatisfiable request: need 1 node(s) with 2 cores and 4 GPUs each, only 0 eligible
          more exclusive nodes than the pool | 0-1:0-3            |       |     | n=3 s=1 c=1 x | infeasible unsatisfiable request: need 3 exclusive node(s), only 2 eligible
          exclusive counts nodes with a slot | 0:0-3:0-1 1:0-1    |       |     | n=2 s=1 c=3 x | infeasible unsatisfiable request: need 2 exclusive node(s), only 1 eligible
          exclusive counts a slot's gpus     | 0:0-3:0-1 1:0-3    |       |     | n=2 s=1 c=1 g=1 x | infeasible unsatisfiable request: need 2 exclusive node(s), only 1 eligible
          exclusive slots are whole nodes    | 0-1:0-3            |       |     | s=3 c=1 x     | infeasible unsatisfiable request: need 3 exclusive node(s), only 2 eligible
          exclusive never oversubscribes     | 0-1:0-3            |       |     | n=1 s=8 c=1 x | infeasible unsatisfiable request: need 1 node(s) with 8 cores each, only 0 eligible
          slot totals count matching ranks   | 0-1:0-3            |       |     | s=5 c=1 req={"ranks":["1"]} | infeasible unsatisfiable request: need 5 slot(s) of 1 core(s), only 4 such slot(s) available (total cores: 4)
          gpu slots fit within one rank      | 0:0:0-1 1:0-3      |       |     | s=2 c=1 g=1   | infeasible unsatisfiable request: need 2 slot(s) with 1 GPU(s) each, only 1 available (total GPUs: 2)
          """)
  void allocate_case_outcome(
      String what, String poolSpec, String taken, String down, String shape, String expected) {
    ResourceSet r = null;
    for (String t : poolSpec.strip().split("\\s+")) {
      r = r == null ? target(t) : r.append(target(t));
    }
    ResourcePool pool = ResourcePool.of(r);
    if (taken != null) {
      long job = 1;
      for (String t : taken.strip().split("\\s+")) {
        assertThat(pool.claim(job++, target(t))).isNull();
      }
    }
    if (down != null) {
      pool.setUp(IdSet.parse(down.strip()), false);
    }
    ResourceRequest req = shapeOf(shape.strip().split("\\s+"));
    AllocOutcome out = Allocator.allocate(pool, req, Allocator.Scope.ALL);
    String got;
    if (out instanceof AllocOutcome.Allocated a) {
      got = "allocated " + a.r().summary() + " nslots " + a.nslots();
    } else if (out instanceof AllocOutcome.Infeasible x) {
      got = "infeasible " + x.note();
    } else {
      got = "insufficient";
    }
    assertThat(got).isEqualTo(expected);
    pool.checkInvariants();
  }

  /** Step-table SHAPE tokens, plus open and bounded ranges: {@code s=2+}, {@code n=1-2}. */
  private static ResourceRequest shapeOf(String[] t) {
    ResourceRequest base =
        Harness.shape(
            java.util.Arrays.stream(t)
                .filter(x -> !x.matches("[ns]=\\d+(\\+|-\\d+)"))
                .toArray(String[]::new),
            0);
    for (String tok : t) {
      if (tok.matches("[ns]=\\d+(\\+|-\\d+)")) {
        String v = tok.substring(2);
        int min = Integer.parseInt(v.replaceAll("[+-].*", ""));
        ResourceRequest.Count c =
            v.endsWith("+")
                ? ResourceRequest.Count.atLeast(min)
                : new ResourceRequest.Count(min, Integer.parseInt(v.substring(v.indexOf('-') + 1)));
        base = tok.startsWith("n") ? base.withNodes(c) : base.withSlots(c);
      }
    }
    return base;
  }
}
