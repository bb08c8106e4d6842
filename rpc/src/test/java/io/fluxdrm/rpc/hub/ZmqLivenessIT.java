package io.fluxdrm.rpc.hub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.fixture.Wait;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.service.Service;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A ZeroMQ client that goes away without a goodbye is noticed by the hub (D173: its connection's
 * end at once, ZMTP heartbeats when it goes silent) and treated as a disconnect: the services it
 * used get {@code <service>.disconnect}, its own services are removed and {@code service.removed}
 * is published.
 */
@Timeout(120)
class ZmqLivenessIT {
  private static final Duration T = Duration.ofSeconds(10);

  /** Far above the default bound (six seconds): only a hub that never notices fails. */
  private static final Duration NOTICE = Duration.ofSeconds(60);

  /** How the client vanishes. */
  enum Vanish {
    /** Its reactor stops without closing the handle: the socket closes with no goodbye. */
    REACTOR_STOPPED,
    /** Its JVM is killed with SIGKILL: the system closes the connection. */
    PROCESS_KILLED,
    /**
     * Its JVM is stopped with SIGSTOP: the connection stays open but nothing answers the hub's ZMTP
     * PINGs any more (as when the client's host or network dies).
     */
    PROCESS_STOPPED
  }

  private Reactor reactor;
  private Hub hub;
  private EchoService echo;
  private FluxHandle watcher;
  private final List<String> removed = new CopyOnWriteArrayList<>();

  @BeforeEach
  void setUp() throws Exception {
    reactor = Reactor.start("zmq-live-it");
    hub = new Hub(reactor);
    echo = new EchoService();
    watcher = hub.attach(Credentials.owner(1000));
    watcher.register(echo.build("demo")).get(5, TimeUnit.SECONDS);
    watcher
        .subscribe(Hub.SERVICE_REMOVED, m -> removed.add(m.json().get("service").asText()))
        .get(5, TimeUnit.SECONDS);
  }

  @AfterEach
  void tearDown() {
    reactor.close();
  }

  @ParameterizedTest
  @EnumSource(Vanish.class)
  void clientVanishesWithoutGoodbye_disconnectDeliveredAndServiceRemoved(Vanish how)
      throws Exception {
    ZmqHubListener l =
        ZmqHubListener.start(
            hub,
            reactor,
            "tcp://127.0.0.1:*",
            ZmqHubSettings.Options.loopback(Credentials.owner(1000)));
    if (how == Vanish.REACTOR_STOPPED) {
      vanishByReactorStop(l.endpoint());
    } else {
      vanishByProcess(l.endpoint(), how);
    }
    Wait.until(NOTICE, () -> removed.contains("ghost"));
    Wait.until(NOTICE, () -> echo.disconnects.size() == 1);
    assertThat(removed).containsExactly("ghost");
    assertThatThrownBy(() -> watcher.rpc("ghost.echo", Json.object(), T).get(5, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOfSatisfying(
            RpcException.class, e -> assertThat(e.errnum()).isEqualTo(Errno.ENOSYS));
  }

  @org.junit.jupiter.api.Test
  void clientClosesThenStopsAtOnce_livenessOff_goodbyeArrives() throws Exception {
    ZmqHubListener l =
        ZmqHubListener.start(
            hub,
            reactor,
            "tcp://127.0.0.1:*",
            ZmqHubSettings.Options.loopback(Credentials.owner(1000))
                .withLiveness(ZmqHubSettings.Liveness.OFF));
    Reactor client = Reactor.start("leaver");
    try {
      FluxHandle h = FluxHandle.connectZmq(client, l.endpoint(), null);
      h.register(Service.builder("ghost").on("echo", r -> r.respond(r.json())).build())
          .get(5, TimeUnit.SECONDS);
      h.rpc("demo.echo", Json.object(), T).get(5, TimeUnit.SECONDS);
      // as the bridge's shutdown hook does: goodbye on the loop, then the reactor stops at once
      assertThat(client.runAndWait(h::close, T)).isTrue();
    } finally {
      client.close();
    }
    Wait.until(NOTICE, () -> removed.contains("ghost"));
    Wait.until(NOTICE, () -> echo.disconnects.size() == 1);
  }

  private void vanishByReactorStop(String endpoint) throws Exception {
    Reactor client = Reactor.start("ghost");
    try {
      FluxHandle h = FluxHandle.connectZmq(client, endpoint, null);
      h.register(Service.builder("ghost").on("echo", r -> r.respond(r.json())).build())
          .get(5, TimeUnit.SECONDS);
      h.rpc("demo.echo", Json.object(), T).get(5, TimeUnit.SECONDS);
      assertThat(watcher.rpc("ghost.echo", Json.object().put("v", 1), T).get(5, TimeUnit.SECONDS))
          .satisfies(m -> assertThat(m.json().get("v").asInt()).isEqualTo(1));
    } finally {
      // the handle is never closed: no goodbye; the stopping reactor closes the socket
      client.close();
    }
  }

  private void vanishByProcess(String endpoint, Vanish how) throws Exception {
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                ZmqGhostClient.class.getName(),
                endpoint)
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      do {
        line = out.readLine();
      } while (line != null && !line.equals("ready"));
      assertThat(line).as("the ghost client's readiness").isEqualTo("ready");
      assertThat(removed).isEmpty();
      assertThat(echo.disconnects).isEmpty();
      if (how == Vanish.PROCESS_STOPPED) {
        Process stop = new ProcessBuilder("kill", "-STOP", Long.toString(p.pid())).start();
        assertThat(stop.waitFor()).as("kill -STOP").isZero();
        Wait.until(NOTICE, () -> removed.contains("ghost"));
      }
    } finally {
      p.destroyForcibly();
      p.waitFor(30, TimeUnit.SECONDS);
    }
  }
}
