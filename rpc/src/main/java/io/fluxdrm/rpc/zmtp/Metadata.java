package io.fluxdrm.rpc.zmtp;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * ZMTP metadata (RFC 37 section "Metadata"), as carried by READY and INITIATE: properties, each a
 * name length byte, a name of letters, digits and {@code - _ . +}, a 4-byte big-endian value length
 * and the value. Names are case-insensitive; {@link #get} looks them up so.
 */
public final class Metadata {
  private Metadata() {}

  /** Encodes the properties in the map's order. */
  public static byte[] encode(Map<String, byte[]> properties) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Map.Entry<String, byte[]> e : properties.entrySet()) {
      byte[] name = e.getKey().getBytes(StandardCharsets.US_ASCII);
      if (name.length == 0 || name.length > 255 || badNameChar(e.getKey()) >= 0) {
        throw new IllegalArgumentException("metadata: bad property name \"" + e.getKey() + "\"");
      }
      byte[] v = e.getValue();
      out.write(name.length);
      out.write(name, 0, name.length);
      out.write(v.length >>> 24);
      out.write(v.length >>> 16);
      out.write(v.length >>> 8);
      out.write(v.length);
      out.write(v, 0, v.length);
    }
    return out.toByteArray();
  }

  /**
   * Decodes the properties in {@code len} bytes of {@code buf} from {@code off}: names as received,
   * in order (unmodifiable).
   *
   * @throws ZmtpException when a property is truncated, a name is empty or has a character outside
   *     the name characters, or a name repeats (ignoring case)
   */
  public static Map<String, byte[]> decode(byte[] buf, int off, int len) throws ZmtpException {
    Map<String, byte[]> out = new LinkedHashMap<>();
    Map<String, Boolean> seen = new LinkedHashMap<>();
    int p = off;
    int end = off + len;
    for (int index = 0; p < end; index++) {
      String where = "metadata: property " + index + ": ";
      int n = buf[p] & 0xff;
      if (n == 0) {
        throw new ZmtpException(where + "empty name (expected: 1 to 255 characters)");
      }
      if (end - p - 1 < n + 4) {
        throw new ZmtpException(where + "truncated name or value length");
      }
      String name = new String(buf, p + 1, n, StandardCharsets.ISO_8859_1);
      int bad = badNameChar(name);
      if (bad >= 0) {
        throw new ZmtpException(
            where
                + "name character "
                + bad
                + " is not allowed (expected: letters, digits, '-', '_', '.', '+')");
      }
      if (seen.put(name.toLowerCase(Locale.ROOT), Boolean.TRUE) != null) {
        throw new ZmtpException(where + "name \"" + name + "\" repeated");
      }
      p += 1 + n;
      long v =
          ((buf[p] & 0xffL) << 24)
              | ((buf[p + 1] & 0xffL) << 16)
              | ((buf[p + 2] & 0xffL) << 8)
              | (buf[p + 3] & 0xffL);
      p += 4;
      if (v > end - p) {
        throw new ZmtpException(
            where + "\"" + name + "\" value of " + v + " bytes runs past the metadata");
      }
      byte[] value = new byte[(int) v];
      System.arraycopy(buf, p, value, 0, value.length);
      p += value.length;
      out.put(name, value);
    }
    return Collections.unmodifiableMap(out);
  }

  /** Returns the value of a property whatever the case of its name, or null. */
  public static byte[] get(Map<String, byte[]> properties, String name) {
    for (Map.Entry<String, byte[]> e : properties.entrySet()) {
      if (e.getKey().equalsIgnoreCase(name)) {
        return e.getValue();
      }
    }
    return null;
  }

  /** Returns the index of the first character not allowed in a name, or -1. */
  private static int badNameChar(String name) {
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '-'
              || c == '_'
              || c == '.'
              || c == '+';
      if (!ok) {
        return i;
      }
    }
    return -1;
  }
}
