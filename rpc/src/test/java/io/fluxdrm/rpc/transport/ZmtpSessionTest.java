package io.fluxdrm.rpc.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.curve.CurveClient;
import io.fluxdrm.rpc.curve.CurveKeyPair;
import io.fluxdrm.rpc.curve.CurveServer;
import io.fluxdrm.rpc.curve.Z85;
import io.fluxdrm.rpc.reactor.ManualEventLoop;
import io.fluxdrm.rpc.reactor.MemoryBudget;
import io.fluxdrm.rpc.zmtp.Frame;
import io.fluxdrm.rpc.zmtp.FrameEncoder;
import io.fluxdrm.rpc.zmtp.Greeting;
import io.fluxdrm.rpc.zmtp.Mechanism;
import io.fluxdrm.rpc.zmtp.NullMechanism;
import io.fluxdrm.rpc.zmtp.Seeded;
import io.fluxdrm.rpc.zmtp.SocketType;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 31, scope 5: the ZMTP session without a socket. Two sessions, a DEALER client and a ROUTER
 * server, pass their bytes to each other in memory; every exchange runs again at every split size
 * (each write cut into pieces of 1 byte, 2, 3, ... up to past the largest handshake command, some
 * larger sizes, and whole writes), and must come out the same. Time is a {@link ManualEventLoop}'s:
 * nothing sleeps, and a timeout happens when the test moves the clock.
 */
class ZmtpSessionTest {
  private static final Duration HANDSHAKE = Duration.ofSeconds(10);
  private static final int MAX_MESSAGE = 64 * 1024;
  private static final int WHOLE = Integer.MAX_VALUE;

  /**
   * Every split from 1 byte to past CURVE's INITIATE (257 bytes and metadata), some more, whole.
   */
  private static final int[] SPLITS =
      IntStream.concat(IntStream.rangeClosed(1, 400), IntStream.of(1000, 4096, 30_000, WHOLE))
          .toArray();

  enum Mech {
    NULL,
    CURVE
  }

  private SecureRandom random;
  private CurveKeyPair serverKeys;
  private CurveKeyPair clientKeys;
  private ManualEventLoop loop;

  @BeforeEach
  void keys() {
    random = Seeded.random(Seeded.seed("ZmtpSessionTest"));
    serverKeys = CurveKeyPair.generate(random);
    clientKeys = CurveKeyPair.generate(random);
  }

  /** One end: a session, the bytes it wrote that the other end has not read, what it reported. */
  private final class End implements ZmtpSession.Output, ZmtpSession.Listener {
    final ZmtpSession session;
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final List<List<byte[]>> messages = new ArrayList<>();
    boolean ready;
    boolean flushThenClose;
    boolean outputClosed;
    boolean eofSent;
    String closedReason;
    Boolean bad;

    End(Mechanism m, SocketType type, ZmtpConnection.Settings s, String name) {
      session = new ZmtpSession(loop, this, m, type, s, name);
      session.listener(this);
    }

    @Override
    public void write(byte[] bytes) {
      assertThat(outputClosed).as("a write after close").isFalse();
      out.write(bytes, 0, bytes.length);
    }

    @Override
    public long queuedBytes() {
      return out.size();
    }

    @Override
    public long flushPending() {
      return out.size();
    }

    @Override
    public void stopReading() {}

    @Override
    public void closeWhenFlushed() {
      flushThenClose = true;
    }

    @Override
    public void close() {
      outputClosed = true;
    }

    @Override
    public void onReady() {
      ready = true;
    }

    @Override
    public void onMessage(List<byte[]> parts) {
      messages.add(parts);
    }

    @Override
    public void onClosed(String reason, boolean isBad) {
      assertThat(closedReason).as("a second report").isNull();
      closedReason = reason;
      bad = isBad;
    }

    /** Takes what this end wrote (and closes it when it asked to close once flushed). */
    byte[] drain() {
      byte[] b = out.toByteArray();
      out.reset();
      if (flushThenClose) {
        session.close();
      }
      return b;
    }
  }

  private static ZmtpConnection.Settings settings(int maxMessage) {
    return new ZmtpConnection.Settings(
        maxMessage, Long.MAX_VALUE, HANDSHAKE, Duration.ZERO, Duration.ZERO);
  }

