package io.fluxdrm.rpc.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.MessageCodec;
import io.fluxdrm.rpc.MessageType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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

  private ZmqHubListener listen(ZmqHubListener.Liveness live) {
    return ZmqHubListener.start(
        hub,
        reactor,
        "tcp://127.0.0.1:*",
        ZmqHubListener.Options.loopback(Credentials.user(4321)).withLiveness(live));
  }

  /** Sends a Flux message on a JeroMQ socket, one part per frame. */
  private static void send(ZMQ.Socket s, Message m) {
    List<byte[]> parts = MessageCodec.toParts(m);
    for (int i = 0; i < parts.size(); i++) {
      s.send(parts.get(i), i < parts.size() - 1 ? ZMQ.SNDMORE : 0);
    }
  }

  /** Receives one multipart message from a JeroMQ socket (waiting up to the socket's timeout). */
  private static List<byte[]> receive(ZMQ.Socket s) {
    List<byte[]> parts = new ArrayList<>();
    do {
      byte[] p = s.recv(0);
      assertThat(p).as("a frame within the receive timeout").isNotNull();
      parts.add(p);
    } while (s.hasReceiveMore());
    return parts;
  }

  private int handshakes(ZmqHubListener l) throws Exception {
    CompletableFuture<Integer> n = new CompletableFuture<>();
    reactor.execute(() -> n.complete(l.handshakes()));
    return n.get(5, TimeUnit.SECONDS);
  }

  @Test
  void ourHub_jeromqDealer_fluxRpcAnsweredWithTransportCredentials() throws Exception {
    ZmqHubListener l = listen(ZmqHubListener.Liveness.DEFAULT);
    ZMQ.Socket d = ctx.createSocket(SocketType.DEALER);
    d.setIdentity("jeromq-dealer".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    d.setReceiveTimeOut(10_000);
    d.connect(l.endpoint());
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

  @Test
  void jeromqPings_ourHubWithoutOwnPings_answersThemAndKeepsTheConnection() throws Exception {
    // our hub sends nothing by itself: only our PONGs keep JeroMQ from timing the connection out
    ZmqHubListener l = listen(ZmqHubListener.Liveness.OFF);
    ZMQ.Socket d = ctx.createSocket(SocketType.DEALER);
    d.setHeartbeatIvl(100);
    d.setHeartbeatTimeout(400);
    d.setReceiveTimeOut(10_000);
    d.connect(l.endpoint());
    send(d, Message.request("demo.echo", Json.object().put("i", 1)).withMatchtag(1));
    assertThat(MessageCodec.fromParts(receive(d)).json().get("i").asInt()).isEqualTo(1);
    Thread.sleep(2_000); // twenty PINGs, five timeouts' worth
    send(d, Message.request("demo.echo", Json.object().put("i", 2)).withMatchtag(2));
    assertThat(MessageCodec.fromParts(receive(d)).json().get("i").asInt()).isEqualTo(2);
    assertThat(handshakes(l)).as("the first connection was kept").isEqualTo(1);
    l.close();
  }

  @Test
  void ourHubPings_jeromqWithoutOwnPings_answersAndKeepsTheConnection() throws Exception {
    // JeroMQ sends nothing by itself: only its PONGs keep our hub from timing it out
    ZmqHubListener l =
        listen(new ZmqHubListener.Liveness(Duration.ofMillis(100), Duration.ofMillis(400)));
    ZMQ.Socket d = ctx.createSocket(SocketType.DEALER);
    d.setReceiveTimeOut(10_000);
    d.connect(l.endpoint());
    send(d, Message.request("demo.echo", Json.object().put("i", 1)).withMatchtag(1));
    assertThat(MessageCodec.fromParts(receive(d)).json().get("i").asInt()).isEqualTo(1);
    Thread.sleep(2_000);
    send(d, Message.request("demo.echo", Json.object().put("i", 2)).withMatchtag(2));
    assertThat(MessageCodec.fromParts(receive(d)).json().get("i").asInt()).isEqualTo(2);
    assertThat(handshakes(l)).as("the first connection was kept").isEqualTo(1);
    l.close();
  }
}
