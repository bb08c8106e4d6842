package io.fluxdrm.rpc.hub;

import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.MessageCodec;
import io.fluxdrm.rpc.MessageType;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.curve.CurveKeyPair;
import io.fluxdrm.rpc.curve.CurveServer;
import io.fluxdrm.rpc.curve.Z85;
import io.fluxdrm.rpc.hub.ZmqHubSettings.Curve;
import io.fluxdrm.rpc.hub.ZmqHubSettings.Limits;
import io.fluxdrm.rpc.hub.ZmqHubSettings.Liveness;
import io.fluxdrm.rpc.hub.ZmqHubSettings.Options;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.transport.ZmqConnector;
import io.fluxdrm.rpc.transport.ZmqEndpoint;
import io.fluxdrm.rpc.transport.ZmtpConnection;
import io.fluxdrm.rpc.zmtp.Mechanism;
import io.fluxdrm.rpc.zmtp.NullMechanism;
import io.fluxdrm.rpc.zmtp.SocketType;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hub's ZeroMQ listener: a ROUTER speaking ZMTP 3.1 on the reactor's own TCP sockets (decision
 * D170); each Flux part is one frame and the peer's routing identity (READY's Identity property, or
 * a generated one) is its route. With CURVE (required on anything but loopback, decision D16) only
 * the allowed client keys connect, and each key maps to the credentials its peer gets; without
 * CURVE every peer gets the configured loopback credentials: {@link Options#loopbackGuests()} makes
 * them guests of unknown uid, the safe choice on a host with several users (issue 12, finding 5;
 * decision D330). A peer whose connection closes is disconnected from the router at once.
 *
 * <p>Which peers are admitted, with what credentials and what each may hold, is {@link
 * ZmqAdmission}'s (issue 31, scope 5); the listener does the accepting, the wiring of each {@code
 * io.fluxdrm.rpc.transport.ZmtpConnection} and the routing. Its settings are {@link
 * ZmqHubSettings}'s records; the identity each peer is routed under is {@link ZmqIdentities}'s
 * (issue 31, scope 7; decision D542).
 */
