package io.fluxdrm.rpc.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.reactor.ManualEventLoop;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.service.Service;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link LiveReplay} against another implementation of a service (decisions D514, D515): one that
 * makes fewer upcalls than the recorded one and orders its payload's keys otherwise, started by the
 * {@code whenPlaying} hook once the replayer plays its partner.
 */
class LiveReplayTest {
  /** Long: a replay that waited for an upcall the live service never makes would time out. */
  private static final Duration WAIT = Duration.ofSeconds(120);

  private final Reactor reactor = Reactor.start("live-replay-test");
  private final List<FluxHandle> opened = new ArrayList<>();

  @AfterEach
  void close() {
    opened.forEach(FluxHandle::close);
    reactor.close();
  }

  /**
   * The recording: a tickets service that, when it starts, calls its partner's {@code jm.reset},
   * {@code jm.hello} and {@code jm.ready}, then answers two {@code tickets.take} with {@code
   * {"ticket": n, "kind": "take"}}.
   */
  private static List<TranscriptLine> recorded() {
    ManualEventLoop loop = new ManualEventLoop();
    Hub hub = new Hub(loop);
    FluxHandle jm = hub.attach(Credentials.owner(1000));
    jm.register(
        Service.builder("jm")
            .on("reset", r -> r.respond(Json.object()))
            .on("hello", r -> r.respond(Json.object().put("jobs", 0)))
            .on("ready", r -> r.respond(Json.object()))
            .build());
    loop.runPending();
    FluxHandle svc = hub.attach(Credentials.owner(1000));
    StringWriter out = new StringWriter();
    svc.tap(new TranscriptRecorder(out, loop.clock(Instant.parse("2026-12-06T12:00:00Z"))));
    int[] next = {1};
    svc.register(
        Service.builder("tickets")
            .on("take", r -> r.respond(Json.object().put("ticket", next[0]++).put("kind", "take")))
            .build());
    loop.runPending();
    for (String t : List.of("jm.reset", "jm.hello", "jm.ready")) {
      svc.rpc(t, Json.object());
      loop.runPending();
    }
    FluxHandle client = hub.attach(Credentials.owner(1000));
    client.rpc("tickets.take", Json.object());
    loop.runPending();
    client.rpc("tickets.take", Json.object());
    loop.runPending();
    return Transcript.parse(out.toString().lines().toList(), "recorded");
  }

  private FluxHandle attach(Hub hub) {
    AtomicReference<FluxHandle> h = new AtomicReference<>();
    assertThat(
            reactor.runAndWait(
                () -> h.set(hub.attach(Credentials.owner(1000))), Duration.ofSeconds(30)))
        .isTrue();
    synchronized (opened) {
      opened.add(h.get());
    }
    return h.get();
  }

  /**
   * Another tickets service: it calls only {@code jm.ready} when it starts and writes {@code kind}
   * before {@code ticket}, its first ticket being {@code first}.
   */
  private Runnable other(Hub hub, int first, List<String> log) {
    return () -> {
      try {
        FluxHandle h = attach(hub);
        int[] next = {first};
        h.register(
                Service.builder("tickets")
                    .on(
                        "take",
                        r -> r.respond(Json.object().put("kind", "take").put("ticket", next[0]++)))
                    .build())
            .get(30, TimeUnit.SECONDS);
        h.rpc("jm.ready", Json.object()).get(30, TimeUnit.SECONDS);
        log.add("started");
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    };
  }

  @Test
  @Timeout(60)
  void anImplementationWithFewerUpcallsAndOtherKeyOrder_replaysClean_withoutWaiting()
      throws Exception {
    Hub hub = new Hub(reactor);
    Supplier<FluxHandle> connect = () -> attach(hub);
    List<String> log = new ArrayList<>();
    ReplayResult r =
        LiveReplay.run(
            recorded(), "tickets", connect, Set.of("jm"), List.of(), WAIT, other(hub, 1, log));
    assertThat(log).as("the service was started by the hook").containsExactly("started");
    assertThat(r.unifiedDiff()).isEmpty();
    assertThat(r.same()).isTrue();
    assertThat(r.requests()).isEqualTo(2);
    assertThat(r.responses()).isEqualTo(2);
  }

  @Test
  @Timeout(60)
  void aDifferentAnswer_isADiff_inSortedKeyOrder() throws Exception {
    Hub hub = new Hub(reactor);
    ReplayResult r =
        LiveReplay.run(
            recorded(),
            "tickets",
            () -> attach(hub),
            Set.of("jm"),
            List.of(),
            WAIT,
            other(hub, 7, new ArrayList<>()));
    assertThat(r.same()).isFalse();
    assertThat(r.unifiedDiff())
        .contains("-{\"topic\":\"tickets.take\"")
        .contains("\"payload\":{\"kind\":\"take\",\"ticket\":1}")
        .contains("\"payload\":{\"kind\":\"take\",\"ticket\":7}");
  }
}
