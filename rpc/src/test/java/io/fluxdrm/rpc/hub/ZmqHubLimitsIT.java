package io.fluxdrm.rpc.hub;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.curve.CurveKeyPair;
import io.fluxdrm.rpc.curve.Z85;
import io.fluxdrm.rpc.fixture.Wait;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.transport.ZmqClientKeys;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 12, findings 9 and 10 with configured limits: connections per key, the frame memory of one
 * key, and a hub out of file descriptors that pauses accepting instead of spinning.
 */
@Timeout(180)
class ZmqHubLimitsIT {
  private static final Duration CLOSE_LIMIT = Duration.ofSeconds(10);
  private static final Duration T = Duration.ofSeconds(30);

  private static Hub hub(Reactor r) throws Exception {
    Hub hub = new Hub(r);
    hub.attach(Credentials.owner(1000))
        .register(new EchoService().build("demo"))
        .get(5, TimeUnit.SECONDS);
    return hub;
  }

  private static void assertEcho(Reactor r, String endpoint, int i) throws Exception {
    try (FluxHandle h = FluxHandle.connectZmq(r, endpoint, null)) {
      Message m = h.rpc("demo.echo", Json.object().put("i", i), T).get(60, TimeUnit.SECONDS);
      assertThat(m.json().get("i").asInt()).isEqualTo(i);
    }
  }

  private static final long MIB = 1 << 20;

  /** A CURVE listener with two client keys and the given limits; no PINGs raw peers ignore. */
  private record CurveHub(
      Reactor reactor,
      ZmqHubListener listener,
      CurveKeyPair server,
      CurveKeyPair guest,
      CurveKeyPair other)
      implements AutoCloseable {
    static CurveHub start(ZmqHubSettings.Limits limits) throws Exception {
      SecureRandom random = new SecureRandom();
      CurveKeyPair server = CurveKeyPair.generate(random);
      CurveKeyPair guest = CurveKeyPair.generate(random);
      CurveKeyPair other = CurveKeyPair.generate(random);
      ZmqHubSettings.Options o =
          ZmqHubSettings.Options.curve(
                  new ZmqHubSettings.Curve(
                      Z85.encode(server.publicKey()),
                      Z85.encode(server.secretKey()),
                      Map.of(
                          Z85.encode(guest.publicKey()),
                          Credentials.user(7),
                          Z85.encode(other.publicKey()),
                          Credentials.user(8))))
              .withLiveness(ZmqHubSettings.Liveness.OFF)
              .withLimits(limits);
      Reactor r = Reactor.start("limits-it");
      return new CurveHub(
          r, ZmqHubListener.start(hub(r), r, "tcp://127.0.0.1:*", o), server, guest, other);
    }

    String endpoint() {
      return listener.endpoint();
    }

    /** Returns the keys a FluxHandle of {@code client} connects with. */
    ZmqClientKeys keys(CurveKeyPair client) {
      return new ZmqClientKeys(
          Z85.encode(server.publicKey()),
          Z85.encode(client.publicKey()),
          Z85.encode(client.secretKey()));
    }

    @Override
    public void close() {
      listener.close();
      reactor.close();
    }
  }

