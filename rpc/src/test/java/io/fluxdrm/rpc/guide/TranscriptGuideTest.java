package io.fluxdrm.rpc.guide;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.reactor.EventLoop;
import io.fluxdrm.rpc.reactor.ManualEventLoop;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rpc.transcript.Normalisation;
import io.fluxdrm.rpc.transcript.ReplayAssertions;
import io.fluxdrm.rpc.transcript.ReplayResult;
import io.fluxdrm.rpc.transcript.TranscriptRecorder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The test author's guide of docs/transcripts.md, run: the code between the {@code guide:} markers
 * is the guide's example, word for word ({@link #theGuidesExample_isThisCode()} checks it), and it
 * runs here as the guide says it runs in a user's project.
 */
class TranscriptGuideTest {
  // guide:begin
  /** The service under test: a queue that hands out tickets, each with the time it was taken. */
  static Service tickets(EventLoop loop, int first) {
    int[] next = {first};
    return Service.builder("tickets")
        .on(
            "take",
            r ->
                r.respond(
                    Json.object()
                        .put("ticket", next[0]++)
                        .put("at", loop.nanoTime() / 1_000_000)
                        .put("by", r.credentials().userid())))
        .build();
  }

  @TempDir Path dir;

  /** Records a conversation with the service at its endpoint, as a server's --transcript does. */
  Path record() throws Exception {
    ManualEventLoop loop = new ManualEventLoop();
    int[] peers = {0};
    Hub hub = new Hub(loop, () -> "client-" + ++peers[0]);
    FluxHandle server = hub.attach(Credentials.owner(1000));
    java.io.StringWriter out = new java.io.StringWriter();
    server.tap(new TranscriptRecorder(out, loop.clock(Instant.parse("2026-12-06T12:00:00Z"))));
    server.register(tickets(loop, 1));
    loop.runPending();
    FluxHandle alice = hub.attach(Credentials.user(2000));
    alice.rpc("tickets.take", Json.object());
    loop.advance(Duration.ofSeconds(2));
    alice.rpc("tickets.take", Json.object());
    loop.advance(Duration.ofSeconds(1));
    Path file = dir.resolve("tickets.jsonl");
    Files.writeString(file, out.toString(), StandardCharsets.UTF_8);
    return file;
  }

  @Test
  void aFreshServiceAnswersTheRecordedConversation() throws Exception {
    Path transcript = record();
    ReplayResult r = ReplayAssertions.assertReplays(transcript, loop -> tickets(loop, 1));
    assertThat(r.requests()).isEqualTo(2);
  }

  @Test
  void aChangedServiceIsReportedAsADiff() throws Exception {
    Path transcript = record();
    assertThatThrownBy(() -> ReplayAssertions.assertReplays(transcript, loop -> tickets(loop, 7)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("-{\"topic\":\"tickets.take\"")
        .hasMessageContaining("\"ticket\":7");
  }

  @Test
  void whatMayDifferIsNormalisedAway() throws Exception {
    Path transcript = record();
    ReplayAssertions.assertReplays(
        transcript, loop -> tickets(loop, 7), Normalisation.ignore("/payload/ticket"));
  }

  // guide:end

  @Test
  void theGuidesExample_isThisCode() throws Exception {
    Path doc = Path.of(System.getProperty("fluxdrm.docs.dir", "../docs"), "transcripts.md");
    String guide = Files.readString(doc, StandardCharsets.UTF_8);
    Matcher m =
        Pattern.compile("```java\\n// TranscriptGuideTest\\n(.*?)```", Pattern.DOTALL)
            .matcher(guide);
    assertThat(m.find()).as("docs/transcripts.md has the example's java block").isTrue();
    String self =
        Files.readString(
            Path.of("src/test/java/io/fluxdrm/rpc/guide/TranscriptGuideTest.java"),
            StandardCharsets.UTF_8);
    String code =
        self.substring(self.indexOf("// guide:begin\n") + 15, self.indexOf("  // guide:end"));
    assertThat(m.group(1).strip()).isEqualTo(unindent(code));
  }

  private static String unindent(String s) {
    List<String> out = new ArrayList<>();
    for (String l : s.split("\n", -1)) {
      out.add(l.startsWith("  ") ? l.substring(2) : l);
    }
    return String.join("\n", out).strip();
  }
}
