package io.fluxdrm.sched.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.SchedulerCore;
import io.fluxdrm.sched.SchedulerOptions;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seeded random runs through the whole service on the in-memory hub: allocs, final frees, cancels,
 * grows, shrinks and the frees of what shrinks released, as a job manager sends them. After every
 * step the pool's invariants hold; at the end, once everything is canceled and freed, every alloc
 * and every realloc got exactly one answer and the pool is whole again. The seed is printed; {@code
 * -Dsched.service.seed=N} replays one.
 */
@Timeout(60)
class SchedServicePropertyTest {

  static List<Long> seeds() {
    String one = System.getProperty("sched.service.seed");
    return one != null ? List.of(Long.parseLong(one)) : List.of(1L, 2L, 3L, 4L, 5L, 6L);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void randomTraffic_invariantsHoldAndEveryRequestAnsweredOnce(long seed) {
    System.out.println("SchedServicePropertyTest seed " + seed);
    Random rnd = new Random(seed);
    SchedFixture fx = new SchedFixture(SchedFixture.pool(6, 4), SchedulerOptions.defaults());
    SchedulerFacingJobManager jm = fx.jobManager();
    fx.start();
    SchedulerCore core = fx.svc.core();
    Map<Long, CompletableFuture<Message>> allocs = new LinkedHashMap<>();
    List<CompletableFuture<Message>> reallocs = new ArrayList<>();
    List<Long> toFree = new ArrayList<>();
    Map<CompletableFuture<Message>, Long> reallocJob = new LinkedHashMap<>();
    long next = 1;
    for (int step = 0; step < 300; step++) {
      List<Long> running = new ArrayList<>();
      for (Map.Entry<Long, CompletableFuture<Message>> e : allocs.entrySet()) {
        if (core.isRunning(e.getKey())) {
          running.add(e.getKey());
        }
      }
      int op = rnd.nextInt(6);
      if (op == 0 && core.pendingAllocs().size() < 8) {
        JsonNode js =
            rnd.nextBoolean()
                ? SchedulerFacingJobManager.slots(1 + rnd.nextInt(3), 1 + rnd.nextInt(4), 0)
                : SchedulerFacingJobManager.nodes(1 + rnd.nextInt(2), 1, 1 + rnd.nextInt(4));
        allocs.put(next, jm.alloc(next, js));
        next++;
      } else if (op == 1 && !running.isEmpty()) {
        long id = running.get(rnd.nextInt(running.size()));
        jm.free(id, core.pool().allocation(id).orElseThrow(), true);
      } else if (op == 2 && !core.pendingAllocs().isEmpty()) {
        jm.cancel(core.pendingAllocs().get(rnd.nextInt(core.pendingAllocs().size())));
      } else if (op == 3 && !running.isEmpty()) {
        long id = running.get(rnd.nextInt(running.size()));
        CompletableFuture<Message> f =
            jm.realloc(id, SchedulerFacingJobManager.nodes(1, 1, 2), null, null);
        reallocs.add(f);
        reallocJob.put(f, id);
      } else if (op == 4 && !running.isEmpty()) {
        long id = running.get(rnd.nextInt(running.size()));
        CompletableFuture<Message> f =
            jm.realloc(id, null, SchedulerFacingJobManager.slots(1, 1, 0), null);
        reallocs.add(f);
        reallocJob.put(f, id);
      } else if (op == 5 && !toFree.isEmpty()) {
        long id = toFree.remove(rnd.nextInt(toFree.size()));
        ResourceSet released = core.pool().releasing(id);
        if (core.isRunning(id) && !released.isEmpty()) {
          jm.free(id, released, false);
        }
      }
      fx.settle();
      for (Iterator<Map.Entry<CompletableFuture<Message>, Long>> it =
              reallocJob.entrySet().iterator();
          it.hasNext(); ) {
        Map.Entry<CompletableFuture<Message>, Long> e = it.next();
        if (e.getKey().isDone()) {
          it.remove();
          if (!e.getKey().isCompletedExceptionally()
              && e.getKey().join().json().has("R_delta_sub")) {
            toFree.add(e.getValue());
          }
        }
      }
      fx.checkInvariants();
    }
    for (Long id : List.copyOf(core.pendingAllocs())) {
      jm.cancel(id);
    }
    fx.settle();
    for (Long id : allocs.keySet()) {
      if (core.isRunning(id)) {
        jm.free(id, core.pool().allocation(id).orElseThrow(), true);
      }
    }
    fx.settle();
    fx.checkInvariants();
    assertThat(allocs.values()).as("every alloc answered").allMatch(CompletableFuture::isDone);
    assertThat(reallocs).as("every realloc answered").allMatch(CompletableFuture::isDone);
    assertThat(core.pool().free().summary()).isEqualTo(core.pool().all().summary());
    assertThat(core.pendingReallocs()).isZero();
    assertThat(reallocs).as("the run exercised reallocs").hasSizeGreaterThan(20);
    assertThat(allocs.values())
        .as("the run granted allocs")
        .anyMatch(f -> !f.isCompletedExceptionally() && f.join().json().path("type").asInt() == 0);
  }
}