  /** Feeds {@code bytes} to {@code to} in pieces of {@code split}, as reads of a socket would. */
  private static void feed(End to, byte[] bytes, int split) {
    for (int at = 0; at < bytes.length && !to.session.isClosed(); at += split) {
      int n = (int) Math.min(split, (long) bytes.length - at);
      to.session.receive(ByteBuffer.wrap(bytes, at, n));
      to.session.afterRead();
    }
  }

  /** Passes bytes both ways until neither end has any left; a closed end's peer sees its EOF. */
  private void pump(End a, End b, int split) {
    boolean moved = true;
    while (moved) {
      loop.runPending();
      moved = pass(a, b, split) | pass(b, a, split);
    }
  }

  private static boolean pass(End from, End to, int split) {
    byte[] bytes = from.drain();
    if (!to.session.isClosed()) {
      feed(to, bytes, split);
    }
    if (from.outputClosed && !from.eofSent) {
      from.eofSent = true;
      if (!to.session.isClosed()) {
        to.session.endOfInput();
      }
      return true;
    }
    return bytes.length > 0;
  }

  private End client(Mech m, int maxMessage) {
    Map<String, byte[]> md = new LinkedHashMap<>();
    md.put(NullMechanism.SOCKET_TYPE, SocketType.DEALER.property());
    md.put(NullMechanism.IDENTITY, ascii("client-1"));
    Mechanism mech =
        m == Mech.NULL
            ? new NullMechanism(SocketType.DEALER, ascii("client-1"))
            : new CurveClient(serverKeys.publicKey(), clientKeys, md, random);
    return new End(mech, SocketType.DEALER, settings(maxMessage), "client");
  }

