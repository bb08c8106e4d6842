package io.fluxdrm.rpc.transport;

import io.fluxdrm.rpc.reactor.MemoryBudget;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.zmtp.Mechanism;
import io.fluxdrm.rpc.zmtp.SocketType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One ZMTP 3.1 connection over a TCP socket, driven by the reactor: the thin I/O side of a {@link
 * ZmtpSession} (issue 31, scope 5). It completes a non-blocking connect on the shared {@link
 * StreamConnection} (a read budget per readiness, so one busy peer cannot starve the others; one
 * write queue), feeds the session the bytes read, writes the bytes the session gives out, and
 * reports the session's events with itself. The greeting, the mechanism's handshake, the socket
 * type check, framing, heartbeats (a PING every interval to any peer, whatever minor version it
 * announces, as libzmq does; the connection closed after a timeout with no traffic; PINGs answered
 * with PONGs; the time to live of the peer's PINGs honoured) and every limit are the session's; its
 * settings and the limits' constants are here.
 */
public final class ZmtpConnection {
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

  private final ZmtpSession session;
  private final StreamConnection conn;
  private Listener listener;
  private boolean tcpConnected;

  public ZmtpConnection(
      Reactor reactor,
      SocketChannel channel,
      Mechanism mechanism,
      SocketType type,
      Settings settings,
      String name) {
    this.conn = new StreamConnection(reactor, channel, name);
    this.session = new ZmtpSession(reactor, new Out(), mechanism, type, settings, name);
    session.listener(new Events());
  }

  /**
   * Makes the memory of this connection's incomplete frames count against {@code list} (on the
   * loop): e.g. a listener's budget, and once the peer's key is known the key's one as well.
   */
  public void budgets(List<MemoryBudget> list) {
    session.budgets(list);
  }

  /** Returns the bytes this connection's incomplete frames hold (for tests). */
  long heldBytes() {
    return session.heldBytes();
  }

  /** Starts driving the channel (on the loop); a pending connect is completed first. */
  public void start(Listener l) {
    this.listener = l;
    conn.start(new Codec());
  }

  /** The socket's bytes and events, fed to the session. */
  private final class Codec implements StreamConnection.Handler {
    @Override
    public void onConnected() {
      tcpConnected = true;
      session.connected();
    }

    @Override
    public void onBytes(ByteBuffer in) {
      session.receive(in);
    }

    @Override
    public void afterRead() {
      session.afterRead();
    }

    @Override
    public void onEof() {
      session.endOfInput();
    }

    @Override
    public void onIoError(StreamConnection.Phase phase, IOException e) {
      switch (phase) {
        case CONNECT -> session.fail("connect: " + text(e), false);
        case READ -> session.fail(text(e), false);
        case WRITE -> session.failLater(text(e));
        default -> throw new IllegalStateException();
      }
    }

    @Override
    public void onFlushed() {
      close();
    }
  }

  /** The session's output: the socket. */
  private final class Out implements ZmtpSession.Output {
    @Override
    public void write(byte[] bytes) {
      conn.write(bytes);
    }

    @Override
    public long queuedBytes() {
      return conn.queuedBytes();
    }

    @Override
    public long flushPending() {
      return conn.flushPending();
    }

    @Override
    public void stopReading() {
      conn.stopReading();
    }

    @Override
    public void closeWhenFlushed() {
      conn.closeWhenFlushed();
    }

    @Override
    public void close() {
      conn.close();
    }
  }

  /** The session's reports, given to the listener with this connection. */
  private final class Events implements ZmtpSession.Listener {
    @Override
    public void onReady() {
      listener.onReady(ZmtpConnection.this);
    }

    @Override
    public void onMessage(List<byte[]> parts) {
      listener.onMessage(ZmtpConnection.this, parts);
    }

    @Override
    public void onClosed(String reason, boolean bad) {
      listener.onClosed(ZmtpConnection.this, reason, bad);
    }
  }

  /** Returns the name used in logs and reasons. */
  public String name() {
    return session.name();
  }

  /** Returns whether the handshake is done and messages flow. */
  public boolean isReady() {
    return session.isReady();
  }

  /** Returns whether the TCP connect completed (a peer accepted), handshake done or not. */
  boolean tcpConnected() {
    return tcpConnected;
  }

  /** Returns whether the connection is closed. */
  public boolean isClosed() {
    return session.isClosed();
  }

  /** Returns how many PINGs the peer has sent (each answered with a PONG). */
  public long pingsReceived() {
    return session.pingsReceived();
  }

  /** Returns how many PONGs the peer has sent (answers to this side's PINGs). */
  public long pongsReceived() {
    return session.pongsReceived();
  }

  /** Returns the mechanism (its peer metadata and key once ready). */
  public Mechanism mechanism() {
    return session.mechanism();
  }

  /** Returns the peer's metadata property {@code name} (any case), or null. */
  public byte[] peerProperty(String property) {
    return session.peerProperty(property);
  }

  /** Returns whether the peer speaks ZMTP 3.1 (known once the greeting is read). */
  public boolean peerSpeaks31() {
    return session.peerSpeaks31();
  }

  /** Sends a message (after the handshake); closes the connection when its queue is full. */
  public void send(List<byte[]> message) {
    session.send(message);
  }

  /** Returns how many bytes wait to be written. */
  public long queuedBytes() {
    return conn.queuedBytes();
  }

  /** Closes once everything queued is written (at once when nothing is). */
  public void closeWhenFlushed() {
    conn.closeWhenFlushed();
  }

  /** Closes without reporting. */
  public void close() {
    session.close();
  }

  private static String text(IOException e) {
    String m = e.getMessage();
    return m == null ? e.getClass().getSimpleName() : m.toLowerCase(java.util.Locale.ROOT);
  }

  /** Returns the peer's metadata (for logs). */
  public Map<String, byte[]> peerMetadata() {
    return session.mechanism().peerMetadata();
  }
}
