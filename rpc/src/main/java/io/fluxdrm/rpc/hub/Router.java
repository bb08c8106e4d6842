package io.fluxdrm.rpc.hub;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Flags;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hub's routing core, as Flux's router behaves towards local-connector clients: requests get
 * the sender's identity pushed and go to the peer that registered their service; responses pop the
 * top route to find their way back; {@code service.add/remove}, {@code event.subscribe/unsubscribe}
 * and {@code event.pub} are answered here; when a peer goes away its services are removed and
 * {@code <service>.disconnect} is sent to every service it used. Whenever a service disappears
 * (removed, or its owner gone) the hub publishes {@link Hub#SERVICE_REMOVED} {@code {"service":
 * name}}, after those disconnect notices; whenever one is registered, {@link Hub#SERVICE_ADDED}.
 * Credentials are always stamped from the peer (decision D16). Runs on the loop only.
 */
final class Router {
  private static final Logger LOG = LoggerFactory.getLogger(Router.class);

  private static final class PeerState {
    final Peer peer;
    final Set<String> services = new LinkedHashSet<>();
    final Set<String> used = new LinkedHashSet<>();
    final List<String> subscriptions = new ArrayList<>();

    /**
     * This peer's requests that may still be answered: matchtag and the peer each went to, the
     * least recently used first; at most {@link #MAX_IN_FLIGHT}, the oldest forgotten beyond.
     */
    final Map<InFlight, Waiting> inFlight =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<InFlight, Waiting> eldest) {
            return size() > MAX_IN_FLIGHT;
          }
        };

    PeerState(Peer peer) {
      this.peer = peer;
    }
  }

  private final Map<String, PeerState> peers = new LinkedHashMap<>();
  private final Map<String, String> serviceOwners = new HashMap<>();

  /** The requests in flight one peer keeps track of (D223). */
  static final int MAX_IN_FLIGHT = 65_536;

  /** A request a peer sent that may be answered: its matchtag and the peer it was routed to. */
  private record InFlight(int matchtag, String server) {}

  /**
   * What the hub keeps of a request in flight: a response stub (topic, matchtag, the requester's
   * route, no payload), from which it answers the request if the server goes away (D502), and
   * whether the server answered it already.
   */
  private static final class Waiting {
    final Message stub;
    boolean answered;

    Waiting(Message request) {
      this.stub = Message.response(request, 0, null);
    }
  }

  private int eventSequence;

  void connected(Peer p) {
    if (peers.putIfAbsent(p.id(), new PeerState(p)) != null) {
      throw new IllegalStateException("peer " + p.id() + " connected twice");
    }
    LOG.debug("peer {} connected as {}", p.id(), p.credentials());
  }

  int peerCount() {
    return peers.size();
  }

  /** Returns whether a peer with this route id is connected (through any transport). */
  boolean hasPeer(String id) {
    return peers.containsKey(id);
  }

  boolean hasService(String name) {
    return serviceOwners.containsKey(name);
  }

  void disconnected(Peer p) {
    PeerState st = peers.get(p.id());
    if (st == null || st.peer != p) {
      return;
    }
    peers.remove(p.id());
    for (PeerState other : peers.values()) {
      var it = other.inFlight.entrySet().iterator();
      while (it.hasNext()) {
        var e = it.next();
        if (e.getKey().server().equals(p.id())) {
          it.remove();
          answerForGone(other, e.getKey(), e.getValue());
        }
      }
    }
    for (String s : st.services) {
      serviceOwners.remove(s);
    }
    for (String s : st.used) {
      String owner = serviceOwners.get(s);
      PeerState os = owner == null ? null : peers.get(owner);
      if (os != null) {
        Message d =
            Message.request(s + ".disconnect", (byte[]) null)
                .withFlags(Flags.NORESPONSE, 0)
                .withCredentials(p.credentials().userid(), p.credentials().rolemask())
                .pushRoute(p.id());
        os.peer.send(d);
      }
    }
    for (String s : st.services) {
      serviceRemoved(s, p.credentials());
    }
    LOG.debug("peer {} disconnected", p.id());
  }

  void received(Peer p, Message raw) {
    PeerState st = peers.get(p.id());
    if (st == null || st.peer != p) {
      LOG.debug("message from unknown peer {} dropped", p.id());
      return;
    }
    Credentials c = p.credentials();
    Message m = raw.withCredentials(c.userid(), c.rolemask());
    switch (m.type()) {
      case REQUEST -> clientRequest(st, m);
      case RESPONSE -> response(st, m);
      case EVENT, CONTROL -> LOG.debug("{} from peer {} dropped", m.type().label(), p.id());
      default -> throw new IllegalStateException();
    }
  }

  /**
   * Checks a request as a client sent it before routing it. RFC 3 (routes are pushed by brokers,
   * never by clients; flux-core's broker refuses a local client's request that carries a route
   * stack): the stack must be empty, or the request is answered EPROTO and the connection kept, so
   * that no client can pose as another sender (D220). {@code <service>.disconnect} is the hub's own
   * notice of a departed peer (flux-core's router sends it, RFC 6 disconnect): a client that sends
   * one is answered EPERM, or dropped under NORESPONSE, and the service never sees it (D220).
   */
  private void clientRequest(PeerState from, Message raw) {
    if (!raw.routes().isEmpty()) {
      reply(
          from,
          raw.withRoutes(List.of()).pushRoute(from.peer.id()),
          Errno.EPROTO,
          (raw.topic() == null ? "request" : raw.topic())
              + ": "
              + raw.routes().size()
              + " route(s) from a client (expected: none; routes are pushed by the hub)");
      return;
    }
    Message m = raw.pushRoute(from.peer.id());
    if (isDisconnectNotice(m.topic())) {
      reply(
          from,
          m,
          Errno.EPERM,
          m.topic() + ": sent by a client (expected: the hub sends disconnect notices itself)");
      return;
    }
    request(from, m);
  }

  /** Returns whether a topic is {@code <service>.disconnect} (service names have no '.'). */
  private static boolean isDisconnectNotice(String topic) {
    return topic != null
        && topic.endsWith(".disconnect")
        && topic.indexOf('.') == topic.length() - ".disconnect".length();
  }

  private void request(PeerState from, Message m) {
    String topic = m.topic();
    if (topic == null) {
      reply(from, m, Errno.EPROTO, "request: no topic (expected: topic)");
      return;
    }
    try {
      switch (topic) {
        case "service.add" -> serviceAdd(from, m);
        case "service.remove" -> serviceRemove(from, m);
        case "event.subscribe" -> subscribe(from, m);
        case "event.unsubscribe" -> unsubscribe(from, m);
        case "event.pub" -> publish(from, m);
        default -> forward(from, m);
      }
    } catch (RpcException e) {
      reply(from, m, e.errnum(), e.getMessage());
    }
  }

  private void forward(PeerState from, Message m) {
    String service = m.service();
    String owner = serviceOwners.get(service);
    PeerState to = owner == null ? null : peers.get(owner);
    if (to == null) {
      reply(from, m, Errno.ENOSYS, "unknown service '" + service + "'");
      return;
    }
    from.used.add(service);
    if (!m.has(Flags.NORESPONSE)) {
      from.inFlight.put(new InFlight(m.matchtag(), to.peer.id()), new Waiting(m));
    }
    to.peer.send(m);
  }

  /**
   * Routes a response back to its requester only from the peer its request was routed to and only
   * while that request is in flight. RFC 6 matches a response by matchtag alone, so the hub vouches
   * for its source (D223). An error response (ENODATA ends a stream, RFC 6) ends a request with a
   * matchtag; a success does not, as RFC 27's {@code sched.alloc} answers one request several times
   * without STREAMING; matchtag 0 requests stay until the peers part or are forgotten.
   */
  private void response(PeerState from, Message m) {
    String top = m.topRoute();
    if (top == null) {
      LOG.debug("response without route dropped: {}", m.topic());
      return;
    }
    PeerState to = peers.get(top);
    InFlight k = new InFlight(m.matchtag(), from.peer.id());
    Waiting w = to == null ? null : to.inFlight.get(k);
    if (w == null) {
      LOG.debug(
          "response {} from peer {} for no request routed to it dropped",
          m.topic(),
          ZmqIdentities.printable(from.peer.id()));
      return;
    }
    w.answered = true;
    if (m.errnum() != 0 && m.matchtag() != 0) {
      to.inFlight.remove(k);
    }
    to.peer.send(m.popRoute());
  }

  /**
   * The server of a request in flight went away (its connection closed, a SIGKILL): nothing will
   * answer the request, so the hub does, with EHOSTUNREACH, unless the requester cannot tell the
   * answer apart (matchtag 0) or already has one (a request without STREAMING answered once); a
   * stream is ended the same way (D502). Flux's router forgets such requests; a client of this hub
   * then waited for ever.
   */
  private void answerForGone(PeerState requester, InFlight k, Waiting w) {
    boolean streaming = w.stub.has(Flags.STREAMING);
    if (k.matchtag() == 0 || (w.answered && !streaming)) {
      return;
    }
    String text =
        w.stub.topic()
            + ": the service's provider went away before answering (the request may or may not"
            + " have been carried out; ask again once it is back)";
    LOG.debug("{} (matchtag {}): answered EHOSTUNREACH", text, k.matchtag());
    Message r =
        Message.response(w.stub, Errno.EHOSTUNREACH, Json.text(text))
            .withCredentials(Flags.USERID_UNKNOWN, Flags.ROLE_OWNER);
    requester.peer.send(r.popRoute());
  }

  private static String stringField(ObjectNode o, String field, String topic) {
    JsonNode v = o.get(field);
    if (v == null || !v.isTextual()) {
      throw RpcException.proto(
          topic
              + ": /"
              + field
              + " "
              + (v == null ? "missing" : v.getNodeType().name().toLowerCase(java.util.Locale.ROOT))
              + " (expected: string)");
    }
    return v.asText();
  }

  private void serviceAdd(PeerState from, Message m) {
    String name = stringField(m.json(), "service", "service.add");
    if (name.isEmpty() || name.contains(".")) {
      throw new RpcException(
          Errno.EINVAL, "service.add: /service \"" + name + "\" (expected: non-empty, no '.')");
    }
    Credentials cred = from.peer.credentials();
    String guestPrefix = Integer.toUnsignedString(cred.userid()) + "-";
    if (!cred.isOwner() && !name.startsWith(guestPrefix)) {
      throw new RpcException(
          Errno.EPERM,
          "service.add: "
              + name
              + " (expected: the instance owner, or a guest's name starting with \""
              + guestPrefix
              + "\")");
    }
    if (isBuiltin(name) || serviceOwners.containsKey(name)) {
      throw new RpcException(Errno.EEXIST, "service.add: " + name + " is registered already");
    }
    serviceOwners.put(name, from.peer.id());
    from.services.add(name);
    reply(from, m, 0, null);
    LOG.debug("service {} added", name);
    broadcast(
        Hub.SERVICE_ADDED,
        Flags.PRIVATE,
        Json.encode(Json.object().put("service", name)),
        from.peer.credentials());
  }

  private static boolean isBuiltin(String name) {
    return name.equals("service") || name.equals("event");
  }

  private void serviceRemove(PeerState from, Message m) {
    String name = stringField(m.json(), "service", "service.remove");
    if (!from.services.remove(name)) {
      throw new RpcException(
          Errno.ENOENT, "service.remove: " + name + " is not registered by this connection");
    }
    serviceOwners.remove(name);
    reply(from, m, 0, null);
    serviceRemoved(name, from.peer.credentials());
  }

  /**
   * Publishes {@link Hub#SERVICE_REMOVED}: PRIVATE with the owner's credentials, so the instance
   * owner's peers see every removal and a guest only those of its own services.
   */
  private void serviceRemoved(String name, Credentials owner) {
    LOG.debug("service {} removed", name);
    broadcast(
        Hub.SERVICE_REMOVED, Flags.PRIVATE, Json.encode(Json.object().put("service", name)), owner);
  }

  private void subscribe(PeerState from, Message m) {
    from.subscriptions.add(stringField(m.json(), "topic", "event.subscribe"));
    reply(from, m, 0, null);
  }

  private void unsubscribe(PeerState from, Message m) {
    String topic = stringField(m.json(), "topic", "event.unsubscribe");
    if (!from.subscriptions.remove(topic)) {
      throw new RpcException(Errno.ENOENT, "event.unsubscribe: " + topic + " is not subscribed");
    }
    reply(from, m, 0, null);
  }

  private void publish(PeerState from, Message m) {
    ObjectNode o = m.json();
    String topic = stringField(o, "topic", "event.pub");
    if (topic.equals(Hub.SERVICE_REMOVED) || topic.equals(Hub.SERVICE_ADDED)) {
      throw new RpcException(
          Errno.EPERM, "event.pub: /topic " + topic + " (expected: a topic the hub does not own)");
    }
    Credentials cred = from.peer.credentials();
    String guestPrefix = Integer.toUnsignedString(cred.userid()) + "-";
    if (!cred.isOwner() && !topic.startsWith(guestPrefix)) {
      // as for service names (D16): a guest publishes only under "<uid>-", PRIVATE or not, so
      // that its events never pass for those of the owner's services (docs/security.md, D224)
      throw new RpcException(
          Errno.EPERM,
          "event.pub: /topic "
              + topic
              + " (expected: the instance owner, or a guest's topic starting with \""
              + guestPrefix
              + "\")");
    }
    int flags = o.path("flags").asInt(0);
    byte[] payload = null;
    if (o.has("payload")) {
      try {
        payload = Base64.getDecoder().decode(stringField(o, "payload", "event.pub"));
      } catch (IllegalArgumentException e) {
        throw RpcException.proto("event.pub: /payload not base64 (expected: base64 string)");
      }
    }
    int seq = broadcast(topic, flags, payload, from.peer.credentials());
    reply(from, m, 0, Json.encode(Json.object().put("seq", seq)));
  }

  /** Sends an event to every subscriber it may reach; returns its sequence number. */
  private int broadcast(String topic, int flags, byte[] payload, Credentials c) {
    int seq = ++eventSequence;
    Message ev =
        Message.event(topic, seq, payload)
            .withFlags(flags & Flags.PRIVATE, 0)
            .withCredentials(c.userid(), c.rolemask());
    // a snapshot: a subscriber whose queue overflows may be disconnected (and removed from peers)
    // by the send itself, as a Unix-socket peer is (issue 12, finding 11)
    for (PeerState ps : List.copyOf(peers.values())) {
      if (peers.get(ps.peer.id()) != ps) {
        continue; // disconnected by an earlier send of this broadcast
      }
      if ((flags & Flags.PRIVATE) != 0
          && !ps.peer.credentials().isOwner()
          && ps.peer.credentials().userid() != c.userid()) {
        continue;
      }
      for (String prefix : ps.subscriptions) {
        if (topic.startsWith(prefix)) {
          ps.peer.send(ev);
          break;
        }
      }
    }
    return seq;
  }

  private void reply(PeerState to, Message request, int errnum, Object payload) {
    if (request.has(Flags.NORESPONSE)) {
      if (errnum != 0) {
        LOG.debug("{} (no response requested): {}", request.topic(), payload);
      }
      return;
    }
    byte[] p =
        payload == null ? null : payload instanceof byte[] b ? b : Json.text(payload.toString());
    Message r =
        Message.response(request, errnum, p)
            .withCredentials(Flags.USERID_UNKNOWN, Flags.ROLE_OWNER);
    to.peer.send(r.popRoute());
  }
}
