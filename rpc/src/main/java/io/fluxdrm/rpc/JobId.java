package io.fluxdrm.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.math.BigInteger;

/**
 * RFC 19 job ids (FLUIDs, unsigned 64 bits), the one home of their forms: F58 text (base58 digits
 * of the id, most significant first, after an {@code ƒ} for people and logs or an ASCII {@code f}
 * in service names such as {@code <uid>-shell-f...}), the dotted hex of KVS keys, and the JSON
 * integer of RPC payloads (RFC 27, RFC 51), read and written as unsigned, never as a double.
 */
public final class JobId {
  private static final String ALPHABET =
      "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
  private static final BigInteger UINT64_MAX =
      BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

  private JobId() {}

  /** F58 with the {@code ƒ} prefix, e.g. {@code ƒ2} for 1. */
  public static String f58(long id) {
    return "\u0192" + base58(id);
  }

  /** F58 with an ASCII {@code f} prefix, e.g. {@code f2} for 1. */
  public static String f58plain(long id) {
    return "f" + base58(id);
  }

  private static String base58(long id) {
    StringBuilder b = new StringBuilder();
    long n = id;
    do {
      b.append(ALPHABET.charAt((int) Long.remainderUnsigned(n, 58)));
      n = Long.divideUnsigned(n, 58);
    } while (n != 0);
    return b.reverse().toString();
  }

  /**
   * A job id from its text in one of RFC 19's forms, as {@code flux job id} reads them: F58 ({@code
   * ƒ...}, or {@code f...}; a {@code ƒ} that a non-UTF-8 locale turned into two replacement
   * characters is taken too), decimal, {@code 0x} hex, dotted hex, or {@code job.} dotted hex (the
   * KVS form); surrounding white space is ignored.
   *
   * @throws IllegalArgumentException for anything else, or an id over 64 bits
   */
  public static long parse(String s) {
    String t = s.strip();
    try {
      if (t.matches("[0-9]{1,20}")) {
        return Long.parseUnsignedLong(t);
      }
      if (t.matches("0x[0-9a-fA-F]{1,16}")) {
        return Long.parseUnsignedLong(t.substring(2), 16);
      }
      if (t.matches("(job\\.)?[0-9a-f]{4}(\\.[0-9a-f]{4}){3}")) {
        return Long.parseUnsignedLong(t.replace("job.", "").replace(".", ""), 16);
      }
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("job id out of range: " + s, e);
    }
    String digits = null;
    if (t.startsWith("\u0192")) {
      digits = t.substring(1);
    } else if (t.startsWith("\ufffd\ufffd")) {
      digits = t.substring(2);
    } else if (t.startsWith("f")) {
      digits = t.substring(1);
    }
    if (digits != null && !digits.isEmpty() && digits.length() <= 11) {
      BigInteger v = BigInteger.ZERO;
      for (int i = 0; i < digits.length() && v != null; i++) {
        int d = ALPHABET.indexOf(digits.charAt(i));
        v = d < 0 ? null : v.multiply(BigInteger.valueOf(58)).add(BigInteger.valueOf(d));
      }
      if (v != null && v.compareTo(UINT64_MAX) <= 0) {
        return v.longValue();
      }
    }
    throw new IllegalArgumentException("not a job id: " + s);
  }

  /** 16 hex digits in groups of four, as flux-core's KVS job keys: {@code 0000.0005.4f00.0000}. */
  public static String dothex(long id) {
    // written digit by digit: this names every job's R in the KVS, once per grant (issue 32)
    char[] c = new char[19];
    int k = c.length;
    long v = id;
    for (int i = 0; i < 16; i++) {
      if (i > 0 && i % 4 == 0) {
        c[--k] = '.';
      }
      c[--k] = HEX[(int) (v & 0xf)];
      v >>>= 4;
    }
    return new String(c);
  }

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  /** {@code id} as a JSON integer, its 64 bits read as unsigned (D11: never a double). */
  public static JsonNode json(long id) {
    if (id >= 0 && id <= Integer.MAX_VALUE) {
      return JsonNodeFactory.instance.numberNode((int) id);
    }
    return id >= 0
        ? JsonNodeFactory.instance.numberNode(id)
        : JsonNodeFactory.instance.numberNode(new BigInteger(Long.toUnsignedString(id)));
  }

  /**
   * Reads an unsigned 64-bit id: a JSON integer from 0 to 18446744073709551615, never a fraction or
   * a float (D11).
   *
   * @param node the value (null when the key is missing)
   * @param where its location, for the message, e.g. {@code sched.free: /id}
   * @return the id's 64 bits
   * @throws RpcException EPROTO, saying where and why, for anything else
   */
  public static long read(JsonNode node, String where) {
    if (node == null || !node.isIntegralNumber()) {
      throw new RpcException(
          Errno.EPROTO,
          where
              + ": "
              + (node == null ? "missing" : node.toString())
              + " (expected: an integer from 0 to 18446744073709551615)");
    }
    BigInteger b = node.bigIntegerValue();
    if (b.signum() < 0 || b.compareTo(UINT64_MAX) > 0) {
      throw new RpcException(
          Errno.EPROTO,
          where + ": " + b + " (expected: an integer from 0 to 18446744073709551615)");
    }
    return b.longValue();
  }
}
