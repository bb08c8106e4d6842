package io.fluxdrm.rpc.transcript;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Flags;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.MessageType;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.MessageTap;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

/**
 * One transcript line: when, which way, and the message. The JSON form is {@code {"time",
 * "direction", "type", "flags", "topic"?, "matchtag", "errnum"?, "nodeid"?, "sequence"?, "userid",
 * "rolemask", "routes"?, "payload" | "payload_text" | "payload_base64"}}: the payload is JSON when
 * it is a NUL-terminated JSON object, text when it is another NUL-terminated UTF-8 string (an error
 * text), base64 otherwise.
 *
 * @param time when the message crossed the endpoint
 * @param direction in (received) or out (sent)
 * @param message the message
 *     <p>Stable: user tests may rely on it; it changes only with a decision that says so
 *     (docs/transcripts.md, "What is stable").
 */
public record TranscriptLine(Instant time, MessageTap.Direction direction, Message message) {

  /** Returns the line as a JSON object. */
  public ObjectNode toJson() {
    Message m = message;
    ObjectNode o = Json.object();
    o.put("time", time.toString());
    o.put("direction", direction.name().toLowerCase(Locale.ROOT));
    o.put("type", m.type().label());
    o.put("flags", m.flags());
    if (m.topic() != null) {
      o.put("topic", m.topic());
    }
    switch (m.type()) {
      case REQUEST -> {
        o.put("matchtag", Integer.toUnsignedLong(m.matchtag()));
        o.put("nodeid", Integer.toUnsignedLong(m.aux1()));
      }
      case RESPONSE -> {
        o.put("matchtag", Integer.toUnsignedLong(m.matchtag()));
        o.put("errnum", m.errnum());
      }
      case EVENT -> {
        o.put("matchtag", 0);
        o.put("sequence", Integer.toUnsignedLong(m.aux1()));
      }
      case CONTROL -> {
        o.put("matchtag", 0);
        o.put("control_type", Integer.toUnsignedLong(m.aux1()));
        o.put("control_status", Integer.toUnsignedLong(m.aux2()));
      }
      default -> throw new IllegalStateException();
    }
    o.put("userid", Integer.toUnsignedLong(m.userid()));
    o.put("rolemask", Integer.toUnsignedLong(m.rolemask()));
    if (m.has(Flags.ROUTE)) {
      var r = o.putArray("routes");
      m.routes().forEach(r::add);
    }
    if (m.has(Flags.PAYLOAD)) {
      putPayload(o, m);
    }
    return o;
  }

  private static void putPayload(ObjectNode o, Message m) {
    byte[] p = m.payload();
    if (p.length > 0 && p[p.length - 1] == 0) {
      try {
        o.set("payload", m.json());
        return;
      } catch (RpcException e) {
        // not a JSON object: try text
      }
      try {
        o.put("payload_text", m.text());
        return;
      } catch (RpcException e) {
        // not UTF-8: base64
      }
    }
    o.put("payload_base64", Base64.getEncoder().encodeToString(p));
  }

