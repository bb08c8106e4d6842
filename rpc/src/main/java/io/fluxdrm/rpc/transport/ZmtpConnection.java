package io.fluxdrm.rpc.transport;

import io.fluxdrm.rpc.curve.CurveServer;
import io.fluxdrm.rpc.reactor.EventLoop;
import io.fluxdrm.rpc.reactor.MemoryBudget;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.zmtp.Command;
import io.fluxdrm.rpc.zmtp.Frame;
import io.fluxdrm.rpc.zmtp.FrameDecoder;
import io.fluxdrm.rpc.zmtp.FrameEncoder;
import io.fluxdrm.rpc.zmtp.Greeting;
import io.fluxdrm.rpc.zmtp.Mechanism;
import io.fluxdrm.rpc.zmtp.Metadata;
import io.fluxdrm.rpc.zmtp.NullMechanism;
import io.fluxdrm.rpc.zmtp.Ping;
import io.fluxdrm.rpc.zmtp.SocketType;
import io.fluxdrm.rpc.zmtp.ZmtpException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One ZMTP 3.1 connection over a TCP socket, driven by the reactor: completes a non-blocking
 * connect, exchanges greetings, runs the mechanism's handshake, checks the peer's socket type, then
 * delivers whole multipart messages and writes them: the ZMTP codec on the shared {@link
 * StreamConnection}, as {@link FramedChannel} is the local framing's (a read budget per readiness,
 * so one busy peer cannot starve the others; one write queue); it closes the connection when that
 * queue passes a limit (the peer stopped reading). Heartbeats: a PING every interval to any peer,
 * whatever minor version it announces (as libzmq does; JeroMQ 0.6.0 announces 3.0 and answers
 * PINGs), the connection closed after a timeout with no traffic, PINGs answered with PONGs, and the
 * time to live of the peer's PINGs honoured.
 *
 * <p>Why one class: it is the state machine of one ZMTP 3.1 connection (greeting, mechanism
 * handshake, traffic, heartbeats, limits), whose states all act on the same buffers and budgets;
 * the pure codec and mechanisms it drives are in {@code io.fluxdrm.rpc.zmtp}.
 */
public final class ZmtpConnection {
  private static final Logger LOG = LoggerFactory.getLogger(ZmtpConnection.class);

  /** What the connection reports, on the loop. */
  public interface Listener {
    /** The handshake is done: metadata, peer key and the peer's version are known. */
    void onReady(ZmtpConnection c);

    /** A whole message arrived. */
    void onMessage(ZmtpConnection c, List<byte[]> parts);

    /**
     * The connection closed by itself (never after {@link #close}).
     *
     * @param reason what happened, lower case
     * @param bad whether the peer broke the protocol or a limit (rather than leaving or going
     *     silent)
     */
    void onClosed(ZmtpConnection c, String reason, boolean bad);
  }

  /**
   * Settings of a connection.
   *
   * @param maxMessageSize the largest message accepted (all parts); a larger one closes
   * @param maxQueuedBytes the output queued beyond which the peer is taken as not reading
   * @param handshakeTimeout how long the greeting and handshake may take after connecting
   * @param heartbeatInterval how often to PING the peer; zero: never
   * @param heartbeatTimeout how long a PINGed peer may stay silent (also the PINGs' time to live)
   */
  public record Settings(
      int maxMessageSize,
      long maxQueuedBytes,
      Duration handshakeTimeout,
      Duration heartbeatInterval,
      Duration heartbeatTimeout,
      Duration frameFloor,
      long frameMinRate) {
    /** Settings with the default frame progress rule ({@link #FRAME_FLOOR}, {@link #MIN_RATE}). */
    public Settings(
        int maxMessageSize,
        long maxQueuedBytes,
        Duration handshakeTimeout,
        Duration heartbeatInterval,
        Duration heartbeatTimeout) {
      this(
          maxMessageSize,
          maxQueuedBytes,
          handshakeTimeout,
          heartbeatInterval,
          heartbeatTimeout,
          FRAME_FLOOR,
          MIN_RATE);
    }

    /** Checks the frame progress rule. */
    public Settings {
      if (frameFloor.isNegative() || frameFloor.isZero() || frameMinRate <= 0) {
        throw new IllegalArgumentException(
            "frame progress: floor and rate must be positive (expected: more than zero)");
      }
    }
  }

