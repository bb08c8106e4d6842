package io.fluxdrm.rpc.net;

import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Flags;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.MessageCodec;
import io.fluxdrm.rpc.MessageType;
import io.fluxdrm.rpc.RpcException;
import java.nio.channels.SelectionKey;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zeromq.SocketType;
import org.zeromq.ZEvent;
import org.zeromq.ZMQ;

/**
 * A ZeroMQ DEALER client of the hub: one Flux part per frame; its identity is its route.
 *
 * <p>Messages are handed to the socket only once its connection has finished the ZMTP handshake,
 * which a monitor of the socket reports; until then they wait here, in order. JeroMQ 0.6.0's I/O
 * thread can lose the registration of a fresh connection's channel (its connecter and its engine
 * swap poller handles for the same channel in one pass; a command reaching the I/O thread at that
 * moment, such as a first send, makes this happen), after which that connection neither reads nor
 * writes until the poller registers channels again. A connection whose TCP connect completed but
 * whose handshake does not follow in time ({@link #STUCK_AFTER}) therefore gets the I/O thread
 * woken (decision D148).
 */
final class ZmqConnector implements Connector {
  private static final Logger LOG = LoggerFactory.getLogger(ZmqConnector.class);

  /** The control type flux-core's overlay uses for a peer that leaves. */
  static final int CONTROL_DISCONNECT = 2;

  /**
   * How long a closed socket keeps trying to deliver the goodbye (D153): a live hub takes it at
   * once, so this only bounds how long a context termination waits when the hub is gone.
   */
  private static final int GOODBYE_LINGER_MS = 2_000;

  /**
   * How long a connected socket may first take to finish its handshake before its I/O thread is
   * woken; doubled after each replacement (a loaded machine is slow, not stuck) up to {@link
   * #STUCK_AFTER_MAX}, and reset by a handshake.
   */
  static final Duration STUCK_AFTER = Duration.ofMillis(250);

  private static final Duration STUCK_AFTER_MAX = Duration.ofSeconds(4);
  private static final Duration WATCH_EVERY = Duration.ofMillis(100);
  private static final int MONITORED =
      ZMQ.EVENT_CONNECTED | ZMQ.EVENT_HANDSHAKE_PROTOCOL | ZMQ.EVENT_DISCONNECTED;
  private static final AtomicLong MONITORS = new AtomicLong();

  private final Reactor reactor;
  private final String endpoint;
  private final String identity;
  private final ZmqClientKeys keys;
  private final ArrayDeque<List<byte[]>> pending = new ArrayDeque<>();
  private Connector.Inbound inbound;
  private ZmqSocketDriver driver;
  private ZMQ.Socket monitor;
  private SelectionKey monitorKey;
  private EventLoop.Cancellable watchdog;
  private boolean ready;
  private long connectedAt = -1;
  private int nudges;
  private long stuckAfter = STUCK_AFTER.toNanos();

  ZmqConnector(Reactor reactor, String endpoint, String identity, ZmqClientKeys keys) {
    this.reactor = reactor;
    this.endpoint = endpoint;
    this.identity = identity;
    this.keys = keys;
  }

  @Override
  public void start(Connector.Inbound in) {
    this.inbound = in;
    if (!open()) {
      in.onClosed(new RpcException(Errno.ECONNRESET, endpoint + ": cannot connect"));
      return;
    }
    watchdog = reactor.schedule(WATCH_EVERY, this::watch);
  }

  /** Creates the DEALER and its monitor and starts connecting; false when connect is refused. */
  private boolean open() {
    ZMQ.Socket s = reactor.zmq().createSocket(SocketType.DEALER);
    s.setLinger(GOODBYE_LINGER_MS);
    s.setIdentity(identity.getBytes(StandardCharsets.ISO_8859_1));
    if (keys != null) {
      s.setCurveServerKey(ZMQ.Curve.z85Decode(keys.serverPublicKey()));
      s.setCurvePublicKey(ZMQ.Curve.z85Decode(keys.publicKey()));
      s.setCurveSecretKey(ZMQ.Curve.z85Decode(keys.secretKey()));
    }
    String address = "inproc://fluxdrm-zmq-monitor-" + MONITORS.incrementAndGet();
    ZMQ.Socket m = reactor.zmq().createSocket(SocketType.PAIR);
    m.setLinger(0);
    if (!s.monitor(address, MONITORED) || !m.connect(address) || !s.connect(endpoint)) {
      s.close();
      m.close();
      return false;
    }
    // an inproc connection has no engine and reports no handshake: it is ready at once
    ready = endpoint.startsWith("inproc://");
    connectedAt = -1;
    monitor = m;
    monitorKey = reactor.register(m.getFD(), SelectionKey.OP_READ, k -> readEvents());
    driver =
        new ZmqSocketDriver(
            reactor,
            s,
            mp -> {
              try {
                inbound.onMessage(MessageCodec.fromParts(mp.frames()));
              } catch (RpcException e) {
                LOG.warn("{}: {}; message dropped", endpoint, e.getMessage());
              }
            });
    driver.onDrain(this::flush);
    driver.start();
    // a pipe signals only a reader that has found it empty once
    readEventsOnce();
    return true;
  }