  @Test
  void connectionsPerKey_capped() throws Exception {
    CurveHub h = CurveHub.start(ZmqHubSettings.Limits.defaults().withConnections(100, 2));
    RawZmtpPeer a = RawZmtpPeer.connect(h.endpoint());
    try (h;
        RawZmtpPeer b = RawZmtpPeer.connect(h.endpoint());
        RawZmtpPeer c = RawZmtpPeer.connect(h.endpoint())) {
      a.curveHandshake(h.server().publicKey(), h.guest(), "a");
      b.curveHandshake(h.server().publicKey(), h.guest(), "b");
      try {
        c.curveHandshake(h.server().publicKey(), h.guest(), "c");
      } catch (IOException closedByHub) {
        // the hub may close c before its READY is read
      }
      assertThat(c.closedWithin(CLOSE_LIMIT)).as("the third of one key").isTrue();
      // the hub closed c in c's handshake, on its loop; b's PING is read on that loop after it,
      // so had the hub closed b with c (or before), b would see its close instead of a PONG
      assertThat(b.pingPong(T)).as("the second of the key answers a PING").isTrue();
      a.close();
      // a's place is free once the hub has seen it go: a well-behaved client of the key gets it
      long deadline = System.nanoTime() + T.toNanos();
      while (true) {
        try (FluxHandle fh = FluxHandle.connectZmq(h.reactor(), h.endpoint(), h.keys(h.guest()))) {
          Message m = fh.rpc("demo.echo", Json.object().put("i", 1), T).get(60, TimeUnit.SECONDS);
          assertThat(m.json().get("i").asInt()).isEqualTo(1);
          break;
        } catch (Exception e) {
          if (System.nanoTime() > deadline) {
            throw e;
          }
        }
      }
    } finally {
      a.close();
    }
  }

  @Test
  void nullPeers_eachConnectionIsItsOwnKey() throws Exception {
    // the caps of a key, 2 connections and 8 MiB, are what one NULL connection could take from all
    ZmqHubSettings.Options o =
        ZmqHubSettings.Options.loopback(Credentials.user(7))
            .withLiveness(ZmqHubSettings.Liveness.OFF)
            .withLimits(
                ZmqHubSettings.Limits.defaults()
                    .withConnections(100, 2)
                    .withMemory(32 * MIB, 8 * MIB)
                    .withFrameProgress(Duration.ofMinutes(10), MIB));
    Reactor r = Reactor.start("limits-it");
    ZmqHubListener l = ZmqHubListener.start(hub(r), r, "tcp://127.0.0.1:*", o);
    try (RawZmtpPeer a = RawZmtpPeer.connect(l.endpoint());
        RawZmtpPeer b = RawZmtpPeer.connect(l.endpoint());
        RawZmtpPeer c = RawZmtpPeer.connect(l.endpoint())) {
      a.handshake("DEALER", "a");
      b.handshake("DEALER", "b");
      c.handshake("DEALER", "c");
      // a holds 6 MiB of a frame; b's frame of as much fits too: each connection has 8 MiB
      a.write(longHeader(0x02, 6 * MIB));
      a.write(new byte[(int) (5 * MIB)]);
      Wait.until(T, () -> l.frameMemory() == 6 * MIB);
      b.write(longHeader(0x02, 6 * MIB));
      try {
        b.write(new byte[(int) (5 * MIB)]);
      } catch (IOException closedByHub) {
        // only without a key per connection: the assertions below say so
      }
      // b's buffer grows to its 6 MiB only if the hub admits it; a closed b gives its bytes back
      Wait.until(T, () -> l.frameMemory() == 12 * MIB);
      // b ends its frame (a message the hub drops as malformed); its PING is read after every
      // byte of the frame, so had the hub closed b for its size, b would see the close, no PONG
      b.write(new byte[(int) MIB]);
      assertThat(b.pingPong(T)).as("b, as large as a, answers a PING").isTrue();
      // c's PING is read after c's READY, where the hub would have closed a third of one key
      assertThat(c.pingPong(T)).as("the third connection answers a PING").isTrue();
      assertEcho(r, l.endpoint(), 2);
    } finally {
      l.close();
      r.close();
    }
  }

  /** Frame header: flags (with LONG), then an 8-byte size. */
  private static byte[] longHeader(int flags, long size) {
    return ByteBuffer.allocate(9).put((byte) flags).putLong(size).array();
  }

