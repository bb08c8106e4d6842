package io.fluxdrm.rpc.hub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Flags;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.fixture.Wait;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.transport.ZmqClientKeys;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

@Timeout(60)
class ZmqHubIT {
  private static final Duration T = Duration.ofSeconds(5);

  private Reactor reactor;
  private Hub hub;
  private EchoService echo;

  @BeforeEach
  void setUp() throws Exception {
    reactor = Reactor.start("zmq-it");
    hub = new Hub(reactor);
    echo = new EchoService();
    hub.attach(Credentials.owner(1000)).register(echo.build("demo")).get(5, TimeUnit.SECONDS);
  }

  @AfterEach
  void tearDown() {
    reactor.close();
  }

  @Test
  void loopbackWithoutCurve_rpcStreamAndCredentials() throws Exception {
    ZmqHubListener l =
        ZmqHubListener.start(
            hub,
            reactor,
            "tcp://127.0.0.1:*",
            ZmqHubSettings.Options.loopback(Credentials.user(1234)));
    assertThat(l.endpoint()).startsWith("tcp://127.0.0.1:");
    try (FluxHandle c = FluxHandle.connectZmq(reactor, l.endpoint(), null)) {
      var w = c.rpc("demo.whoami", Json.object(), T).get(5, TimeUnit.SECONDS).json();
      assertThat(w.get("userid").asLong()).isEqualTo(1234);
      assertThat(w.get("rolemask").asInt()).isEqualTo(Flags.ROLE_USER | Flags.ROLE_LOCAL);
      assertThat(w.get("routes").asInt()).isEqualTo(1);
      List<Integer> got = new CopyOnWriteArrayList<>();
      c.stream("demo.count", Json.object().put("to", 3), m -> got.add(m.json().get("i").asInt()), T)
          .done()
          .get(5, TimeUnit.SECONDS);
      assertThat(got).containsExactly(1, 2, 3);
    }
    Wait.until(T, () -> echo.disconnects.size() == 1);
  }

  /**
   * Issue 12, finding 5 (D330): {@code loopbackGuests()} makes every peer a guest of unknown uid,
   * which may neither register a name outside {@code 4294967295-} nor act as the owner.
   */
  @Test
  void loopbackGuests_peerIsAGuestOfUnknownUidRefusedOwnerNames() throws Exception {
    ZmqHubListener l =
        ZmqHubListener.start(
            hub, reactor, "tcp://127.0.0.1:*", ZmqHubSettings.Options.loopbackGuests());
    try (FluxHandle c = FluxHandle.connectZmq(reactor, l.endpoint(), null)) {
      var w = c.rpc("demo.whoami", Json.object(), T).get(5, TimeUnit.SECONDS).json();
      assertThat(w.get("userid").asLong()).isEqualTo(4294967295L);
      assertThat(w.get("rolemask").asInt()).isEqualTo(Flags.ROLE_USER | Flags.ROLE_LOCAL);
      assertThatThrownBy(
              () -> c.register(new EchoService().build("job-manager")).get(5, TimeUnit.SECONDS))
          .cause()
          .isInstanceOfSatisfying(
              RpcException.class, e -> assertThat(e.errnum()).isEqualTo(Errno.EPERM));
      c.register(new EchoService().build("4294967295-mine")).get(5, TimeUnit.SECONDS);
    }
    l.close();
  }

  /** D331: the listener's long-term secret key is zeros once it is closed. */
  @Test
  void curveListenerClosed_serverSecretKeyWiped() throws Exception {
    ZMQ.Curve.KeyPair server = ZMQ.Curve.generateKeyPair();
    ZMQ.Curve.KeyPair alice = ZMQ.Curve.generateKeyPair();
    ZmqHubListener l =
        ZmqHubListener.start(
            hub,
            reactor,
            "tcp://127.0.0.1:*",
            ZmqHubSettings.Options.curve(
                new ZmqHubSettings.Curve(
                    server.publicKey,
                    server.secretKey,
                    Map.of(alice.publicKey, Credentials.user(4242)))));
    FluxHandle a =
        FluxHandle.connectZmq(
            reactor,
            l.endpoint(),
            new ZmqClientKeys(server.publicKey, alice.publicKey, alice.secretKey));
    a.rpc("demo.whoami", Json.object(), T).get(5, TimeUnit.SECONDS);
    var keys = l.serverKeysForTest();
    assertThat(keys.isDestroyed()).isFalse();
    l.close();
    assertThat(keys.isDestroyed()).isTrue();
    assertThatThrownBy(keys::secretKey).isInstanceOf(IllegalStateException.class);
    a.close();
  }

