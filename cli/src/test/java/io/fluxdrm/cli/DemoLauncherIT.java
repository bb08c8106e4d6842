package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's first command as a user runs it: {@code bin/fluxdrm demo} in a fresh directory on
 * the packaged jar (default transcript path, default log level), then the replay it suggests.
 */
@Timeout(120)
class DemoLauncherIT {
  @TempDir Path cwd;

  private FluxdrmLauncherIT.Run run(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("sh", FluxdrmLauncherIT.LAUNCHER.toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile());
    String javaBin = Path.of(System.getProperty("java.home"), "bin").toString();
    pb.environment().merge("PATH", javaBin, (old, add) -> add + File.pathSeparator + old);
    Process p = pb.start();
    p.getOutputStream().close();
    CompletableFuture<String> out =
        CompletableFuture.supplyAsync(() -> FluxdrmLauncherIT.drain(p.getInputStream()));
    CompletableFuture<String> err =
        CompletableFuture.supplyAsync(() -> FluxdrmLauncherIT.drain(p.getErrorStream()));
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("%s ends", cmd).isTrue();
    return new FluxdrmLauncherIT.Run(p.exitValue(), out.join(), err.join());
  }

  @Test
  void demo_freshDirectory_timelineQuietStderrTranscriptThatReplays() throws Exception {
    FluxdrmLauncherIT.Run demo = run("demo");
    assertThat(demo.status()).as("%s", demo).isZero();
    List<String> out = CliRun.lines(demo.out());
    int steps = io.fluxdrm.showcase.demo.Demo.STEPS.size();
    assertThat(out).hasSize(steps + 2);
    assertThat(out.get(0))
        .isEqualTo("fluxdrm demo: pool node[0-15] (16 nodes, cores 0-31 each), all in this JVM");
    assertThat(out.get(steps + 1))
        .matches("fluxdrm demo: " + steps + " steps as the story expects in \\d+ ms");
    // no component log line at the default level (not even the injected daemon failure's): only
    // where the transcripts went
    List<String> err = CliRun.lines(demo.err());
    assertThat(err).hasSize(2);
    assertThat(err.get(0))
        .isEqualTo(
            "fluxdrm demo: transcripts written to fluxdrm-demo.jsonl (replay: fluxdrm replay"
                + " fluxdrm-demo.jsonl --service demo) and fluxdrm-demo-dvm.jsonl (the DVM's"
                + " endpoint)");
    assertThat(err.get(1))
        .matches(
            "fluxdrm demo: picture of fluxdrm-demo.jsonl and fluxdrm-demo-dvm.jsonl written to"
                + " fluxdrm-demo.svg: 16 nodes, 2 jobs, \\d+ marks");
    assertThat(
            io.fluxdrm.showcase.plot.PlotsTest.withClass(
                io.fluxdrm.showcase.plot.PlotsTest.parse(
                    Files.readString(cwd.resolve("fluxdrm-demo.svg"))),
                "text",
                "row"))
        .hasSize(16);
    assertThat(Files.size(cwd.resolve("fluxdrm-demo.jsonl"))).isPositive();
    assertThat(Files.size(cwd.resolve("fluxdrm-demo-dvm.jsonl"))).isPositive();

    FluxdrmLauncherIT.Run replay = run("replay", "fluxdrm-demo.jsonl", "--service", "demo");
    assertThat(replay.status()).as("%s", replay).isZero();
    assertThat(replay.out())
        .matches("replay: (\\d+) of \\1 responses matched \\(transcript .*\\)\n");
    assertThat(replay.err()).isEmpty();
  }

  @Test
  void demoVerbose_freshDirectory_componentsLogOnStderr() throws Exception {
    FluxdrmLauncherIT.Run demo = run("demo", "--verbose", "--json", "--transcript", "t.jsonl");
    assertThat(demo.status()).as("%s", demo).isZero();
    assertThat(CliRun.lines(demo.out()))
        .hasSize(io.fluxdrm.showcase.demo.Demo.STEPS.size())
        .allMatch(l -> l.startsWith("{"));
    assertThat(demo.err()).contains("INFO io.fluxdrm.jobmanager.JobManager");
  }
}
