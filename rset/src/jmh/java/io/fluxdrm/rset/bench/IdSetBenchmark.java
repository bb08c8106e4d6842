package io.fluxdrm.rset.bench;

import io.fluxdrm.rset.IdSet;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * RFC 22 idset algebra on two different fragmented sets of about 1M ids in 10k ranges each (ranges
 * of 50 to 150 ids with gaps of 50 to 150, drawn from two fixed seeds).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class IdSetBenchmark {

  private IdSet a;
  private IdSet b;
  private String aText;

  static IdSet fragmented(long seed) {
    SplittableRandom rng = new SplittableRandom(seed);
    IdSet.Builder builder = IdSet.builder();
    int next = rng.nextInt(100);
    for (int r = 0; r < 10_000; r++) {
      int len = 50 + rng.nextInt(101);
      builder.add(next, next + len - 1);
      next += len + 50 + rng.nextInt(101);
    }
    return builder.build();
  }

  @Setup
  public void setup() {
    a = fragmented(1);
    b = fragmented(2);
    aText = a.toString();
    if (a.rangeCount() != 10_000 || a.count() < 900_000) {
      throw new IllegalStateException("unexpected shape: " + a.rangeCount() + " " + a.count());
    }
  }

  @Benchmark
  public IdSet union() {
    return a.union(b);
  }

  @Benchmark
  public IdSet intersection() {
    return a.intersection(b);
  }

  @Benchmark
  public IdSet difference() {
    return a.difference(b);
  }

  @Benchmark
  public IdSet parse() {
    return IdSet.parse(aText);
  }

  @Benchmark
  public String encode() {
    return a.toString();
  }
}