  /**
   * Reads a line from its JSON form.
   *
   * @param where the location for error texts, e.g. {@code "t.jsonl:3"}
   * @throws RpcException EINVAL naming the field and the rule
   */
  public static TranscriptLine fromJson(JsonNode o, String where) {
    if (!o.isObject()) {
      throw bad(where, "", o.getNodeType().name().toLowerCase(Locale.ROOT), "JSON object");
    }
    Instant time;
    try {
      time = Instant.parse(text(o, "time", where));
    } catch (java.time.format.DateTimeParseException e) {
      throw bad(where, "/time", o.get("time").asText(), "RFC 3339 UTC time");
    }
    String dir = text(o, "direction", where);
    MessageTap.Direction d =
        switch (dir) {
          case "in" -> MessageTap.Direction.IN;
          case "out" -> MessageTap.Direction.OUT;
          default -> throw bad(where, "/direction", "\"" + dir + "\"", "in or out");
        };
    String typeName = text(o, "type", where);
    MessageType type = null;
    for (MessageType t : MessageType.values()) {
      if (t.label().equals(typeName)) {
        type = t;
      }
    }
    if (type == null) {
      throw bad(where, "/type", "\"" + typeName + "\"", "request, response, event or control");
    }
    int flags = (int) number(o, "flags", where, 0, 255);
    String topic = o.has("topic") ? text(o, "topic", where) : null;
    byte[] payload = null;
    if (o.has("payload")) {
      payload = Json.encode(o.get("payload"));
    } else if (o.has("payload_text")) {
      payload = Json.text(text(o, "payload_text", where));
    } else if (o.has("payload_base64")) {
      try {
        payload = Base64.getDecoder().decode(text(o, "payload_base64", where));
      } catch (IllegalArgumentException e) {
        throw bad(where, "/payload_base64", "not base64", "base64 text");
      }
    }
    int aux1 =
        switch (type) {
          case REQUEST -> (int) number(o, "nodeid", where, 0, 0xffffffffL);
          case RESPONSE -> (int) number(o, "errnum", where, 0, 0xffffffffL);
          case EVENT -> (int) number(o, "sequence", where, 0, 0xffffffffL);
          case CONTROL -> (int) number(o, "control_type", where, 0, 0xffffffffL);
        };
    int aux2 =
        type == MessageType.CONTROL
            ? (int) number(o, "control_status", where, 0, 0xffffffffL)
            : (int) number(o, "matchtag", where, 0, 0xffffffffL);
    List<String> routes = new ArrayList<>();
    if (o.has("routes")) {
      if (!o.get("routes").isArray()) {
        throw bad(where, "/routes", o.get("routes").getNodeType().toString(), "array of strings");
      }
      o.get("routes").forEach(r -> routes.add(r.asText()));
    }
    int structural =
        (topic != null ? Flags.TOPIC : 0)
            | (payload != null ? Flags.PAYLOAD : 0)
            | (flags & Flags.ROUTE);
    if ((flags & (Flags.TOPIC | Flags.PAYLOAD)) != (structural & (Flags.TOPIC | Flags.PAYLOAD))) {
      throw bad(
          where, "/flags", String.valueOf(flags), "TOPIC and PAYLOAD bits matching the fields");
    }
    Message m;
    try {
      m =
          new Message(
              type,
              flags,
              topic,
              payload,
              (int) number(o, "userid", where, 0, 0xffffffffL),
              (int) number(o, "rolemask", where, 0, 0xffffffffL),
              aux1,
              aux2,
              routes);
    } catch (IllegalArgumentException e) {
      throw new RpcException(Errno.EINVAL, where + ": " + e.getMessage());
    }
    return new TranscriptLine(time, d, m);
  }

  private static String text(JsonNode o, String field, String where) {
    JsonNode v = o.get(field);
    if (v == null || !v.isTextual()) {
      throw bad(
          where,
          "/" + field,
          v == null ? "missing" : v.getNodeType().name().toLowerCase(Locale.ROOT),
          "string");
    }
    return v.asText();
  }

  private static long number(JsonNode o, String field, String where, long min, long max) {
    JsonNode v = o.get(field);
    if (v == null || !v.isIntegralNumber()) {
      throw bad(
          where,
          "/" + field,
          v == null ? "missing" : v.getNodeType().name().toLowerCase(Locale.ROOT),
          "integer");
    }
    long n = v.asLong();
    if (n < min || n > max) {
      throw bad(where, "/" + field, String.valueOf(n), min + ".." + max);
    }
    return n;
  }

  private static RpcException bad(String where, String pointer, String found, String expected) {
    return new RpcException(
        Errno.EINVAL,
        where
            + ": "
            + (pointer.isEmpty() ? "line" : pointer)
            + ": "
            + found
            + " (expected: "
            + expected
            + ")");
  }

  static String utf8(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }
}
