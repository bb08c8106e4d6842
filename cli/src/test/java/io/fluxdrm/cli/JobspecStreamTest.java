package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Json;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code fluxdrm jobspec validate --stream}: flux-core's job-validator line protocol, one answer
 * line per input line, in order, a bad line included.
 */
class JobspecStreamTest {

  private static String job(ObjectNode jobspec) {
    ObjectNode j = Json.object();
    j.set("jobspec", jobspec);
    j.put("userid", 0).put("rolemask", 5).put("urgency", 16).put("flags", 0);
    return j.toString();
  }

  private static ObjectNode valid() {
    return Jobspecs.nodes(1, 2, false);
  }

  private static ObjectNode bothCounts() {
    ObjectNode js = valid();
    ((ObjectNode) js.get("tasks").get(0).get("count")).put("total", 2);
    return js;
  }

  @Test
  void stream_jobObjects_oneAnswerPerLineInOrder() {
    String in =
        String.join(
                "\n",
                job(valid()),
                job(bothCounts()),
                "not json",
                "{\"userid\":0}",
                "",
                "[1,2]",
                job(valid()))
            + "\n";
    CliRun run = CliRun.run(in, "jobspec", "validate", "--stream");
    assertThat(run.status()).as(run.toString()).isZero();
    assertThat(run.err()).isEmpty();
    List<String> lines = run.out().lines().toList();
    assertThat(lines).hasSize(7);
    assertThat(lines.get(0)).isEqualTo("{\"errnum\":0}");
    assertThat(lines.get(1))
        .isEqualTo(
            "{\"errnum\":22,\"errstr\":\"/tasks/0/count: has both per_slot and total"
                + " (expected: exactly one)\"}");
    assertThat(lines.get(2)).startsWith("{\"errnum\":22,\"errstr\":\"line 3: ");
    assertThat(lines.get(3))
        .isEqualTo(
            "{\"errnum\":22,\"errstr\":\"line 4: /jobspec: missing or not an object (expected:"
                + " {\\\"jobspec\\\":{...},\\\"userid\\\":N,...}, or --jobspec-only)\"}");
    assertThat(lines.get(4)).startsWith("{\"errnum\":22,\"errstr\":\"line 5: ");
    assertThat(lines.get(5)).startsWith("{\"errnum\":22,\"errstr\":\"line 6: not a JSON object");
    assertThat(lines.get(6)).isEqualTo("{\"errnum\":0}");
  }

  @Test
  void stream_jobspecOnly_invalidGivesStatus1() {
    String in = valid() + "\n" + bothCounts() + "\n";
    CliRun run = CliRun.run(in, "jobspec", "validate", "--stream", "--jobspec-only");
    assertThat(run.status()).isEqualTo(1);
    assertThat(run.out().lines().toList())
        .containsExactly(
            "{\"errnum\":0}",
            "{\"errnum\":22,\"errstr\":\"/tasks/0/count: has both per_slot and total"
                + " (expected: exactly one)\"}");
  }

  @Test
  void stream_lastLineWithoutNewline_answered() {
    CliRun run = CliRun.run(job(valid()), "jobspec", "validate", "--stream");
    assertThat(run.out()).isEqualTo("{\"errnum\":0}\n");
  }

  @Test
  void stream_pluginsJobspec_accepted_otherPluginRefused() {
    CliRun ok =
        CliRun.run(job(valid()) + "\n", "jobspec", "validate", "--stream", "--plugins=jobspec");
    assertThat(ok.status()).isZero();
    CliRun bad =
        CliRun.run(
            job(valid()) + "\n",
            "jobspec",
            "validate",
            "--stream",
            "--plugins",
            "jobspec,feasibility");
    assertThat(bad.status()).as("a usage error").isEqualTo(2);
    assertThat(bad.out()).isEmpty();
    assertThat(bad.err())
        .isEqualTo(
            CliRun.usageLine(
                    "fluxdrm jobspec validate: --plugins: \"feasibility\" (expected: jobspec, the"
                        + " only validator plugin fluxdrm provides)")
                + "\n");
  }

  @Test
  void stream_withFileOrOptionsWithoutStream_refused() {
    CliRun withFile = CliRun.run("", "jobspec", "validate", "--stream", "a.json");
    assertThat(withFile.status()).as("a usage error").isEqualTo(2);
    assertThat(withFile.err()).contains("--stream: reads stdin only");
    CliRun noStream = CliRun.run("", "jobspec", "validate", "--jobspec-only");
    assertThat(noStream.status()).as("a usage error").isEqualTo(2);
    assertThat(noStream.err())
        .isEqualTo(
            CliRun.usageLine("fluxdrm jobspec validate: --jobspec-only: only with --stream")
                + "\n");
  }

  @Test
  void stream_lineOverLimit_answeredAndNextLineStillServed() {
    StringBuilder huge = new StringBuilder("{\"jobspec\":\"");
    huge.append("x".repeat(io.fluxdrm.jobspec.Documents.MAX_BYTES + 10)).append("\"}\n");
    CliRun run = CliRun.run(huge + job(valid()) + "\n", "jobspec", "validate", "--stream");
    List<String> lines = run.out().lines().toList();
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0)).startsWith("{\"errnum\":22,\"errstr\":\"line 1: longer than ");
    assertThat(lines.get(1)).isEqualTo("{\"errnum\":0}");
  }

  /** job-ingest waits for each answer before it writes the next job: no answer may be held. */
  @Test
  void stream_answersEachLineBeforeTheNextArrives() throws Exception {
    PipedOutputStream feed = new PipedOutputStream();
    InputStream in = new PipedInputStream(feed, 1 << 20);
    PipedInputStream answers = new PipedInputStream(1 << 20);
    PipedOutputStream answersOut = new PipedOutputStream(answers);
    // own threads: the common pool may have a single worker on a 2-core machine
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newCachedThreadPool();
    CompletableFuture<Integer> status =
        CompletableFuture.supplyAsync(
            () ->
                Main.run(
                    new String[] {"jobspec", "validate", "--stream"},
                    in,
                    new java.io.PrintStream(answersOut, false, StandardCharsets.UTF_8),
                    new java.io.PrintStream(new java.io.ByteArrayOutputStream())),
            pool);
    java.io.BufferedReader reader =
        new java.io.BufferedReader(new java.io.InputStreamReader(answers, StandardCharsets.UTF_8));
    for (int i = 0; i < 3; i++) {
      feed.write((job(i == 1 ? bothCounts() : valid()) + "\n").getBytes(StandardCharsets.UTF_8));
      feed.flush();
      String answer =
          CompletableFuture.supplyAsync(() -> readLine(reader), pool).get(30, TimeUnit.SECONDS);
      assertThat(answer).startsWith(i == 1 ? "{\"errnum\":22" : "{\"errnum\":0}");
    }
    feed.close();
    assertThat(status.get(30, TimeUnit.SECONDS)).isZero();
    pool.shutdown();
  }

  private static String readLine(java.io.BufferedReader r) {
    try {
      return r.readLine();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void lineReader_splitsAcrossBuffers() throws IOException {
    String a = "a".repeat(100_000);
    JobspecCommand.LineReader r =
        new JobspecCommand.LineReader(
            new ByteArrayInputStream((a + "\n\nb").getBytes(StandardCharsets.UTF_8)), 1 << 20);
    assertThat(new String(r.next(), StandardCharsets.UTF_8)).isEqualTo(a);
    assertThat(r.next()).isEmpty();
    assertThat(new String(r.next(), StandardCharsets.UTF_8)).isEqualTo("b");
    assertThat(r.next()).isNull();
  }
}
