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
import java.util.function.Supplier;

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

  /**
   * Returns a JSON value as compact UTF-8 text, without the NUL of a payload.
   *
   * @throws RpcException EINVAL when it cannot be serialized
   */
  public static byte[] compact(JsonNode value) {
    try {
      return MAPPER.writeValueAsBytes(value);
    } catch (JsonProcessingException e) {
      throw new RpcException(Errno.EINVAL, "json: cannot serialize (" + e.getMessage() + ")");
    }
  }

  /**
   * Returns {@code parts} one after the other in one array: a payload written from fixed pieces
   * around the few that change (issue 32).
   */
  public static byte[] concat(byte[]... parts) {
    int n = 0;
    for (byte[] p : parts) {
      n += p.length;
    }
    byte[] out = new byte[n];
    int k = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, out, k, p.length);
      k += p.length;
    }
    return out;
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
      throw invalid(e, e.getLocation().getCharOffset(), where);
    }
    return object(node, where);
  }

  /**
   * Parses a JSON object from the first {@code length} bytes of {@code ascii}, which hold ASCII
   * only ({@link #isAscii}): read from the bytes, with no text made first; errors as {@link
   * #parseObject(String, String)}'s, {@code where} made only for one.
   */
  static ObjectNode parseObject(byte[] ascii, int length, Supplier<String> where) {
    JsonNode node;
    try {
      node = MAPPER.readTree(ascii, 0, length);
    } catch (JsonProcessingException e) {
      // one byte is one character in ASCII: the offset is the text's
      throw invalid(e, e.getLocation().getByteOffset(), where.get());
    } catch (java.io.IOException e) {
      throw RpcException.proto(where.get() + ": " + e.getMessage());
    }
    if (node == null || !node.isObject()) {
      return object(node, where.get());
    }
    return (ObjectNode) node;
  }

  /** Whether every byte of {@code b} is ASCII (a NUL included). */
  static boolean isAscii(byte[] b) {
    for (byte x : b) {
      if (x < 0) {
        return false;
      }
    }
    return true;
  }

  private static RpcException invalid(JsonProcessingException e, long offset, String where) {
    String why = e.getOriginalMessage();
    int nl = why.indexOf('\n');
    return RpcException.proto(
        where
            + ": invalid JSON at offset "
            + offset
            + " ("
            + (nl < 0 ? why : why.substring(0, nl)).toLowerCase(java.util.Locale.ROOT)
            + ")");
  }

  private static ObjectNode object(JsonNode node, String where) {
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