public final class ZmqHubListener implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ZmqHubListener.class);

  /** An IPv4 literal of 127.0.0.0/8 (a host name that merely starts with "127." is not). */
  private static final Pattern LOOPBACK_V4 =
      Pattern.compile("127(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}");

  /** What the hub's READY says under CURVE: as under NULL and as libzmq, type and empty id. */
  private static final Map<String, byte[]> ROUTER_METADATA = routerMetadata();

  /** How long a new connection may take for its greeting and handshake (decision D178). */
  static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);

  private final Hub hub;
  private final Reactor reactor;
  private final AutoCloseable closer = this::closeOnLoop;
  private final Options options;
  private final Duration handshakeTimeout;
  private final CurveKeyPair serverKeys;
  private final SecureRandom random = new SecureRandom();
  private final Set<ZmtpConnection> connections = new LinkedHashSet<>();
  private ServerSocketChannel server;
  private String endpoint;
  private int handshakes;
  private final ZmqAdmission admission;
  private final ZmqIdentities identities;
  private long refusedAtAccept;
  private long accepted;

  private ZmqHubListener(
      Hub hub,
      Reactor reactor,
      Options options,
      Duration handshakeTimeout,
      CurveKeyPair serverKeys) {
    this.hub = hub;
    this.reactor = reactor;
    this.options = options;
    this.handshakeTimeout = handshakeTimeout;
    this.serverKeys = serverKeys;
    this.admission = new ZmqAdmission(options);
    this.identities = new ZmqIdentities(hub, random);
  }

  /** Decodes and checks the CURVE keys: the server's pair and every client key (EINVAL). */
  private static CurveKeyPair curveKeys(String endpoint, Curve curve) {
    try {
      for (String client : curve.clients().keySet()) {
        try {
          Z85.decodeKey(client);
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("client key \"" + client + "\": " + e.getMessage());
        }
      }
      byte[] secret = Z85.decodeKey(curve.secretKey());
      try {
        return new CurveKeyPair(Z85.decodeKey(curve.publicKey()), secret);
      } finally {
        java.util.Arrays.fill(secret, (byte) 0); // the key pair keeps its own copy
      }
    } catch (IllegalArgumentException e) {
      throw new RpcException(Errno.EINVAL, endpoint + ": CURVE keys: " + e.getMessage());
    }
  }

  private static Map<String, byte[]> routerMetadata() {
    Map<String, byte[]> md = new java.util.LinkedHashMap<>();
    md.put(NullMechanism.SOCKET_TYPE, SocketType.ROUTER.property());
    md.put(NullMechanism.IDENTITY, new byte[0]);
    return java.util.Collections.unmodifiableMap(md);
  }

  /** Returns whether an endpoint only reaches this host: a TCP loopback literal or localhost. */
  static boolean isLoopback(String endpoint) {
    if (!endpoint.startsWith("tcp://")) {
      return false;
    }
    String rest = endpoint.substring("tcp://".length());
    int colon = rest.lastIndexOf(':');
    String host = colon < 0 ? rest : rest.substring(0, colon);
    return host.equals("localhost") || host.equals("[::1]") || LOOPBACK_V4.matcher(host).matches();
  }

  /**
   * Listens at {@code endpoint} ({@code tcp://HOST:PORT}, {@code *} for any port, e.g. {@code
   * tcp://127.0.0.1:*}).
   *
   * @throws RpcException EINVAL for an {@code ipc://} or {@code inproc://} endpoint (not served;
   *     use {@code local://} for a Unix socket), a malformed one, or one beyond loopback while
   *     CURVE is off; EIO when binding fails
   */
  public static ZmqHubListener start(Hub hub, Reactor reactor, String endpoint, Options options) {
    return start(hub, reactor, endpoint, options, HANDSHAKE_TIMEOUT);
  }

  /** As {@link #start(Hub, Reactor, String, Options)} with another handshake timeout (tests). */
  static ZmqHubListener start(
      Hub hub, Reactor reactor, String endpoint, Options options, Duration handshakeTimeout) {
    if (hub.loop() != reactor) {
      throw new IllegalArgumentException("the hub must run on this reactor");
    }
    if (endpoint.startsWith("ipc://") || endpoint.startsWith("inproc://")) {
      ZmqEndpoint.parse(endpoint, true);
    }
    if (options.curve() == null && !isLoopback(endpoint)) {
      throw new RpcException(
          Errno.EINVAL,
          endpoint + ": listening beyond loopback without CURVE (expected: CURVE keys)");
    }
    if (options.curve() == null && options.loopbackCredentials() == null) {
      throw new IllegalArgumentException("loopback credentials required without CURVE");
    }
    CurveKeyPair serverKeys = options.curve() == null ? null : curveKeys(endpoint, options.curve());
    ZmqEndpoint ep = ZmqEndpoint.parse(endpoint, true);
    InetAddress host;
    try {
      host = InetAddress.getByName(ep.host());
    } catch (java.net.UnknownHostException e) {
      throw new RpcException(Errno.EINVAL, endpoint + ": host " + ep.host() + " does not resolve");
    }
    ZmqHubListener l = new ZmqHubListener(hub, reactor, options, handshakeTimeout, serverKeys);
    CompletableFuture<Void> started = new CompletableFuture<>();
    reactor.execute(
        () -> {
          try {
            l.bind(endpoint, ep, host);
            started.complete(null);
          } catch (RuntimeException e) {
            started.completeExceptionally(e);
          }
        });
    try {
      LocalHubListener.awaitStarted(started, endpoint, "reactor did not bind");
    } catch (RuntimeException e) {
      if (serverKeys != null && started.isCompletedExceptionally()) {
        serverKeys.destroy(); // a listener that failed to bind keeps no secret (D331)
      }
      throw e;
    }
    return l;
  }

  /** Returns the bound endpoint (with the port chosen for {@code *}). */
  public String endpoint() {
    return endpoint;
  }

  private void bind(String text, ZmqEndpoint ep, InetAddress host) {
    try {
      server = ServerSocketChannel.open();
      server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
      server.bind(new InetSocketAddress(host, ep.port()), 128);
      endpoint = ep.withPort(((InetSocketAddress) server.getLocalAddress()).getPort());
    } catch (IOException e) {
      if (server != null) {
        try {
          server.close();
        } catch (IOException c) {
          LOG.debug("{}: close: {}", text, c.getMessage());
        }
      }
      throw new RpcException(Errno.EIO, text + ": cannot bind (" + e.getMessage() + ")");
    }
    reactor.registerListener(server, endpoint, this::accept);
    reactor.own(closer);
    LOG.info(
        "zeromq hub listening on {} ({})", endpoint, options.curve() == null ? "NULL" : "CURVE");
    if (options.curve() == null && options.loopbackCredentials().isOwner()) {
      // issue 12, finding 5: without CURVE nothing tells one local uid from another (D330)
      LOG.warn(
          "{}: every local user who connects is the instance owner (no CURVE); on a host with"
              + " several users give owner access through the Unix-socket hub",
          endpoint);
    }
  }

  private Mechanism mechanism() {
    if (serverKeys == null) {
      return new NullMechanism(SocketType.ROUTER, new byte[0]);
    }
    return new CurveServer(serverKeys, admission::allows, ROUTER_METADATA, random);
  }

  private void accept(SocketChannel ch) {
    Limits limits = options.limits();
    if (!admission.roomFor(connections.size())) {
      // closed before any byte is read or any key made: the cap bounds descriptors and memory
      if (refusedAtAccept++ % 1000 == 0) {
        LOG.warn(
            "{}: {} connections open, the limit ({}); new connection closed ({} so far)",
            endpoint,
            connections.size(),
            limits.maxConnections(),
            refusedAtAccept);
      }
      try {
        ch.close();
      } catch (IOException c) {
        LOG.debug("close: {}", c.getMessage());
      }
      return;
    }
    String remote;
    try {
      ch.configureBlocking(false);
      ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
      remote = String.valueOf(ch.getRemoteAddress()).replaceFirst("^/", "");
    } catch (IOException e) {
      LOG.debug("{}: accepted connection already gone: {}", endpoint, e.getMessage());
      try {
        ch.close();
      } catch (IOException c) {
        LOG.debug("close: {}", c.getMessage());
      }
      return;
    }
    Liveness live = options.liveness();
    ZmtpConnection c =
        new ZmtpConnection(
            reactor,
            ch,
            mechanism(),
            SocketType.ROUTER,
            new ZmtpConnection.Settings(
                options.maxMessageSize(),
                options.maxQueuedBytes(),
                handshakeTimeout,
                live.interval(),
                live.timeout(),
                limits.frameFloor(),
                limits.frameMinRate()),
            "zeromq peer " + remote);
    c.budgets(admission.handshakeBudgets());
    connections.add(c);
    long serial = ++accepted;
    LOG.info("{}: connection from {}", endpoint, remote);
    c.start(
        new ZmtpConnection.Listener() {
          private ZmqPeer peer;

          @Override
          public void onReady(ZmtpConnection z) {
            peer = handshakeDone(z, serial);
          }

          @Override
          public void onMessage(ZmtpConnection z, List<byte[]> parts) {
            received(peer, parts);
          }

          @Override
          public void onClosed(ZmtpConnection z, String reason, boolean bad) {
            connections.remove(z);
            if (bad) {
              LOG.warn("{}: {}; connection closed", z.name(), reason);
            } else {
              LOG.info("{}: {}; connection closed", z.name(), reason);
            }
            if (peer != null) {
              peer.gone();
            }
          }
        });
  }

  /** Makes the peer of a connection whose handshake is done; returns null when refused. */
  private ZmqPeer handshakeDone(ZmtpConnection z, long serial) {
    byte[] identity = z.peerProperty(NullMechanism.IDENTITY);
    ZmqAdmission.Decision d = admission.admit(z.mechanism().peerKey(), identity, serial);
    if (d instanceof ZmqAdmission.Refused r) {
      LOG.warn("{}: {}; connection closed", z.name(), r.reason());
      connections.remove(z);
      z.close();
      return null;
    }
    ZmqAdmission.Admitted a = (ZmqAdmission.Admitted) d;
    z.budgets(a.budgets());
    String id = identities.assign(identity, a.credentials(), a.client(), z.name());
    ZmqPeer p = new ZmqPeer(this, id, a.credentials(), z, a.key(), a.client());
    identities.put(p);
    handshakes++;
    byte[] key = z.mechanism().peerKey();
    LOG.info(
        "{}: zmtp handshake done ({}, zmtp {}, identity {}{})",
        z.name(),
        z.mechanism().name(),
        z.peerSpeaks31() ? "3.1" : "3.0",
        ZmqIdentities.printable(id),
        key == null ? "" : ", key " + Z85.encode(key));
    hub.router().connected(p);
    return p;
  }

  private void received(ZmqPeer p, List<byte[]> parts) {
    if (p == null || p.closed) {
      return;
    }
    Message m;
    try {
      m = MessageCodec.fromParts(parts);
    } catch (RpcException e) {
      LOG.warn(
          "zeromq peer {}: {}; message dropped", ZmqIdentities.printable(p.id), e.getMessage());
      return;
    }
    if (m.type() == MessageType.CONTROL) {
      // a goodbye ends the peer; a heartbeat (or any other control) only proves it is alive
      if (m.aux1() == ZmqConnector.CONTROL_DISCONNECT) {
        LOG.info("zeromq peer {}: goodbye", ZmqIdentities.printable(p.id));
        p.close("goodbye");
      }
      return;
    }
    hub.router().received(p, m);
  }

  /** Returns how many handshakes have completed (on the loop only; for tests). */
  int handshakes() {
    return handshakes;
  }

  /** The heartbeats one open connection has received: its peer's PINGs and PONGs. */
  record Heard(long pings, long pongs) {}

  /**
   * Returns what each open connection has heard, in the order they were accepted; null when the
   * loop does not answer within five seconds (for tests, which count heartbeats instead of
   * sleeping).
   */
  List<Heard> heard() {
    List<Heard> heard = new ArrayList<>();
    boolean answered =
        reactor.runAndWait(
            () -> {
              for (ZmtpConnection c : connections) {
                heard.add(new Heard(c.pingsReceived(), c.pongsReceived()));
              }
            },
            Duration.ofSeconds(5));
    return answered ? heard : null;
  }

  /**
   * Returns the bytes the incomplete frames of {@code key}'s connections hold (a CURVE key in Z85,
   * or {@code "connection N"} as {@link ZmqAdmission#keyOf} names it); -1 when the loop does not
   * answer in time (for tests).
   */
  long frameMemoryOf(String key) {
    long[] used = {-1};
    reactor.runAndWait(() -> used[0] = admission.frameMemoryOf(key), Duration.ofSeconds(5));
    return used[0];
  }

  /** Returns the bytes the incomplete frames of all connections hold; -1 as above (for tests). */
  long frameMemory() {
    long[] used = {-1};
    reactor.runAndWait(() -> used[0] = admission.frameMemory(), Duration.ofSeconds(5));
    return used[0];
  }

  /** A peer closes its connection: it is no longer open. */
  void forget(ZmtpConnection c) {
    connections.remove(c);
  }

  /** A peer's connection is closed: release its key, forget it and tell the router. */
  void gone(ZmqPeer p) {
    admission.release(p.key);
    identities.remove(p);
    hub.router().disconnected(p);
  }

  private void closeOnLoop() {
    try {
      if (server != null) {
        server.close();
      }
    } catch (IOException e) {
      LOG.debug("{}: close: {}", endpoint, e.getMessage());
    }
    for (ZmtpConnection c : List.copyOf(connections)) {
      c.close();
    }
    connections.clear();
    for (ZmqPeer p : identities.all()) {
      p.gone();
    }
    if (serverKeys != null) {
      // the long-term secret outlives no connection: every one is closed above (D331)
      serverKeys.destroy();
    }
  }

  /** The server's long-term key pair, null without CURVE (tests: wiped once closed, D331). */
  CurveKeyPair serverKeysForTest() {
    return serverKeys;
  }

  /** Stops listening and closes every connection; their peers are disconnected. */
  @Override
  public void close() {
    boolean closed =
        reactor.runAndWait(
            () -> {
              reactor.disown(closer);
              closeOnLoop();
            },
            Duration.ofSeconds(5));
    if (!closed) {
      LOG.debug("close: timed out");
    }
  }
}
