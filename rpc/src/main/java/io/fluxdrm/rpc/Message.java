package io.fluxdrm.rpc;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * An RFC 3 Flux message: type, flags, topic, payload, credentials, the two auxiliary words of the
 * proto part and the route stack.
 *
 * <p>The value is immutable. The topic is present exactly when {@link Flags#TOPIC} is set, the
 * payload exactly when {@link Flags#PAYLOAD} is set, and routes only when {@link Flags#ROUTE} is
 * set. The payload holds the bytes as they travel, so a JSON or string payload ends with its NUL.
 * Routes are listed as on the wire: the most recent hop first, the original sender last. Route and
 * topic texts are stored without NUL; routes are decoded as ISO-8859-1 so any identity survives.
 */
public final class Message {
  private final MessageType type;
  private final int flags;
  private final String topic;
  private final byte[] payload;
  private final int userid;
  private final int rolemask;
  private final int aux1;
  private final int aux2;
  private final List<String> routes;

  /**
   * Creates a message.
   *
   * @throws IllegalArgumentException when the flags disagree with the parts given
   */
  public Message(
      MessageType type,
      int flags,
      String topic,
      byte[] payload,
      int userid,
      int rolemask,
      int aux1,
      int aux2,
      List<String> routes) {
    this(
        type,
        flags,
        topic,
        payload == null ? null : payload.clone(),
        userid,
        rolemask,
        aux1,
        aux2,
        List.copyOf(routes),
        true);
  }

  private Message(
      MessageType type,
      int flags,
      String topic,
      byte[] payload,
      int userid,
      int rolemask,
      int aux1,
      int aux2,
      List<String> routes,
      boolean check) {
    this.type = Objects.requireNonNull(type, "type");
    this.flags = flags & 0xff;
    this.topic = topic;
    this.payload = payload;
    this.userid = userid;
    this.rolemask = rolemask;
    this.aux1 = aux1;
    this.aux2 = aux2;
    this.routes = routes;
    if (check) {
      if ((flags & ~0xff) != 0) {
        throw new IllegalArgumentException("flags: " + flags + " (expected: 0..255)");
      }
      if (((flags & Flags.TOPIC) != 0) != (topic != null)) {
        throw new IllegalArgumentException("topic: present iff flag TOPIC");
      }
      if (((flags & Flags.PAYLOAD) != 0) != (payload != null)) {
        throw new IllegalArgumentException("payload: present iff flag PAYLOAD");
      }
      if (topic != null && topic.indexOf('\0') >= 0) {
        throw new IllegalArgumentException("topic: contains NUL (expected: none)");
      }
      if ((flags & Flags.ROUTE) == 0 && !routes.isEmpty()) {
        throw new IllegalArgumentException("routes: present without flag ROUTE");
      }
      for (String r : routes) {
        if (r.isEmpty()) {
          throw new IllegalArgumentException("routes: empty route (expected: non-empty identity)");
        }
      }
    }
  }

  static Message trusted(
      MessageType type,
      int flags,
      String topic,
      byte[] payload,
      int userid,
      int rolemask,
      int aux1,
      int aux2,
      List<String> routes) {
    return new Message(type, flags, topic, payload, userid, rolemask, aux1, aux2, routes, false);
  }

  /**
   * Returns a request as libflux sends it: ROUTE set with an empty stack, userid unknown, rolemask
   * none, nodeid any, matchtag none.
   *
   * @param payload the payload bytes as they travel (a JSON payload ends with NUL), or null
   */
  public static Message request(String topic, byte[] payload) {
    int flags = Flags.TOPIC | Flags.ROUTE | (payload == null ? 0 : Flags.PAYLOAD);
    return new Message(
        MessageType.REQUEST,
        flags,
        Objects.requireNonNull(topic, "topic"),
        payload == null ? null : payload.clone(),
        Flags.USERID_UNKNOWN,
        Flags.ROLE_NONE,
        Flags.NODEID_ANY,
        Flags.MATCHTAG_NONE,
        List.of(),
        true);
  }

  /** Returns a request with a JSON object payload (serialized compactly, with its NUL). */
  public static Message request(String topic, Object json) {
    return request(topic, json == null ? null : Json.encode(json));
  }

  /** Returns an event with the given sequence number. */
  public static Message event(String topic, int sequence, byte[] payload) {
    int flags = Flags.TOPIC | (payload == null ? 0 : Flags.PAYLOAD);
    return new Message(
        MessageType.EVENT,
        flags,
        topic,
        payload == null ? null : payload.clone(),
        Flags.USERID_UNKNOWN,
        Flags.ROLE_NONE,
        sequence,
        0,
        List.of(),
        true);
  }

  /**
   * Derives a response from a request as {@code flux_response_derive} does: same routes, topic,
   * matchtag and STREAMING flag, type RESPONSE, userid unknown, rolemask none.
   *
   * @param payload the payload bytes (a JSON or text payload ends with NUL), or null
   */
  public static Message response(Message request, int errnum, byte[] payload) {
    int keep = request.flags & (Flags.TOPIC | Flags.ROUTE | Flags.STREAMING);
    int flags = keep | (payload == null ? 0 : Flags.PAYLOAD);
    return new Message(
        MessageType.RESPONSE,
        flags,
        request.topic,
        payload == null ? null : payload.clone(),
        Flags.USERID_UNKNOWN,
        Flags.ROLE_NONE,
        errnum,
        request.aux2,
        request.routes,
        true);
  }

  /** Returns the type. */
  public MessageType type() {
    return type;
  }

  /** Returns the flag byte. */
  public int flags() {
    return flags;
  }

  /** Returns whether every bit of {@code flag} is set. */
  public boolean has(int flag) {
    return (flags & flag) == flag;
  }

  /** Returns the topic, or null when the message has none. */
  public String topic() {
    return topic;
  }

  /** Returns the service part of the topic (text before the first '.'), or "" without a topic. */
  public String service() {
    if (topic == null) {
      return "";
    }
    int dot = topic.indexOf('.');
    return dot < 0 ? topic : topic.substring(0, dot);
  }

  /** Returns a copy of the payload bytes as they travel, or null when there is none. */
  public byte[] payload() {
    return payload == null ? null : payload.clone();
  }

  byte[] payloadUnsafe() {
    return payload;
  }

  /** Returns the payload size in bytes (including a string's NUL), 0 when there is none. */
  public int payloadSize() {
    return payload == null ? 0 : payload.length;
  }

  /**
   * Returns the payload as a string without its NUL, or null when there is no payload.
   *
   * @throws RpcException EPROTO when the payload does not end with NUL or is not UTF-8
   */
  public String text() {
    if (payload == null) {
      return null;
    }
    if (payload.length == 0 || payload[payload.length - 1] != 0) {
      throw RpcException.proto(
          "payload of " + describeTopic() + ": no trailing NUL (expected: NUL-terminated string)");
    }
    return Json.utf8(payload, payload.length - 1, "payload of " + describeTopic());
  }

  /**
   * Returns the payload as a JSON object.
   *
   * @throws RpcException EPROTO when there is no payload, no NUL, invalid JSON or not an object
   */
  public ObjectNode json() {
    if (payload == null) {
      throw RpcException.proto(
          "payload of " + describeTopic() + ": missing (expected: JSON object)");
    }
    if (payload.length > 0 && payload[payload.length - 1] == 0 && Json.isAscii(payload)) {
      // the common case, read from the bytes as they are: ASCII is UTF-8 (issue 32)
      return Json.parseObject(payload, payload.length - 1, this::describePayload);
    }
    return Json.parseObject(text(), describePayload());
  }

  private String describePayload() {
    return "payload of " + describeTopic();
  }

  private String describeTopic() {
    return topic == null ? type.label() : topic;
  }

  /** Returns the userid credential. */
  public int userid() {
    return userid;
  }

  /** Returns the rolemask credential. */
  public int rolemask() {
    return rolemask;
  }

  /** Returns aux1: nodeid of a request, errnum of a response, sequence of an event. */
  public int aux1() {
    return aux1;
  }

  /** Returns aux2: matchtag of a request or response, status of a control message. */
  public int aux2() {
    return aux2;
  }

  /** Returns the matchtag (aux2). */
  public int matchtag() {
    return aux2;
  }

  /** Returns the errnum of a response (aux1), 0 for other types. */
  public int errnum() {
    return type == MessageType.RESPONSE ? aux1 : 0;
  }

  /** Returns the route stack, most recent hop first. */
  public List<String> routes() {
    return routes;
  }

  /** Returns the original sender (the last route), or null when the stack is empty. */
  public String sender() {
    return routes.isEmpty() ? null : routes.get(routes.size() - 1);
  }

  /** Returns a copy with other credentials. */
  public Message withCredentials(int newUserid, int newRolemask) {
    return trusted(type, flags, topic, payload, newUserid, newRolemask, aux1, aux2, routes);
  }

  /** Returns a copy with another matchtag. */
  public Message withMatchtag(int matchtag) {
    return trusted(type, flags, topic, payload, userid, rolemask, aux1, matchtag, routes);
  }

  /** Returns a copy with another aux1 (nodeid, errnum or sequence). */
  public Message withAux1(int value) {
    return trusted(type, flags, topic, payload, userid, rolemask, value, aux2, routes);
  }

  /**
   * Returns a copy whose flags are set and cleared as given; TOPIC, PAYLOAD and ROUTE cannot change
   * this way.
   */
  public Message withFlags(int set, int clear) {
    int structural = Flags.TOPIC | Flags.PAYLOAD | Flags.ROUTE;
    if (((set | clear) & structural) != 0) {
      throw new IllegalArgumentException("flags: TOPIC, PAYLOAD and ROUTE follow the parts");
    }
    int f = (flags | set) & ~clear & 0xff;
    return trusted(type, f, topic, payload, userid, rolemask, aux1, aux2, routes);
  }

  /** Returns a copy with a route pushed on top of the stack (ROUTE is set). */
  public Message pushRoute(String route) {
    if (route.isEmpty()) {
      throw new IllegalArgumentException("route: empty (expected: non-empty identity)");
    }
    List<String> r = new ArrayList<>(routes.size() + 1);
    r.add(route);
    r.addAll(routes);
    return trusted(
        type, flags | Flags.ROUTE, topic, payload, userid, rolemask, aux1, aux2, List.copyOf(r));
  }

  /** Returns a copy without the top route; ROUTE stays set. */
  public Message popRoute() {
    if (routes.isEmpty()) {
      throw new IllegalStateException("route stack is empty");
    }
    return trusted(
        type,
        flags,
        topic,
        payload,
        userid,
        rolemask,
        aux1,
        aux2,
        routes.subList(1, routes.size()));
  }

  /** Returns the top route (most recent hop), or null when there is none. */
  public String topRoute() {
    return routes.isEmpty() ? null : routes.get(0);
  }

  /** Returns a copy with the ROUTE flag and the given route stack. */
  public Message withRoutes(List<String> newRoutes) {
    return new Message(
        type,
        flags | Flags.ROUTE,
        topic,
        payload,
        userid,
        rolemask,
        aux1,
        aux2,
        List.copyOf(newRoutes),
        true);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Message m
        && type == m.type
        && flags == m.flags
        && userid == m.userid
        && rolemask == m.rolemask
        && aux1 == m.aux1
        && aux2 == m.aux2
        && Objects.equals(topic, m.topic)
        && Arrays.equals(payload, m.payload)
        && routes.equals(m.routes);
  }

  @Override
  public int hashCode() {
    int h = Objects.hash(type, flags, topic, userid, rolemask, aux1, aux2, routes);
    return 31 * h + Arrays.hashCode(payload);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    sb.append(type.label()).append(' ').append(topic == null ? "-" : topic);
    sb.append(" flags=").append(Flags.describe(flags));
    sb.append(
        String.format(
            " userid=%d rolemask=%d aux1=%d aux2=%d",
            Integer.toUnsignedLong(userid),
            Integer.toUnsignedLong(rolemask),
            Integer.toUnsignedLong(aux1),
            Integer.toUnsignedLong(aux2)));
    if (!routes.isEmpty()) {
      sb.append(" routes=").append(routes);
    }
    if (payload != null) {
      sb.append(" payload=").append(payload.length).append('B');
      if (payload.length <= 200) {
        sb.append(' ').append(new String(payload, StandardCharsets.UTF_8).replace("\0", "\\0"));
      }
    }
    return sb.toString();
  }
}
