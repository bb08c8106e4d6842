package io.fluxdrm.rpc.transport;

import io.fluxdrm.rpc.curve.CurveServer;
import io.fluxdrm.rpc.reactor.EventLoop;
import io.fluxdrm.rpc.reactor.MemoryBudget;
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
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One ZMTP 3.1 session without a socket (issue 31, scope 5): bytes in, in any split, through {@link
 * #receive}; bytes to write out through its {@link Output}; whole messages and the end of the
 * session through its {@link Listener}. It exchanges greetings, runs the mechanism's handshake
 * (NULL or CURVE), checks the peer's socket type and identity, then frames and de-frames messages,
 * answers PINGs, sends its own and honours the peer's time to live. Time is the given loop's: its
 * clock and timers bound the handshake, each frame in progress (a floor plus a least rate) and the
 * silence of a PINGed peer, so a test drives it with a manual loop. Its limits are the ones a
 * connection had: {@link ZmtpConnection#HANDSHAKE_MAX_FRAME} before the handshake, the largest
 * message after it, the output queue, and memory budgets for incomplete frames and messages.
 *
 * <p>{@link ZmtpConnection} feeds it from a TCP socket; its logs keep that class's name.
 */
public final class ZmtpSession {
  private static final Logger LOG = LoggerFactory.getLogger(ZmtpConnection.class);

  /** Room for a mechanism's envelope around the largest message part (CURVE's MESSAGE). */
  private static final int ENVELOPE = 64;

  /** Where the session's bytes go: the stream under it. Every call comes on the loop. */
  public interface Output {
    /** Queues bytes to write. */
    void write(byte[] bytes);

    /** Returns how many bytes wait to be written. */
    long queuedBytes();

    /**
     * Writes what the stream takes of the bytes waiting for the end of the turn; returns the rest.
     */
    long flushPending();

    /** Reads nothing more from the peer. */
    void stopReading();

    /** Closes once everything queued is written: the stream then calls {@link #close}. */
    void closeWhenFlushed();

    /** Closes the stream (called once, from {@link ZmtpSession#close}). */
    void close();
  }

  /** What the session reports, on the loop. */
  public interface Listener {
    /** The handshake is done: metadata, peer key and the peer's version are known. */
    void onReady();

    /** A whole message arrived. */
    void onMessage(List<byte[]> parts);

    /**
     * The session ended by itself (never after {@link #close}).
     *
     * @param reason what happened, lower case
     * @param bad whether the peer broke the protocol or a limit (rather than leaving or going
     *     silent)
     */
    void onClosed(String reason, boolean bad);
  }

  private final EventLoop loop;
  private final Output out;
  private final Mechanism mechanism;
  private final boolean plain;
  private final SocketType type;
  private final ZmtpConnection.Settings settings;
  private final String name;
  private final FrameDecoder decoder;
  private final byte[] greeting = new byte[Greeting.SIZE];
  private final List<byte[]> parts = new ArrayList<>();
  private Listener listener;
  private int greetingHave;
  private Greeting peerGreeting;
  private boolean ready;
  private boolean closed;
  private boolean reported;
  private boolean refusing;
  private final FrameMemory memory;
  private final FrameDeadline deadline;
  private final ZmtpHeartbeat heartbeat;
  private long partsSize;
  private EventLoop.Cancellable handshakeTimer;

  /**
   * Creates a session; nothing is written before {@link #connected}.
   *
   * @param loop the clock and timers (a {@code ManualEventLoop} in tests)
   * @param out where the bytes to write go
   * @param name the name used in logs and reasons
   */
  public ZmtpSession(
      EventLoop loop,
      Output out,
      Mechanism mechanism,
      SocketType type,
      ZmtpConnection.Settings settings,
      String name) {
    this.loop = loop;
    this.out = out;
    this.mechanism = mechanism;
    this.plain = mechanism instanceof NullMechanism;
    this.type = type;
    this.settings = settings;
    this.name = name;
    this.decoder =
        new FrameDecoder(
            Math.min(ZmtpConnection.HANDSHAKE_MAX_FRAME, settings.maxMessageSize() + ENVELOPE));
    this.memory = new FrameMemory(name);
    this.decoder.setBudget(memory::reserve);
    this.deadline =
        new FrameDeadline(
            loop,
            decoder,
            settings.frameFloor(),
            settings.frameMinRate(),
            reason -> {
              if (!closed) {
                fail(reason, true);
              }
            });
    this.heartbeat =
        new ZmtpHeartbeat(loop, settings.heartbeatInterval(), settings.heartbeatTimeout(), this);
  }

  /** Sets the listener (before {@link #connected}). */
  public void listener(Listener l) {
    this.listener = l;
  }

  /**
   * Makes the memory of this session's incomplete frames count against {@code list}: e.g. a
   * listener's budget, and once the peer's key is known the key's one as well.
   */
  public void budgets(List<MemoryBudget> list) {
    memory.budgets(list);
  }

  /** Returns the bytes this session's incomplete frames hold. */
  public long heldBytes() {
    return memory.held();
  }

  /** Returns the name used in logs and reasons. */
  public String name() {
    return name;
  }

  /** Returns whether the handshake is done and messages flow. */
  public boolean isReady() {
    return ready;
  }

  /** Returns whether the session is closed. */
  public boolean isClosed() {
    return closed;
  }

  /** Returns how many PINGs the peer has sent (each answered with a PONG). */
  public long pingsReceived() {
    return heartbeat.pingsReceived();
  }

  /** Returns how many PONGs the peer has sent (answers to this side's PINGs). */
  public long pongsReceived() {
    return heartbeat.pongsReceived();
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

  /** The stream is connected: starts the handshake clock and writes the greeting. */
  public void connected() {
    heartbeat.heard();
    Duration hs = settings.handshakeTimeout();
    if (!hs.isZero()) {
      handshakeTimer =
          loop.schedule(
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
   * Takes bytes from the peer, any number (the buffer is consumed up to where the session stopped
   * reading); a protocol error or a broken limit ends the session with a report.
   */
  public void receive(ByteBuffer in) {
    if (closed) {
      return;
    }
    heartbeat.heard();
    try {
      consume(in);
    } catch (ZmtpException e) {
      fail(e.getMessage(), true);
    }
  }

  /**
   * One read's bytes are all given: the frame in progress gets a deadline proportional to its size
   * with a floor (issue 12, finding 10).
   */
  public void afterRead() {
    deadline.check();
  }

  /** The peer closed its end: ends the session, as bad when it left in the middle of something. */
  public void endOfInput() {
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
        memory.release(); // the budget counts incomplete frames and messages only
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
      if (identity != null && identity.length > ZmtpConnection.MAX_IDENTITY) {
        // ZMTP 3.x, RFC 37 "The Identity property": 0 to 255 octets (libzmq refuses more too)
        throw new ZmtpException(
            "handshake: identity of "
                + identity.length
                + " bytes (expected: 0 to "
                + ZmtpConnection.MAX_IDENTITY
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
    heartbeat.arm();
    listener.onReady();
  }

  /** Reports a refused peer, reads nothing more and closes once the queued ERROR is written. */
  private void refuse(String reason) {
    refusing = true;
    out.stopReading();
    reported = true;
    out.closeWhenFlushed();
    listener.onClosed(reason, true);
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
      listener.onMessage(m);
    }
  }

  private void command(byte[] body) throws ZmtpException {
    String n = Command.name(body);
    switch (n) {
      case Command.PING -> {
        Ping p = Ping.parse(body);
        heartbeat.onPing(p);
        sendCommand(p.pong());
      }
      case Command.PONG -> {
        // the peer is already heard: any traffic proves it alive
        heartbeat.onPong();
      }
      case Command.ERROR ->
          throw new ZmtpException("peer sent ERROR: " + Command.errorReason(body));
      default -> LOG.debug("{}: {} command ignored", name, n);
    }
  }

  void sendCommand(byte[] body) {
    writeRaw(encodeFrame(Frame.command(body)));
  }

  private byte[] encodeFrame(Frame f) {
    return FrameEncoder.encode(plain ? f : mechanism.encode(f));
  }

  /** Sends a message (after the handshake); ends the session when the output queue is full. */
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
      bytes = FrameEncoder.encodeMessage(message);
    } else {
      List<Frame> frames = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        frames.add(mechanism.encode(Frame.part(message.get(i), i < n - 1)));
      }
      bytes = FrameEncoder.encode(frames);
    }
    long queued = out.queuedBytes();
    if (queued + bytes.length > settings.maxQueuedBytes()) {
      // the limit counts what the socket refused, not what waits for the end of the turn
      queued = out.flushPending();
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

  private void writeRaw(byte[] bytes) {
    if (closed) {
      return;
    }
    out.write(bytes);
  }

  /**
   * Ends the session with a report given on a later task: for a failure found while the caller may
   * be iterating over the peers the report changes (a write that failed).
   */
  public void failLater(String reason) {
    if (closed || reported) {
      close();
      return;
    }
    close();
    reported = true;
    loop.execute(() -> listener.onClosed(reason, true));
  }

  /** Ends the session with a report (once; a session closed or reported already just closes). */
  public void fail(String reason, boolean bad) {
    if (closed || reported) {
      close();
      return;
    }
    close();
    reported = true;
    listener.onClosed(reason, bad);
  }

  /**
   * Ends the session without a report: cancels its timers, releases its memory, wipes the mechanism
   * and closes the output.
   */
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (handshakeTimer != null) {
      handshakeTimer.cancel();
    }
    heartbeat.stop();
    deadline.stop();
    parts.clear();
    memory.release();
    // RFC 26: short-term keys serve one connection; whether the handshake finished, failed
    // part-way or never began, none of its secrets outlives the connection (issue 12, finding 13)
    mechanism.wipe();
    out.close();
  }
}