  /** Reads every monitor event waiting (its signal is edge-triggered like the socket's). */
  private void readEvents() {
    if (readEventsOnce() == 0 && monitor != null) {
      // JeroMQ writes the signal byte before it counts it: let its I/O thread finish (D115)
      reactor.pause(50_000);
      readEventsOnce();
    }
  }

  private int readEventsOnce() {
    int n = 0;
    ZEvent e;
    while (monitor != null && (e = ZEvent.recv(monitor, ZMQ.DONTWAIT)) != null) {
      n++;
      switch (e.getEvent()) {
        case CONNECTED -> connectedAt = reactor.nanoTime();
        case HANDSHAKE_PROTOCOL -> {
          ready = true;
          connectedAt = -1;
          stuckAfter = STUCK_AFTER.toNanos();
          flush();
        }
        case DISCONNECTED -> {
          ready = false;
          connectedAt = -1;
        }
        default -> {
          // not subscribed
        }
      }
    }
    return n;
  }

  /**
   * Wakes the I/O thread of a socket that connected but did not finish its handshake in time: a
   * throwaway listener bound and closed on the same context makes JeroMQ's poller register its
   * channels again, the lost one included.
   */
  private void watch() {
    if (driver == null) {
      return;
    }
    readEventsOnce();
    if (!ready && connectedAt >= 0 && reactor.nanoTime() - connectedAt > stuckAfter) {
      nudges++;
      LOG.info(
          "{}: connected but no handshake within {} ms; waking the zeromq i/o thread ({} held)",
          endpoint,
          stuckAfter / 1_000_000,
          pending.size());
      stuckAfter = Math.min(2 * stuckAfter, STUCK_AFTER_MAX.toNanos());
      connectedAt = reactor.nanoTime();
      ZMQ.Socket n = reactor.zmq().createSocket(SocketType.DEALER);
      n.setLinger(0);
      try {
        n.bind("tcp://127.0.0.1:*");
      } catch (org.zeromq.ZMQException e) {
        LOG.debug("{}: wake-up listener: {}", endpoint, e.getMessage());
      }
      n.close();
    }
    watchdog = reactor.schedule(WATCH_EVERY, this::watch);
  }

  /** Returns how many times the I/O thread was woken for a stuck handshake (for tests). */
  int stuckWakeUps() {
    return nudges;
  }

  private void flush() {
    while (ready && !pending.isEmpty() && driver.trySend(pending.peek())) {
      pending.poll();
    }
  }

  @Override
  public void send(Message m) {
    if (driver == null) {
      LOG.debug("{}: not connected; {} dropped", endpoint, m.topic());
      return;
    }
    List<byte[]> parts = MessageCodec.toParts(m);
    if (!ready || !pending.isEmpty() || !driver.trySend(parts)) {
      // before the handshake, or at the high-water mark: keep order, retry on every drain
      pending.add(parts);
    }
  }

  private void closeSockets(int linger) {
    if (monitorKey != null) {
      monitorKey.cancel();
      monitorKey = null;
    }
    driver.socket().monitor(null, 0);
    driver.socket().setLinger(linger);
    driver.close();
    driver = null;
    monitor.close();
    monitor = null;
    ready = false;
  }

  @Override
  public void close() {
    if (driver != null) {
      if (watchdog != null) {
        watchdog.cancel();
      }
      Message bye =
          new Message(
              MessageType.CONTROL,
              0,
              null,
              null,
              Flags.USERID_UNKNOWN,
              Flags.ROLE_NONE,
              CONTROL_DISCONNECT,
              0,
              List.of());
      // hand everything to the socket, even before the handshake: it may finish while lingering
      pending.add(MessageCodec.toParts(bye));
      while (!pending.isEmpty() && driver.trySend(pending.peek())) {
        pending.poll();
      }
      pending.clear();
      closeSockets(GOODBYE_LINGER_MS);
    }
  }
}
