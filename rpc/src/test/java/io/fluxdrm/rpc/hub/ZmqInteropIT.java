package io.fluxdrm.rpc.hub;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.MessageCodec;
import io.fluxdrm.rpc.MessageType;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.fixture.Wait;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.transport.ZmqClientKeys;
import io.fluxdrm.rpc.transport.ZmqConnector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * Wire compatibility of the ZMTP engine with an independent ZeroMQ stack, JeroMQ (the reference
 * peer, test scope only): our hub serves a JeroMQ DEALER, our connector talks to a JeroMQ ROUTER,
 * and heartbeats flow both ways.
 */
@Timeout(60)
class ZmqInteropIT {
  private static final Duration T = Duration.ofSeconds(10);

  private Reactor reactor;
  private Hub hub;
  private ZContext ctx;

  @BeforeEach
  void setUp() throws Exception {
    reactor = Reactor.start("interop-it");
    hub = new Hub(reactor);
    hub.attach(Credentials.owner(1000))
        .register(new EchoService().build("demo"))
        .get(5, TimeUnit.SECONDS);
    ctx = new ZContext(1);
  }

  @AfterEach
  void tearDown() {
    new ZmqHubIT.RawContext(ctx).close();
    reactor.close();
  }

  private ZmqHubListener listen(ZmqHubSettings.Liveness live) {
    return ZmqHubListener.start(
        hub,
        reactor,
        "tcp://127.0.0.1:*",
        ZmqHubSettings.Options.loopback(Credentials.user(4321)).withLiveness(live));
  }

  /** Sends a Flux message on a JeroMQ socket, one part per frame. */
  private static void send(ZMQ.Socket s, Message m) {
    List<byte[]> parts = MessageCodec.toParts(m);
    for (int i = 0; i < parts.size(); i++) {
      s.send(parts.get(i), i < parts.size() - 1 ? ZMQ.SNDMORE : 0);
    }
  }

  /**
   * Receives one multipart message from a JeroMQ socket within ten seconds. While nothing comes,
   * JeroMQ's I/O thread is woken every second (see {@link #wakeJeromq}): JeroMQ 0.6.0 sometimes
   * stops writing a fresh connection's output (our side then logs "greeting incomplete, 0 of 64
   * bytes"). Waking JeroMQ cannot make our side answer, so a fault of ours still fails the test.
   */
  private List<byte[]> receive(ZMQ.Socket s) {
    int timeout = s.getReceiveTimeOut();
    s.setReceiveTimeOut(1_000);
    byte[] first = s.recv(0);
    for (int i = 0; first == null && i < 9; i++) {
      wakeJeromq();
      first = s.recv(0);
    }
    s.setReceiveTimeOut(timeout);
    assertThat(first).as("a message within ten seconds").isNotNull();
    List<byte[]> parts = new ArrayList<>();
    parts.add(first);
    while (s.hasReceiveMore()) {
      parts.add(s.recv(0));
    }
    return parts;
  }

  /**
   * Binds and closes a throwaway listener on the JeroMQ context, which makes its I/O thread's
   * poller register its channels again: the wake-up decision D148 found for JeroMQ 0.6.0's lost
   * registrations.
   */
  private void wakeJeromq() {
    ZMQ.Socket wake = ctx.createSocket(SocketType.DEALER);
    wake.bind("tcp://127.0.0.1:*");
    wake.close();
  }

  /**
   * Connects a JeroMQ socket and waits until its ZMTP greeting is exchanged, so that the test's
   * sends never race JeroMQ's connect (decision D148), waking JeroMQ when the event is late.
   */
  private void connectAndWait(ZMQ.Socket s, String endpoint) {
    String address = "inproc://interop-monitor-" + System.nanoTime();
    assertThat(s.monitor(address, ZMQ.EVENT_HANDSHAKE_PROTOCOL)).isTrue();
    ZMQ.Socket m = ctx.createSocket(SocketType.PAIR);
    m.setReceiveTimeOut(2_000);
    m.connect(address);
    s.connect(endpoint);
    org.zeromq.ZEvent e = org.zeromq.ZEvent.recv(m);
    for (int nudge = 0; e == null && nudge < 5; nudge++) {
      wakeJeromq();
      e = org.zeromq.ZEvent.recv(m);
    }
    assertThat(e).as("JeroMQ's handshake with our hub").isNotNull();
    s.monitor(null, 0);
    m.close();
  }