  /**
   * The largest frame taken before the handshake is done: a NULL READY (type and an identity of at
   * most 255 bytes) or a CURVE INITIATE (257 bytes and the metadata) fits with room to spare. A
   * peer not yet authenticated makes the hub hold no more than this (issue 12, finding 1).
   */
  public static final int HANDSHAKE_MAX_FRAME = 8 * 1024;

  /** ZMTP 3.x (RFC 37, "The Identity property"): an identity is 0 to 255 octets. */
  public static final int MAX_IDENTITY = 255;

  /** The least time any frame in progress is given to complete (issue 12, finding 10). */
  public static final Duration FRAME_FLOOR = Duration.ofSeconds(10);

  /** The least rate, bytes per second, at which a large frame must arrive beyond the floor. */
  public static final long MIN_RATE = 1024 * 1024;

  /** Room for a mechanism's envelope around the largest message part (CURVE's MESSAGE). */
  private static final int ENVELOPE = 64;

  private final Reactor reactor;
  private final StreamConnection conn;
  private final Mechanism mechanism;
  private final boolean plain;
  private final SocketType type;
  private final Settings settings;
  private final String name;
  private final FrameDecoder decoder;
  private final byte[] greeting = new byte[Greeting.SIZE];
  private final List<byte[]> parts = new ArrayList<>();
  private Listener listener;
  private int greetingHave;
  private Greeting peerGreeting;
  private boolean ready;
  private boolean tcpConnected;
  private boolean closed;
  private boolean reported;
  private boolean refusing;
  private long partsSize;
  private long lastHeard;
  private long lastPing;
  private long peerTtlNanos;
  private long pingsReceived;
  private long pongsReceived;
  private EventLoop.Cancellable handshakeTimer;
  private EventLoop.Cancellable tick;
  private EventLoop.Cancellable frameTimer;
  private long frameTimerAt = -1;
  private long frameTimerSize = -2;
  private List<MemoryBudget> budgets = List.of();
  private long held;
  private long frameStarted;

  public ZmtpConnection(
      Reactor reactor,
      SocketChannel channel,
      Mechanism mechanism,
      SocketType type,
      Settings settings,
      String name) {
    this.reactor = reactor;
    this.conn = new StreamConnection(reactor, channel, name);
    this.mechanism = mechanism;
    this.plain = mechanism instanceof NullMechanism;
    this.type = type;
    this.settings = settings;
    this.name = name;
    this.decoder =
        new FrameDecoder(Math.min(HANDSHAKE_MAX_FRAME, settings.maxMessageSize() + ENVELOPE));
    this.decoder.setBudget(this::reserve);
  }

  /**
   * Makes the memory of this connection's incomplete frames count against {@code list} (on the
   * loop): e.g. a listener's budget, and once the peer's key is known the key's one as well.
   */
  public void budgets(List<MemoryBudget> list) {
    releaseHeld();
    budgets = List.copyOf(list);
  }

  private boolean reserve(long bytes) {
    for (int i = 0; i < budgets.size(); i++) {
      if (!budgets.get(i).reserve(bytes)) {
        for (int j = 0; j < i; j++) {
          budgets.get(j).release(bytes);
        }
        LOG.debug(
            "{}: {} of {} bytes used up", name, budgets.get(i).name(), budgets.get(i).limit());
        return false;
      }
    }
    held += bytes;
    return true;
  }

  private void releaseHeld() {
    for (MemoryBudget b : budgets) {
      b.release(held);
    }
    held = 0;
  }

  /** Returns the bytes this connection's incomplete frames hold (for tests). */
  long heldBytes() {
    return held;
  }

  /** Starts driving the channel (on the loop); a pending connect is completed first. */
  public void start(Listener l) {
    this.listener = l;
    conn.start(new Codec());
  }

  /** ZMTP on the shared connection. */
  private final class Codec implements StreamConnection.Handler {
    @Override
    public void onConnected() {
      connected();
    }

    @Override
    public void onBytes(ByteBuffer in) {
      lastHeard = reactor.nanoTime();
      try {
        consume(in);
      } catch (ZmtpException e) {
        fail(e.getMessage(), true);
      }
    }

    @Override
    public void afterRead() {
      watchFrame();
    }

    @Override
    public void onEof() {
      String why =
          !ready
              ? "closed by peer during the "
                  + (peerGreeting == null
                      ? "greeting (" + greetingHave + " of 64 bytes)"
                      : "handshake")
              : decoder.midFrame() || !parts.isEmpty()
                  ? "closed by peer in the middle of a message"
                  : "closed by peer";
      fail(why, !ready || decoder.midFrame() || !parts.isEmpty());
    }

