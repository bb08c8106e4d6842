package io.fluxdrm.rpc.hub;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.MessageCodec;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.zmtp.Command;
import io.fluxdrm.rpc.zmtp.Frame;
import io.fluxdrm.rpc.zmtp.FrameEncoder;
import io.fluxdrm.rpc.zmtp.Greeting;
import io.fluxdrm.rpc.zmtp.Ping;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Bad input through raw TCP sockets: each offending connection is closed, the hub keeps serving a
 * well-behaved client, and nothing crashes.
 */
@Timeout(120)
class ZmqBadPeerIT {
  private static final Duration CLOSE_LIMIT = Duration.ofSeconds(10);
  private static final HexFormat HEX = HexFormat.of();

  private Reactor reactor;
  private Hub hub;
  private ZmqHubListener listener;
  private FluxHandle good;

  @BeforeEach
  void setUp() throws Exception {
    reactor = Reactor.start("bad-peer-it");
    hub = new Hub(reactor);
    hub.attach(Credentials.owner(1000))
        .register(new EchoService().build("demo"))
        .get(5, TimeUnit.SECONDS);
    listener =
        ZmqHubListener.start(
            hub,
            reactor,
            "tcp://127.0.0.1:*",
            ZmqHubSettings.Options.loopback(Credentials.user(7))
                .withLimits(1 << 16, 1 << 16)
                .withLiveness(
                    new ZmqHubSettings.Liveness(Duration.ofMillis(200), Duration.ofMillis(600))),
            Duration.ofMillis(500));
    good = FluxHandle.connectZmq(reactor, listener.endpoint(), null);
    assertServed(0);
  }

  @AfterEach
  void tearDown() {
    good.close();
    listener.close();
    reactor.close();
  }

  /** The well-behaved client is answered. */
  private void assertServed(int i) throws Exception {
    assertServed(good, i);
  }

  private static void assertServed(FluxHandle client, int i) throws Exception {
    Message m =
        client
            .rpc("demo.echo", Json.object().put("i", i), Duration.ofSeconds(30))
            .get(30, TimeUnit.SECONDS);
    assertThat(m.json().get("i").asInt()).isEqualTo(i);
  }

  private int handshakes() throws Exception {
    CompletableFuture<Integer> n = new CompletableFuture<>();
    reactor.execute(() -> n.complete(listener.handshakes()));
    return n.get(5, TimeUnit.SECONDS);
  }