  private End server(Mech m, int maxMessage) {
    Mechanism mech =
        m == Mech.NULL
            ? new NullMechanism(SocketType.ROUTER, new byte[0])
            : new CurveServer(
                serverKeys,
                key -> Arrays.equals(key, clientKeys.publicKey()),
                Map.of(NullMechanism.SOCKET_TYPE, SocketType.ROUTER.property()),
                random);
    return new End(mech, SocketType.ROUTER, settings(maxMessage), "server");
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /** Messages as text, to compare their bytes. */
  private static List<List<String>> text(List<List<byte[]>> messages) {
    return messages.stream()
        .map(m -> m.stream().map(p -> HexFormat.of().formatHex(p)).toList())
        .toList();
  }

  private static byte[] pattern(int n, int seed) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (i * 31 + seed);
    }
    return b;
  }

  @ParameterizedTest
  @EnumSource(Mech.class)
  void exchange_handshakeAndMessages_sameAtEverySplit(Mech m) {
    List<List<byte[]>> toServer =
        List.of(
            List.of(ascii("hello")),
            List.of(ascii("a"), new byte[0], ascii("multi-part")),
            List.of(pattern(20_000, 1), pattern(300, 2)));
    List<List<byte[]>> toClient = List.of(List.of(ascii("welcome"), pattern(40_000, 3)));
    for (int split : SPLITS) {
      loop = new ManualEventLoop();
      End c = client(m, MAX_MESSAGE);
      End s = server(m, MAX_MESSAGE);
      MemoryBudget budget = new MemoryBudget("listener frame memory", 1 << 20);
      s.session.budgets(List.of(budget));
      c.session.connected();
      s.session.connected();
      pump(c, s, split);
      assertThat(c.ready && s.ready).as("both ready, split %d", split).isTrue();
      assertThat(s.session.peerProperty(NullMechanism.IDENTITY)).isEqualTo(ascii("client-1"));
      assertThat(s.session.peerSpeaks31()).isTrue();
      if (m == Mech.CURVE) {
        assertThat(s.session.mechanism().peerKey()).isEqualTo(clientKeys.publicKey());
      }
      toServer.forEach(c.session::send);
      toClient.forEach(s.session::send);
      pump(c, s, split);
      assertThat(text(s.messages)).as("server got, split %d", split).isEqualTo(text(toServer));
      assertThat(text(c.messages)).as("client got, split %d", split).isEqualTo(text(toClient));
      assertThat(s.closedReason).isNull();
      assertThat(c.closedReason).isNull();
      assertThat(budget.used()).as("nothing held between messages").isZero();
      c.session.close();
      pump(c, s, split);
      assertThat(s.closedReason).isEqualTo("closed by peer");
      assertThat(s.bad).isFalse();
    }
  }

  @ParameterizedTest
  @EnumSource(Mech.class)
  void oversizeFrame_refusedWithTheLimitsText_atEverySplit(Mech m) {
    for (int split : SPLITS) {
      loop = new ManualEventLoop();
      End c = client(m, MAX_MESSAGE);
      End s = server(m, 1000);
      c.session.connected();
      s.session.connected();
      pump(c, s, split);
      assertThat(s.ready).isTrue();
      c.session.send(List.of(pattern(1000, 4)));
      c.session.send(List.of(pattern(600, 5), pattern(401, 6)));
      pump(c, s, split);
      assertThat(s.messages).as("the message at the limit, split %d", split).hasSize(1);
      assertThat(s.closedReason).isEqualTo("message over the limit of 1000 bytes");
      assertThat(s.bad).isTrue();
      assertThat(c.closedReason).isEqualTo("closed by peer");

      loop = new ManualEventLoop();
      c = client(m, MAX_MESSAGE);
      s = server(m, 1000);
      c.session.connected();
      s.session.connected();
      pump(c, s, split);
      c.session.send(List.of(pattern(5000, 7)));
      pump(c, s, split);
      assertThat(s.messages).isEmpty();
      assertThat(s.closedReason)
          .as("split %d", split)
          .matches("frame at byte \\d+: size \\d+ over the limit of 1064 bytes");
      assertThat(s.bad).isTrue();
    }
  }

  /** Raw bytes to a server: a stand-in for a peer that is no ZMTP peer or breaks its rules. */
  private String refusedRaw(Mech m, byte[] bytes, int split, MemoryBudget budget) {
    loop = new ManualEventLoop();
    End s = server(m, MAX_MESSAGE);
    if (budget != null) {
      s.session.budgets(List.of(budget));
    }
    s.session.connected();
    feed(s, bytes, split);
    assertThat(s.session.isClosed()).as("closed, split %d", split).isTrue();
    assertThat(s.bad).isTrue();
    assertThat(s.session.isReady()).isFalse();
    return s.closedReason;
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      o.write(p, 0, p.length);
    }
    return o.toByteArray();
  }

  @Test
  void malformedGreeting_refusedAtEverySplit() {
    byte[] http = ascii("GET / HTTP/1.1\r\nHost: x\r\n\r\n" + "x".repeat(64));
    byte[] zmtp2 = Greeting.encode("NULL", false);
    zmtp2[10] = 2;
    for (int split : SPLITS) {
      assertThat(refusedRaw(Mech.NULL, http, split, null))
          .isEqualTo(
              "greeting: byte 0 is 0x47 (expected: 0xff, the ZMTP signature; not a ZeroMQ peer)");
      assertThat(refusedRaw(Mech.NULL, zmtp2, split, null))
          .isEqualTo(
              "greeting: ZMTP version 2.x (expected: 3.0 or later; libzmq 4 or JeroMQ 0.4 and"
                  + " later)");
      assertThat(refusedRaw(Mech.CURVE, Greeting.encode("NULL", false), split, null))
          .isEqualTo("greeting: peer's mechanism is NULL (expected: CURVE)");
    }
  }

  @Test
  void beforeTheHandshake_aFrameOverEightKibOrTheBudgetIsRefused() {
    byte[] greeting = Greeting.encode("NULL", false);
    byte[] big = new byte[ZmtpConnection.HANDSHAKE_MAX_FRAME + 1];
    big[0] = 5;
    byte[] overCap = concat(greeting, FrameEncoder.encode(Frame.command(big)));
    byte[] underCap = concat(greeting, FrameEncoder.encode(Frame.command(new byte[5000])));
    byte[] message = concat(greeting, FrameEncoder.encode(Frame.part(ascii("early"), false)));
    for (int split : SPLITS) {
      assertThat(refusedRaw(Mech.NULL, overCap, split, null))
          .isEqualTo("frame at byte 0: size 8193 over the limit of 8192 bytes");
      MemoryBudget budget = new MemoryBudget("listener frame memory", 1000);
      assertThat(refusedRaw(Mech.NULL, underCap, split, budget))
          .startsWith("frame at byte 0: memory budget for incomplete frames used up (");
      assertThat(budget.used()).as("released at close, split %d", split).isZero();
      assertThat(refusedRaw(Mech.NULL, message, split, null))
          .isEqualTo("handshake: a message frame before the handshake is complete");
    }
  }

  @Test
  void curve_unknownClientKey_refusedWithAnError() {
    for (int split : SPLITS) {
      loop = new ManualEventLoop();
      CurveKeyPair rejected = CurveKeyPair.generate(random);
      clientKeys = rejected;
      End c = client(Mech.CURVE, MAX_MESSAGE);
      clientKeys = CurveKeyPair.generate(random); // the server allows another key
      End s = server(Mech.CURVE, MAX_MESSAGE);
      c.session.connected();
      s.session.connected();
      pump(c, s, split);
      assertThat(s.ready || c.ready).isFalse();
      assertThat(s.closedReason)
          .isEqualTo("refused: client key " + Z85.encode(rejected.publicKey()) + " is not allowed");
      assertThat(s.session.isClosed()).as("closed once its ERROR is out").isTrue();
      assertThat(c.closedReason)
          .as("split %d", split)
          .isEqualTo("curve: server refused the handshake: 400 (authentication failure)");
      assertThat(c.bad).isTrue();
    }
  }

  @Test
  void handshakeTimeout_whenTheClockPassesIt() {
    loop = new ManualEventLoop();
    End s = server(Mech.NULL, MAX_MESSAGE);
    s.session.connected();
    feed(s, Arrays.copyOf(Greeting.encode("NULL", false), 10), 1);
    loop.advance(HANDSHAKE.minusNanos(1));
    assertThat(s.session.isClosed()).isFalse();
    loop.advance(Duration.ofNanos(1));
    assertThat(s.closedReason)
        .isEqualTo("no handshake within 10000 ms (greeting incomplete, 10 of 64 bytes)");
    assertThat(s.bad).isTrue();

    loop = new ManualEventLoop();
    End c = client(Mech.CURVE, MAX_MESSAGE);
    s = server(Mech.CURVE, MAX_MESSAGE);
    c.session.connected();
    s.session.connected();
    feed(s, c.drain(), WHOLE); // the greeting and HELLO; nothing after
    loop.advance(HANDSHAKE);
    assertThat(s.closedReason).isEqualTo("no handshake within 10000 ms (mechanism incomplete)");
  }

  @Test
  void heartbeat_pingAnswered_thenASilentPeerTimesOut() {
    loop = new ManualEventLoop();
    End c = client(Mech.NULL, MAX_MESSAGE);
    End s =
        new End(
            new NullMechanism(SocketType.ROUTER, new byte[0]),
            SocketType.ROUTER,
            new ZmtpConnection.Settings(
                MAX_MESSAGE,
                Long.MAX_VALUE,
                HANDSHAKE,
                Duration.ofSeconds(1),
                Duration.ofSeconds(3)),
            "server");
    c.session.connected();
    s.session.connected();
    pump(c, s, WHOLE);
    loop.advance(Duration.ofSeconds(1));
    pump(c, s, WHOLE);
    assertThat(c.session.pingsReceived()).isEqualTo(1);
    assertThat(s.session.pongsReceived()).isEqualTo(1);
    loop.advance(Duration.ofSeconds(3)); // the client hears the PINGs but never answers
    assertThat(s.session.isClosed()).isFalse();
    loop.advance(Duration.ofSeconds(1));
    assertThat(s.closedReason).isEqualTo("no traffic for 4000 ms after a PING (heartbeat timeout)");
    assertThat(s.bad).isFalse();
  }

  @Test
  void frameInProgress_timesOutAtItsDeadline() {
    loop = new ManualEventLoop();
    End c = client(Mech.NULL, MAX_MESSAGE);
    End s = server(Mech.NULL, MAX_MESSAGE);
    c.session.connected();
    s.session.connected();
    pump(c, s, WHOLE);
    c.session.send(List.of(pattern(1000, 8)));
    byte[] bytes = c.drain();
    feed(s, Arrays.copyOf(bytes, 500), WHOLE);
    loop.advance(ZmtpConnection.FRAME_FLOOR.minusNanos(1));
    assertThat(s.session.isClosed()).isFalse();
    loop.advance(Duration.ofMillis(1));
    assertThat(s.closedReason)
        .matches(
            "frame at byte \\d+ \\(1000 bytes\\) incomplete after 10000 ms \\(expected: 10000 ms"
                + " plus 1048576 bytes per second\\)");
  }
}
