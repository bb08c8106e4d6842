package io.fluxdrm.sched;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.protocol.ReallocResponseType;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random sequences of alloc, free (partial and final), cancel, prioritize, realloc (grow, shrink,
 * both), realloc_cancel, disconnect, hello, up/down, shrink and bad requests, from printed seeds.
 * After every step the pool's invariants hold, and an independent model of what each job holds
 * (built only from the decisions) shows that the core never hands out what is held (being released
 * included), that a shrink names only what the job holds, that refused requests change nothing, and
 * at the end that every request got exactly one answer.
 */
class SchedulerCorePropertyTest {

  /** Fixed seeds, plus one new seed per run (printed; set -Dsched.seed=N to replay one). */
  static Stream<Long> seeds() {
    String fixed = System.getProperty("sched.seed");
    if (fixed != null && !fixed.isEmpty()) {
      return Stream.of(Long.parseLong(fixed));
    }
    return Stream.concat(LongStream.range(1, 41).boxed(), Stream.of(System.nanoTime()));
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void randomSequence_invariantsAndModelHoldAfterEveryStep(long seed) {
    System.out.println("SchedulerCorePropertyTest seed " + seed);
    new Run(seed).go(400);
  }

  private static long total(ResourceSet r) {
    return r.count("core") + r.count("gpu");
  }

  private static final class Run {
    final long seed;
    final SplittableRandom rng;
    final ResourceSet pool;
    final SchedulerCore core;
    final Map<Long, ResourceSet> held = new HashMap<>();
    final Map<Long, ResourceSet> releasing = new HashMap<>();
    final Set<Long> pendingAllocs = new HashSet<>();
    final Set<Long> answeredAllocs = new HashSet<>();
    final Map<String, Long> pendingReallocs = new HashMap<>();
    final Set<String> answeredReallocs = new HashSet<>();
    final Set<Integer> down = new HashSet<>();
    final Set<Integer> removed = new HashSet<>();
    long nextJob = 1;
    long nextTag = 1;
    double now = 100;
    int step;
    String lastOp = "";

    Run(long seed) {
      this.seed = seed;
      rng = new SplittableRandom(seed);
      int n = 3 + rng.nextInt(4);
      int cores = 2 + rng.nextInt(3);
      int gpus = rng.nextInt(3);
      pool =
          ResourceSet.of(
              IdSet.range(0, n - 1),
              IdSet.range(0, cores - 1),
              gpus == 0 ? IdSet.empty() : IdSet.range(0, gpus - 1),
              Hostlist.parse("n[0-" + (n - 1) + "]"));
      ReallocOrder order = ReallocOrder.values()[rng.nextInt(ReallocOrder.values().length)];
      QueueDepth depth = rng.nextBoolean() ? QueueDepth.unlimited() : QueueDepth.limited(4);
      core =
          SchedulerCore.of(
              pool, SchedulerOptions.defaults().withReallocOrder(order).withQueueDepth(depth));
    }

    String where() {
      return "seed " + seed + " step " + step + " (" + lastOp + ")";
    }

    ResourceRequest randomShape() {
      int slotSize = 1 + rng.nextInt(2);
      int gpus = rng.nextInt(5) == 0 ? 1 : 0;
      if (rng.nextInt(3) == 0) {
        return ResourceRequest.nodes(1 + rng.nextInt(2), 1, slotSize)
            .withExclusive(rng.nextBoolean())
            .withGpusPerSlot(gpus);
      }
      return ResourceRequest.slots(1 + rng.nextInt(4), slotSize).withGpusPerSlot(gpus);
    }

    <T> T pick(List<T> from) {
      return from.get(rng.nextInt(from.size()));
    }

    void go(int steps) {
      for (step = 0; step < steps; step++) {
        randomStep();
      }
      // drain: free every job until nothing is pending, then every request has its answer
      for (int guard = 0; guard < 1000 && (!held.isEmpty() || !pendingAllocs.isEmpty()); guard++) {
        if (!down.isEmpty()) {
          lastOp = "up all";
          IdSet.Builder live = IdSet.builder();
          pool.ranks().stream().filter(r -> !removed.contains(r)).forEach(live::add);
          apply(new SchedEvent.ResourceUpdate(live.build(), IdSet.empty()));
          continue;
        }
        long id = held.keySet().iterator().next();
        lastOp = "drain free " + id;
        apply(new SchedEvent.Free(id, held.get(id), true));
      }
      assertThat(pendingAllocs).as(where() + ": allocs never answered").isEmpty();
      assertThat(held).as(where()).isEmpty();
      assertThat(pendingReallocs).as(where() + ": reallocs never answered").isEmpty();
      assertThat(core.pool().free())
          .as(where())
          .isEqualTo(core.pool().all().diff(ResourceSet.empty()));
    }

    /** The job's resources on one of its ranks, chosen at random; empty when it holds none. */
    ResourceSet oneRankOf(long id) {
      IdSet ranks = held.get(id).ranks();
      if (ranks.isEmpty()) {
        return ResourceSet.empty();
      }
      return held.get(id).copyRanks(IdSet.of(ranks.nth(rng.nextInt((int) ranks.count()))));
    }

    void randomStep() {
      List<Long> running = new ArrayList<>(held.keySet());
      running.sort(Long::compare);
      int op = rng.nextInt(100);
      if (op < 25 || running.isEmpty()) {
        long id = nextJob++;
        lastOp = "alloc " + id;
        apply(new SchedEvent.Alloc(id, 1 + rng.nextInt(3), 1000, now, randomShape()));
      } else if (op < 35) {
        long id = pick(running);
        lastOp = "free final " + id;
        apply(new SchedEvent.Free(id, held.get(id), true));
      } else if (op < 45) {
        long id = pick(running);
        ResourceSet rel = releasing.getOrDefault(id, ResourceSet.empty());
        ResourceSet part;
        if (total(rel) > 0) {
          part = rel;
        } else {
          part = oneRankOf(id);
        }
        lastOp = "free partial " + id + " " + part.summary();
        apply(new SchedEvent.Free(id, part, false));
      } else if (op < 50) {
        long id = 1 + rng.nextInt((int) nextJob);
        lastOp = "cancel " + id;
        apply(new SchedEvent.Cancel(id));
      } else if (op < 55) {
        List<SchedEvent.JobPriority> jp = new ArrayList<>();
        for (long id : pendingAllocs) {
          if (rng.nextBoolean()) {
            jp.add(new SchedEvent.JobPriority(id, rng.nextInt(5)));
          }
        }
        lastOp = "prioritize " + jp;
        apply(new SchedEvent.Prioritize(jp));
      } else if (op < 70) {
        long id = pick(running);
        String sender = rng.nextBoolean() ? "a" : "b";
        long tag = nextTag++;
        ResourceRequest add = rng.nextInt(3) > 0 ? randomShape() : null;
        ResourceRequest sub = add == null || rng.nextInt(4) == 0 ? randomShape() : null;
        ResourceSet r = null;
        if (sub != null && rng.nextBoolean()) {
          r = oneRankOf(id);
        }
        lastOp = "realloc " + id + " tag " + tag + " add " + add + " sub " + sub + " r " + r;
        SchedEvent.Realloc e = new SchedEvent.Realloc(id, tag, sender, 1000, add, sub, r);
        pendingReallocs.put(sender + "/" + tag, id);
        apply(e);
      } else if (op < 78 && nextTag > 1) {
        long tag = 1 + rng.nextInt((int) nextTag - 1);
        String sender = rng.nextBoolean() ? "a" : "b";
        lastOp = "realloc_cancel " + sender + "/" + tag;
        apply(new SchedEvent.ReallocCancel(sender, tag));
      } else if (op < 80) {
        String sender = rng.nextBoolean() ? "a" : "b";
        lastOp = "disconnect " + sender;
        pendingReallocs.keySet().removeIf(k -> k.startsWith(sender + "/"));
        apply(new SchedEvent.Disconnect(sender));
      } else if (op < 82) {
        List<SchedEvent.RunningJob> jobs = new ArrayList<>();
        for (long id : running) {
          jobs.add(new SchedEvent.RunningJob(id, 16, 1000, 1.0, held.get(id), IdSet.empty()));
        }
        lastOp = "hello " + running;
        // a restart forgets pending requests (the job manager sends allocs again) and which
        // resources were being released (they stay the job's until sched.free names them)
        pendingAllocs.clear();
        pendingReallocs.clear();
        releasing.clear();
        apply(new SchedEvent.Hello(jobs));
        assertThat(core.pendingAllocs()).as(where()).isEmpty();
        assertThat(core.pendingReallocs()).as(where()).isZero();
      } else if (op < 87 && rng.nextInt(3) == 0 && removed.size() + 1 < pool.ranks().count()) {
        int rank = rng.nextInt((int) pool.ranks().count());
        lastOp = "shrink " + rank;
        // shrink wins over down in the same response (RFC 28)
        apply(
            new SchedEvent.ResourceUpdate(
                IdSet.empty(),
                IdSet.of(rank),
                IdSet.of(rank),
                java.util.Map.of(),
                java.util.Map.of(),
                Double.NaN));
      } else if (op < 87) {
        int rank = rng.nextInt((int) pool.ranks().count());
        boolean goDown = !down.contains(rank) && rng.nextBoolean();
        lastOp = (goDown ? "down " : "up ") + rank;
        apply(
            goDown
                ? new SchedEvent.ResourceUpdate(IdSet.empty(), IdSet.of(rank))
                : new SchedEvent.ResourceUpdate(IdSet.of(rank), IdSet.empty()));
      } else {
        // bad: free resources the job does not hold, or a job that does not exist
        long id = rng.nextBoolean() ? pick(running) : nextJob + 100;
        int rank = rng.nextInt((int) pool.ranks().count());
        ResourceSet r = pool.copyRanks(IdSet.of(rank));
        lastOp = "bad free " + id + " " + r.summary();
        apply(new SchedEvent.Free(id, r, rng.nextBoolean()));
      }
    }

    void apply(SchedEvent e) {
      now += rng.nextInt(3);
      String before =
          core.pool().allocated() + "|" + core.pendingAllocs() + "|" + core.pendingReallocs();
      if (e instanceof SchedEvent.Alloc a) {
        pendingAllocs.add(a.id());
      }
      List<Decision> out = core.handle(e, now);
      core.pool().checkInvariants();
      if (e instanceof SchedEvent.ResourceUpdate u
          && out.stream().noneMatch(d -> d instanceof Decision.Rejected)) {
        u.down().forEach(down::add);
        u.up().forEach(down::remove);
        u.shrink().forEach(removed::add);
        down.removeAll(removed);
      }
      for (Decision d : out) {
        check(e, d, before);
      }
      for (Map.Entry<Long, ResourceSet> h : held.entrySet()) {
        ResourceSet actual = core.pool().allocation(h.getKey()).orElseThrow();
        assertThat(total(actual.diff(h.getValue())) + total(h.getValue().diff(actual)))
            .as(where() + ": job " + h.getKey() + " holds what the decisions said")
            .isZero();
      }
      assertThat(core.pool().jobs()).as(where()).containsExactlyInAnyOrderElementsOf(held.keySet());
    }

    void grant(long job, ResourceSet r) {
      for (Map.Entry<Long, ResourceSet> h : held.entrySet()) {
        assertThat(total(r.intersect(h.getValue())))
            .as(where() + ": granted " + r.summary() + " overlaps job " + h.getKey())
            .isZero();
      }
      assertThat(total(r.diff(pool))).as(where() + ": grant outside the pool").isZero();
      for (int rank : r.ranks().stream().toArray()) {
        assertThat(down).as(where() + ": grant on a down rank").doesNotContain(rank);
        assertThat(removed).as(where() + ": grant on a removed rank").doesNotContain(rank);
      }
      held.merge(job, r, ResourceSet::union);
    }

    void check(SchedEvent e, Decision d, String before) {
      if (d instanceof Decision.AllocSuccess s) {
        assertThat(pendingAllocs.remove(s.jobId()))
            .as(where() + ": answer to a pending alloc")
            .isTrue();
        assertThat(answeredAllocs.add(s.jobId())).isTrue();
        assertThat(s.r().nslots()).isPositive();
        grant(s.jobId(), s.r());
      } else if (d instanceof Decision.AllocDeny x) {
        assertThat(pendingAllocs.remove(x.jobId())).as(where()).isTrue();
        assertThat(x.note()).startsWith("unsatisfiable request: ");
      } else if (d instanceof Decision.AllocCancel x) {
        assertThat(pendingAllocs.remove(x.jobId())).as(where()).isTrue();
      } else if (d instanceof Decision.ReallocResponse x) {
        String key = x.sender() + "/" + x.matchtag();
        assertThat(pendingReallocs.remove(key))
            .as(where() + ": answer to pending " + key)
            .isNotNull();
        assertThat(answeredReallocs.add(key)).as(where() + ": one answer per request").isTrue();
        if (x.type() == ReallocResponseType.SUCCESS) {
          assertThat(x.rDeltaAdd() != null || x.rDeltaSub() != null).isTrue();
          if (x.rDeltaSub() != null) {
            ResourceSet mine = held.get(x.jobId());
            ResourceSet rel = releasing.getOrDefault(x.jobId(), ResourceSet.empty());
            assertThat(total(x.rDeltaSub().diff(mine.diff(rel))))
                .as(where() + ": shrink names only what the job holds and is not releasing")
                .isZero();
            releasing.merge(x.jobId(), x.rDeltaSub(), ResourceSet::union);
          }
          if (x.rDeltaAdd() != null) {
            assertThat(x.rDeltaAdd().starttime()).isEqualTo(now);
            grant(x.jobId(), x.rDeltaAdd());
          }
        }
      } else if (d instanceof Decision.Freed f) {
        ResourceSet mine = held.get(f.jobId());
        assertThat(total(f.r().diff(mine))).as(where() + ": freed what the job held").isZero();
        if (f.isFinal()) {
          held.remove(f.jobId());
          releasing.remove(f.jobId());
        } else {
          held.put(f.jobId(), mine.diff(f.r()));
          releasing.computeIfPresent(f.jobId(), (k, v) -> v.diff(f.r()));
        }
      } else if (d instanceof Decision.Restored x) {
        assertThat(e).isInstanceOf(SchedEvent.Hello.class);
        assertThat(total(x.r().diff(held.get(x.jobId()))) + total(held.get(x.jobId()).diff(x.r())))
            .as(where() + ": hello restores what the job held")
            .isZero();
      } else if (d instanceof Decision.JobException x) {
        // a hello cannot give back resources of ranks removed by a shrink
        assertThat(e).isInstanceOf(SchedEvent.Hello.class);
        assertThat(held.get(x.jobId()).ranks().stream().anyMatch(removed::contains))
            .as(where() + ": only a job holding removed ranks fails its hello")
            .isTrue();
        held.remove(x.jobId());
      } else if (d instanceof Decision.Rejected) {
        String after =
            core.pool().allocated() + "|" + core.pendingAllocs() + "|" + core.pendingReallocs();
        assertThat(after).as(where() + ": a refused request changes nothing").isEqualTo(before);
        if (e instanceof SchedEvent.Alloc a) {
          pendingAllocs.remove(a.id());
        }
        if (e instanceof SchedEvent.Realloc r) {
          pendingReallocs.remove(r.sender() + "/" + r.matchtag());
        }
      } else {
        throw new AssertionError(where() + ": unexpected decision " + d);
      }
    }
  }
}
