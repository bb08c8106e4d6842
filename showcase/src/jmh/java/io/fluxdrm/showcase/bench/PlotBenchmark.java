package io.fluxdrm.showcase.bench;

import io.fluxdrm.rpc.transcript.Transcript;
import io.fluxdrm.rpc.transcript.TranscriptLine;
import io.fluxdrm.showcase.plot.Plots;
import io.fluxdrm.showcase.timeline.SyntheticTranscript;
import io.fluxdrm.showcase.timeline.Timeline;
import io.fluxdrm.showcase.timeline.TimelineBuilder;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * {@code fluxdrm plot} on the 1,000-job synthetic transcript ({@link SyntheticTranscript}, 64
 * nodes, seed 17; issue 17: "in under 2 s"): {@code svg} is the whole command's work from the
 * parsed lines (the timeline, its layout, the SVG text), {@code parseAndSvg} adds reading the lines
 * from their text, {@code png} draws the same picture with Java2D and encodes it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
    value = 1,
    jvmArgs = {"-Djava.awt.headless=true"})
public class PlotBenchmark {
  @Param({"1000"})
  int jobs;

  private List<String> text;
  private List<TranscriptLine> lines;
  private Timeline timeline;

  @Setup(Level.Trial)
  public void setUp() {
    text = SyntheticTranscript.of(jobs, 64, 17);
    lines = Transcript.parse(text, "synthetic");
    timeline = TimelineBuilder.of(lines);
  }

  @Benchmark
  public String svg() {
    return Plots.svg(TimelineBuilder.of(lines), "synthetic", 1600, 0);
  }

  @Benchmark
  public String parseAndSvg() {
    return Plots.svg(TimelineBuilder.of(Transcript.parse(text, "synthetic")), "synthetic", 1600, 0);
  }

  @Benchmark
  public byte[] png() {
    return Plots.png(timeline, "synthetic", 1600, 0);
  }
}