  @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
  @org.junit.jupiter.params.provider.CsvSource({
    "tcp://[::1]:*, tcp://[::1]:",
    "tcp://localhost:*, tcp://localhost:",
  })
  void ipv6AndHostNameEndpoints_listenedOnAndConnectedTo(String listen, String prefix)
      throws Exception {
    ZmqHubListener l =
        ZmqHubListener.start(
            hub, reactor, listen, ZmqHubSettings.Options.loopback(Credentials.user(55)));
    assertThat(l.endpoint()).startsWith(prefix).doesNotEndWith(":*");
    try (FluxHandle c = FluxHandle.connectZmq(reactor, l.endpoint(), null)) {
      var w = c.rpc("demo.whoami", Json.object(), T).get(5, TimeUnit.SECONDS).json();
      assertThat(w.get("userid").asInt()).isEqualTo(55);
    }
    l.close();
  }

  @Test
  void serviceOverZmq_calledFromAnotherZmqClient() throws Exception {
    ZmqHubListener l =
        ZmqHubListener.start(
            hub,
            reactor,
            "tcp://127.0.0.1:*",
            ZmqHubSettings.Options.loopback(Credentials.owner(1000)));
    try (FluxHandle s = FluxHandle.connectZmq(reactor, l.endpoint(), null);
        FluxHandle c = FluxHandle.connectZmq(reactor, l.endpoint(), null)) {
      s.register(new EchoService().build("zsvc")).get(5, TimeUnit.SECONDS);
      var m = c.rpc("zsvc.echo", Json.object().put("v", "x"), T).get(5, TimeUnit.SECONDS);
      assertThat(m.json().get("v").asText()).isEqualTo("x");
    }
  }

  @Test
  void listen_beyondLoopbackWithoutCurve_einval() {
    assertThatThrownBy(
            () ->
                ZmqHubListener.start(
                    hub,
                    reactor,
                    "tcp://0.0.0.0:*",
                    ZmqHubSettings.Options.loopback(Credentials.user(1))))
        .isInstanceOfSatisfying(
            RpcException.class, e -> assertThat(e.errnum()).isEqualTo(Errno.EINVAL))
        .hasMessage(
            "tcp://0.0.0.0:*: listening beyond loopback without CURVE (expected: CURVE keys)");
  }