  /** The monitor events that say a JeroMQ socket's peer was refused or its connection dropped. */
  private static final int REFUSED =
      ZMQ.EVENT_DISCONNECTED
          | zmq.ZMQ.ZMQ_EVENT_HANDSHAKE_FAILED_AUTH
          | zmq.ZMQ.ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL
          | zmq.ZMQ.ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL;

  /** Starts monitoring {@code s} for the events of {@code mask}; the PAIR socket they arrive on. */
  private ZMQ.Socket monitor(ZMQ.Socket s, int mask) {
    String address = "inproc://interop-refused-" + System.nanoTime();
    assertThat(s.monitor(address, mask)).isTrue();
    ZMQ.Socket m = ctx.createSocket(SocketType.PAIR);
    m.setReceiveTimeOut(2_000);
    m.connect(address);
    return m;
  }

  /**
   * Waits up to 30 s for a monitor event, waking JeroMQ's I/O thread between tries (D148); null
   * when none came.
   */
  private org.zeromq.ZEvent awaitEvent(ZMQ.Socket m) {
    org.zeromq.ZEvent e = org.zeromq.ZEvent.recv(m);
    for (int nudge = 0; e == null && nudge < 14; nudge++) {
      wakeJeromq();
      e = org.zeromq.ZEvent.recv(m);
    }
    return e;
  }

  private int handshakes(ZmqHubListener l) throws Exception {
    CompletableFuture<Integer> n = new CompletableFuture<>();
    reactor.execute(() -> n.complete(l.handshakes()));
    return n.get(5, TimeUnit.SECONDS);
  }

