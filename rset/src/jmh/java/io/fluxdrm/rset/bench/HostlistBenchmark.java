package io.fluxdrm.rset.bench;

import io.fluxdrm.rset.Hostlist;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
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
 * RFC 29 hostlists of 16,384 hosts: {@code node[0-16383]} and a fragmented list of the same hosts
 * (runs of 1 to 8 hosts in a shuffled order, from a fixed seed, as a freshly grown allocation
 * looks), parsed and encoded, sorted and made unique.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class HostlistBenchmark {

  private String compactText;
  private String fragmentedText;
  private Hostlist fragmented;

  @Setup
  public void setup() {
    compactText = "node[0-16383]";
    SplittableRandom rng = new SplittableRandom(3);
    List<int[]> runs = new ArrayList<>();
    int next = 0;
    while (next < 16_384) {
      int len = Math.min(1 + rng.nextInt(8), 16_384 - next);
      runs.add(new int[] {next, next + len - 1});
      next += len;
    }
    Collections.shuffle(runs, new java.util.Random(4));
    StringBuilder sb = new StringBuilder();
    for (int[] r : runs) {
      for (int v = r[0]; v <= r[1]; v++) {
        sb.append(sb.length() == 0 ? "" : ",").append("node").append(v);
      }
    }
    fragmentedText = sb.toString();
    fragmented = Hostlist.parse(fragmentedText);
    if (fragmented.count() != 16_384 || Hostlist.parse(compactText).count() != 16_384) {
      throw new IllegalStateException("unexpected count");
    }
  }

  @Benchmark
  public String parseEncodeCompact() {
    return Hostlist.parse(compactText).toString();
  }

  @Benchmark
  public String parseEncodeFragmented() {
    return Hostlist.parse(fragmentedText).toString();
  }

  @Benchmark
  public Hostlist sortFragmented() {
    return fragmented.sort();
  }

  @Benchmark
  public Hostlist uniqFragmented() {
    return fragmented.uniq();
  }
}
