package io.fluxdrm.rpc.transcript;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.reactor.EventLoop;
import io.fluxdrm.rpc.reactor.ManualEventLoop;
import io.fluxdrm.rpc.service.Service;
import java.io.InputStream;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TranscriptTest {
  private static final Instant T0 = Instant.parse("2026-11-29T00:00:00Z");

  @TempDir Path tmp;

  /** A stateful, time-dependent service: what replays must reproduce. */
  static Service counter(EventLoop loop, int first, long idSeed) {
    int[] n = {first - 1};
    SplittableRandom ids = new SplittableRandom(idSeed);
    return Service.builder("counter")
        .on(
            "next",
            r ->
                r.respond(
                    Json.object()
                        .put("n", ++n[0])
                        .put("ms", loop.nanoTime() / 1_000_000)
                        .put("owner", r.isOwner())))
        .on("id", r -> r.respond(Json.object().put("id", Long.toHexString(ids.nextLong()))))
        .on(
            "fail",
            r -> {
              throw new RpcException(Errno.EINVAL, "counter.fail: always (expected: nothing)");
            })
        .on("later", r -> loop.schedule(Duration.ofSeconds(2), () -> r.respond(Json.object())))
        .onStreaming(
            "tick",
            r -> {
              for (int i = 0; i < r.json().path("count").asInt(); i++) {
                r.respond(Json.object().put("tick", i));
              }
              r.end();
            })
        .build();
  }

  static Clock clockOf(ManualEventLoop loop) {
    return loop.clock(T0);
  }

  /** Records a session at the counter service's endpoint and returns the transcript file. */
  Path record() throws Exception {
    ManualEventLoop loop = new ManualEventLoop();
    AtomicInteger n = new AtomicInteger();
    Hub hub = new Hub(loop, () -> "peer-" + n.incrementAndGet());
    FluxHandle server = hub.attach(Credentials.owner(1000));
    StringWriter w = new StringWriter();
    TranscriptRecorder rec = new TranscriptRecorder(w, clockOf(loop));
    server.tap(rec);
    server.register(counter(loop, 1, 7));
    loop.runPending();
    FluxHandle owner = hub.attach(Credentials.owner(1000));
    FluxHandle guest = hub.attach(Credentials.user(2000));
    owner.rpc("counter.next", Json.object());
    loop.advance(Duration.ofMillis(1500));
    guest.rpc("counter.next", Json.object());
    guest.rpc("counter.id", Json.object());
    guest.rpc("counter.fail", Json.object());
    guest.rpc("counter.missing", Json.object());
    loop.advance(Duration.ofMillis(10));
    owner.rpc("counter.later", Json.object());
    loop.advance(Duration.ofMillis(500));
    owner.stream("counter.tick", Json.object().put("count", 2), m -> {}, null);
    owner.send("counter.next", Json.object());
    loop.advance(Duration.ofSeconds(3));
    Path file = tmp.resolve("counter.jsonl");
    Files.writeString(file, w.toString());
    return file;
  }

  @Test
  void replay_sameService_reproducesEveryResponse() throws Exception {
    Path file = record();
    ReplayResult r = Replay.run(Transcript.read(file), loop -> counter(loop, 1, 7), List.of());
    assertThat(r.unifiedDiff()).isEmpty();
    assertThat(r.same()).isTrue();
    assertThat(r.requests()).isEqualTo(8);
    assertThat(r.responses()).isEqualTo(9);
  }

  @Test
  void replay_changedResponse_reportedAsUnifiedDiff() throws Exception {
    Path file = record();
    ReplayResult r = Replay.run(Transcript.read(file), loop -> counter(loop, 101, 7), List.of());
    assertThat(r.same()).isFalse();
    assertThat(r.unifiedDiff())
        .isEqualTo(
            """
            --- recorded
            +++ replayed
            @@ -1,5 +1,5 @@
            -{"topic":"counter.next","sender":"peer-2","matchtag":1,"errnum":0,"flags":"TOPIC|PAYLOAD|ROUTE","payload":{"n":1,"ms":0,"owner":true}}
            -{"topic":"counter.next","sender":"peer-3","matchtag":1,"errnum":0,"flags":"TOPIC|PAYLOAD|ROUTE","payload":{"n":2,"ms":1500,"owner":false}}
            +{"topic":"counter.next","sender":"peer-2","matchtag":1,"errnum":0,"flags":"TOPIC|PAYLOAD|ROUTE","payload":{"n":101,"ms":0,"owner":true}}
            +{"topic":"counter.next","sender":"peer-3","matchtag":1,"errnum":0,"flags":"TOPIC|PAYLOAD|ROUTE","payload":{"n":102,"ms":1500,"owner":false}}
             {"topic":"counter.id","sender":"peer-3","matchtag":2,"errnum":0,"flags":"TOPIC|PAYLOAD|ROUTE","payload":{"id":"63cbe1e459320dd7"}}
             {"topic":"counter.fail","sender":"peer-3","matchtag":3,"errnum":22,"flags":"TOPIC|PAYLOAD|ROUTE","payload_text":"counter.fail: always (expected: nothing)"}
             {"topic":"counter.missing","sender":"peer-3","matchtag":4,"errnum":38,"flags":"TOPIC|PAYLOAD|ROUTE","payload_text":"unknown service method 'counter.missing'"}
            """);
  }

  @Test
  void replay_generatedIdsDiffer_equalAfterDeclaredNormalisation() throws Exception {
    Path file = record();
    ReplayResult raw = Replay.run(Transcript.read(file), loop -> counter(loop, 1, 99), List.of());
    assertThat(raw.same()).isFalse();
    assertThat(raw.unifiedDiff())
        .contains("-{\"topic\":\"counter.id\"")
        .contains("+{\"topic\":\"counter.id\"");
    ReplayResult norm =
        Replay.run(
            Transcript.read(file),
            loop -> counter(loop, 1, 99),
            List.of(Normalisation.ignore("/payload/id")));
    assertThat(norm.same()).isTrue();
    ReplayResult byRegex =
        Replay.run(
            Transcript.read(file),
            loop -> counter(loop, 1, 99),
            List.of(Normalisation.replace("\"id\":\"[0-9a-f]+\"", "\"id\":\"X\"")));
    assertThat(byRegex.same()).isTrue();
  }

  @Test
  void assertReplays_difference_assertionErrorWithDiff() throws Exception {
    Path file = record();
    assertThat(ReplayAssertions.assertReplays(file, loop -> counter(loop, 1, 7)).same()).isTrue();
    assertThatThrownBy(() -> ReplayAssertions.assertReplays(file, loop -> counter(loop, 5, 7)))
        .isInstanceOf(AssertionError.class)
        .hasMessageStartingWith(
            "replay of counter.jsonl differs:\n--- recorded\n+++ replayed\n@@ -1,5 +1,5 @@");
  }

  @Test
  void registry_knownAndUnknownService() throws Exception {
    Path file = record();
    ReplayProvider p =
        new ReplayProvider() {
          @Override
          public String serviceName() {
            return "counter";
          }

          @Override
          public ServiceFactory factory() {
            return loop -> counter(loop, 1, 7);
          }

          @Override
          public List<Normalisation> normalisations() {
            return List.of();
          }
        };
    ReplayRegistry reg = ReplayRegistry.of(List.of(p));
    assertThat(reg.names()).containsExactly("counter");
    assertThat(reg.run("counter", file).same()).isTrue();
    assertThatThrownBy(() -> reg.run("sched", file))
        .isInstanceOfSatisfying(
            RpcException.class, e -> assertThat(e.errnum()).isEqualTo(Errno.ENOENT))
        .hasMessage("service \"sched\": not registered for replay (known: counter)");
  }

  @Test
  void recordedLines_validAgainstTranscriptLineSchema() throws Exception {
    Path file = record();
    JsonSchema schema;
    try (InputStream in =
        Files.newInputStream(
            Path.of(
                "..",
                "schemas",
                "src",
                "main",
                "resources",
                "io",
                "fluxdrm",
                "schemas",
                "transcript-line.schema.json"))) {
      schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(in);
    }
    List<String> lines = Files.readAllLines(file);
    assertThat(lines).hasSizeGreaterThan(15);
    for (String line : lines) {
      Set<ValidationMessage> errors = schema.validate(Json.mapper().readTree(line));
      assertThat(errors).as(line).isEmpty();
    }
    JsonNode bad = Json.mapper().readTree("{\"time\":\"x\",\"direction\":\"sideways\"}");
    assertThat(schema.validate(bad)).isNotEmpty();
  }

  @Test
  void line_roundTrip_jsonTextAndBase64Payloads() {
    List<Message> messages =
        List.of(
            Message.request("a.b", Json.object().put("k", "v")).withMatchtag(3),
            Message.response(
                Message.request("a.b", (byte[]) null), Errno.ENOENT, Json.text("no such job")),
            Message.event("ev.x", 9, new byte[] {1, 2, (byte) 0xff}),
            Message.request("a.c", new byte[] {'[', '1', ']', 0}));
    for (Message m : messages) {
      TranscriptLine l = new TranscriptLine(T0, io.fluxdrm.rpc.client.MessageTap.Direction.IN, m);
      TranscriptLine back = TranscriptLine.fromJson(l.toJson(), "t:1");
      assertThat(back).isEqualTo(l);
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          not json       | {time                                                  | t.jsonl:1: invalid JSON at column 2 (expected: one JSON object per line)
          not an object  | [1]                                                    | t.jsonl:1: line: array (expected: JSON object)
          bad time       | {"time":"yesterday"}                                   | t.jsonl:1: /time: yesterday (expected: RFC 3339 UTC time)
          bad direction  | {"time":"2026-01-01T00:00:00Z","direction":"up"}       | t.jsonl:1: /direction: "up" (expected: in or out)
          bad type       | {"time":"2026-01-01T00:00:00Z","direction":"in","type":"x"} | t.jsonl:1: /type: "x" (expected: request, response, event or control)
          flags too big  | {"time":"2026-01-01T00:00:00Z","direction":"in","type":"event","flags":256} | t.jsonl:1: /flags: 256 (expected: 0..255)
          missing seq    | {"time":"2026-01-01T00:00:00Z","direction":"in","type":"event","flags":1,"topic":"a"} | t.jsonl:1: /sequence: missing (expected: integer)
          flags disagree | {"time":"2026-01-01T00:00:00Z","direction":"in","type":"event","flags":3,"topic":"a","sequence":1,"matchtag":0,"userid":0,"rolemask":0} | t.jsonl:1: /flags: 3 (expected: TOPIC and PAYLOAD bits matching the fields)
          """)
  void parse_badLine_einvalWithLocation(String name, String line, String expected) {
    assertThatThrownBy(() -> Transcript.parse(List.of(line), "t.jsonl"))
        .isInstanceOfSatisfying(
            RpcException.class, e -> assertThat(e.errnum()).isEqualTo(Errno.EINVAL))
        .hasMessage(expected);
  }

  @Test
  void replay_recordedAtClientEndpoint_reproducesResponses() throws Exception {
    ManualEventLoop loop = new ManualEventLoop();
    Hub hub = new Hub(loop);
    hub.attach(Credentials.owner(1000)).register(counter(loop, 1, 7));
    loop.runPending();
    FluxHandle client = hub.attach(Credentials.owner(1000));
    StringWriter w = new StringWriter();
    client.tap(new TranscriptRecorder(w, clockOf(loop)));
    client.rpc("counter.next", Json.object());
    loop.advance(Duration.ofSeconds(1));
    client.rpc("counter.next", Json.object());
    client.rpc("counter.fail", Json.object());
    loop.runPending();
    List<TranscriptLine> lines =
        Transcript.parse(List.of(w.toString().split("\n")), "client.jsonl");
    ReplayResult same = Replay.run(lines, l -> counter(l, 1, 7), List.of());
    assertThat(same.unifiedDiff()).isEmpty();
    assertThat(same.requests()).isEqualTo(3);
    ReplayResult changed = Replay.run(lines, l -> counter(l, 2, 7), List.of());
    assertThat(changed.unifiedDiff())
        .contains("-{\"topic\":\"counter.next\",\"sender\":\"\",\"matchtag\":1,")
        .contains("\"payload\":{\"n\":3,\"ms\":1000,\"owner\":true}}");
  }

  /**
   * A service that parks each request for a second and, as RFC 6 asks, refuses a second request
   * whose matchtag its sender has in flight.
   */
  static Service parking(EventLoop loop) {
    io.fluxdrm.rpc.service.PendingRequests<Boolean> pending =
        new io.fluxdrm.rpc.service.PendingRequests<>();
    int[] n = {0};
    return Service.builder("park")
        .on(
            "wait",
            r -> {
              var key = pending.add(r, true);
              int mine = ++n[0];
              loop.schedule(
                  Duration.ofSeconds(1),
                  () -> {
                    pending.remove(key);
                    r.respond(Json.object().put("n", mine));
                  });
            })
        .build();
  }

  /**
   * Two connections tapped into one transcript (a demo's job shells): their requests name no sender
   * at the client, and both use matchtag 1 while the other's is in flight. The replay tells them
   * apart by the matchtag in flight, as two clients, instead of sending both from one (EPROTO).
   */
  @Test
  void replay_twoClientsInOneClientTranscript_sameMatchtagInFlight_replaysSame() {
    ManualEventLoop loop = new ManualEventLoop();
    Hub hub = new Hub(loop);
    hub.attach(Credentials.owner(1000)).register(parking(loop));
    loop.runPending();
    StringWriter w = new StringWriter();
    TranscriptRecorder rec = new TranscriptRecorder(w, clockOf(loop));
    FluxHandle a = hub.attach(Credentials.owner(1000));
    FluxHandle b = hub.attach(Credentials.owner(1000));
    a.tap(rec);
    b.tap(rec);
    a.rpc("park.wait", Json.object());
    loop.advance(Duration.ofMillis(300));
    b.rpc("park.wait", Json.object());
    loop.advance(Duration.ofMillis(800));
    // a's first is answered, b's is in flight: a reuses matchtag 1, as b did
    a.rpc("park.wait", Json.object());
    loop.advance(Duration.ofSeconds(2));
    List<TranscriptLine> lines =
        Transcript.parse(List.of(w.toString().split("\n")), "clients.jsonl");
    assertThat(lines)
        .filteredOn(l -> l.message().type() == io.fluxdrm.rpc.MessageType.REQUEST)
        .extracting(l -> l.message().matchtag())
        .containsExactly(1, 1, 1);
    ReplayResult r = Replay.run(lines, TranscriptTest::parking, List.of());
    assertThat(r.unifiedDiff()).isEmpty();
    assertThat(r.requests()).isEqualTo(3);
    assertThat(r.responses()).isEqualTo(3);
  }

  @Test
  void update_changedService_rewritesTranscriptThatThenReplays() throws Exception {
    Path file = record();
    ReplayResult before = Replay.update(file, loop -> counter(loop, 101, 7), List.of());
    assertThat(before.same()).isFalse();
    ReplayResult after =
        Replay.run(Transcript.read(file), loop -> counter(loop, 101, 7), List.of());
    assertThat(after.unifiedDiff()).isEmpty();
    assertThat(after.requests()).isEqualTo(before.requests());
    assertThat(Files.readString(file)).contains("\"n\":101").doesNotContain("\"n\":1,");
    ReplayResult old = Replay.run(Transcript.read(file), loop -> counter(loop, 1, 7), List.of());
    assertThat(old.same()).isFalse();
  }
}
