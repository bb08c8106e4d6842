package io.fluxdrm.rpc.curve;

/**
 * Z85, ZeroMQ's printable encoding of binary data (ZeroMQ RFC 32), in which users write CURVE keys:
 * every 4 bytes become 5 characters. Bad input gets an {@link IllegalArgumentException} whose text
 * says what is wrong (length, or which character at which position), since keys come from users'
 * configuration.
 */
public final class Z85 {
  private static final String ALPHABET =
      "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";
  private static final int[] DIGIT = new int[128];

  /** Characters in the Z85 text of a 32-byte CURVE key. */
  public static final int KEY_CHARS = 40;

  static {
    java.util.Arrays.fill(DIGIT, -1);
    for (int i = 0; i < ALPHABET.length(); i++) {
      DIGIT[ALPHABET.charAt(i)] = i;
    }
  }

  private Z85() {}

  /**
   * Encodes bytes whose count is a multiple of 4.
   *
   * @throws IllegalArgumentException when the count is not a multiple of 4
   */
  public static String encode(byte[] data) {
    if (data.length % 4 != 0) {
      throw new IllegalArgumentException(
          "z85: " + data.length + " bytes to encode (expected: a multiple of 4)");
    }
    StringBuilder out = new StringBuilder(data.length / 4 * 5);
    char[] group = new char[5];
    for (int i = 0; i < data.length; i += 4) {
      long v =
          (data[i] & 0xffL) << 24
              | (data[i + 1] & 0xffL) << 16
              | (data[i + 2] & 0xffL) << 8
              | (data[i + 3] & 0xffL);
      for (int j = 4; j >= 0; j--) {
        group[j] = ALPHABET.charAt((int) (v % 85));
        v /= 85;
      }
      out.append(group);
    }
    return out.toString();
  }

  /**
   * Encodes bytes whose count is a multiple of 4 as ASCII characters into {@code out} from {@code
   * offset}, with no other copy: for a secret key, whose text the caller zeroes once used (a String
   * cannot be zeroed; decision D331).
   *
   * @return the offset after the last character written
   * @throws IllegalArgumentException when the count is not a multiple of 4
   * @throws IndexOutOfBoundsException when {@code out} has no room for the text
   */
  public static int encodeAscii(byte[] data, byte[] out, int offset) {
    if (data.length % 4 != 0) {
      throw new IllegalArgumentException(
          "z85: " + data.length + " bytes to encode (expected: a multiple of 4)");
    }
    java.util.Objects.checkFromIndexSize(offset, data.length / 4 * 5, out.length);
    int o = offset;
    for (int i = 0; i < data.length; i += 4) {
      long v =
          (data[i] & 0xffL) << 24
              | (data[i + 1] & 0xffL) << 16
              | (data[i + 2] & 0xffL) << 8
              | (data[i + 3] & 0xffL);
      for (int j = 4; j >= 0; j--) {
        out[o + j] = (byte) ALPHABET.charAt((int) (v % 85));
        v /= 85;
      }
      o += 5;
    }
    return o;
  }

  /**
   * Decodes text whose length is a multiple of 5.
   *
   * @throws IllegalArgumentException when the length is not a multiple of 5, a character is not of
   *     the Z85 alphabet, or a group of 5 characters exceeds 32 bits
   */
  public static byte[] decode(String text) {
    if (text.length() % 5 != 0) {
      throw new IllegalArgumentException(
          "z85: " + text.length() + " characters (expected: a multiple of 5)");
    }
    byte[] out = new byte[text.length() / 5 * 4];
    for (int i = 0; i < text.length(); i += 5) {
      long v = 0;
      for (int j = 0; j < 5; j++) {
        char c = text.charAt(i + j);
        int d = c < 128 ? DIGIT[c] : -1;
        if (d < 0) {
          throw new IllegalArgumentException(
              "z85: character "
                  + (i + j)
                  + " is "
                  + describe(c)
                  + " (expected: one of the 85 Z85 characters)");
        }
        v = v * 85 + d;
      }
      if (v > 0xffffffffL) {
        throw new IllegalArgumentException(
            "z85: characters "
                + i
                + "-"
                + (i + 4)
                + " \""
                + text.substring(i, i + 5)
                + "\" exceed 32 bits");
      }
      int o = i / 5 * 4;
      out[o] = (byte) (v >>> 24);
      out[o + 1] = (byte) (v >>> 16);
      out[o + 2] = (byte) (v >>> 8);
      out[o + 3] = (byte) v;
    }
    return out;
  }

  /**
   * Decodes a CURVE key: 40 characters giving 32 bytes.
   *
   * @throws IllegalArgumentException when the text is not a Z85 key, saying why
   */
  public static byte[] decodeKey(String text) {
    if (text.length() != KEY_CHARS) {
      throw new IllegalArgumentException(
          "z85 key: " + text.length() + " characters (expected: " + KEY_CHARS + ")");
    }
    return decode(text);
  }

  private static String describe(char c) {
    if (c >= 0x21 && c < 0x7f) {
      return "'" + c + "'";
    }
    return String.format("U+%04X", (int) c);
  }
}