    @Override
    public void onIoError(StreamConnection.Phase phase, IOException e) {
      switch (phase) {
        case CONNECT -> fail("connect: " + text(e), false);
        case READ -> fail(text(e), false);
        case WRITE -> failLater(text(e));
        default -> throw new IllegalStateException();
      }
    }

    @Override
    public void onFlushed() {
      close();
    }
  }

  /** Returns the name used in logs and reasons. */
  public String name() {
    return name;
  }

  /** Returns whether the handshake is done and messages flow. */
  public boolean isReady() {
    return ready;
  }

  /** Returns whether the TCP connect completed (a peer accepted), handshake done or not. */
  boolean tcpConnected() {
    return tcpConnected;
  }

  /** Returns whether the connection is closed. */
  public boolean isClosed() {
    return closed;
  }

  /** Returns how many PINGs the peer has sent (each answered with a PONG). */
  public long pingsReceived() {
    return pingsReceived;
  }

  /** Returns how many PONGs the peer has sent (answers to this side's PINGs). */
  public long pongsReceived() {
    return pongsReceived;
  }

  /** Returns the mechanism (its peer metadata and key once ready). */
  public Mechanism mechanism() {
    return mechanism;
  }

  /** Returns the peer's metadata property {@code name} (any case), or null. */
  public byte[] peerProperty(String property) {
    return Metadata.get(mechanism.peerMetadata(), property);
  }

  /** Returns whether the peer speaks ZMTP 3.1 (known once the greeting is read). */
  public boolean peerSpeaks31() {
    return peerGreeting != null && peerGreeting.speaks31();
  }

  private void connected() {
    tcpConnected = true;
    lastHeard = reactor.nanoTime();
    Duration hs = settings.handshakeTimeout();
    if (!hs.isZero()) {
      handshakeTimer =
          reactor.schedule(
              hs,
              () -> {
                if (refusing) {
                  close(); // the refused peer did not take its ERROR in time
                } else if (!ready) {
                  fail(
                      "no handshake within "
                          + hs.toMillis()
                          + " ms ("
                          + (peerGreeting == null
                              ? "greeting incomplete, " + greetingHave + " of 64 bytes"
                              : "mechanism incomplete")
                          + ")",
                      true);
                }
              });
    }
    writeRaw(Greeting.encode(mechanism.name(), mechanism.asServer()));
  }

  /**
   * Gives the frame in progress a deadline proportional to its size with a floor: trickling a byte
   * now and then keeps a connection alive but no longer holds a large buffer (issue 12, finding
   * 10). A frame that completes in time, or the next one, replaces the deadline.
   */
  private void watchFrame() {
    if (!decoder.midFrame()) {
      if (frameTimer != null) {
        frameTimer.cancel();
        frameTimer = null;
      }
      frameTimerAt = -1;
      return;
    }
    long size = decoder.claimedSize();
    if (frameTimer != null && frameTimerAt == decoder.frameAt() && frameTimerSize == size) {
      return;
    }
    if (frameTimer != null) {
      frameTimer.cancel();
    }
    long at = decoder.frameAt();
    long started = frameTimerAt == at ? frameStarted : reactor.nanoTime();
    frameStarted = started;
    frameTimerAt = at;
    frameTimerSize = size;
    long allowed =
        settings.frameFloor().toNanos()
            + (size <= 0 ? 0 : Math.multiplyExact(size, 1_000_000_000L) / settings.frameMinRate());
    long left = Math.max(1, allowed - (reactor.nanoTime() - started));
    frameTimer =
        reactor.schedule(
            Duration.ofNanos(left),
            () -> {
              if (!closed && decoder.midFrame() && decoder.frameAt() == at) {
                fail(
                    "frame at byte "
                        + at
                        + " ("
                        + (size < 0 ? "header" : size + " bytes")
                        + ") incomplete after "
                        + allowed / 1_000_000
                        + " ms (expected: "
                        + settings.frameFloor().toMillis()
                        + " ms plus "
                        + settings.frameMinRate()
                        + " bytes per second)",
                    true);
              }
            });
  }

