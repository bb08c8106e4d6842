package io.fluxdrm.rpc.client;

import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Flags;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.MessageType;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.reactor.EventLoop;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rpc.transport.Connector;
import io.fluxdrm.rpc.transport.LocalConnector;
import io.fluxdrm.rpc.transport.ZmqClientKeys;
import io.fluxdrm.rpc.transport.ZmqConnector;
import java.time.Duration;
import java.util.Base64;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A connection to a Flux broker or hub, as {@code flux_t} is: RPCs (matchtags from a pool, reused
 * only after the final response; streaming until ENODATA; NORESPONSE; per-call timeouts; cancel),
 * services registered with {@code service.add}, and events subscribed by topic prefix.
 *
 * <p>Every method may be called from any thread; the work runs on the handle's loop, which also
 * completes the futures (so never block the loop waiting for one).
 *
 * <p>The calls awaiting responses are {@link PendingCalls}'s, the registered services {@link
 * RegisteredServices}', the event subscriptions and the handlers of untracked responses {@link
 * Subscriptions}' (issue 31, scope 7; decision D542).
 */
public final class FluxHandle implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(FluxHandle.class);

  private final EventLoop loop;
  private final Connector connector;
  private final PendingCalls calls = new PendingCalls(this);
  private final RegisteredServices services = new RegisteredServices(this);
  private final Subscriptions subscriptions = new Subscriptions();
  private volatile MessageTap tap;
  private boolean closed;
  private RpcException closeCause;

  private FluxHandle(EventLoop loop, Connector connector) {
    this.loop = loop;
    this.connector = connector;
  }

  public static FluxHandle open(EventLoop loop, Connector connector) {
    FluxHandle h = new FluxHandle(loop, connector);
    h.onLoop(() -> connector.start(h.new Inbound()));
    return h;
  }

  /**
   * Attaches to a Flux broker's (or our hub's) local connector at {@code local://PATH}, blocking
   * the caller (never the reactor) for the handshake up to {@code timeout}; when no server listens
   * there it fails at once (D480).
   *
   * @throws RpcException ENOENT (no socket) or ECONNREFUSED (a stale one) at once, the errno of a
   *     refused handshake (EPERM), ECONNRESET, ETIMEDOUT, or EINVAL for a URI that is not {@code
   *     local://}
   */
  public static FluxHandle connect(Reactor reactor, String uri, Duration timeout) {
    return open(
        reactor,
        LocalConnector.connect(
            reactor,
            localPath(uri),
            timeout,
            io.fluxdrm.rpc.LocalFraming.DEFAULT_MAX_MESSAGE_SIZE));
  }

  /**
   * As {@link #connect}, but waits up to {@code timeout} for a server that is starting (its socket
   * missing or refusing meanwhile), for a caller that has just started it.
   */
  public static FluxHandle connectWhenUp(Reactor reactor, String uri, Duration timeout) {
    return open(
        reactor,
        LocalConnector.connectWhenUp(
            reactor,
            localPath(uri),
            timeout,
            io.fluxdrm.rpc.LocalFraming.DEFAULT_MAX_MESSAGE_SIZE));
  }

  private static java.nio.file.Path localPath(String uri) {
    if (!uri.startsWith("local://") || uri.length() == "local://".length()) {
      throw new RpcException(Errno.EINVAL, "uri \"" + uri + "\": (expected: local://PATH)");
    }
    return java.nio.file.Path.of(uri.substring("local://".length()));
  }

  /**
   * Connects to a hub's (or any ZeroMQ ROUTER's) {@code tcp://HOST:PORT} endpoint as a DEALER whose
   * routing identity is a fresh UUID; connecting goes on in the background, reconnecting as a
   * ZeroMQ DEALER does, and messages sent meanwhile wait in order.
   *
   * @param keys CURVE keys, or null when the hub runs without CURVE (loopback)
   * @throws RpcException EINVAL for an endpoint that is not {@code tcp://HOST:PORT} ({@code ipc://}
   *     and {@code inproc://} are not served; use {@link #connect} with {@code local://} for a Unix
   *     socket), EHOSTUNREACH for a host name that does not resolve
   */
  public static FluxHandle connectZmq(Reactor reactor, String endpoint, ZmqClientKeys keys) {
    return open(
        reactor, new ZmqConnector(reactor, endpoint, java.util.UUID.randomUUID().toString(), keys));
  }

  /**
   * As {@link #connectZmq}, for a command that expects the hub to be running: when its first
   * connection is refused (nothing listens on the port) the handle closes at once with ECONNREFUSED
   * and its calls fail; once connected it reconnects as a DEALER does (D480).
   */
  public static FluxHandle connectZmqFailFast(
      Reactor reactor, String endpoint, ZmqClientKeys keys) {
    return open(
        reactor,
        new ZmqConnector(reactor, endpoint, java.util.UUID.randomUUID().toString(), keys)
            .failFast());
  }

  /** Returns the loop this handle runs on. */
  public EventLoop loop() {
    return loop;
  }

  /** Sets the tap that sees every message sent and received (null to remove). */
  public void tap(MessageTap t) {
    this.tap = t;
  }

  /**
   * Adds a tap beside the one already there, which keeps seeing every message (first): for a
   * component that taps a handle it shares with others, such as a job manager on a server's handle
   * that records a transcript (D517).
   *
   * @param t the tap to add
   */
  public synchronized void addTap(MessageTap t) {
    java.util.Objects.requireNonNull(t, "tap");
    MessageTap before = tap;
    this.tap =
        before == null
            ? t
            : (d, m) -> {
              before.onMessage(d, m);
              t.onMessage(d, m);
            };
  }

  private void onLoop(Runnable r) {
    if (loop.inLoop()) {
      r.run();
    } else {
      loop.execute(r);
    }
  }

  // ---------------------------------------------------------------- RPCs

  /** Sends a request and completes with its single response; no timeout. */
  public CompletableFuture<Message> rpc(String topic, Object payload) {
    return call(Message.request(topic, payload), null);
  }

  /** Sends a request and completes with its response, or ETIMEDOUT after {@code timeout}. */
  public CompletableFuture<Message> rpc(String topic, Object payload, Duration timeout) {
    return call(Message.request(topic, payload), timeout);
  }

  /**
   * Sends a prepared request (its matchtag is replaced) and completes with the response; an error
   * response completes exceptionally with {@link RpcException} carrying its errnum and text.
   *
   * @param timeout how long to wait, or null for ever
   */
  public CompletableFuture<Message> call(Message request, Duration timeout) {
    Objects.requireNonNull(request, "request");
    if (request.type() != MessageType.REQUEST
        || request.has(Flags.NORESPONSE)
        || request.has(Flags.STREAMING)) {
      throw new IllegalArgumentException("call: expected a request without NORESPONSE/STREAMING");
    }
    CompletableFuture<Message> f = new CompletableFuture<>();
    PendingCalls.Call c = new PendingCalls.Call(request.topic(), f);
    onLoop(() -> start(request, c, timeout));
    return f;
  }

  /**
   * Sends a request and returns the call: its matchtag (once sent) and its response, or ETIMEDOUT
   * after {@code timeout}. Same as {@link #rpc(String, Object, Duration)}, for protocols that name
   * a request by its matchtag.
   *
   * @param timeout how long to wait, or null for ever
   */
  public RpcCall rpcCall(String topic, Object payload, Duration timeout) {
    RpcCall rc = new RpcCall();
    PendingCalls.Call c = new PendingCalls.Call(topic, rc.response());
    c.sentTag = rc.matchtag();
    Message request = Message.request(topic, payload);
    onLoop(() -> start(request, c, timeout));
    return rc;
  }

  /**
   * Starts a streaming RPC: every successful response goes to {@code onResponse} (on the loop)
   * until ENODATA ends the stream normally or another errnum ends it with that error.
   *
   * @param timeout the time the whole stream may take, or null for ever; on expiry the stream fails
   *     with ETIMEDOUT and a cancel is sent to the service
   */
  public RpcStream stream(
      String topic, Object payload, Consumer<Message> onResponse, Duration timeout) {
    Message request = Message.request(topic, payload).withFlags(Flags.STREAMING, 0);
    RpcStream s = new RpcStream(this, topic);
    PendingCalls.Call c =
        new PendingCalls.Call(topic, Objects.requireNonNull(onResponse, "onResponse"), s);
    onLoop(() -> start(request, c, timeout));
    return s;
  }

  /** Sends a request with NORESPONSE (no matchtag, nothing comes back). */
  public void send(String topic, Object payload) {
    Message m = Message.request(topic, payload).withFlags(Flags.NORESPONSE, 0);
    onLoop(() -> out(m));
  }

  /**
   * Sends a request with matchtag 0 ({@code FLUX_MATCHTAG_NONE}) that expects responses, as {@code
   * flux_send} of a request does: nothing tracks it, no timeout applies, and its responses (any
   * number, error responses included) go to the {@link #onResponse} handlers of its topic. RFC 27's
   * {@code sched.alloc} is sent this way by flux-core's job manager.
   */
  public void sendUntracked(String topic, Object payload) {
    Message m = Message.request(topic, payload);
    onLoop(() -> out(m));
  }

  /**
   * Registers a handler for the responses of {@code topic} (exact match) that carry matchtag 0,
   * called on the loop for each one, error responses included; responses with a matchtag still go
   * only to the call that owns it. Several handlers of one topic each get every response. The
   * handler is in place before any request sent after this call.
   */
  public ResponseHandler onResponse(String topic, Consumer<Message> handler) {
    ResponseHandler r =
        new ResponseHandler(
            this, Objects.requireNonNull(topic, "topic"), Objects.requireNonNull(handler));
    onLoop(() -> subscriptions.add(r));
    return r;
  }

  void removeResponseHandler(ResponseHandler r) {
    onLoop(() -> subscriptions.remove(r));
  }

  /** Sends a prepared message as it is (for tools and tests that need exact control). */
  public void sendRaw(Message m) {
    onLoop(() -> out(m));
  }

  /** Cancels the stream of {@code topic} with {@code matchtag}: {@code <topic>-cancel} (D520). */
  void sendCancel(String topic, int matchtag) {
    send(
        topic + io.fluxdrm.rpc.service.Service.CANCEL_SUFFIX,
        Json.object().put("matchtag", matchtag));
  }

  private void start(Message request, PendingCalls.Call c, Duration timeout) {
    if (closed) {
      c.fail(closedError());
      return;
    }
    Message m = calls.start(request, c, timeout);
    if (m != null) {
      out(m);
    }
  }

  private void out(Message m) {
    if (closed) {
      LOG.debug("drop {} on closed handle", m);
      return;
    }
    MessageTap t = tap;
    if (t != null) {
      t.onMessage(MessageTap.Direction.OUT, m);
    }
    connector.send(m);
  }

  void sendResponse(Message m) {
    out(m);
  }

  private void onResponse(Message m) {
    if (m.matchtag() == 0) {
      subscriptions.untracked(m);
    } else {
      calls.onResponse(m);
    }
  }

  static RpcException error(Message m) {
    String text = null;
    if (m.has(Flags.PAYLOAD)) {
      try {
        text = m.text();
      } catch (RpcException e) {
        text = null;
      }
    }
    if (text == null || text.isEmpty()) {
      text = m.topic() + ": " + Errno.name(m.errnum());
    }
    return new RpcException(m.errnum(), text);
  }

  // ---------------------------------------------------------------- services

  /**
   * Registers a service: sends {@code service.add {"service": name}} and serves its requests once
   * that succeeds. Completes exceptionally with the broker's error (EEXIST when taken).
   */
  public CompletableFuture<Void> register(Service service) {
    CompletableFuture<Void> f = new CompletableFuture<>();
    onLoop(() -> services.register(service, f));
    return f;
  }

  /** Unregisters a service with {@code service.remove}; its pending requests are dropped. */
  public CompletableFuture<Void> unregister(String name) {
    CompletableFuture<Void> f = new CompletableFuture<>();
    onLoop(() -> services.unregister(name, f));
    return f;
  }

  /**
   * Returns how many requests the service {@code name} registered on this handle holds unanswered
   * (0 when there is no such service): a diagnostic, to be read on the handle's loop.
   */
  public int pendingServiceRequests(String name) {
    return services.pending(name);
  }

  int matchtagsInUse() {
    return calls.inUse();
  }

  // ---------------------------------------------------------------- events

  /**
   * Subscribes to events whose topic starts with {@code prefix} ({@code ""} = all): sends {@code
   * event.subscribe} and delivers matching events to the consumer on the loop.
   */
  public CompletableFuture<Subscription> subscribe(String prefix, Consumer<Message> onEvent) {
    Subscription s = new Subscription(this, prefix, onEvent);
    CompletableFuture<Subscription> f = new CompletableFuture<>();
    onLoop(
        () ->
            rpc("event.subscribe", Json.object().put("topic", prefix))
                .whenComplete(
                    (m, e) -> {
                      if (e != null) {
                        f.completeExceptionally(e);
                      } else {
                        subscriptions.add(s);
                        f.complete(s);
                      }
                    }));
    return f;
  }

  void unsubscribe(Subscription s) {
    onLoop(
        () -> {
          if (subscriptions.remove(s)) {
            send("event.unsubscribe", Json.object().put("topic", s.prefix()));
          }
        });
  }

  /**
   * Publishes an event through {@code event.pub} (payload as flux-core's publisher takes it: {@code
   * {"topic", "flags", "payload": base64}}); completes with the sequence number.
   */
  public CompletableFuture<Integer> publish(String topic, Object payload) {
    var req = Json.object().put("topic", topic).put("flags", 0);
    if (payload != null) {
      req.put("payload", Base64.getEncoder().encodeToString(Json.encode(payload)));
    }
    return rpc("event.pub", req).thenApply(m -> m.json().path("seq").asInt());
  }

  // ---------------------------------------------------------------- inbound

  private final class Inbound implements Connector.Inbound {
    @Override
    public void onMessage(Message m) {
      MessageTap t = tap;
      if (t != null) {
        t.onMessage(MessageTap.Direction.IN, m);
      }
      switch (m.type()) {
        case RESPONSE -> onResponse(m);
        case REQUEST -> onRequest(m);
        case EVENT -> subscriptions.event(m);
        case CONTROL -> LOG.debug("control message ignored: {}", m);
        default -> throw new IllegalStateException();
      }
    }

    @Override
    public void onClosed(RpcException cause) {
      shutdown(cause);
    }
  }

  private void onRequest(Message m) {
    if (!services.dispatch(m) && !m.has(Flags.NORESPONSE)) {
      out(Message.response(m, Errno.ENOSYS, Json.text("unknown service '" + m.service() + "'")));
    }
  }

  private RpcException closedError() {
    return closeCause != null ? closeCause : new RpcException(Errno.ECONNRESET, "handle: closed");
  }

  private void shutdown(RpcException cause) {
    if (closed) {
      return;
    }
    closed = true;
    closeCause = cause;
    RpcException e = closedError();
    calls.failAll(e);
    services.clear();
    subscriptions.clear();
  }

  /** Returns whether the handle is closed (by {@link #close()} or by the transport). */
  public boolean isClosed() {
    return closed;
  }

  /** Closes the connection; pending calls fail with ECONNRESET. */
  @Override
  public void close() {
    onLoop(
        () -> {
          if (!closed) {
            connector.close();
            shutdown(new RpcException(Errno.ECONNRESET, "handle: closed"));
          }
        });
  }
}