  @Test
  void memoryPerKey_secondLargeFrameOfTheKeyClosed() throws Exception {
    try (CurveHub h =
            CurveHub.start(
                ZmqHubSettings.Limits.defaults()
                    .withMemory(32 * MIB, 8 * MIB)
                    // no frame deadline within the test: only the budget closes
                    .withFrameProgress(Duration.ofMinutes(10), MIB));
        RawZmtpPeer a = RawZmtpPeer.connect(h.endpoint());
        RawZmtpPeer b = RawZmtpPeer.connect(h.endpoint())) {
      String guestKey = Z85.encode(h.guest().publicKey());
      a.curveHandshake(h.server().publicKey(), h.guest(), "a");
      b.curveHandshake(h.server().publicKey(), h.guest(), "b");
      // a's frame of 6 MiB: its buffer grows to 6 MiB of the key's 8 once 5 MiB have arrived;
      // b starts only then, so that b, not a, is the one whose growth does not fit
      a.write(longHeader(0x06, 6 * MIB));
      a.write(new byte[(int) (5 * MIB)]);
      Wait.until(T, () -> h.listener().frameMemoryOf(guestKey) == 6 * MIB);
      // b's frame of the same key may grow to 2 MiB, not to the 4 MiB its next 3 MiB need
      b.write(longHeader(0x06, 6 * MIB));
      try {
        b.write(new byte[(int) (3 * MIB)]);
      } catch (IOException closedByHub) {
        // the key's budget is spent: the hub closed b while it was writing, as it should
      }
      assertThat(b.closedWithin(CLOSE_LIMIT)).as("the key's second large frame").isTrue();
      assertThat(h.listener().frameMemoryOf(guestKey))
          .as("b's bytes given back")
          .isEqualTo(6 * MIB);
      // another key is served, with a message of its own as large as a's frame
      try (FluxHandle fh = FluxHandle.connectZmq(h.reactor(), h.endpoint(), h.keys(h.other()))) {
        String pad = "x".repeat((int) (6 * MIB));
        Message m = fh.rpc("demo.echo", Json.object().put("pad", pad), T).get(60, TimeUnit.SECONDS);
        assertThat(m.json().get("pad").asText()).hasSize(pad.length());
      }
      // a is mid-frame (no PING can pass); its 6 MiB are held only while it is open, as b's
      // given back show, and this read runs on the hub's loop after the echo above was answered
      assertThat(h.listener().frameMemoryOf(guestKey))
          .as("a, within the budget, still open and holding its frame")
          .isEqualTo(6 * MIB);
    }
  }

  @Test
  void outOfDescriptors_acceptPausesThenResumes() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p =
        new ProcessBuilder(
                "sh",
                "-c",
                "ulimit -n 256 && exec \"$@\"",
                "sh",
                java,
                "-cp",
                System.getProperty("java.class.path"),
                FdLimitHubChild.class.getName())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    Reactor r = Reactor.start("limits-it");
    List<RawZmtpPeer> hogs = new ArrayList<>();
    try (BufferedReader out =
            new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        PrintStream in = new PrintStream(p.getOutputStream(), true, StandardCharsets.UTF_8)) {
      String endpoint = out.readLine();
      assertThat(endpoint).startsWith("tcp://127.0.0.1:");
      // more connections than the hub has descriptors: the kernel queues them, accept fails
      for (int i = 0; i < 300; i++) {
        hogs.add(RawZmtpPeer.connect(endpoint));
      }
      long pauses = 0;
      long deadline = System.nanoTime() + T.toNanos();
      while (pauses == 0 && System.nanoTime() < deadline) {
        in.println("pauses");
        pauses = Long.parseLong(out.readLine());
      }
      assertThat(pauses).as("accepting paused on a failed accept").isPositive();
      for (RawZmtpPeer h : hogs) {
        h.close();
      }
      hogs.clear();
      assertEcho(r, endpoint, 3); // accepting re-armed once descriptors are free
    } finally {
      for (RawZmtpPeer h : hogs) {
        h.close();
      }
      r.close();
      p.destroyForcibly();
      p.waitFor(30, TimeUnit.SECONDS);
    }
  }
}
