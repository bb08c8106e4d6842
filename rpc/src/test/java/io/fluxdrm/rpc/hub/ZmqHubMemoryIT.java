package io.fluxdrm.rpc.hub;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.curve.CurveClient;
import io.fluxdrm.rpc.curve.CurveKeyPair;
import io.fluxdrm.rpc.curve.Z85;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.zmtp.Command;
import io.fluxdrm.rpc.zmtp.Frame;
import io.fluxdrm.rpc.zmtp.FrameEncoder;
import io.fluxdrm.rpc.zmtp.Greeting;
import io.fluxdrm.rpc.zmtp.Metadata;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 12's attacks on a real ZeroMQ listener over loopback: memory claimed before and after the
 * handshake (finding 1), an overlong identity (8), too many connections (9), a trickled frame (10)
 * and a CURVE HELLO with non-zero padding (12). Each attacker is closed and a well-behaved client
 * is still answered.
 */
@Timeout(180)
class ZmqHubMemoryIT {
  private static final Duration CLOSE_LIMIT = Duration.ofSeconds(10);
  private static final Duration T = Duration.ofSeconds(30);

  /** Frame header: COMMAND|LONG or LONG, then an 8-byte size. */
  private static byte[] longHeader(int flags, long size) {
    return ByteBuffer.allocate(9).put((byte) flags).putLong(size).array();
  }

  private static void assertEcho(Reactor r, String endpoint, int i) throws Exception {
    try (FluxHandle h = FluxHandle.connectZmq(r, endpoint, null)) {
      Message m = h.rpc("demo.echo", Json.object().put("i", i), T).get(60, TimeUnit.SECONDS);
      assertThat(m.json().get("i").asInt()).isEqualTo(i);
    }
  }

