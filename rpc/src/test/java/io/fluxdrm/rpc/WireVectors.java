package io.fluxdrm.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/** The project's own test vectors from the live broker dumps, and their decoding. */
final class WireVectors {
  record Vector(String name, byte[] stream, Message message) {
    @Override
    public String toString() {
      return name;
    }
  }

  private WireVectors() {}

  static List<Vector> liveBroker() {
    try (InputStream in = WireVectors.class.getResourceAsStream("live-broker-wire.json")) {
      JsonNode root = Json.mapper().readTree(in);
      List<Vector> out = new ArrayList<>();
      for (JsonNode v : root.get("vectors")) {
        out.add(
            new Vector(
                v.get("name").asText(),
                HexFormat.of().parseHex(v.get("stream_hex").asText()),
                message(v.get("message"))));
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Message message(JsonNode m) {
    List<String> routes = new ArrayList<>();
    m.get("routes").forEach(r -> routes.add(r.asText()));
    return new Message(
        MessageType.fromLabel(m.get("type").asText()),
        m.get("flags").asInt(),
        m.has("topic") ? m.get("topic").asText() : null,
        m.has("payload_hex") ? HexFormat.of().parseHex(m.get("payload_hex").asText()) : null,
        (int) m.get("userid").asLong(),
        (int) m.get("rolemask").asLong(),
        (int) m.get("aux1").asLong(),
        (int) m.get("aux2").asLong(),
        routes);
  }
}