  private void consume(ByteBuffer in) throws ZmtpException {
    if (peerGreeting == null) {
      int k = Math.min(in.remaining(), Greeting.SIZE - greetingHave);
      in.get(greeting, greetingHave, k);
      greetingHave += k;
      Greeting.checkPrefix(greeting, greetingHave);
      if (greetingHave < Greeting.SIZE) {
        return;
      }
      Greeting g = Greeting.parse(greeting);
      if (!g.mechanism().equals(mechanism.name())) {
        throw new ZmtpException(
            "greeting: peer's mechanism is "
                + g.mechanism()
                + " (expected: "
                + mechanism.name()
                + ")");
      }
      peerGreeting = g;
      for (byte[] c : mechanism.start()) {
        writeRaw(FrameEncoder.encode(Frame.command(c)));
      }
    }
    Frame f;
    while (!closed && !refusing && (f = decoder.next(in)) != null) {
      if (ready) {
        frame(plain ? f : mechanism.decode(f));
      } else {
        handshake(f);
      }
      if (parts.isEmpty()) {
        releaseHeld(); // the budget counts incomplete frames and messages only
      }
    }
  }

  private void handshake(Frame f) throws ZmtpException {
    if (!f.command()) {
      throw new ZmtpException("handshake: a message frame before the handshake is complete");
    }
    for (byte[] c : mechanism.onHandshakeCommand(f.body())) {
      writeRaw(FrameEncoder.encode(Frame.command(c)));
    }
    if (mechanism instanceof CurveServer cs && cs.refusal().isPresent()) {
      refuse("refused: " + cs.refusal().get()); // the mechanism queued its ERROR already
      return;
    }
    if (!mechanism.done()) {
      return;
    }
    try {
      type.checkPeer(peerProperty(NullMechanism.SOCKET_TYPE));
      byte[] identity = peerProperty(NullMechanism.IDENTITY);
      if (identity != null && identity.length > MAX_IDENTITY) {
        // ZMTP 3.x, RFC 37 "The Identity property": 0 to 255 octets (libzmq refuses more too)
        throw new ZmtpException(
            "handshake: identity of "
                + identity.length
                + " bytes (expected: 0 to "
                + MAX_IDENTITY
                + ")");
      }
    } catch (ZmtpException e) {
      // tell the peer why before closing, as libzmq does for a refused handshake
      writeRaw(encodeFrame(Frame.command(Command.error(e.getMessage()))));
      refuse(e.getMessage());
      return;
    }
    ready = true;
    decoder.setMaxFrameSize(settings.maxMessageSize() + ENVELOPE);
    if (handshakeTimer != null) {
      handshakeTimer.cancel();
      handshakeTimer = null;
    }
    armTick();
    listener.onReady(this);
  }

  /** Reports a refused peer, reads nothing more and closes once the queued ERROR is written. */
  private void refuse(String reason) {
    refusing = true;
    conn.stopReading();
    reported = true;
    closeWhenFlushed();
    listener.onClosed(this, reason, true);
  }

  private void frame(Frame f) throws ZmtpException {
    if (f.command()) {
      command(f.body());
      return;
    }
    if (partsSize + f.body().length > settings.maxMessageSize()) {
      throw new ZmtpException("message over the limit of " + settings.maxMessageSize() + " bytes");
    }
    parts.add(f.body());
    partsSize += f.body().length;
    if (!f.more()) {
      List<byte[]> m = List.copyOf(parts);
      parts.clear();
      partsSize = 0;
      listener.onMessage(this, m);
    }
  }

  private void command(byte[] body) throws ZmtpException {
    String n = Command.name(body);
    switch (n) {
      case Command.PING -> {
        Ping p = Ping.parse(body);
        pingsReceived++;
        if (p.ttlDeciseconds() > 0) {
          boolean first = peerTtlNanos == 0;
          peerTtlNanos = p.ttlDeciseconds() * 100_000_000L;
          if (first) {
            armTick();
          }
        }
        sendCommand(p.pong());
      }
      case Command.PONG -> {
        // lastHeard is already updated: any traffic proves the peer alive
        pongsReceived++;
      }
      case Command.ERROR ->
          throw new ZmtpException("peer sent ERROR: " + Command.errorReason(body));
      default -> LOG.debug("{}: {} command ignored", name, n);
    }
  }

  /** Starts (or restarts) the heartbeat tick, whose period is the interval or the peer's TTL. */
  private void armTick() {
    if (tick != null) {
      tick.cancel();
      tick = null;
    }
    long period = 0;
    if (!settings.heartbeatInterval().isZero()) {
      period = settings.heartbeatInterval().toNanos();
    }
    if (peerTtlNanos > 0) {
      period = period == 0 ? peerTtlNanos / 2 : Math.min(period, peerTtlNanos / 2);
    }
    if (period == 0 || closed) {
      return;
    }
    long p = Math.max(period, 10_000_000L);
    tick = reactor.schedule(Duration.ofNanos(p), () -> onTick(p));
  }

