package io.fluxdrm.rset.bench;

import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * RFC 20 R algebra and codec on 16,384 ranks (host {@code node[0-16383]}) with 64 cores and 4 GPUs
 * each, the cores fragmented: rank r lacks cores {@code r % 64} and {@code 32 + (r / 64) % 32}, so
 * 1,552 distinct core sets give as many R_lite entries.
 *
 * <ul>
 *   <li>{@code full}: every rank, fragmented cores, gpus 0-3;
 *   <li>{@code other}: every rank, cores {@code 16-47} and gpus {@code 2-3} with one more hole that
 *       depends on the rank ({@code (r * 7) % 64}), overlapping {@code full} in part;
 *   <li>{@code low} and {@code high}: ranks 0-8191 and 8192-16383 of {@code full} (disjoint).
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class ResourceSetBenchmark {

  static final int RANKS = 16_384;

  private ResourceSet full;
  private ResourceSet other;
  private ResourceSet low;
  private ResourceSet high;
  private String fullText;

  /** The R of {@code ranks} whose cores are all but the holes {@code hole(r)} gives. */
  static ResourceSet build(int from, int to, IdSet base, IdSet gpus, HoleFn holes) {
    StringBuilder lite = new StringBuilder("[");
    for (int r = from; r < to; r++) {
      IdSet cores = base.difference(holes.holes(r));
      if (r > from) {
        lite.append(',');
      }
      lite.append("{\"rank\":\"")
          .append(r)
          .append("\",\"children\":{\"core\":\"")
          .append(cores)
          .append("\",\"gpu\":\"")
          .append(gpus)
          .append("\"}}");
    }
    lite.append(']');
    String hosts = Hostlist.parse("node[" + from + "-" + (to - 1) + "]").toString();
    return ResourceSet.parse(
        "{\"version\":1,\"execution\":{\"R_lite\":"
            + lite
            + ",\"nodelist\":[\""
            + hosts
            + "\"],\"starttime\":0,\"expiration\":0}}");
  }

  /** The ids to leave out on one rank. */
  @FunctionalInterface
  interface HoleFn {
    IdSet holes(int rank);
  }

  static IdSet fullHoles(int r) {
    return IdSet.of(r % 64, 32 + (r / 64) % 32);
  }

  @Setup
  public void setup() {
    IdSet all = IdSet.range(0, 63);
    IdSet gpus = IdSet.range(0, 3);
    full = build(0, RANKS, all, gpus, ResourceSetBenchmark::fullHoles);
    other = build(0, RANKS, IdSet.range(16, 47), IdSet.range(2, 3), r -> IdSet.of((r * 7) % 64));
    low = full.copyRanks(IdSet.range(0, RANKS / 2 - 1));
    high = full.copyRanks(IdSet.range(RANKS / 2, RANKS - 1));
    fullText = full.toString();
    int entries = full.toJson().get("execution").get("R_lite").size();
    if (full.nnodes() != RANKS || full.count("gpu") != 4L * RANKS || entries < 1500) {
      throw new IllegalStateException(
          "unexpected shape: " + full.nnodes() + " ranks, " + entries + " R_lite entries");
    }
  }

  @Benchmark
  public ResourceSet union() {
    return full.union(other);
  }

  @Benchmark
  public ResourceSet diff() {
    return full.diff(other);
  }

  @Benchmark
  public ResourceSet intersect() {
    return full.intersect(other);
  }

  @Benchmark
  public ResourceSet appendDisjointHalves() {
    return low.append(high);
  }

  @Benchmark
  public ResourceSet parse() {
    return ResourceSet.parse(fullText);
  }

  @Benchmark
  public String encode() {
    return full.toString();
  }

  @Benchmark
  public String parseEncode() {
    return ResourceSet.parse(fullText).toString();
  }

  @Benchmark
  public String summary() {
    return full.summary();
  }
}
