package io.fluxdrm.rpc.transport;

import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Flags;
import io.fluxdrm.rpc.LocalFraming;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.MessageCodec;
import io.fluxdrm.rpc.MessageType;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.curve.CurveClient;
import io.fluxdrm.rpc.curve.CurveKeyPair;
import io.fluxdrm.rpc.curve.Z85;
import io.fluxdrm.rpc.reactor.EventLoop;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.zmtp.Mechanism;
import io.fluxdrm.rpc.zmtp.NullMechanism;
import io.fluxdrm.rpc.zmtp.SocketType;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A ZeroMQ DEALER client of the hub, speaking ZMTP 3.1 on the reactor: one Flux part per frame, its
 * routing identity (READY's Identity property) is its route. Like a ZeroMQ DEALER it connects
 * without blocking, reconnects every {@link #RECONNECT_INTERVAL} after a failed connect, a refused
 * handshake or a lost connection, and holds the messages sent meanwhile, in order, up to {@link
 * #MAX_HELD_BYTES}; past that bound the handle fails (decision D176). On {@link #close} the goodbye
 * (CONTROL DISCONNECT) is written, lingering up to {@link #GOODBYE_LINGER} on the reactor.
 */
public final class ZmqConnector implements Connector {
  private static final Logger LOG = LoggerFactory.getLogger(ZmqConnector.class);

  /** The control type flux-core's overlay uses for a peer that leaves. */
  public static final int CONTROL_DISCONNECT = 2;

  /** The pause between connection attempts, ZeroMQ's default reconnect interval. */
  static final Duration RECONNECT_INTERVAL = Duration.ofMillis(100);

  /** How long a closing connector may take to deliver its goodbye (D177). */
  static final Duration GOODBYE_LINGER = Duration.ofSeconds(2);

  /** How long greeting and handshake may take after the TCP connect. */
  static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);

  /** The output held while not connected beyond which the connector gives up. */
  static final long MAX_HELD_BYTES = LocalFraming.DEFAULT_MAX_MESSAGE_SIZE;

  private final Reactor reactor;
  private final String endpoint;
  private final ZmqEndpoint target;
  private final InetSocketAddress address;
  private final byte[] identity;
  private final byte[] serverKey;
  private final CurveKeyPair curveKeys;
  private final SecureRandom random = new SecureRandom();
  private final Duration handshakeTimeout;
  private final long maxHeldBytes;
  private final ArrayDeque<List<byte[]>> held = new ArrayDeque<>();
  private long heldBytes;
  private Connector.Inbound inbound;
  private ZmtpConnection conn;
  private EventLoop.Cancellable retry;
  private EventLoop.Cancellable linger;
  private boolean closing;
  private boolean stopped;
  private int failures;
  private boolean failFast;
  private boolean everReady;

  /**
   * Creates a connector; resolves the host name in the caller's thread.
   *
   * @throws RpcException EINVAL for an endpoint that is not {@code tcp://HOST:PORT} or CURVE keys
   *     that are not Z85 keys (or a secret key that does not match its public key), EHOSTUNREACH
   *     for a host name that does not resolve
   */
  public ZmqConnector(Reactor reactor, String endpoint, String identity, ZmqClientKeys keys) {
    this(reactor, endpoint, identity, keys, HANDSHAKE_TIMEOUT, MAX_HELD_BYTES);
  }

  ZmqConnector(
      Reactor reactor,
      String endpoint,
      String identity,
      ZmqClientKeys keys,
      Duration handshakeTimeout,
      long maxHeldBytes) {
    this.reactor = reactor;
    this.endpoint = endpoint;
    this.target = ZmqEndpoint.parse(endpoint, false);
    try {
      this.address = new InetSocketAddress(InetAddress.getByName(target.host()), target.port());
    } catch (UnknownHostException e) {
      throw new RpcException(
          Errno.EHOSTUNREACH, endpoint + ": host " + target.host() + " does not resolve");
    }
    this.identity = identity.getBytes(StandardCharsets.ISO_8859_1);
    if (keys == null) {
      serverKey = null;
      curveKeys = null;
    } else {
      try {
        serverKey = Z85.decodeKey(keys.serverPublicKey());
        byte[] secret = Z85.decodeKey(keys.secretKey());
        try {
          curveKeys = new CurveKeyPair(Z85.decodeKey(keys.publicKey()), secret);
        } finally {
          java.util.Arrays.fill(secret, (byte) 0); // the key pair keeps its own copy
        }
        mechanism(); // refuses a server key that is not a usable public key
      } catch (IllegalArgumentException e) {
        throw new RpcException(Errno.EINVAL, endpoint + ": CURVE keys: " + e.getMessage());
      }
    }
    this.handshakeTimeout = handshakeTimeout;
    this.maxHeldBytes = maxHeldBytes;
  }

  /**
   * Makes a first connection that nothing accepts (the port refuses) close this connector with
   * ECONNREFUSED instead of retrying, for a command that expects the hub to be running (D480); once
   * a handshake has succeeded, lost connections are retried as before. Call before {@link #start}.
   *
   * @return this connector
   */
  public ZmqConnector failFast() {
    this.failFast = true;
    return this;
  }

  @Override
  public void start(Connector.Inbound in) {
    this.inbound = in;
    connect();
  }

  private Mechanism mechanism() {
    if (curveKeys == null) {
      return new NullMechanism(SocketType.DEALER, identity);
    }
    Map<String, byte[]> md = new LinkedHashMap<>();
    md.put(NullMechanism.SOCKET_TYPE, SocketType.DEALER.property());
    md.put(NullMechanism.IDENTITY, identity);
    return new CurveClient(serverKey, curveKeys, md, random);
  }

  private void connect() {
    retry = null;
    if (stopped) {
      return;
    }
    SocketChannel ch = null;
    try {
      ch = SocketChannel.open();
      ch.configureBlocking(false);
      ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
      ch.connect(address);
    } catch (IOException e) {
      closeQuietly(ch);
      String reason = "connect: " + e.getMessage();
      if (failFast && !everReady) {
        refused(reason);
      } else {
        lost(reason, false);
      }
      return;
    }
    ZmtpConnection c =
        new ZmtpConnection(
            reactor,
            ch,
            mechanism(),
            SocketType.DEALER,
            new ZmtpConnection.Settings(
                LocalFraming.DEFAULT_MAX_MESSAGE_SIZE,
                LocalFraming.DEFAULT_MAX_MESSAGE_SIZE,
                handshakeTimeout,
                Duration.ZERO,
                Duration.ZERO),
            endpoint);
    conn = c;
    c.start(
        new ZmtpConnection.Listener() {
          @Override
          public void onReady(ZmtpConnection z) {
            ready(z);
          }

          @Override
          public void onMessage(ZmtpConnection z, List<byte[]> parts) {
            if (z != conn || stopped) {
              return;
            }
            Message m;
            try {
              m = MessageCodec.fromParts(parts);
            } catch (RpcException e) {
              LOG.warn("{}: {}; message dropped", endpoint, e.getMessage());
              return;
            }
            inbound.onMessage(m);
          }

          @Override
          public void onClosed(ZmtpConnection z, String reason, boolean bad) {
            if (z == conn) {
              conn = null;
              if (failFast && !everReady && !z.tcpConnected() && !closing) {
                refused(reason);
              } else {
                lost(reason, bad);
              }
            }
          }
        });
  }

  private void ready(ZmtpConnection z) {
    LOG.info(
        "{}: zmtp handshake done ({}, zmtp {}, identity {}{}, {} held)",
        endpoint,
        z.mechanism().name(),
        z.peerSpeaks31() ? "3.1" : "3.0",
        new String(identity, StandardCharsets.ISO_8859_1),
        failures > 0 ? ", after " + failures + " failed attempts" : "",
        held.size());
    failures = 0;
    everReady = true;
    while (!held.isEmpty() && !z.isClosed()) {
      List<byte[]> m = held.poll();
      heldBytes -= size(m);
      z.send(m);
    }
    if (closing) {
      z.closeWhenFlushed();
      finishClose();
      if (!z.isClosed()) {
        reactor.schedule(GOODBYE_LINGER, z::close);
      }
    }
  }

  /** A connection attempt failed or a connection ended: try again after the interval. */
  private void lost(String reason, boolean bad) {
    if (closing) {
      LOG.debug("{}: closing; {}", endpoint, reason);
      finishClose();
      return;
    }
    if (failures++ == 0) {
      if (bad) {
        LOG.warn(
            "{}: {}; reconnecting every {} ms", endpoint, reason, RECONNECT_INTERVAL.toMillis());
      } else {
        LOG.info(
            "{}: {}; reconnecting every {} ms", endpoint, reason, RECONNECT_INTERVAL.toMillis());
      }
    } else {
      LOG.debug("{}: attempt {}: {}", endpoint, failures, reason);
    }
    retry = reactor.schedule(RECONNECT_INTERVAL, this::connect);
  }

  /** A fail-fast connector's first connect found nothing listening: close, and say why once. */
  private void refused(String reason) {
    String why = endpoint + ": no server listens there (" + reason + ")";
    LOG.debug("{}", why);
    stop();
    inbound.onClosed(
        new RpcException(
            reason.contains("refused") ? Errno.ECONNREFUSED : Errno.EHOSTUNREACH, why));
  }

  private static long size(List<byte[]> m) {
    long n = 0;
    for (byte[] p : m) {
      n += p.length;
    }
    return n;
  }

  @Override
  public void send(Message m) {
    if (stopped || closing) {
      LOG.debug("{}: closed; {} dropped", endpoint, m.topic());
      return;
    }
    List<byte[]> parts = MessageCodec.toParts(m);
    ZmtpConnection c = conn;
    if (c != null && c.isReady() && !c.isClosed() && held.isEmpty()) {
      c.send(parts);
      return;
    }
    long n = size(parts);
    if (heldBytes + n > maxHeldBytes) {
      String why =
          endpoint
              + ": hub unreachable and "
              + heldBytes
              + " bytes held (limit "
              + maxHeldBytes
              + ")";
      LOG.warn("{}; giving up", why);
      stop();
      inbound.onClosed(new RpcException(Errno.EHOSTUNREACH, why));
      return;
    }
    held.add(parts);
    heldBytes += n;
  }

  private void stop() {
    stopped = true;
    held.clear();
    heldBytes = 0;
    if (retry != null) {
      retry.cancel();
      retry = null;
    }
    if (linger != null) {
      linger.cancel();
      linger = null;
    }
    if (conn != null) {
      conn.close();
      conn = null;
    }
  }

  /** Ends the linger: the goodbye was handed to a connection, or there is none to hand it to. */
  private void finishClose() {
    held.clear();
    heldBytes = 0;
    stopped = true;
    if (linger != null) {
      linger.cancel();
      linger = null;
    }
    if (retry != null) {
      retry.cancel();
      retry = null;
    }
  }

  @Override
  public void close() {
    if (closing || stopped) {
      return;
    }
    closing = true;
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
    ZmtpConnection c = conn;
    if (c != null && c.isReady()) {
      c.send(MessageCodec.toParts(bye));
      c.closeWhenFlushed();
      finishClose();
      if (!c.isClosed()) {
        // the goodbye is still being written: bound how long it may take
        reactor.schedule(GOODBYE_LINGER, c::close);
      }
      return;
    }
    if (c == null) {
      // between attempts: nobody to say goodbye to
      finishClose();
      return;
    }
    // connecting or handshaking: the goodbye leaves once the handshake is done, or never
    held.add(MessageCodec.toParts(bye));
    linger =
        reactor.schedule(
            GOODBYE_LINGER,
            () -> {
              linger = null;
              LOG.debug("{}: goodbye not delivered within {}", endpoint, GOODBYE_LINGER);
              stop();
            });
  }

  /**
   * What a test can observe of the connector: whether a connection is ready, how many attempts (or
   * connections) have failed since the last ready one, and how many messages are held.
   */
  record Progress(boolean ready, int failures, int held) {}

  /**
   * Returns the connector's progress, read on the loop; null when the loop does not answer within
   * five seconds (for tests, which wait on it instead of sleeping).
   */
  Progress progress() {
    Progress[] p = {null};
    reactor.runAndWait(
        () -> {
          ZmtpConnection c = conn;
          p[0] = new Progress(c != null && c.isReady() && !c.isClosed(), failures, held.size());
        },
        Duration.ofSeconds(5));
    return p[0];
  }

  private static void closeQuietly(SocketChannel ch) {
    if (ch != null) {
      try {
        ch.close();
      } catch (IOException e) {
        LOG.debug("close: {}", e.getMessage());
      }
    }
  }
}
