package io.fluxdrm.dvm.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * 10,000 standing sessions (instantiations without apps, one node each) in a DVM of 10,001 nodes,
 * in a JVM limited to {@code -Xmx64m}: the run fails with {@code OutOfMemoryError} if they do not
 * fit. The teardown prints the heap in use after a full GC with the sessions still held.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx64m", "-Xms64m"})
@Warmup(iterations = 0)
@Measurement(iterations = 1)
public class StandingSessionsBenchmark {
  static final int SESSIONS = 10_000;
  Bench b;

  @Benchmark
  public Object tenThousandStandingSessions() {
    b = new Bench(SESSIONS + 1, 1);
    for (int i = 1; i <= SESSIONS; i++) {
      b.done(b.port.sessionControl(i, Bench.instantiate("n" + i, false)));
    }
    return b;
  }

  @TearDown(Level.Iteration)
  public void report() {
    int n = b.dvm.view().sessions().size();
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    Runtime r = Runtime.getRuntime();
    long used = r.totalMemory() - r.freeMemory();
    System.out.printf(
        "%nstanding sessions: %d; heap used after GC: %.1f MiB of max %.1f MiB%n",
        n, used / 1048576.0, r.maxMemory() / 1048576.0);
    if (n != SESSIONS) {
      throw new IllegalStateException(n + " sessions (expected " + SESSIONS + ")");
    }
  }
}