  @Test
  void ourHub_jeromqDealer_fluxRpcAnsweredWithTransportCredentials() throws Exception {
    ZmqHubListener l = listen(ZmqHubSettings.Liveness.DEFAULT);
    ZMQ.Socket d = ctx.createSocket(SocketType.DEALER);
    d.setIdentity("jeromq-dealer".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    d.setReceiveTimeOut(10_000);
    connectAndWait(d, l.endpoint());
    send(d, Message.request("demo.whoami", Json.object()).withMatchtag(7));
    Message r = MessageCodec.fromParts(receive(d));
    assertThat(r.type()).isEqualTo(MessageType.RESPONSE);
    assertThat(r.matchtag()).isEqualTo(7);
    assertThat(r.errnum()).isZero();
    assertThat(r.json().get("userid").asInt()).isEqualTo(4321);
    send(d, Message.request("nope.x", Json.object()).withMatchtag(8));
    Message e = MessageCodec.fromParts(receive(d));
    assertThat(e.errnum()).isEqualTo(Errno.ENOSYS);
    assertThat(handshakes(l)).isEqualTo(1);
    l.close();
  }

  @Test
  void jeromqRouter_ourConnector_requestArrivesWithUuidIdentityAndResponseReturns()
      throws Exception {
    ZMQ.Socket router = ctx.createSocket(SocketType.ROUTER);
    router.setReceiveTimeOut(10_000);
    int port = router.bindToRandomPort("tcp://127.0.0.1");
    try (FluxHandle h = FluxHandle.connectZmq(reactor, "tcp://127.0.0.1:" + port, null)) {
      CompletableFuture<Message> call = h.rpc("svc.ping", Json.object().put("n", 1), T);
      List<byte[]> frames = receive(router);
      String identity = new String(frames.get(0), java.nio.charset.StandardCharsets.US_ASCII);
      assertThat(identity).matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
      Message req = MessageCodec.fromParts(frames.subList(1, frames.size()));
      assertThat(req.topic()).isEqualTo("svc.ping");
      Message resp = Message.response(req, 0, Json.text("{\"pong\":1}"));
      router.send(frames.get(0), ZMQ.SNDMORE);
      List<byte[]> parts = MessageCodec.toParts(resp);
      for (int i = 0; i < parts.size(); i++) {
        router.send(parts.get(i), i < parts.size() - 1 ? ZMQ.SNDMORE : 0);
      }
      assertThat(call.get(10, TimeUnit.SECONDS).json().get("pong").asInt()).isEqualTo(1);
    }
    // the goodbye reaches the ROUTER before the connection closes
    List<byte[]> bye = receive(router);
    Message m = MessageCodec.fromParts(bye.subList(1, bye.size()));
    assertThat(m.type()).isEqualTo(MessageType.CONTROL);
    assertThat(m.aux1()).isEqualTo(ZmqConnector.CONTROL_DISCONNECT);
  }

  /**
   * Waits (polling the hub's loop, with a generous deadline) until one open connection of {@code l}
   * has heard {@code n} heartbeats of the kind {@code count} picks. The heartbeats are the event,
   * not the wall clock: a peer's timeout timers run on the same thread as its PINGs, so twenty
   * PINGs at 100 ms sent on one connection that is still open mean that five timeouts of 400 ms
   * have passed on it by the pinging side's own clock without closing it.
   */
  private static void awaitHeartbeats(
      ZmqHubListener l, ToLongFunction<ZmqHubListener.Heard> count, long n) {
    Wait.until(
        Duration.ofSeconds(30),
        () -> {
          List<ZmqHubListener.Heard> heard = l.heard();
          return heard != null && heard.stream().anyMatch(h -> count.applyAsLong(h) >= n);
        });
  }

  @Test
  void jeromqPings_ourHubWithoutOwnPings_answersThemAndKeepsTheConnection() throws Exception {
    // our hub sends nothing by itself: only our PONGs keep JeroMQ from timing the connection out
    ZmqHubListener l = listen(ZmqHubSettings.Liveness.OFF);
    ZMQ.Socket d = ctx.createSocket(SocketType.DEALER);
    d.setHeartbeatIvl(100);
    d.setHeartbeatTimeout(400);
    d.setReceiveTimeOut(10_000);
    connectAndWait(d, l.endpoint());
    send(d, Message.request("demo.echo", Json.object().put("i", 1)).withMatchtag(1));
    assertThat(MessageCodec.fromParts(receive(d)).json().get("i").asInt()).isEqualTo(1);
    // were our PONGs missing, JeroMQ would close each connection after about four PINGs and
    // reconnect: no connection would hear twenty, and the wait would fail
    awaitHeartbeats(l, ZmqHubListener.Heard::pings, 20); // five timeouts' worth
    send(d, Message.request("demo.echo", Json.object().put("i", 2)).withMatchtag(2));
    assertThat(MessageCodec.fromParts(receive(d)).json().get("i").asInt()).isEqualTo(2);
    assertThat(handshakes(l)).as("the first connection was kept").isEqualTo(1);
    l.close();
  }

  @Test
  void ourHubPings_jeromqWithoutOwnPings_answersAndKeepsTheConnection() throws Exception {
    // JeroMQ sends nothing by itself: only its PONGs keep our hub from timing it out
    ZmqHubListener l =
        listen(new ZmqHubSettings.Liveness(Duration.ofMillis(100), Duration.ofMillis(400)));
    ZMQ.Socket d = ctx.createSocket(SocketType.DEALER);
    d.setReceiveTimeOut(10_000);
    connectAndWait(d, l.endpoint());
    send(d, Message.request("demo.echo", Json.object().put("i", 1)).withMatchtag(1));
    assertThat(MessageCodec.fromParts(receive(d)).json().get("i").asInt()).isEqualTo(1);
    // were JeroMQ's PONGs missing (or not counted as traffic), our hub would close the
    // connection after 400 ms: no connection would hear twenty PONGs, and the wait would fail
    awaitHeartbeats(l, ZmqHubListener.Heard::pongs, 20); // five timeouts' worth
    send(d, Message.request("demo.echo", Json.object().put("i", 2)).withMatchtag(2));
    assertThat(MessageCodec.fromParts(receive(d)).json().get("i").asInt()).isEqualTo(2);
    assertThat(handshakes(l)).as("the first connection was kept").isEqualTo(1);
    l.close();
  }

  private ZmqHubListener curveHub(ZMQ.Curve.KeyPair server, ZMQ.Curve.KeyPair allowed) {
    return ZmqHubListener.start(
        hub,
        reactor,
        "tcp://127.0.0.1:*",
        ZmqHubSettings.Options.curve(
            new ZmqHubSettings.Curve(
                server.publicKey,
                server.secretKey,
                java.util.Map.of(allowed.publicKey, Credentials.user(4242)))));
  }

  private ZMQ.Socket curveDealer(ZMQ.Curve.KeyPair server, ZMQ.Curve.KeyPair client, String ep) {
    ZMQ.Socket d = ctx.createSocket(SocketType.DEALER);
    d.setCurveServerKey(ZMQ.Curve.z85Decode(server.publicKey));
    d.setCurvePublicKey(ZMQ.Curve.z85Decode(client.publicKey));
    d.setCurveSecretKey(ZMQ.Curve.z85Decode(client.secretKey));
    d.setReceiveTimeOut(10_000);
    return d;
  }

  @Test
  void ourCurveHub_jeromqCurveDealer_allowedKeyGetsMappedCredentials() throws Exception {
    ZMQ.Curve.KeyPair server = ZMQ.Curve.generateKeyPair();
    ZMQ.Curve.KeyPair alice = ZMQ.Curve.generateKeyPair();
    ZmqHubListener l = curveHub(server, alice);
    ZMQ.Socket d = curveDealer(server, alice, l.endpoint());
    connectAndWait(d, l.endpoint());
    send(d, Message.request("demo.whoami", Json.object()).withMatchtag(5));
    Message r = MessageCodec.fromParts(receive(d));
    assertThat(r.matchtag()).isEqualTo(5);
    assertThat(r.json().get("userid").asInt()).isEqualTo(4242);
    // a larger message crosses CURVE's long frames both ways
    String big = "y".repeat(100_000);
    send(d, Message.request("demo.echo", Json.object().put("big", big)).withMatchtag(6));
    assertThat(MessageCodec.fromParts(receive(d)).json().get("big").asText()).isEqualTo(big);
    l.close();
  }

  @Test
  void ourCurveHub_jeromqCurveDealerWithUnknownKey_refused() throws Exception {
    ZMQ.Curve.KeyPair server = ZMQ.Curve.generateKeyPair();
    ZMQ.Curve.KeyPair alice = ZMQ.Curve.generateKeyPair();
    ZMQ.Curve.KeyPair mallory = ZMQ.Curve.generateKeyPair();
    ZmqHubListener l = curveHub(server, alice);
    ZMQ.Socket d = curveDealer(server, mallory, l.endpoint());
    // were the key taken, the request would be answered; what is awaited instead is the positive
    // event ordered after the hub's decision: it closes the connection (D486)
    ZMQ.Socket m = monitor(d, REFUSED);
    d.connect(l.endpoint());
    send(d, Message.request("demo.whoami", Json.object()).withMatchtag(5));
    assertThat(awaitEvent(m)).as("the hub closes the connection of a refused key").isNotNull();
    assertThat(d.recv(ZMQ.DONTWAIT)).as("no answer to a refused key").isNull();
    assertThat(handshakes(l)).isZero();
    l.close();
  }

  /** A JeroMQ CURVE ROUTER answering one Flux request from our connector. */
  private void routerAnswers(ZMQ.Socket router, FluxHandle h) throws Exception {
    CompletableFuture<Message> call = h.rpc("svc.ping", Json.object().put("n", 2), T);
    List<byte[]> frames = receive(router);
    Message req = MessageCodec.fromParts(frames.subList(1, frames.size()));
    router.send(frames.get(0), ZMQ.SNDMORE);
    List<byte[]> parts = MessageCodec.toParts(Message.response(req, 0, Json.text("{\"n\":3}")));
    for (int i = 0; i < parts.size(); i++) {
      router.send(parts.get(i), i < parts.size() - 1 ? ZMQ.SNDMORE : 0);
    }
    assertThat(call.get(10, TimeUnit.SECONDS).json().get("n").asInt()).isEqualTo(3);
  }

  private ZMQ.Socket curveRouter(ZMQ.Curve.KeyPair server) {
    ZMQ.Socket router = ctx.createSocket(SocketType.ROUTER);
    router.setCurveServer(true);
    router.setCurvePublicKey(ZMQ.Curve.z85Decode(server.publicKey));
    router.setCurveSecretKey(ZMQ.Curve.z85Decode(server.secretKey));
    router.setReceiveTimeOut(10_000);
    return router;
  }

  @org.junit.jupiter.params.ParameterizedTest(name = "zap handler {0}")
  @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
  void jeromqCurveRouter_ourCurveConnector_requestAnswered(boolean zap) throws Exception {
    ZMQ.Curve.KeyPair server = ZMQ.Curve.generateKeyPair();
    ZMQ.Curve.KeyPair client = ZMQ.Curve.generateKeyPair();
    org.zeromq.ZAuth auth = null;
    if (zap) {
      auth = new org.zeromq.ZAuth(ctx);
      auth.setVerbose(false);
      auth.configureCurve(org.zeromq.ZAuth.CURVE_ALLOW_ANY);
      auth.replies(true);
    }
    try {
      ZMQ.Socket router = curveRouter(server);
      int port = router.bindToRandomPort("tcp://127.0.0.1");
      try (FluxHandle h =
          FluxHandle.connectZmq(
              reactor,
              "tcp://127.0.0.1:" + port,
              new ZmqClientKeys(server.publicKey, client.publicKey, client.secretKey))) {
        routerAnswers(router, h);
      }
      if (auth != null) {
        org.zeromq.ZAuth.ZapReply reply = auth.nextReply(5_000);
        assertThat(reply).as("the ZAP handler saw our client").isNotNull();
        assertThat(reply.statusCode).isEqualTo(200);
      }
    } finally {
      if (auth != null) {
        auth.close();
      }
    }
  }

  @Test
  void jeromqCurveRouter_ourConnectorWithWrongServerKey_refused() throws Exception {
    ZMQ.Curve.KeyPair server = ZMQ.Curve.generateKeyPair();
    ZMQ.Curve.KeyPair other = ZMQ.Curve.generateKeyPair();
    ZMQ.Curve.KeyPair client = ZMQ.Curve.generateKeyPair();
    ZMQ.Socket router = curveRouter(server);
    ZMQ.Socket m = monitor(router, REFUSED);
    int port = router.bindToRandomPort("tcp://127.0.0.1");
    try (FluxHandle h =
        FluxHandle.connectZmq(
            reactor,
            "tcp://127.0.0.1:" + port,
            new ZmqClientKeys(other.publicKey, client.publicKey, client.secretKey))) {
      CompletableFuture<Message> call = h.rpc("svc.ping", Json.object(), Duration.ofSeconds(1));
      // the router cannot open a HELLO sealed for another key and drops the connection: that
      // event comes after its decision, so nothing can have passed once it is seen (D486)
      assertThat(awaitEvent(m)).as("JeroMQ drops a connector with a wrong server key").isNotNull();
      assertThat(router.recv(ZMQ.DONTWAIT)).as("nothing passes a wrong server key").isNull();
      assertThat(call).failsWithin(Duration.ofSeconds(30));
    }
  }
}
