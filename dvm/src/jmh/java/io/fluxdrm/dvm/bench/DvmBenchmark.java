package io.fluxdrm.dvm.bench;

import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Issue 13's DVM benchmarks, simulated mode, zero daemon latency (docs/performance.md "dvm").
 *
 * <ul>
 *   <li>{@link #instantiateAnswer}: one {@code PMIX_SESSION_INSTANTIATE} with an app, from the
 *       request to its answer (deferred until the job launched); sample mode gives the p50. The
 *       previous session is terminated in the invocation's setup, outside the sample.
 *   <li>{@link #instantiateTerminate}: instantiate with an app, answer, terminate, answer, and the
 *       proc's exit and the reclaim; throughput = pairs per second.
 *   <li>{@link PauseResume#pauseResume}: pause then resume a session of 1,000 jobs.
 * </ul>
 */
public class DvmBenchmark {

  /** One DVM of 64 nodes; sessions take one node each, in turn. */
  @State(Scope.Thread)
  public static class Sessions {
    Bench b;
    long id;
    int node;
    boolean live;

    @Setup(Level.Trial)
    public void setup() {
      b = new Bench(64, 4);
    }

    List<Info> next() {
      node = (node + 1) % 63;
      return Bench.instantiate("n" + (node + 1), true);
    }

    @Setup(Level.Invocation)
    public void reclaimPrevious() {
      if (live) {
        b.done(b.port.sessionControl(id, Bench.TERMINATE));
        live = false;
      }
    }
  }

  @Benchmark
  @BenchmarkMode(Mode.SampleTime)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public Object instantiateAnswer(Sessions s) {
    s.id++;
    Object a = s.b.done(s.b.port.sessionControl(s.id, s.next()));
    s.live = true;
    return a;
  }

  /** A DVM of 64 nodes for the pairs. */
  @State(Scope.Thread)
  public static class Pairs {
    Bench b;
    long id;
    int node;

    @Setup(Level.Trial)
    public void setup() {
      b = new Bench(64, 4);
    }
  }

  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  public Object instantiateTerminate(Pairs p) {
    long id = ++p.id;
    p.node = (p.node + 1) % 63;
    p.b.done(p.b.port.sessionControl(id, Bench.instantiate("n" + (p.node + 1), true)));
    return p.b.done(p.b.port.sessionControl(id, Bench.TERMINATE));
  }

  /** A session of 1,000 jobs of one proc each, spawned into it by its owner. */
  @State(Scope.Thread)
  public static class PauseResume {
    static final int JOBS = 1000;
    Bench b;

    @Setup(Level.Trial)
    public void setup() {
      b = new Bench(11, 100);
      StringBuilder hosts = new StringBuilder();
      for (int i = 1; i <= 10; i++) {
        hosts.append(i == 1 ? "" : ",").append("n").append(i);
      }
      b.done(b.port.sessionControl(7, Bench.instantiate(hosts.toString(), true)));
      List<Info> target = List.of(Info.of(PmixKey.PMIX_SPAWN_TARGET, "7"));
      for (int j = 1; j < JOBS; j++) {
        b.done(b.port.spawn(List.of(Bench.SLEEP), target));
      }
      int jobs = b.dvm.view().session(7).orElseThrow().jobs().size();
      if (jobs != JOBS) {
        throw new IllegalStateException("session 7 has " + jobs + " jobs (expected " + JOBS + ")");
      }
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public Object pauseResume() {
      b.done(b.port.sessionControl(7, Bench.PAUSE));
      return b.done(b.port.sessionControl(7, Bench.RESUME));
    }
  }
}
