package io.fluxdrm.rset;

import java.util.Arrays;

/**
 * A growable byte array that R's compact JSON text is written into, each value as Jackson's UTF-8
 * generator with {@link RCodec#MAPPER}'s settings writes it (issue 32: the scheduler writes one R
 * per job, and setting up a generator and a BigDecimal for each cost more than the writing).
 *
 * <p>A value it does not write as Jackson does (a string with a surrogate char, a time that is not
 * finite) is left out and marks the text as missed; the caller then writes the whole R with
 * Jackson.
 */
final class JsonBytes {
  private static final byte[] HEX = {
    '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'A', 'B', 'C', 'D', 'E', 'F'
  };

  private byte[] buf;
  private int len;
  private boolean missed;

  JsonBytes(int capacity) {
    buf = new byte[capacity];
  }

  /** Whether some value was left out, so the text is not Jackson's. */
  boolean missed() {
    return missed;
  }

  byte[] toByteArray() {
    return Arrays.copyOf(buf, len);
  }

  private void ensure(int more) {
    if (len + more > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
    }
  }

  /** Text of ASCII characters written as is: punctuation and keys. */
  JsonBytes raw(String ascii) {
    int n = ascii.length();
    ensure(n);
    for (int i = 0; i < n; i++) {
      buf[len++] = (byte) ascii.charAt(i);
    }
    return this;
  }

  JsonBytes raw(char ascii) {
    ensure(1);
    buf[len++] = (byte) ascii;
    return this;
  }

  /** A long in decimal. */
  JsonBytes number(long v) {
    return raw(Long.toString(v));
  }

  /**
   * A JSON string as Jackson escapes it: {@code "} and {@code \}, the short escapes {@code \b \t \n
   * \f \r}, other control characters as {@code \}{@code u00XX} in upper case hex, anything else as
   * its UTF-8 bytes. Surrogates (Jackson escapes them, maybe not in every version) are missed.
   */
  JsonBytes string(String s) {
    int n = s.length();
    ensure(n + 2);
    buf[len++] = '"';
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
        buf[len++] = (byte) c;
        continue;
      }
      // room for this char's longest form (6 bytes), the rest at a byte each and the quote
      ensure(6 + n - i);
      if (c < 0x80) {
        escape(c);
      } else if (c < 0x800) {
        buf[len++] = (byte) (0xC0 | (c >> 6));
        buf[len++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isSurrogate(c)) {
        missed = true;
      } else {
        buf[len++] = (byte) (0xE0 | (c >> 12));
        buf[len++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        buf[len++] = (byte) (0x80 | (c & 0x3F));
      }
    }
    buf[len++] = '"';
    return this;
  }

  private void escape(char c) {
    buf[len++] = '\\';
    char shortForm =
        switch (c) {
          case '"' -> '"';
          case '\\' -> '\\';
          case '\b' -> 'b';
          case '\t' -> 't';
          case '\n' -> 'n';
          case '\f' -> 'f';
          case '\r' -> 'r';
          default -> 0;
        };
    if (shortForm != 0) {
      buf[len++] = (byte) shortForm;
      return;
    }
    buf[len++] = 'u';
    buf[len++] = '0';
    buf[len++] = '0';
    buf[len++] = HEX[c >> 4];
    buf[len++] = HEX[c & 0xF];
  }

  /**
   * Epoch seconds as Jackson writes {@link RCodec#seconds}: the plain digits of {@code new
   * BigDecimal(Double.toString(v))}, with one decimal at least (the mapper writes BigDecimal
   * plain). Double.toString's exponent form {@code D.DDDE±N} is written out with its point moved. A
   * value that is not finite is missed.
   */
  JsonBytes seconds(double v) {
    if (!Double.isFinite(v)) {
      missed = true;
      return this;
    }
    if (v == 0) {
      return raw("0.0"); // BigDecimal has no negative zero
    }
    String s = Double.toString(v);
    int e = s.indexOf('E');
    if (e < 0) {
      return raw(s); // digits, a point and at least one decimal: BigDecimal's plain text too
    }
    int at = 0;
    if (s.charAt(0) == '-') {
      raw('-');
      at = 1;
    }
    // the digits are the mantissa's without its point; the point goes after `point` of them
    int digits = e - at - 1;
    int point = 1 + Integer.parseInt(s, e + 1, s.length(), 10);
    ensure(digits + Math.abs(point) + 3);
    if (point <= 0) {
      buf[len++] = '0';
      buf[len++] = '.';
      for (int i = point; i < 0; i++) {
        buf[len++] = '0';
      }
    }
    for (int i = 0; i < digits; i++) {
      if (i == point && i > 0) {
        buf[len++] = '.';
      }
      buf[len++] = (byte) s.charAt(i == 0 ? at : at + 1 + i);
    }
    if (point >= digits) {
      for (int i = digits; i < point; i++) {
        buf[len++] = '0';
      }
      buf[len++] = '.';
      buf[len++] = '0';
    }
    return this;
  }
}
