package io.fluxdrm.sched.bench;

import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.Decision;
import io.fluxdrm.sched.QueueDepth;
import io.fluxdrm.sched.ResourceRequest;
import io.fluxdrm.sched.SchedEvent;
import io.fluxdrm.sched.SchedulerCore;
import io.fluxdrm.sched.SchedulerOptions;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * In-process scheduler decisions on a 1,024-node x 32-core pool with 10,000 pending 1-node jobs.
 *
 * <ul>
 *   <li>{@code steadyState}: the pool is full and 10,000 jobs wait; one operation frees the oldest
 *       running job (the pass allocates the head of the queue on it) and submits a new job (which
 *       waits behind the head). One operation = one allocation.
 *   <li>{@code drainBacklog}: the pool is held by 1,024 whole-node jobs and 10,000 1-node, 1-core
 *       jobs wait; one invocation frees the 1,024 nodes and so allocates all 10,000 (32 per freed
 *       node). One operation = one allocation.
 * </ul>
 *
 * {@code shape}: {@code core} = 1 node, 1 slot of 1 core; {@code exclusive} = 1 whole node.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class AllocBenchmark {

  static final int NODES = 1024;
  static final int CORES = 32;
  static final int PENDING = 10_000;

  static ResourceSet pool() {
    return ResourceSet.of(
        IdSet.range(0, NODES - 1),
        IdSet.range(0, CORES - 1),
        IdSet.empty(),
        Hostlist.parse("node[0-" + (NODES - 1) + "]"));
  }

  static SchedulerCore core() {
    return SchedulerCore.of(
        pool(), SchedulerOptions.defaults().withQueueDepth(QueueDepth.unlimited()));
  }

  static final ResourceRequest WHOLE_NODE = ResourceRequest.nodes(1, 1, 1).withExclusive(true);
  static final ResourceRequest ONE_CORE = ResourceRequest.nodes(1, 1, 1);

  /** A full pool with 10,000 jobs pending behind it. */
  @State(Scope.Thread)
  public static class Steady {
    @Param({"core", "exclusive"})
    public String shape;

    SchedulerCore core;
    ResourceRequest request;
    final ArrayDeque<Decision.AllocSuccess> running = new ArrayDeque<>();
    long nextId = 1;
    double now = 1_000_000;

    @Setup(Level.Trial)
    public void setup() {
      core = core();
      request = shape.equals("core") ? ONE_CORE : WHOLE_NODE;
      int fill = shape.equals("core") ? NODES * CORES : NODES;
      for (int i = 0; i < fill + PENDING; i++) {
        collect(core.handle(new SchedEvent.Alloc(nextId++, 16, 1000, now, request), now));
      }
      if (running.size() != fill || core.pendingAllocs().size() != PENDING) {
        throw new IllegalStateException(
            "setup: " + running.size() + " running, " + core.pendingAllocs().size() + " pending");
      }
    }

    void collect(List<Decision> out) {
      for (Decision d : out) {
        if (d instanceof Decision.AllocSuccess s) {
          running.add(s);
        }
      }
    }
  }

  @Benchmark
  public int steadyState(Steady s) {
    s.now += 0.001;
    Decision.AllocSuccess oldest = s.running.poll();
    List<Decision> out =
        s.core.handle(new SchedEvent.Free(oldest.jobId(), oldest.r(), true), s.now);
    s.collect(out);
    List<Decision> out2 =
        s.core.handle(new SchedEvent.Alloc(s.nextId++, 16, 1000, s.now, s.request), s.now);
    s.collect(out2);
    if (out.size() != 2) {
      throw new IllegalStateException("expected free + one allocation, got " + out);
    }
    return out.size() + out2.size();
  }

  /** A pool held by 1,024 whole-node jobs, 10,000 one-core jobs waiting. */
  @State(Scope.Thread)
  public static class Backlog {
    SchedulerCore core;
    Decision.AllocSuccess[] blockers;

    @Setup(Level.Invocation)
    public void setup() {
      core = core();
      blockers = new Decision.AllocSuccess[NODES];
      long id = 1;
      for (int i = 0; i < NODES; i++) {
        blockers[i] =
            (Decision.AllocSuccess)
                core.handle(new SchedEvent.Alloc(id++, 16, 1000, 0, WHOLE_NODE), 1).get(0);
      }
      for (int i = 0; i < PENDING; i++) {
        core.handle(new SchedEvent.Alloc(id++, 16, 1000, 0, ONE_CORE), 1);
      }
    }
  }

  @Benchmark
  @OperationsPerInvocation(PENDING)
  public int drainBacklog(Backlog b) {
    int granted = 0;
    for (Decision.AllocSuccess x : b.blockers) {
      for (Decision d : b.core.handle(new SchedEvent.Free(x.jobId(), x.r(), true), 2)) {
        if (d instanceof Decision.AllocSuccess) {
          granted++;
        }
      }
    }
    if (granted != PENDING) {
      throw new IllegalStateException("granted " + granted);
    }
    return granted;
  }
}