  @Test
  void hugeFrameClaims_duringAndAfterHandshake_smallHeapHubStillServes() throws Exception {
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m",
                "-cp",
                System.getProperty("java.class.path"),
                HubChild.class.getName())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    Reactor r = Reactor.start("memory-it");
    List<RawZmtpPeer> attackers = new ArrayList<>();
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String endpoint = out.readLine();
      assertThat(endpoint).startsWith("tcp://127.0.0.1:");
      assertEcho(r, endpoint, 0);
      // 20 peers claim 64 MiB in a handshake command (each 73 bytes in all)
      for (int i = 0; i < 20; i++) {
        RawZmtpPeer a = RawZmtpPeer.connect(endpoint);
        attackers.add(a);
        a.write(Greeting.encode("NULL", false));
        a.write(longHeader(0x06, 64L << 20));
      }
      // 20 peers finish the handshake, then claim 64 MiB message frames and send 1 MiB of each
      for (int i = 0; i < 20; i++) {
        RawZmtpPeer a = RawZmtpPeer.connect(endpoint);
        attackers.add(a);
        a.handshake("DEALER", "hog-" + i);
        a.write(longHeader(0x02, 64L << 20));
        try {
          a.write(new byte[1 << 20]);
        } catch (IOException closedByHub) {
          // the listener's memory budget is used up: this peer is closed, as it should be
        }
      }
      for (int i = 0; i < 20; i++) {
        assertThat(attackers.get(i).closedWithin(CLOSE_LIMIT))
            .as("handshake claimer %d closed", i)
            .isTrue();
      }
      assertThat(p.isAlive()).as("the hub process is up").isTrue();
      // the hogs hold the listener's budget, which the good client's frames need too: let go
      for (RawZmtpPeer a : attackers) {
        a.close();
      }
      assertEcho(r, endpoint, 1);
    } finally {
      for (RawZmtpPeer a : attackers) {
        a.close();
      }
      r.close();
      p.destroyForcibly();
      p.waitFor(30, TimeUnit.SECONDS);
    }
  }

  /** A hub on this JVM's reactor (for the attacks that need no small heap). */
  private static final class LocalHub implements AutoCloseable {
    final Reactor reactor = Reactor.start("memory-it-hub");
    final Hub hub = new Hub(reactor);
    final ZmqHubListener listener;

    LocalHub(ZmqHubSettings.Options o) throws Exception {
      hub.attach(Credentials.owner(1000))
          .register(new EchoService().build("demo"))
          .get(5, TimeUnit.SECONDS);
      listener = ZmqHubListener.start(hub, reactor, "tcp://127.0.0.1:*", o);
    }

    String endpoint() {
      return listener.endpoint();
    }

    @Override
    public void close() {
      listener.close();
      reactor.close();
    }
  }

  @Test
  void identityOver255Bytes_refusedAtHandshake() throws Exception {
    try (LocalHub h = new LocalHub(ZmqHubSettings.Options.loopback(Credentials.user(7)));
        RawZmtpPeer p = RawZmtpPeer.connect(h.endpoint())) {
      p.write(Greeting.encode("NULL", false));
      p.read(64);
      Map<String, byte[]> md = new LinkedHashMap<>();
      md.put("Socket-Type", "DEALER".getBytes(StandardCharsets.US_ASCII));
      md.put("Identity", "x".repeat(256).getBytes(StandardCharsets.US_ASCII));
      p.write(FrameEncoder.encode(Frame.command(Command.of("READY", Metadata.encode(md)))));
      assertThat(Command.name(p.readFrame().body())).isEqualTo("READY");
      Frame error = p.readFrame();
      assertThat(Command.name(error.body())).isEqualTo("ERROR");
      assertThat(Command.errorReason(error.body()))
          .isEqualTo("handshake: identity of 256 bytes (expected: 0 to 255)");
      assertThat(p.closedWithin(CLOSE_LIMIT)).isTrue();
      assertEcho(h.reactor, h.endpoint(), 2);
    }
  }

  @Test
  void identityOf255Bytes_accepted() throws Exception {
    try (LocalHub h = new LocalHub(ZmqHubSettings.Options.loopback(Credentials.user(7)));
        RawZmtpPeer p = RawZmtpPeer.connect(h.endpoint())) {
      p.handshake("DEALER", "y".repeat(255));
      assertEcho(h.reactor, h.endpoint(), 3);
      // a refused identity is closed at READY, and p's PING is read after its READY: had the hub
      // refused it, p would see ERROR and the close instead of a PONG
      assertThat(p.pingPong(T)).as("255 bytes accepted: a PING answered").isTrue();
    }
  }

  @Test
  void connectionsBeyondTheDefaultCap_closedAtAccept() throws Exception {
    List<RawZmtpPeer> open = new ArrayList<>();
    try (LocalHub h = new LocalHub(ZmqHubSettings.Options.loopback(Credentials.user(7)))) {
      int cap = 1024; // the documented default of fluxdrm.zmq.max-connections
      boolean refused = false;
      // every connection reads its greeting: the hub accepted it, in order
      for (int i = 0; i < cap + 8 && !refused; i++) {
        RawZmtpPeer p = RawZmtpPeer.connect(h.endpoint());
        open.add(p);
        p.socket.setSoTimeout(30_000);
        try {
          p.read(64);
        } catch (IOException closed) {
          refused = true;
          assertThat(i).as("the first connection refused").isEqualTo(cap);
        }
      }
      assertThat(refused).as("a connection beyond %d refused", cap).isTrue();
      open.remove(open.size() - 1).close();
      open.remove(0).close();
      assertEcho(h.reactor, h.endpoint(), 4);
    } finally {
      for (RawZmtpPeer p : open) {
        p.close();
      }
    }
  }

  @Test
  void trickledFrame_closedDespiteTraffic() throws Exception {
    // liveness off: the frame rule is then the only thing that can close the trickler, so a close
    // is its doing; with a liveness timeout a stalled trickle on a loaded machine would close it
    // for the wrong reason and pass (issue 28)
    ZmqHubSettings.Options o =
        ZmqHubSettings.Options.loopback(Credentials.user(7))
            .withLiveness(ZmqHubSettings.Liveness.OFF);
    try (LocalHub h = new LocalHub(o);
        RawZmtpPeer p = RawZmtpPeer.connect(h.endpoint())) {
      p.handshake("DEALER", "trickler");
      p.write(longHeader(0x02, 1 << 20));
      // pacing: one byte every 100 ms, progress on the frame all along, far too slow for its
      // deadline (10 s floor + 1 s per MiB); the loop is bounded at 60 s
      boolean closed = false;
      for (int i = 0; i < 600 && !closed; i++) {
        try {
          p.write(new byte[] {1});
        } catch (IOException e) {
          closed = true;
          break;
        }
        closed = p.closedWithin(Duration.ofMillis(100));
      }
      assertThat(closed).as("the trickler closed within 60 s").isTrue();
      assertEcho(h.reactor, h.endpoint(), 5);
    }
  }

  @Test
  void curveHelloWithNonZeroPadding_closedWithoutWelcome() throws Exception {
    SecureRandom random = new SecureRandom();
    CurveKeyPair server = CurveKeyPair.generate(random);
    CurveKeyPair client = CurveKeyPair.generate(random);
    ZmqHubSettings.Options o =
        ZmqHubSettings.Options.curve(
            new ZmqHubSettings.Curve(
                Z85.encode(server.publicKey()),
                Z85.encode(server.secretKey()),
                Map.of(Z85.encode(client.publicKey()), Credentials.user(7))));
    Map<String, byte[]> md = Map.of("Socket-Type", "DEALER".getBytes(StandardCharsets.US_ASCII));
    try (LocalHub h = new LocalHub(o);
        RawZmtpPeer p = RawZmtpPeer.connect(h.endpoint())) {
      byte[] hello = new CurveClient(server.publicKey(), client, md, random).start().get(0);
      hello[8 + 40] = 1; // a padding byte: outside the box, so only a check of the padding sees it
      p.write(Greeting.encode("CURVE", false));
      p.read(64);
      p.write(FrameEncoder.encode(Frame.command(hello)));
      assertThat(p.closedWithin(CLOSE_LIMIT)).as("closed, no WELCOME").isTrue();
    }
  }
}