  private int handshakesNow() {
    try {
      return handshakes();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static byte[] greeting(int at, int value) {
    byte[] g = Greeting.encode("NULL", false);
    g[at] = (byte) value;
    return g;
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "http request, 474554202f20485454502f312e300d0a0d0a",
    "zmtp 1.0 signature, ff000000000000000100",
    "wrong signature byte 0, 00000000000000000000",
  })
  void notZmtp3_closed(String what, String hex) throws Exception {
    try (RawZmtpPeer p = RawZmtpPeer.connect(listener.endpoint())) {
      p.write(HEX.parseHex(hex));
      assertThat(p.closedWithin(CLOSE_LIMIT)).as(what).isTrue();
    }
    assertServed(1);
    assertThat(handshakes()).isEqualTo(1);
  }

  @ParameterizedTest(name = "version {0}")
  @CsvSource({"1", "2"})
  void oldVersion_closedAfterItsMajorVersion(int major) throws Exception {
    try (RawZmtpPeer p = RawZmtpPeer.connect(listener.endpoint())) {
      byte[] g = greeting(10, major);
      p.write(java.util.Arrays.copyOf(g, 11));
      assertThat(p.closedWithin(CLOSE_LIMIT)).isTrue();
    }
    assertServed(1);
  }

  @Test
  void mechanismMismatch_curveGreetingToNullHub_closed() throws Exception {
    try (RawZmtpPeer p = RawZmtpPeer.connect(listener.endpoint())) {
      p.write(Greeting.encode("CURVE", false));
      assertThat(p.read(64)[12]).isEqualTo((byte) 'N');
      assertThat(p.closedWithin(CLOSE_LIMIT)).isTrue();
    }
    assertServed(1);
  }

  @Test
  void truncatedGreetingThenClose_hubUnharmed() throws Exception {
    try (RawZmtpPeer p = RawZmtpPeer.connect(listener.endpoint())) {
      p.write(java.util.Arrays.copyOf(Greeting.encode("NULL", false), 30));
    }
    assertServed(1);
    assertThat(handshakes()).isEqualTo(1);
  }

  @Test
  void neverSpeaks_closedAfterHandshakeTimeout() throws Exception {
    try (RawZmtpPeer p = RawZmtpPeer.connect(listener.endpoint())) {
      assertThat(p.closedWithin(CLOSE_LIMIT)).isTrue();
    }
    assertServed(1);
  }

  @Test
  void wrongSocketType_errorCommandThenClosed() throws Exception {
    try (RawZmtpPeer p = RawZmtpPeer.connect(listener.endpoint())) {
      p.write(Greeting.encode("NULL", false));
      p.read(64);
      java.util.Map<String, byte[]> md = new java.util.LinkedHashMap<>();
      md.put("Socket-Type", "PUB".getBytes(StandardCharsets.US_ASCII));
      p.write(
          FrameEncoder.encode(
              Frame.command(Command.of("READY", io.fluxdrm.rpc.zmtp.Metadata.encode(md)))));
      assertThat(Command.name(p.readFrame().body())).isEqualTo("READY");
      Frame error = p.readFrame();
      assertThat(Command.name(error.body())).isEqualTo("ERROR");
      assertThat(Command.errorReason(error.body()))
          .isEqualTo(
              "socket type PUB cannot talk to a ROUTER (expected: one of DEALER, REQ, ROUTER)");
      assertThat(p.closedWithin(CLOSE_LIMIT)).isTrue();
    }
    assertServed(1);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "frame over the limit, 0200000000000f4240",
    "command with MORE, 0505",
    "message frame before READY, 000100",
  })
  void badFrames_closed(String what, String hex) throws Exception {
    try (RawZmtpPeer p = RawZmtpPeer.connect(listener.endpoint())) {
      if (what.startsWith("message frame before")) {
        p.write(Greeting.encode("NULL", false));
      } else {
        p.handshake("DEALER", "bad-" + what.replace(' ', '-'));
      }
      p.write(HEX.parseHex(hex));
      assertThat(p.closedWithin(CLOSE_LIMIT)).as(what).isTrue();
    }
    assertServed(1);
  }

  @Test
  void messageOverLimitAcrossParts_closed() throws Exception {
    try (RawZmtpPeer p = RawZmtpPeer.connect(listener.endpoint())) {
      p.handshake("DEALER", "big");
      for (int i = 0; i < 3; i++) {
        p.write(FrameEncoder.encode(Frame.part(new byte[30_000], true)));
      }
      assertThat(p.closedWithin(CLOSE_LIMIT)).isTrue();
    }
    assertServed(1);
  }

  @Test
  void seededGarbageAfterHandshake_hubKeepsServing() throws Exception {
    long seed = System.nanoTime();
    System.out.println("ZmqBadPeerIT garbage seed " + seed);
    Random rnd = new Random(seed);
    for (int round = 0; round < 20; round++) {
      try (RawZmtpPeer p = RawZmtpPeer.connect(listener.endpoint())) {
        p.handshake("DEALER", "garbage-" + round);
        byte[] junk = new byte[1 + rnd.nextInt(4000)];
        rnd.nextBytes(junk);
        p.write(junk);
      } catch (IOException e) {
        // the hub may close while the junk is written: that is the point
      }
      assertServed(round);
    }
  }

  @Test
  void silentAfterHandshake_noPongs_closedAfterHeartbeatTimeout() throws Exception {
    try (RawZmtpPeer p = RawZmtpPeer.connect(listener.endpoint())) {
      p.handshake("DEALER", "mute");
      Frame ping = p.readFrame();
      assertThat(Command.name(ping.body())).isEqualTo("PING");
      assertThat(Ping.parse(ping.body()).ttlDeciseconds()).isEqualTo(6);
      assertThat(p.closedWithin(CLOSE_LIMIT)).isTrue();
    }
    assertServed(1);
  }

