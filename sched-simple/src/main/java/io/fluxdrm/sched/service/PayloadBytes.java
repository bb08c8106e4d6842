package io.fluxdrm.sched.service;

import java.nio.charset.StandardCharsets;

/**
 * Reading JSON text as bytes, for the two payloads of every job that flux-core's job manager writes
 * in one fixed layout ({@code sched.alloc} and the final {@code sched.free}, D584): literal pieces,
 * JSON numbers and the extent of one object. A payload that does not match is not read here but
 * takes the full path (a tree and a schema check), which says what is wrong with it.
 */
final class PayloadBytes {
  private PayloadBytes() {}

  static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /** Whether {@code x} is in {@code b} at {@code from}, before {@code end}. */
  static boolean at(byte[] b, int from, int end, byte[] x) {
    if (from < 0 || end - from < x.length) {
      return false;
    }
    for (int i = 0; i < x.length; i++) {
      if (b[from + i] != x[i]) {
        return false;
      }
    }
    return true;
  }

  static boolean isNumberByte(byte c) {
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
  }

  /** Where the run of bytes that may belong to a number, from {@code from}, ends. */
  static int numberEnd(byte[] b, int from, int end) {
    int i = from;
    while (i < end && isNumberByte(b[i])) {
      i++;
    }
    return i;
  }

  /** Integer: a JSON number with neither fraction nor exponent. */
  static final int INTEGER = 1;

  /** A JSON number with a fraction or an exponent. */
  static final int REAL = 2;

  /** {@link #INTEGER} or {@link #REAL} when {@code b[s, e)} is a JSON number, else 0. */
  static int numberKind(byte[] b, int s, int e) {
    int i = s;
    if (i < e && b[i] == '-') {
      i++;
    }
    int d = digits(b, i, e);
    if (d == 0 || (b[i] == '0' && d > 1)) {
      return 0;
    }
    i += d;
    int kind = INTEGER;
    if (i < e && b[i] == '.') {
      d = digits(b, ++i, e);
      if (d == 0) {
        return 0;
      }
      i += d;
      kind = REAL;
    }
    if (i < e && (b[i] == 'e' || b[i] == 'E')) {
      i++;
      if (i < e && (b[i] == '+' || b[i] == '-')) {
        i++;
      }
      d = digits(b, i, e);
      if (d == 0) {
        return 0;
      }
      i += d;
      kind = REAL;
    }
    return i == e ? kind : 0;
  }

  /** How many decimal digits there are from {@code from}. */
  static int digits(byte[] b, int from, int end) {
    int i = from;
    while (i < end && b[i] >= '0' && b[i] <= '9') {
      i++;
    }
    return i - from;
  }

  /** The text of {@code b[s, e)}, ASCII. */
  static String text(byte[] b, int s, int e) {
    return new String(b, s, e - s, StandardCharsets.US_ASCII);
  }

  /**
   * Where the object that starts at {@code from} closes (the index after its brace), reading
   * strings and their escapes; -1 when {@code b[from]} is not a brace or it does not close before
   * {@code end}. Only the braces and brackets are matched: what is between them is not checked.
   */
  static int objectEnd(byte[] b, int from, int end) {
    if (from >= end || b[from] != '{') {
      return -1;
    }
    int depth = 0;
    boolean inString = false;
    for (int i = from; i < end; i++) {
      byte c = b[i];
      if (inString) {
        if (c == '\\') {
          i++;
        } else if (c == '"') {
          inString = false;
        }
      } else if (c == '"') {
        inString = true;
      } else if (c == '{' || c == '[') {
        depth++;
      } else if (c == '}' || c == ']') {
        if (--depth == 0) {
          return c == '}' ? i + 1 : -1;
        }
      }
    }
    return -1;
  }
}
