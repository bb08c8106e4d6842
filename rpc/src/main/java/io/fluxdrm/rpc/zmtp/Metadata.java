package io.fluxdrm.rpc.zmtp;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * ZMTP metadata (ZeroMQ RFC 37 section "metadata", also CurveZMQ's INITIATE and READY): a run of
 * properties, each a name length byte, the name (1 to 255 characters of letters, digits and {@code
 * - _ . +}), a 4-byte big-endian value length and the value.
 *
 * <p>Names keep their spelling and their order in the maps here ({@link LinkedHashMap}). Names are
 * case-insensitive (RFC 37): {@link #decode} refuses two properties whose names differ only in
 * case, and {@link #get} finds a property whatever the case of the name asked for.
 */
public final class Metadata {
  private Metadata() {}

  /**
   * Encodes properties in their map order.
   *
   * @throws IllegalArgumentException when a name is empty, longer than 255 bytes or has a character
   *     outside RFC 37's name characters
   */
  public static byte[] encode(Map<String, byte[]> properties) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Map.Entry<String, byte[]> e : properties.entrySet()) {
      String bad = checkName(e.getKey());
      if (bad != null) {
        throw new IllegalArgumentException("metadata: property \"" + e.getKey() + "\": " + bad);
      }
      byte[] name = e.getKey().getBytes(StandardCharsets.US_ASCII);
      byte[] value = e.getValue();
      out.write(name.length);
      out.write(name, 0, name.length);
      out.write(value.length >>> 24);
      out.write(value.length >>> 16);
      out.write(value.length >>> 8);
      out.write(value.length);
      out.write(value, 0, value.length);
    }
    return out.toByteArray();
  }

  /**
   * Decodes the properties in {@code len} bytes of {@code buf} from {@code off}.
   *
   * @return the properties, names as received, in the order received (unmodifiable)
   * @throws ZmtpException when a property is truncated, its name is empty or has a character
   *     outside RFC 37's name characters, or a name repeats (ignoring case)
   */
  public static Map<String, byte[]> decode(byte[] buf, int off, int len) throws ZmtpException {
    Map<String, byte[]> out = new LinkedHashMap<>();
    Map<String, String> seen = new LinkedHashMap<>();
    int p = off;
    int end = off + len;
    int index = 0;
    while (p < end) {
      String where = "metadata: property " + index + ": ";
      int nameLen = buf[p] & 0xff;
      if (nameLen == 0) {
        throw new ZmtpException(where + "empty name");
      }
      if (end - p - 1 < nameLen + 4) {
        throw new ZmtpException(
            where + "truncated name or value length (" + (end - p) + " bytes left)");
      }
      String name = new String(buf, p + 1, nameLen, StandardCharsets.ISO_8859_1);
      String bad = checkName(name);
      if (bad != null) {
        throw new ZmtpException(where + bad);
      }
      p += 1 + nameLen;
      long valueLen =
          (buf[p] & 0xffL) << 24
              | (buf[p + 1] & 0xffL) << 16
              | (buf[p + 2] & 0xff) << 8
              | (buf[p + 3] & 0xff);
      p += 4;
      if (valueLen > end - p) {
        throw new ZmtpException(
            where
                + "\""
                + name
                + "\" value of "
                + valueLen
                + " bytes is truncated (found: "
                + (end - p)
                + ")");
      }
      String key = name.toLowerCase(Locale.ROOT);
      if (seen.containsKey(key)) {
        throw new ZmtpException(
            where + "\"" + name + "\" repeats \"" + seen.get(key) + "\" (names ignore case)");
      }
      seen.put(key, name);
      byte[] value = new byte[(int) valueLen];
      System.arraycopy(buf, p, value, 0, value.length);
      out.put(name, value);
      p += value.length;
      index++;
    }
    return Collections.unmodifiableMap(out);
  }

  /** Returns the value of a property, finding its name whatever its case, or null when absent. */
  public static byte[] get(Map<String, byte[]> properties, String name) {
    for (Map.Entry<String, byte[]> e : properties.entrySet()) {
      if (e.getKey().equalsIgnoreCase(name)) {
        return e.getValue();
      }
    }
    return null;
  }

  private static String checkName(String name) {
    if (name.isEmpty()) {
      return "empty name";
    }
    if (name.length() > 255) {
      return "name of " + name.length() + " characters (expected: at most 255)";
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean ok =
          c >= 'a' && c <= 'z'
              || c >= 'A' && c <= 'Z'
              || c >= '0' && c <= '9'
              || c == '-'
              || c == '_'
              || c == '.'
              || c == '+';
      if (!ok) {
        return String.format(
            "name character %d is U+%04X (expected: a letter, a digit or one of - _ . +)",
            i, (int) c);
      }
    }
    return null;
  }
}