  @Test
  void sameIdentityTwice_newConnectionTakesOver_oldClosed() throws Exception {
    try (RawZmtpPeer a = RawZmtpPeer.connect(listener.endpoint())) {
      a.handshake("DEALER", "twin");
      // the hub has taken a's READY (the good client's handshake is the first) before b comes
      io.fluxdrm.rpc.fixture.Wait.until(Duration.ofSeconds(10), () -> handshakesNow() == 2);
      RawZmtpPeer b = RawZmtpPeer.connect(listener.endpoint());
      b.handshake("DEALER", "twin");
      assertThat(a.closedWithin(CLOSE_LIMIT)).isTrue();
      List<byte[]> parts =
          MessageCodec.toParts(
              Message.request("demo.echo", Json.object().put("b", 1)).withMatchtag(3));
      for (int i = 0; i < parts.size(); i++) {
        b.write(FrameEncoder.encode(Frame.part(parts.get(i), i < parts.size() - 1)));
      }
      // the answer comes to the new connection (PINGs may come first)
      Frame f;
      do {
        f = b.readFrame();
      } while (f.command());
      List<byte[]> answer = new java.util.ArrayList<>();
      answer.add(f.body());
      while (f.more()) {
        f = b.readFrame();
        answer.add(f.body());
      }
      assertThat(MessageCodec.fromParts(answer).json().get("b").asInt()).isEqualTo(1);
      b.close();
    }
    assertServed(1);
  }

  @Test
  void sameIdentityOnTwoListeners_bothServed_neitherOusted() throws Exception {
    ZmqHubListener other =
        ZmqHubListener.start(
            hub,
            reactor,
            "tcp://127.0.0.1:*",
            ZmqHubSettings.Options.loopback(Credentials.user(8))
                .withLiveness(ZmqHubSettings.Liveness.OFF));
    try (RawZmtpPeer a = RawZmtpPeer.connect(listener.endpoint());
        RawZmtpPeer b = RawZmtpPeer.connect(other.endpoint())) {
      a.handshake("DEALER", "same");
      io.fluxdrm.rpc.fixture.Wait.until(Duration.ofSeconds(10), () -> handshakesNow() == 2);
      b.handshake("DEALER", "same");
      for (RawZmtpPeer p : List.of(b, a)) {
        List<byte[]> parts =
            MessageCodec.toParts(Message.request("demo.whoami", Json.object()).withMatchtag(4));
        for (int i = 0; i < parts.size(); i++) {
          p.write(FrameEncoder.encode(Frame.part(parts.get(i), i < parts.size() - 1)));
        }
        Frame f;
        do {
          f = p.readFrame();
        } while (f.command());
        List<byte[]> answer = new java.util.ArrayList<>();
        answer.add(f.body());
        while (f.more()) {
          f = p.readFrame();
          answer.add(f.body());
        }
        int uid = MessageCodec.fromParts(answer).json().get("userid").asInt();
        assertThat(uid).isEqualTo(p == a ? 7 : 8);
      }
    } finally {
      other.close();
    }
    assertServed(1);
  }

  /** The largest send buffer the kernel may give the hub's socket (tcp_wmem's maximum). */
  private static long maxSendBuffer() {
    try {
      String[] w =
          java.nio.file.Files.readString(java.nio.file.Path.of("/proc/sys/net/ipv4/tcp_wmem"))
              .trim()
              .split("\\s+");
      return Long.parseLong(w[2]);
    } catch (IOException | RuntimeException e) {
      return 64L << 20; // not Linux: a bound far above any default
    }
  }

  /**
   * A peer that floods requests and reads nothing: the hub's answers fill the kernel's buffers (the
   * peer's receive window is made small before it connects), then the hub's output queue, which
   * past its limit (64 KiB here) closes the connection. The flood is bounded: twice as many
   * requests as it takes for their answers to fill the largest send buffer the kernel may give the
   * hub, the peer's window and the limit; the test waits for the writer to be refused (the event),
   * not for a time, and the well-behaved client is served throughout.
   */
  @Test
  void floodWithoutReading_closedWhenItsOutputPassesTheLimit_othersServed() throws Exception {
    // a listener of its own without liveness checks: on a loaded machine the reactor, busy with
    // the flood, can be late for a PONG by more than the class listener's 600 ms, which closes the
    // well-behaved client's connection and loses its request (not what this test is about)
    ZmqHubListener quiet =
        ZmqHubListener.start(
            hub,
            reactor,
            "tcp://127.0.0.1:*",
            ZmqHubSettings.Options.loopback(Credentials.user(7))
                .withLimits(1 << 16, 1 << 16)
                .withLiveness(ZmqHubSettings.Liveness.OFF));
    FluxHandle other = FluxHandle.connectZmq(reactor, quiet.endpoint(), null);
    try {
      assertServed(other, 0);
      flood(quiet, other);
    } finally {
      other.close();
      quiet.close();
    }
    assertServed(9);
  }

