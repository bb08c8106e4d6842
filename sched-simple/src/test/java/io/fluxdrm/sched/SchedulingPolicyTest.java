package io.fluxdrm.sched;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The {@link SchedulingPolicy} seam: the core keeps pending allocs in the policy's order and asks
 * the policy whether a waiting alloc ends the pass. Two policies written here for the test (newest
 * first; FIFO without head-of-line blocking) each change what the default {@link FifoPolicy} does
 * on the same events, which the FIFO tests ({@code SchedulerCoreTest}) show unchanged.
 */
class SchedulingPolicyTest {

  private static final ResourceRequest ONE_CORE = Harness.shape(new String[] {"s=1", "c=1"}, 0);

  /** Newest submit first, ties by higher id: the order only, blocking as FIFO. */
  private static final class NewestFirst implements SchedulingPolicy {
    final List<Long> askedToBlock = new ArrayList<>();

    @Override
    public Comparator<Pending> order() {
      return Comparator.comparingDouble((Pending p) -> -p.tSubmit())
          .thenComparing((a, b) -> Long.compareUnsigned(b.id(), a.id()));
    }

    @Override
    public boolean blocks(Pending waiting) {
      askedToBlock.add(waiting.id());
      return true;
    }

    @Override
    public String name() {
      return "newest-first";
    }
  }

  /** FIFO's order, but a waiting alloc holds back nobody. */
  private static final class NoBlocking implements SchedulingPolicy {
    @Override
    public Comparator<Pending> order() {
      return FifoPolicy.INSTANCE.order();
    }

    @Override
    public boolean blocks(Pending waiting) {
      return false;
    }

    @Override
    public String name() {
      return "no-blocking";
    }
  }

  /** One 1-core rank held by job 1, then jobs 2, 3 and 4 (1 core each) submitted in that order. */
  private static Harness queued(SchedulingPolicy policy) {
    Harness h =
        new Harness(
            Harness.pool(1, 1, 0),
            SchedulerOptions.defaults().withPolicy(policy).withAnnotatePending(true));
    assertThat(Harness.granted(h.alloc(1, ONE_CORE), 1)).isEqualTo("rank0/core0");
    h.alloc(2, ONE_CORE);
    h.alloc(3, ONE_CORE);
    h.alloc(4, ONE_CORE);
    return h;
  }

  @Test
  void order_isThePolicys_forThePassAndJobsAhead() {
    Harness fifo = queued(FifoPolicy.INSTANCE);
    assertThat(fifo.core.pendingAllocs()).containsExactly(2L, 3L, 4L);
    assertThat(Harness.granted(fifo.freeAll(1), 2)).isEqualTo("rank0/core0");

    NewestFirst newest = new NewestFirst();
    Harness h = queued(newest);
    assertThat(h.core.pendingAllocs()).containsExactly(4L, 3L, 2L);
    // job 2 was annotated jobs_ahead 0, then 1, then 2 as newer jobs went ahead of it
    assertThat(
            h.log.stream()
                .filter(d -> d instanceof Decision.AllocAnnotate a && a.jobId() == 2)
                .map(d -> ((Decision.AllocAnnotate) d).jobsAhead())
                .toList())
        .containsExactly(0L, 1L, 2L);
    assertThat(Harness.granted(h.freeAll(1), 4)).isEqualTo("rank0/core0");
    assertThat(h.core.pendingAllocs()).containsExactly(3L, 2L);
    // each pass asked about the alloc it stopped at, and only that one
    assertThat(newest.askedToBlock).containsExactly(2L, 3L, 4L, 3L);
  }

  @Test
  void blocks_false_letsSmallerAllocsPastAWaitingOne() {
    // two 2-core ranks; job 1 holds rank 0; job 2 wants both ranks whole and must wait; job 3
    // wants one core
    ResourceRequest twoNodes = Harness.shape(new String[] {"n=2", "s=1", "c=2"}, 0);
    for (SchedulingPolicy policy : List.of(FifoPolicy.INSTANCE, new NoBlocking())) {
      Harness h =
          new Harness(Harness.pool(2, 2, 0), SchedulerOptions.defaults().withPolicy(policy));
      h.alloc(1, Harness.shape(new String[] {"s=1", "c=2"}, 0));
      assertThat(h.alloc(2, twoNodes)).isEmpty();
      String third = Harness.granted(h.alloc(3, ONE_CORE), 3);
      if (policy == FifoPolicy.INSTANCE) {
        assertThat(third).as("fifo: head-of-line blocking").isNull();
        assertThat(h.core.pendingAllocs()).containsExactly(2L, 3L);
      } else {
        assertThat(third).as("no blocking").isEqualTo("rank1/core0");
        assertThat(h.core.pendingAllocs()).containsExactly(2L);
      }
    }
  }

  @Test
  void aDenyStillComesWhenThePassReachesTheRequest_underAnyPolicy() {
    Harness h =
        new Harness(
            Harness.pool(1, 2, 0), SchedulerOptions.defaults().withPolicy(new NoBlocking()));
    h.alloc(1, Harness.shape(new String[] {"s=1", "c=2"}, 0));
    h.alloc(2, ONE_CORE); // waits
    List<Decision> out = h.alloc(3, Harness.shape(new String[] {"s=1", "c=3"}, 0));
    assertThat(Harness.describe(out))
        .containsExactly(
            "deny 3 unsatisfiable request: need 1 slot(s) of 3 core(s), only 0 such slot(s)"
                + " available (total cores: 2)");
    assertThat(h.core.pendingAllocs()).containsExactly(2L);
  }

  @Test
  void defaults_fifo() {
    assertThat(SchedulerOptions.defaults().policy()).isSameAs(FifoPolicy.INSTANCE);
    assertThat(FifoPolicy.INSTANCE.name()).isEqualTo("fifo");
    assertThatThrownBy(() -> SchedulerOptions.defaults().withPolicy(null))
        .isInstanceOf(SchedException.class)
        .hasMessage("options: scheduling policy is missing");
  }
}