  @Test
  void curve_allowedKeyGetsMappedCredentialsUnknownKeyGetsNothing() throws Exception {
    ZMQ.Curve.KeyPair server = ZMQ.Curve.generateKeyPair();
    ZMQ.Curve.KeyPair alice = ZMQ.Curve.generateKeyPair();
    ZMQ.Curve.KeyPair mallory = ZMQ.Curve.generateKeyPair();
    ZmqHubListener l =
        ZmqHubListener.start(
            hub,
            reactor,
            "tcp://127.0.0.1:*",
            ZmqHubSettings.Options.curve(
                new ZmqHubSettings.Curve(
                    server.publicKey,
                    server.secretKey,
                    Map.of(alice.publicKey, Credentials.user(4242)))));
    try (FluxHandle a =
            FluxHandle.connectZmq(
                reactor,
                l.endpoint(),
                new ZmqClientKeys(server.publicKey, alice.publicKey, alice.secretKey));
        FluxHandle m =
            FluxHandle.connectZmq(
                reactor,
                l.endpoint(),
                new ZmqClientKeys(server.publicKey, mallory.publicKey, mallory.secretKey))) {
      var w = a.rpc("demo.whoami", Json.object(), T).get(5, TimeUnit.SECONDS).json();
      assertThat(w.get("userid").asLong()).isEqualTo(4242);
      assertThat(w.get("rolemask").asInt()).isEqualTo(Flags.ROLE_USER | Flags.ROLE_LOCAL);
      var f = m.rpc("demo.whoami", Json.object(), Duration.ofMillis(500));
      assertThatThrownBy(() -> f.get(5, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .cause()
          .isInstanceOfSatisfying(
              RpcException.class, e -> assertThat(e.errnum()).isEqualTo(Errno.ETIMEDOUT));
    }
  }

  @Test
  void curveHub_nullClientGreeting_closedAsMechanismMismatch() throws Exception {
    ZMQ.Curve.KeyPair server = ZMQ.Curve.generateKeyPair();
    ZmqHubListener l =
        ZmqHubListener.start(
            hub,
            reactor,
            "tcp://127.0.0.1:*",
            ZmqHubSettings.Options.curve(
                new ZmqHubSettings.Curve(server.publicKey, server.secretKey, Map.of())));
    try (RawZmtpPeer p = RawZmtpPeer.connect(l.endpoint())) {
      p.write(io.fluxdrm.rpc.zmtp.Greeting.encode("NULL", false));
      byte[] ours = p.read(64);
      assertThat(new String(ours, 12, 5, java.nio.charset.StandardCharsets.US_ASCII))
          .isEqualTo("CURVE");
      assertThat(ours[32]).as("as-server").isEqualTo((byte) 1);
      assertThat(p.closedWithin(Duration.ofSeconds(10))).isTrue();
    }
  }

  @Test
  void curveKeys_notZ85_einvalAtStart() {
    ZMQ.Curve.KeyPair server = ZMQ.Curve.generateKeyPair();
    assertThatThrownBy(
            () ->
                ZmqHubListener.start(
                    hub,
                    reactor,
                    "tcp://127.0.0.1:*",
                    ZmqHubSettings.Options.curve(
                        new ZmqHubSettings.Curve(
                            server.publicKey,
                            server.secretKey,
                            Map.of("short", Credentials.user(1))))))
        .isInstanceOfSatisfying(
            RpcException.class, e -> assertThat(e.errnum()).isEqualTo(Errno.EINVAL))
        .hasMessageStartingWith(
            "tcp://127.0.0.1:*: CURVE keys: client key \"short\": z85 key: 5 characters");
    assertThatThrownBy(
            () ->
                FluxHandle.connectZmq(
                    reactor,
                    "tcp://127.0.0.1:5",
                    new ZmqClientKeys(
                        server.publicKey, server.publicKey, ZMQ.Curve.generateKeyPair().secretKey)))
        .isInstanceOfSatisfying(
            RpcException.class, e -> assertThat(e.errnum()).isEqualTo(Errno.EINVAL))
        .hasMessageStartingWith("tcp://127.0.0.1:5: CURVE keys: ");
  }

  @Test
  void ipcAndInproc_refusedWithPointerToLocal() {
    for (String ep : List.of("ipc:///tmp/fluxdrm-hub", "inproc://hub")) {
      String why =
          ep
              + ": "
              + ep.substring(0, ep.indexOf(':'))
              + ":// is not served by fluxdrm's ZeroMQ engine (expected: tcp://HOST:PORT; for a"
              + " Unix socket use local://PATH)";
      assertThatThrownBy(
              () ->
                  ZmqHubListener.start(
                      hub, reactor, ep, ZmqHubSettings.Options.loopback(Credentials.user(1))))
          .isInstanceOfSatisfying(
              RpcException.class, e -> assertThat(e.errnum()).isEqualTo(Errno.EINVAL))
          .hasMessage(why);
      assertThatThrownBy(() -> FluxHandle.connectZmq(reactor, ep, null))
          .isInstanceOfSatisfying(
              RpcException.class, e -> assertThat(e.errnum()).isEqualTo(Errno.EINVAL))
          .hasMessage(why);
    }
  }

  @Test
  void badFrames_dropped_hubKeepsServing() throws Exception {
    ZmqHubListener l =
        ZmqHubListener.start(
            hub,
            reactor,
            "tcp://127.0.0.1:*",
            ZmqHubSettings.Options.loopback(Credentials.user(7)));
    try (RawContext raw0 = new RawContext()) {
      ZContext ctx = raw0.ctx;
      ZMQ.Socket raw = ctx.createSocket(SocketType.DEALER);
      raw.setLinger(0);
      raw.connect(l.endpoint());
      raw.send(new byte[] {1, 2, 3});
      raw.sendMore(new byte[0]);
      raw.send(new byte[19]);
      byte[] badType =
          java.util.HexFormat.of().parseHex("8e010301ffffffff00000000ffffffff00000001");
      raw.sendMore("demo.echo");
      raw.send(badType);
      // a large message over the limit set below would disconnect; garbage is simply dropped
      try (FluxHandle c = FluxHandle.connectZmq(reactor, l.endpoint(), null)) {
        var m = c.rpc("demo.echo", Json.object().put("ok", 1), T).get(5, TimeUnit.SECONDS);
        assertThat(m.json().get("ok").asInt()).isEqualTo(1);
      }
    }
  }

  @Test
  void overLimitMessage_dropped_othersServed() throws Exception {
    ZmqHubListener l =
        ZmqHubListener.start(
            hub,
            reactor,
            "tcp://127.0.0.1:*",
            ZmqHubSettings.Options.loopback(Credentials.user(7)).withLimits(1 << 16, 1 << 20));
    try (RawContext raw0 = new RawContext()) {
      ZContext ctx = raw0.ctx;
      ZMQ.Socket raw = ctx.createSocket(SocketType.DEALER);
      raw.setLinger(0);
      raw.connect(l.endpoint());
      raw.sendMore(new byte[0]);
      raw.sendMore("demo.echo");
      raw.sendMore(new byte[1 << 17]);
      raw.send(java.util.HexFormat.of().parseHex("8e01010bffffffff00000000ffffffff00000001"));
      try (FluxHandle c = FluxHandle.connectZmq(reactor, l.endpoint(), null)) {
        var m = c.rpc("demo.echo", Json.object().put("ok", 2), T).get(5, TimeUnit.SECONDS);
        assertThat(m.json().get("ok").asInt()).isEqualTo(2);
      }
    }
  }

  @Test
  void flood_peerThatStopsReading_othersServed() throws Exception {
    ZmqHubListener l =
        ZmqHubListener.start(
            hub,
            reactor,
            "tcp://127.0.0.1:*",
            ZmqHubSettings.Options.loopback(Credentials.user(7)).withLimits(1 << 16, 64 * 1024));
    byte[] proto = java.util.HexFormat.of().parseHex("8e01010bffffffff00000000ffffffff00000001");
    try (RawContext raw0 = new RawContext();
        FluxHandle c = FluxHandle.connectZmq(reactor, l.endpoint(), null)) {
      ZContext ctx = raw0.ctx;
      ZMQ.Socket raw = ctx.createSocket(SocketType.DEALER);
      raw.setLinger(0);
      raw.setSndHWM(0);
      raw.setRcvHWM(100);
      raw.connect(l.endpoint());
      for (int i = 0; i < 40_000; i++) {
        raw.sendMore(new byte[0]);
        raw.sendMore("nope.x");
        raw.sendMore("{}\0".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        raw.send(proto);
        if (i % 10_000 == 0) {
          var m = c.rpc("demo.echo", Json.object().put("i", i), T).get(5, TimeUnit.SECONDS);
          assertThat(m.json().get("i").asInt()).isEqualTo(i);
        }
      }
      var m = c.rpc("demo.echo", Json.object().put("end", true), T).get(5, TimeUnit.SECONDS);
      assertThat(m.json().get("end").asBoolean()).isTrue();
    }
  }

  /**
   * The test's own raw ZeroMQ peer context. JeroMQ's context termination can block for good when
   * the hub has just dropped the raw peer's connection (over-limit or flooding peer) and the socket
   * is reconnecting; what these tests check is the hub, so the raw context is torn down on a daemon
   * thread and given a few seconds, never the test's whole time budget.
   */
  static final class RawContext implements AutoCloseable {
    final ZContext ctx;

    RawContext() {
      this(new ZContext(1));
    }

    RawContext(ZContext ctx) {
      this.ctx = ctx;
    }

    @Override
    public void close() {
      Thread t = new Thread(ctx::close, "raw-zmq-close");
      t.setDaemon(true);
      t.start();
      try {
        t.join(5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
