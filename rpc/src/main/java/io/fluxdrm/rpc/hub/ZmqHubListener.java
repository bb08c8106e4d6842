package io.fluxdrm.rpc.hub;

import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.LocalFraming;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.MessageCodec;
import io.fluxdrm.rpc.MessageType;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.curve.CurveKeyPair;
import io.fluxdrm.rpc.curve.CurveServer;
import io.fluxdrm.rpc.curve.Z85;
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
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
 * io.fluxdrm.rpc.transport.ZmtpConnection} and the routing.
 *
 * <p>Why one class: it is the one owner of a listener's I/O and routing state (the server socket,
 * the open connections, the identity table), which accept, handshake and close change together; the
 * rest of its length is its settings, nested records kept where the documentation and callers name
 * them ({@code ZmqHubListener.Options}, {@code Curve}, {@code Liveness}, {@code Limits}).
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

  /**
   * CURVE settings of the hub.
   *
   * @param publicKey the server's public key (Z85)
   * @param secretKey the server's secret key (Z85)
   * @param clients the allowed client public keys (Z85) and the credentials each gets
   */
  public record Curve(String publicKey, String secretKey, Map<String, Credentials> clients) {
    /** Copies the client map. */
    public Curve {
      clients = Map.copyOf(clients);
    }
  }

  /**
   * How the hub notices a peer that went away without a goodbye (decision D173). A peer whose
   * connection closes (its process ended, its host reset the connection) is disconnected at once.
   * For a peer that goes silent with its connection open, the hub sends every connection a PING
   * every {@code interval} (libzmq 4.2 and later and JeroMQ answer by themselves) and closes a
   * connection with no traffic for {@code timeout}; the PINGs carry {@code timeout} as their time
   * to live, so the peer drops a silent hub too. A ZMTP 3.0 stack (libzmq 4.1) does not answer
   * PINGs: serve it with {@link #OFF}.
   *
   * @param interval the ZMTP PING period; zero turns liveness off (only a goodbye or a closed
   *     connection then disconnects a peer)
   * @param timeout how long a connection may stay silent once PINGed
   */
  public record Liveness(Duration interval, Duration timeout) {
    /** The default: PING every second, close after 5 s of silence. */
    public static final Liveness DEFAULT =
        new Liveness(Duration.ofSeconds(1), Duration.ofSeconds(5));

    /** No liveness checks. */
    public static final Liveness OFF = new Liveness(Duration.ZERO, Duration.ZERO);

    /** Checks the durations. */
    public Liveness {
      if (interval.isNegative() || timeout.isNegative()) {
        throw new IllegalArgumentException("liveness: negative duration (expected: zero or more)");
      }
      if (!interval.isZero() && timeout.compareTo(interval) < 0) {
        throw new IllegalArgumentException(
            "liveness: timeout "
                + timeout.toMillis()
                + " ms is shorter than the interval "
                + interval.toMillis()
                + " ms (expected: at least the interval)");
      }
      if (timeout.toMillis() > 6_553_500) {
        throw new IllegalArgumentException(
            "liveness: timeout above 6553.5 s (expected: a ZMTP heartbeat time to live)");
      }
      if (!interval.isZero() && interval.toMillis() == 0) {
        throw new IllegalArgumentException(
            "liveness: interval below 1 ms (expected: 1 ms or more)");
      }
    }

    /** Returns whether liveness checks are on. */
    public boolean enabled() {
      return !interval.isZero();
    }
  }

  /**
   * What one listener lets its peers hold (issue 12, findings 1, 9 and 10). A peer's key is its
   * CURVE long-term key; without CURVE nothing tells one local peer from another, so each
   * connection is a key of its own (decision D209) and only the listener's caps bind them together.
   *
   * @param maxConnections connections open at once, handshaking or not; more are closed at accept
   * @param maxPerKey connections with a finished handshake per key; more are refused
   * @param memory bytes the incomplete frames and messages of all connections may hold
   * @param memoryPerKey bytes those of one key's connections may hold
   * @param frameFloor the least time a frame in progress is given
   * @param frameMinRate bytes per second a large frame must arrive at beyond the floor
   */
  public record Limits(
      int maxConnections,
      int maxPerKey,
      long memory,
      long memoryPerKey,
      Duration frameFloor,
      long frameMinRate) {
    /** System property: {@link #maxConnections}. */
    public static final String MAX_CONNECTIONS = "fluxdrm.zmq.max-connections";

    /** System property: {@link #maxPerKey}. */
    public static final String MAX_PER_KEY = "fluxdrm.zmq.max-connections-per-key";

    /** System property: {@link #memory}, in MiB. */
    public static final String MEMORY = "fluxdrm.zmq.frame-memory-mib";

    /** System property: {@link #memoryPerKey}, in MiB. */
    public static final String MEMORY_PER_KEY = "fluxdrm.zmq.frame-memory-per-key-mib";

    /** Checks the values. */
    public Limits {
      if (maxConnections < 1 || maxPerKey < 1 || memory < 0 || memoryPerKey < 0) {
        throw new IllegalArgumentException(
            "limits: connections below 1 or negative memory (expected: 1 or more, 0 or more)");
      }
      Objects.requireNonNull(frameFloor, "frameFloor");
      if (frameFloor.isNegative() || frameFloor.isZero() || frameMinRate <= 0) {
        throw new IllegalArgumentException(
            "limits: frame floor and rate must be positive (expected: more than zero)");
      }
    }

    /**
     * The defaults, each overridden by its system property when set to a valid number: 1024
     * connections, 256 per key, frame memory a quarter of the heap (at most 256 MiB, at least 16
     * MiB) and per key 80 MiB (one largest message and its envelope; at most the total).
     */
    public static Limits defaults() {
      long quarter = Math.max(16, Math.min(256, (Runtime.getRuntime().maxMemory() / 4) >> 20));
      long total = property(MEMORY, quarter, 0, 1L << 30);
      return new Limits(
          (int) property(MAX_CONNECTIONS, 1024, 1, Integer.MAX_VALUE),
          (int) property(MAX_PER_KEY, 256, 1, Integer.MAX_VALUE),
          total << 20,
          property(MEMORY_PER_KEY, Math.min(80, total), 0, 1L << 30) << 20,
          ZmtpConnection.FRAME_FLOOR,
          ZmtpConnection.MIN_RATE);
    }

    private static long property(String name, long dflt, long min, long max) {
      String v = System.getProperty(name);
      if (v == null || v.isBlank()) {
        return dflt;
      }
      try {
        long n = Long.parseLong(v.trim());
        if (n >= min && n <= max) {
          return n;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      LOG.warn("{}={}: not a number from {} to {}; using {}", name, v, min, max, dflt);
      return dflt;
    }

    /** Returns these limits with other connection caps. */
    public Limits withConnections(int total, int perKey) {
      return new Limits(total, perKey, memory, memoryPerKey, frameFloor, frameMinRate);
    }

    /** Returns these limits with other memory budgets. */
    public Limits withMemory(long total, long perKey) {
      return new Limits(maxConnections, maxPerKey, total, perKey, frameFloor, frameMinRate);
    }

    /** Returns these limits with another frame progress rule. */
    public Limits withFrameProgress(Duration floor, long minRate) {
      return new Limits(maxConnections, maxPerKey, memory, memoryPerKey, floor, minRate);
    }
  }

  /**
   * Listener settings.
   *
   * @param curve CURVE settings, or null for none (loopback only)
   * @param loopbackCredentials the credentials of every peer when CURVE is off
   * @param maxMessageSize the largest message accepted; a larger one closes its sender's connection
   * @param maxQueuedBytes the output queued for a peer beyond which its connection is closed
   * @param liveness how a peer that vanishes is noticed
   * @param limits connection caps and memory budgets
   */
  public record Options(
      Curve curve,
      Credentials loopbackCredentials,
      int maxMessageSize,
      long maxQueuedBytes,
      Liveness liveness,
      Limits limits) {
    /** Requires liveness settings and limits. */
    public Options {
      Objects.requireNonNull(liveness, "liveness");
      Objects.requireNonNull(limits, "limits");
    }

    /**
     * Returns options without CURVE giving every peer the credentials of a guest of unknown uid
     * ({@link Credentials#unknownGuest()}): nothing tells one local uid from another on loopback
     * TCP, so no peer is the owner (issue 12, finding 5; decision D330).
     */
    public static Options loopbackGuests() {
      return loopback(Credentials.unknownGuest());
    }

    /**
     * Returns options without CURVE giving every peer the given credentials. Owner credentials make
     * every local user who connects the instance owner (logged as a warning at start): give owner
     * access on a host with several users through the Unix-socket hub instead.
     */
    public static Options loopback(Credentials credentials) {
      return new Options(
          null,
          credentials,
          LocalFraming.DEFAULT_MAX_MESSAGE_SIZE,
          LocalFraming.DEFAULT_MAX_MESSAGE_SIZE,
          Liveness.DEFAULT,
          Limits.defaults());
    }

    /** Returns options with CURVE. */
    public static Options curve(Curve curve) {
      return new Options(
          curve,
          null,
          LocalFraming.DEFAULT_MAX_MESSAGE_SIZE,
          LocalFraming.DEFAULT_MAX_MESSAGE_SIZE,
          Liveness.DEFAULT,
          Limits.defaults());
    }

    /** Returns these options with other size limits. */
    public Options withLimits(int maxMessage, long maxQueued) {
      return new Options(curve, loopbackCredentials, maxMessage, maxQueued, liveness, limits);
    }

    /** Returns these options with other connection and memory limits. */
    public Options withLimits(Limits l) {
      return new Options(curve, loopbackCredentials, maxMessageSize, maxQueuedBytes, liveness, l);
    }

    /** Returns these options with other liveness settings. */
    public Options withLiveness(Liveness l) {
      return new Options(curve, loopbackCredentials, maxMessageSize, maxQueuedBytes, l, limits);
    }
  }

  private final Hub hub;
  private final Reactor reactor;
  private final AutoCloseable closer = this::closeOnLoop;
  private final Options options;
  private final Duration handshakeTimeout;
  private final CurveKeyPair serverKeys;
  private final SecureRandom random = new SecureRandom();
  private final Map<String, ZmqPeer> peers = new HashMap<>();
  private final Set<ZmtpConnection> connections = new LinkedHashSet<>();
  private ServerSocketChannel server;
  private String endpoint;
  private int handshakes;
  private final ZmqAdmission admission;
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
    String id =
        identity == null || identity.length == 0
            ? generatedId()
            : new String(identity, StandardCharsets.ISO_8859_1);
    ZmqPeer old = peers.get(id);
    if (old != null && !old.sameClient(a.credentials(), a.client())) {
      // an identity is handed over only to the same CURVE key with the same credentials (without
      // CURVE: the same loopback credentials); anyone else is routed under a fresh id and the
      // holder keeps its connection and its responses (D221)
      String taken = id;
      id = generatedId();
      old = null;
      LOG.warn(
          "{}: identity {} belongs to another client; routed as {}",
          z.name(),
          printable(taken),
          printable(id));
    } else if (old == null && hub.router().hasPeer(id)) {
      // held by a peer of another listener or transport: only this listener's own peers are
      // taken over, so that no connection can oust a peer it shares nothing with (D189)
      String taken = id;
      id = generatedId();
      LOG.info(
          "{}: identity {} is in use by a peer of another listener; routed as {}",
          z.name(),
          printable(taken),
          printable(id));
    }
    if (old != null) {
      LOG.info(
          "zeromq peer {}: a new connection ({}) of the same client takes its identity over;"
              + " old one closed",
          printable(id),
          z.name());
      old.close("identity taken over");
    }
    ZmqPeer p = new ZmqPeer(id, a.credentials(), z, a.key(), a.client());
    peers.put(id, p);
    handshakes++;
    byte[] key = z.mechanism().peerKey();
    LOG.info(
        "{}: zmtp handshake done ({}, zmtp {}, identity {}{})",
        z.name(),
        z.mechanism().name(),
        z.peerSpeaks31() ? "3.1" : "3.0",
        printable(id),
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
      LOG.warn("zeromq peer {}: {}; message dropped", printable(p.id), e.getMessage());
      return;
    }
    if (m.type() == MessageType.CONTROL) {
      // a goodbye ends the peer; a heartbeat (or any other control) only proves it is alive
      if (m.aux1() == ZmqConnector.CONTROL_DISCONNECT) {
        LOG.info("zeromq peer {}: goodbye", printable(p.id));
        p.close("goodbye");
      }
      return;
    }
    hub.router().received(p, m);
  }

  /**
   * Returns a ZeroMQ-style routing id that no peer of the hub uses: the reserved byte 0x00 (which
   * no client may claim) and 8 bytes from SecureRandom, so that no peer can guess another's id and
   * claim it (D221).
   */
  private String generatedId() {
    while (true) {
      byte[] b = new byte[9];
      random.nextBytes(b);
      b[0] = 0;
      String id = new String(b, StandardCharsets.ISO_8859_1);
      if (!peers.containsKey(id) && !hub.router().hasPeer(id)) {
        return id;
      }
    }
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

  static String printable(String id) {
    return id.chars().allMatch(ch -> ch >= 0x20 && ch < 0x7f) ? id : "(binary identity)";
  }

  /** A routed peer: one connection that finished its handshake. */
  private final class ZmqPeer implements Peer {
    final String id;
    final Credentials credentials;
    final ZmtpConnection conn;
    final String key;
    final String client;
    boolean closed;

    /**
     * @param key what the peer's limits count against ({@link ZmqAdmission#keyOf})
     * @param client who the client is: its CURVE key, or empty without CURVE, where the credentials
     *     alone tell (D221)
     */
    ZmqPeer(String id, Credentials credentials, ZmtpConnection conn, String key, String client) {
      this.id = id;
      this.credentials = credentials;
      this.conn = conn;
      this.key = key;
      this.client = client;
    }

    /**
     * Returns whether a new connection is this peer's own client: same CURVE key (or both without
     * CURVE), same credentials.
     */
    boolean sameClient(Credentials otherCredentials, String otherClient) {
      return credentials.equals(otherCredentials) && client.equals(otherClient);
    }

    @Override
    public String id() {
      return id;
    }

    @Override
    public Credentials credentials() {
      return credentials;
    }

    @Override
    public void send(Message m) {
      conn.send(MessageCodec.toParts(m));
    }

    @Override
    public void close(String why) {
      connections.remove(conn);
      conn.close();
      gone();
    }

    /** The connection is closed: forget the peer and tell the router. */
    void gone() {
      if (closed) {
        return;
      }
      closed = true;
      admission.release(key);
      peers.remove(id, this);
      hub.router().disconnected(this);
    }
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
    for (ZmqPeer p : List.copyOf(peers.values())) {
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
