package io.fluxdrm.rpc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** JSON payload helpers: compact serialization with the trailing NUL, strict parsing. */
public final class Json {
  static final ObjectMapper MAPPER = new ObjectMapper();

  private Json() {}

  /** Returns the shared mapper (do not reconfigure it). */
  public static ObjectMapper mapper() {
    return MAPPER;
  }

  /**
   * Returns a value serialized as compact JSON followed by NUL, as flux-core sends payloads.
   *
   * @throws RpcException EINVAL when the value cannot be serialized or is not a JSON object
   */
  public static byte[] encode(Object value) {
    try {
      JsonNode node = value instanceof JsonNode n ? n : MAPPER.valueToTree(value);
      if (!node.isObject()) {
        throw new RpcException(
            Errno.EINVAL, "payload: " + node.getNodeType() + " (expected: JSON object)");
      }
      byte[] json = MAPPER.writeValueAsBytes(node);
      byte[] out = Arrays.copyOf(json, json.length + 1);
      out[json.length] = 0;
      return out;
    } catch (JsonProcessingException | IllegalArgumentException e) {
      throw new RpcException(Errno.EINVAL, "payload: cannot serialize (" + e.getMessage() + ")");
    }
  }

  /** Returns a string followed by NUL, as flux-core sends error texts. */
  public static byte[] text(String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    byte[] out = Arrays.copyOf(b, b.length + 1);
    out[b.length] = 0;
    return out;
  }

  /** Returns a new empty JSON object. */
  public static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  static String utf8(byte[] bytes, int length, String where) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes, 0, length))
          .toString();
    } catch (CharacterCodingException e) {
      throw RpcException.proto(where + ": not UTF-8 (expected: UTF-8 text)");
    }
  }

  /**
   * Parses a JSON object.
   *
   * @throws RpcException EPROTO when the text is not JSON or not an object
   */
  static ObjectNode parseObject(String s, String where) {
    JsonNode node;
    try {
      node = MAPPER.readTree(s);
    } catch (JsonProcessingException e) {
      String why = e.getOriginalMessage();
      int nl = why.indexOf('\n');
      throw RpcException.proto(
          where
              + ": invalid JSON at offset "
              + e.getLocation().getCharOffset()
              + " ("
              + (nl < 0 ? why : why.substring(0, nl)).toLowerCase(java.util.Locale.ROOT)
              + ")");
    }
    if (node == null || !node.isObject()) {
      throw RpcException.proto(
          where
              + ": "
              + (node == null
                  ? "empty"
                  : node.getNodeType().name().toLowerCase(java.util.Locale.ROOT))
              + " (expected: JSON object)");
    }
    return (ObjectNode) node;
  }
}