  private void flood(ZmqHubListener listener, FluxHandle other) throws Exception {
    int port = Integer.parseInt(listener.endpoint().replaceFirst(".*:", ""));
    java.net.Socket socket = new java.net.Socket();
    socket.setReceiveBufferSize(4096); // before connecting: the window the hub sees stays small
    socket.connect(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    try (RawZmtpPeer p = new RawZmtpPeer(socket)) {
      p.handshake("DEALER", "flood");
      List<byte[]> parts =
          MessageCodec.toParts(Message.request("nope.x", Json.object()).withMatchtag(1));
      java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
      for (int i = 0; i < parts.size(); i++) {
        b.writeBytes(FrameEncoder.encode(Frame.part(parts.get(i), i < parts.size() - 1)));
      }
      byte[] one = b.toByteArray();
      int perBatch = 1000;
      byte[] batch = new byte[one.length * perBatch];
      for (int i = 0; i < perBatch; i++) {
        System.arraycopy(one, 0, batch, i * one.length, one.length);
      }
      // each answer (an ENOSYS error with its text) is at least as long as its request
      long buffered = maxSendBuffer() + socket.getReceiveBufferSize() + (1 << 16);
      long batches = 2 * buffered / batch.length + 1;
      CompletableFuture<Long> refusedAfter = new CompletableFuture<>();
      // a thread of its own: the common pool may be taken by other tests' tasks
      Thread flood =
          new Thread(
              () -> {
                long written = 0;
                try {
                  for (long i = 0; i < batches; i++) {
                    p.write(batch);
                    written += batch.length;
                  }
                  refusedAfter.completeExceptionally(
                      new AssertionError("the hub took all " + written + " bytes of the flood"));
                } catch (IOException e) {
                  refusedAfter.complete(written); // closed by the hub
                }
              },
              "flood-writer");
      flood.setDaemon(true);
      flood.start();
      for (int i = 0; i < 5; i++) {
        assertServed(other, i);
      }
      long written = refusedAfter.get(90, TimeUnit.SECONDS);
      assertThat(written).isLessThan(batches * batch.length);
      flood.join(30_000);
    }
    assertServed(other, 9);
  }

  @Test
  void connectorFacingSilentServer_honoursItsPingTtl_reconnects() throws Exception {
    List<RawZmtpPeer> accepted = new CopyOnWriteArrayList<>();
    try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread t =
          new Thread(
              () -> {
                try {
                  while (true) {
                    RawZmtpPeer p = new RawZmtpPeer(server.accept());
                    accepted.add(p);
                    p.handshake("ROUTER", "");
                    // a 300 ms time to live, then silence
                    p.write(
                        FrameEncoder.encode(Frame.command(new Ping(3, new byte[] {1}).encode())));
                  }
                } catch (IOException e) {
                  // closed by the test
                }
              },
              "silent-router");
      t.setDaemon(true);
      t.start();
      Reactor client = Reactor.start("ttl-client");
      try {
        FluxHandle h =
            FluxHandle.connectZmq(client, "tcp://127.0.0.1:" + server.getLocalPort(), null);
        io.fluxdrm.rpc.fixture.Wait.until(Duration.ofSeconds(30), () -> accepted.size() >= 3);
        Frame pong = accepted.get(0).readFrame();
        assertThat(HEX.formatHex(pong.body())).isEqualTo("04504f4e4701");
        assertThat(accepted.get(0).closedWithin(CLOSE_LIMIT)).isTrue();
        h.close();
      } finally {
        client.close();
        for (RawZmtpPeer p : accepted) {
          p.close();
        }
      }
    }
  }
}
