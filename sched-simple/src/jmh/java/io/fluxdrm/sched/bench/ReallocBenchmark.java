package io.fluxdrm.sched.bench;

import io.fluxdrm.protocol.ReallocResponseType;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.Decision;
import io.fluxdrm.sched.ResourceRequest;
import io.fluxdrm.sched.SchedEvent;
import io.fluxdrm.sched.SchedulerCore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * RFC 51 decisions on a 1,024-node x 32-core pool where 512 running jobs hold one whole node each.
 * One operation is one realloc decision; each cycle, for the next job in turn, is a grow of one
 * whole node (SUCCESS with R_delta_add), a shrink of that node named by R (SUCCESS with
 * R_delta_sub) and the {@code sched.free} (final=false) that returns it.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
public class ReallocBenchmark {

  static final int JOBS = 512;
  static final ResourceRequest ONE_NODE = ResourceRequest.nodes(1, 1, 1).withExclusive(true);

  SchedulerCore core;
  long tag = 1;
  int next;
  double now = 1_000_000;

  @Setup(Level.Trial)
  public void setup() {
    core = AllocBenchmark.core();
    for (int i = 1; i <= JOBS; i++) {
      core.handle(new SchedEvent.Alloc(i, 16, 1000, now, AllocBenchmark.WHOLE_NODE), now);
    }
  }

  @Benchmark
  @OperationsPerInvocation(2)
  public Object growShrinkFree() {
    now += 0.001;
    long job = 1 + (next++ % JOBS);
    List<Decision> grow =
        core.handle(new SchedEvent.Realloc(job, tag++, "jm", 1000, ONE_NODE, null, null), now);
    Decision.ReallocResponse g = (Decision.ReallocResponse) grow.get(0);
    if (g.type() != ReallocResponseType.SUCCESS) {
      throw new IllegalStateException("grow: " + g);
    }
    ResourceSet added = g.rDeltaAdd();
    List<Decision> shrink =
        core.handle(new SchedEvent.Realloc(job, tag++, "jm", 1000, null, ONE_NODE, added), now);
    Decision.ReallocResponse s = (Decision.ReallocResponse) shrink.get(0);
    if (s.type() != ReallocResponseType.SUCCESS) {
      throw new IllegalStateException("shrink: " + s);
    }
    return core.handle(new SchedEvent.Free(job, s.rDeltaSub(), false), now);
  }
}