  private void onTick(long period) {
    if (closed) {
      return;
    }
    long now = reactor.nanoTime();
    long silent = now - lastHeard;
    Duration timeout = settings.heartbeatTimeout();
    boolean pinging = !settings.heartbeatInterval().isZero();
    if (pinging && !timeout.isZero() && silent > timeout.toNanos() && lastPing != 0) {
      fail("no traffic for " + silent / 1_000_000 + " ms after a PING (heartbeat timeout)", false);
      return;
    }
    if (peerTtlNanos > 0 && silent > peerTtlNanos) {
      fail("no traffic for " + silent / 1_000_000 + " ms (the peer's heartbeat ttl)", false);
      return;
    }
    if (pinging && now - lastPing >= settings.heartbeatInterval().toNanos() - period / 10) {
      int ttl = (int) Math.min(0xffff, timeout.toMillis() / 100);
      sendCommand(new Ping(ttl, new byte[0]).encode());
      lastPing = now;
    }
    tick = reactor.schedule(Duration.ofNanos(period), () -> onTick(period));
  }

  private void sendCommand(byte[] body) {
    writeRaw(encodeFrame(Frame.command(body)));
  }

  private byte[] encodeFrame(Frame f) {
    return FrameEncoder.encode(plain ? f : mechanism.encode(f));
  }

  /** Sends a message (after the handshake); closes the connection when its queue is full. */
  public void send(List<byte[]> message) {
    if (closed) {
      return;
    }
    if (!ready) {
      throw new IllegalStateException(name + ": send before the handshake");
    }
    int n = message.size();
    byte[] bytes;
    if (plain) {
      int total = 0;
      for (byte[] p : message) {
        total += FrameEncoder.encodedSize(p.length);
      }
      bytes = new byte[total];
      int off = 0;
      for (int i = 0; i < n; i++) {
        off = FrameEncoder.put(Frame.part(message.get(i), i < n - 1), bytes, off);
      }
    } else {
      List<Frame> frames = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        frames.add(mechanism.encode(Frame.part(message.get(i), i < n - 1)));
      }
      bytes = FrameEncoder.encode(frames);
    }
    long queued = conn.queuedBytes();
    if (queued + bytes.length > settings.maxQueuedBytes()) {
      // the limit counts what the socket refused, not what waits for the end of the turn
      queued = conn.flushPending();
    }
    if (closed) {
      return; // the write failed, and was reported
    }
    if (queued + bytes.length > settings.maxQueuedBytes()) {
      // deferred: the caller may be iterating over the peers this report changes
      failLater(
          "peer stopped reading ("
              + queued
              + " bytes queued, limit "
              + settings.maxQueuedBytes()
              + ")");
      return;
    }
    writeRaw(bytes);
  }

  /** Returns how many bytes wait to be written. */
  public long queuedBytes() {
    return conn.queuedBytes();
  }

  private void writeRaw(byte[] bytes) {
    if (closed) {
      return;
    }
    conn.write(bytes);
  }

  /** Closes once everything queued is written (at once when nothing is). */
  public void closeWhenFlushed() {
    conn.closeWhenFlushed();
  }

  private void failLater(String reason) {
    if (closed || reported) {
      close();
      return;
    }
    close();
    reported = true;
    reactor.execute(() -> listener.onClosed(this, reason, true));
  }

  private void fail(String reason, boolean bad) {
    if (closed || reported) {
      close();
      return;
    }
    close();
    reported = true;
    listener.onClosed(this, reason, bad);
  }

  /** Closes without reporting. */
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (handshakeTimer != null) {
      handshakeTimer.cancel();
    }
    if (tick != null) {
      tick.cancel();
    }
    if (frameTimer != null) {
      frameTimer.cancel();
    }
    parts.clear();
    releaseHeld();
    // RFC 26: short-term keys serve one connection; whether the handshake finished, failed
    // part-way or never began, none of its secrets outlives the connection (issue 12, finding 13)
    mechanism.wipe();
    conn.close();
  }

  private static String text(IOException e) {
    String m = e.getMessage();
    return m == null ? e.getClass().getSimpleName() : m.toLowerCase(java.util.Locale.ROOT);
  }

  /** Returns the peer's metadata (for logs). */
  public Map<String, byte[]> peerMetadata() {
    return mechanism.peerMetadata();
  }
}
