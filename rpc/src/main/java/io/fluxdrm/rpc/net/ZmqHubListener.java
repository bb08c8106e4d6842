package io.fluxdrm.rpc.net;

import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Flags;
import io.fluxdrm.rpc.LocalFraming;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.MessageCodec;
import io.fluxdrm.rpc.MessageType;
import io.fluxdrm.rpc.RpcException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zeromq.SocketType;
import org.zeromq.ZMQ;

/**
 * The hub's ZeroMQ listener: a ROUTER socket; each Flux part is one frame and the peer's routing
 * identity is its route. With CURVE (required on anything but loopback, decision D16) only the
 * allowed client keys connect, and each key maps to the credentials its peer gets; without CURVE
 * every peer gets the configured loopback credentials.
 */
public final class ZmqHubListener implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ZmqHubListener.class);

  /** An IPv4 literal of 127.0.0.0/8 (a host name that merely starts with "127." is not). */
  private static final Pattern LOOPBACK_V4 =
      Pattern.compile("127(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}");

  private static final String ZAP_ENDPOINT = "inproc://zeromq.zap.01";

  /** The control type of a keepalive (flux-core's overlay numbering). */
  static final int CONTROL_HEARTBEAT = 0;

  /** The probe sent to a quiet peer; clients ignore control messages. */
  private static final Message HEARTBEAT =
      new Message(
          MessageType.CONTROL,
          0,
          null,
          null,
          Flags.USERID_UNKNOWN,
          Flags.ROLE_NONE,
          CONTROL_HEARTBEAT,
          0,
          List.of());

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
   * How the hub notices a peer that went away without a goodbye (decision D152). Every {@code
   * interval} the hub's ZeroMQ engine sends each connection a ZMTP PING, which any ZMTP 3.1 peer
   * answers by itself, and closes a connection that stays silent for {@code timeout} after one; and
   * every {@code interval} the hub probes each peer it has not heard from for an interval with a
   * CONTROL heartbeat message, whose send fails once the peer's connection is closed: that peer is
   * then disconnected. A peer whose process ends is thus noticed within two intervals, a peer whose
   * host or network goes silent within two intervals plus the timeout.
   *
   * @param interval the ZMTP PING and probe period; zero turns liveness off (only a goodbye or a
   *     failed send then disconnects a peer)
   * @param timeout how long a connection may stay silent after a PING
   */
  public record Liveness(Duration interval, Duration timeout) {
    /** The default: PING and probe every second, close after 5 s of silence. */
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
   * Listener settings.
   *
   * @param curve CURVE settings, or null for none (loopback only)
   * @param loopbackCredentials the credentials of every peer when CURVE is off
   * @param maxMessageSize the largest message accepted; larger ones disconnect their sender
   * @param maxQueuedBytes the output held for a peer that stops reading before it is dropped
   * @param liveness how a peer that vanishes is noticed
   */
  public record Options(
      Curve curve,
      Credentials loopbackCredentials,
      int maxMessageSize,
      long maxQueuedBytes,
      Liveness liveness) {
    /** Requires liveness settings. */
    public Options {
      Objects.requireNonNull(liveness, "liveness");
    }

    /** Returns options without CURVE giving every peer the given credentials. */
    public static Options loopback(Credentials credentials) {
      return new Options(
          null,
          credentials,
          LocalFraming.DEFAULT_MAX_MESSAGE_SIZE,
          LocalFraming.DEFAULT_MAX_MESSAGE_SIZE,
          Liveness.DEFAULT);
    }

    /** Returns options with CURVE. */
    public static Options curve(Curve curve) {
      return new Options(
          curve,
          null,
          LocalFraming.DEFAULT_MAX_MESSAGE_SIZE,
          LocalFraming.DEFAULT_MAX_MESSAGE_SIZE,
          Liveness.DEFAULT);
    }

    /** Returns these options with other size limits. */
    public Options withLimits(int maxMessage, long maxQueued) {
      return new Options(curve, loopbackCredentials, maxMessage, maxQueued, liveness);
    }

    /** Returns these options with other liveness settings. */
    public Options withLiveness(Liveness l) {
      return new Options(curve, loopbackCredentials, maxMessageSize, maxQueuedBytes, l);
    }
  }

  private final Hub hub;
  private final Reactor reactor;
  private final AutoCloseable closer = this::closeOnLoop;
  private final Options options;
  private final Map<String, Peer> peers = new HashMap<>();
  private final Map<String, Outbox> outboxes = new java.util.LinkedHashMap<>();

  /** When each peer was last heard from ({@link Reactor#nanoTime}), one cell per peer. */
  private final Map<String, long[]> heard = new HashMap<>();

  private EventLoop.Cancellable sweeper;

  /** Messages a peer's pipe could not take yet (its high-water mark), in order. */
  private static final class Outbox {
    final java.util.ArrayDeque<List<byte[]>> queue = new java.util.ArrayDeque<>();
    long bytes;
  }

  private ZmqSocketDriver router;
  private ZmqSocketDriver zap;
  private String endpoint;

  private ZmqHubListener(Hub hub, Reactor reactor, Options options) {
    this.hub = hub;
    this.reactor = reactor;
    this.options = options;
  }

  /** Returns whether an endpoint only reaches this host (loopback TCP, ipc, inproc). */
  static boolean isLoopback(String endpoint) {
    if (endpoint.startsWith("ipc://") || endpoint.startsWith("inproc://")) {
      return true;
    }
    if (!endpoint.startsWith("tcp://")) {
      return false;
    }
    String rest = endpoint.substring("tcp://".length());
    int colon = rest.lastIndexOf(':');
    String host = colon < 0 ? rest : rest.substring(0, colon);
    return host.equals("localhost") || host.equals("[::1]") || LOOPBACK_V4.matcher(host).matches();
  }

  /**
   * Binds a ROUTER socket at {@code endpoint} (e.g. {@code tcp://127.0.0.1:*}).
   *
   * @throws RpcException EINVAL when the endpoint is not loopback and CURVE is off, EIO when
   *     binding fails
   */
  public static ZmqHubListener start(Hub hub, Reactor reactor, String endpoint, Options options) {
    if (hub.loop() != reactor) {
      throw new IllegalArgumentException("the hub must run on this reactor");
    }
    if (options.curve() == null && !isLoopback(endpoint)) {
      throw new RpcException(
          Errno.EINVAL,
          endpoint + ": listening beyond loopback without CURVE (expected: CURVE keys)");
    }
    if (options.curve() == null && options.loopbackCredentials() == null) {
      throw new IllegalArgumentException("loopback credentials required without CURVE");
    }
    ZmqHubListener l = new ZmqHubListener(hub, reactor, options);
    CompletableFuture<Void> started = new CompletableFuture<>();
    reactor.execute(
        () -> {
          try {
            l.bind(endpoint);
            started.complete(null);
          } catch (RuntimeException e) {
            started.completeExceptionally(e);
          }
        });
    LocalHubListener.awaitStarted(started, endpoint, "reactor did not bind");
    return l;
  }

  /** Returns the bound endpoint (with the port chosen for {@code *}). */
  public String endpoint() {
    return endpoint;
  }

  private void bind(String ep) {
    ZMQ.Socket s = reactor.zmq().createSocket(SocketType.ROUTER);
    s.setRouterMandatory(true);
    // a client that replaces a stuck connection keeps its identity (decision D148): the new
    // connection takes the identity over instead of being ignored as a duplicate
    s.setRouterHandover(true);
    s.setLinger(0);
    s.setMaxMsgSize(options.maxMessageSize() + 64L);
    Liveness live = options.liveness();
    if (live.enabled()) {
      s.setHeartbeatIvl((int) live.interval().toMillis());
      s.setHeartbeatTimeout((int) live.timeout().toMillis());
      s.setHeartbeatTtl((int) live.timeout().toMillis());
    }
    if (options.curve() != null) {
      ZMQ.Socket z = reactor.zmq().createSocket(SocketType.REP);
      z.setLinger(0);
      if (!z.bind(ZAP_ENDPOINT)) {
        throw new RpcException(
            Errno.EIO, ZAP_ENDPOINT + ": cannot bind (one CURVE hub per reactor)");
      }
      zap = new ZmqSocketDriver(reactor, z, this::authenticate);
      zap.start();
      s.setZAPDomain("flux");
      s.setCurveServer(true);
      s.setCurveSecretKey(ZMQ.Curve.z85Decode(options.curve().secretKey()));
      s.setCurvePublicKey(ZMQ.Curve.z85Decode(options.curve().publicKey()));
    }
    try {
      if (!s.bind(ep)) {
        throw new RpcException(Errno.EIO, ep + ": cannot bind");
      }
    } catch (org.zeromq.ZMQException e) {
      s.close();
      throw new RpcException(Errno.EIO, ep + ": cannot bind (" + e.getMessage() + ")");
    }
    endpoint = s.getLastEndpoint();
    router = new ZmqSocketDriver(reactor, s, this::received);
    router.onDrain(this::flushOutboxes);
    router.start();
    reactor.own(closer);
    if (live.enabled()) {
      sweeper = reactor.schedule(live.interval(), this::sweep);
    }
  }

  /**
   * Probes every peer not heard from for an interval: a CONTROL heartbeat that the ROUTER refuses
   * as unroutable means the peer's connection is gone, so the peer is disconnected (D152). A probe
   * the high-water mark refuses proves nothing and is skipped.
   */
  private void sweep() {
    if (sweeper == null) {
      return;
    }
    long now = reactor.nanoTime();
    long quiet = options.liveness().interval().toNanos();
    for (Map.Entry<String, Peer> e : List.copyOf(peers.entrySet())) {
      long[] last = heard.get(e.getKey());
      if (last != null && now - last[0] < quiet) {
        continue;
      }
      List<byte[]> frames = new ArrayList<>(5);
      frames.add(e.getKey().getBytes(StandardCharsets.ISO_8859_1));
      frames.addAll(MessageCodec.toParts(HEARTBEAT));
      if (!router.trySend(frames) && router.lastSendUnroutable()) {
        LOG.info("zeromq peer {}: connection gone without a goodbye", printable(e.getKey()));
        e.getValue().close("gone");
      }
    }
    if (sweeper != null) {
      sweeper = reactor.schedule(options.liveness().interval(), this::sweep);
    }
  }

  /** Answers a ZAP request: 200 with the Z85 key as user id for an allowed key, else 400. */
  private void authenticate(ZmqSocketDriver.Multipart m) {
    List<byte[]> f = m.frames();
    String version = f.size() > 0 ? new String(f.get(0), StandardCharsets.US_ASCII) : "";
    byte[] requestId = f.size() > 1 ? f.get(1) : new byte[0];
    String status = "400";
    String text = "client key not allowed";
    String user = "";
    if (f.size() >= 7
        && "CURVE".equals(new String(f.get(5), StandardCharsets.US_ASCII))
        && f.get(6).length == 32) {
      String key = ZMQ.Curve.z85Encode(f.get(6));
      if (options.curve().clients().containsKey(key)) {
        status = "200";
        text = "OK";
        user = key;
      }
    }
    if (!status.equals("200")) {
      LOG.info("zeromq hub: CURVE client refused ({})", text);
    }
    zap.trySend(
        List.of(
            version.getBytes(StandardCharsets.US_ASCII),
            requestId,
            status.getBytes(StandardCharsets.US_ASCII),
            text.getBytes(StandardCharsets.US_ASCII),
            user.getBytes(StandardCharsets.US_ASCII),
            new byte[0]));
  }

  private void received(ZmqSocketDriver.Multipart mp) {
    List<byte[]> frames = mp.frames();
    if (frames.size() < 2) {
      return;
    }
    String id = new String(frames.get(0), StandardCharsets.ISO_8859_1);
    Message m;
    try {
      m = MessageCodec.fromParts(frames.subList(1, frames.size()));
    } catch (RpcException e) {
      LOG.warn("zeromq peer {}: {}; message dropped", printable(id), e.getMessage());
      return;
    }
    Peer p = peers.get(id);
    if (p != null) {
      heard.get(id)[0] = reactor.nanoTime();
    }
    if (m.type() == MessageType.CONTROL) {
      // a goodbye ends the peer; a heartbeat (or any other control) only proves it is alive
      if (p != null && m.aux1() == ZmqConnector.CONTROL_DISCONNECT) {
        p.close("disconnect");
      }
      return;
    }
    if (p == null) {
      Credentials c = credentialsOf(mp.metadata());
      if (c == null) {
        LOG.warn("zeromq peer {}: no credentials; message dropped", printable(id));
        return;
      }
      p = newPeer(id, c, frames.get(0));
      peers.put(id, p);
      heard.put(id, new long[] {reactor.nanoTime()});
      hub.router().connected(p);
    }
    hub.router().received(p, m);
  }

  private static String printable(String id) {
    return id.chars().allMatch(ch -> ch >= 0x20 && ch < 0x7f) ? id : "(binary identity)";
  }

  private Credentials credentialsOf(zmq.io.Metadata md) {
    if (options.curve() == null) {
      return options.loopbackCredentials();
    }
    String user = md == null ? null : md.get(zmq.io.Metadata.USER_ID);
    return user == null ? null : options.curve().clients().get(user);
  }

  private Peer newPeer(String id, Credentials c, byte[] identity) {
    return new Peer() {
      @Override
      public String id() {
        return id;
      }

      @Override
      public Credentials credentials() {
        return c;
      }

      @Override
      public void send(Message m) {
        List<byte[]> parts = MessageCodec.toParts(m);
        List<byte[]> frames = new ArrayList<>(parts.size() + 1);
        frames.add(identity);
        frames.addAll(parts);
        Outbox box = outboxes.get(id);
        if (box == null) {
          if (router.trySend(frames)) {
            return;
          }
          if (router.lastSendUnroutable()) {
            // ROUTER_MANDATORY: the identity has no connection any more (a peer is routable from
            // its first message on, so this is a peer that left without saying so)
            LOG.info(
                "zeromq peer {}: no longer connected; {} dropped, peer forgotten",
                printable(id),
                m.topic());
            close("gone");
            return;
          }
          box = new Outbox();
          outboxes.put(id, box);
        }
        long size = 0;
        for (byte[] f : frames) {
          size += f.length;
        }
        if (box.bytes + size > options.maxQueuedBytes()) {
          LOG.warn(
              "zeromq peer {}: stopped reading ({} bytes queued); disconnected",
              printable(id),
              box.bytes);
          close("not reading");
          return;
        }
        box.queue.add(frames);
        box.bytes += size;
      }

      @Override
      public void close(String why) {
        outboxes.remove(id);
        if (peers.remove(id, this)) {
          heard.remove(id);
          hub.router().disconnected(this);
        }
      }
    };
  }

  private void flushOutboxes() {
    if (outboxes.isEmpty()) {
      return;
    }
    List<String> gone = new ArrayList<>();
    var it = outboxes.entrySet().iterator();
    while (it.hasNext()) {
      var e = it.next();
      Outbox box = e.getValue();
      while (!box.queue.isEmpty() && router.trySend(box.queue.peek())) {
        List<byte[]> sent = box.queue.poll();
        for (byte[] f : sent) {
          box.bytes -= f.length;
        }
      }
      if (!box.queue.isEmpty() && router.lastSendUnroutable()) {
        gone.add(e.getKey());
      } else if (box.queue.isEmpty()) {
        it.remove();
      }
    }
    for (String id : gone) {
      Peer p = peers.get(id);
      if (p != null) {
        p.close("gone");
      } else {
        outboxes.remove(id);
      }
    }
  }

  private void closeOnLoop() {
    if (sweeper != null) {
      sweeper.cancel();
      sweeper = null;
    }
    if (router != null) {
      router.close();
    }
    if (zap != null) {
      zap.close();
    }
  }

  /** Stops listening. */
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
