package io.fluxdrm.shell;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.math.BigInteger;

/** Job ids (RFC 19 FLUIDs, unsigned 64 bits): the F58 text form and the JSON integer form. */
final class JobIds {
  private static final String ALPHABET =
      "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
  private static final BigInteger UINT64_MAX =
      BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

  private JobIds() {}

  /** The base58 digits of {@code id} read as unsigned, most significant first. */
  static String base58(long id) {
    StringBuilder b = new StringBuilder();
    long n = id;
    do {
      b.append(ALPHABET.charAt((int) Long.remainderUnsigned(n, 58)));
      n = Long.divideUnsigned(n, 58);
    } while (n != 0);
    return b.reverse().toString();
  }

  /** F58 with the {@code ƒ} prefix (for people and logs). */
  static String f58(long id) {
    return "\u0192" + base58(id);
  }

  /** F58 with an ASCII {@code f} prefix, as in shell service names. */
  static String f58plain(long id) {
    return "f" + base58(id);
  }

  /** {@code id} as a JSON integer, its 64 bits read as unsigned. */
  static JsonNode json(long id) {
    return id >= 0
        ? JsonNodeFactory.instance.numberNode(id)
        : JsonNodeFactory.instance.numberNode(new BigInteger(Long.toUnsignedString(id)));
  }

  /**
   * Reads an unsigned 64-bit integer.
   *
   * @throws ShellException EPROTO for anything but a JSON integer from 0 to 2^64 - 1
   */
  static long read(JsonNode node, String where) {
    if (node == null || !node.isIntegralNumber()) {
      throw new ShellException(
          io.fluxdrm.rpc.Errno.EPROTO,
          where
              + ": "
              + (node == null ? "missing" : node.toString())
              + " (expected: an integer from 0 to 18446744073709551615)");
    }
    BigInteger b = node.bigIntegerValue();
    if (b.signum() < 0 || b.compareTo(UINT64_MAX) > 0) {
      throw new ShellException(
          io.fluxdrm.rpc.Errno.EPROTO,
          where + ": " + b + " (expected: an integer from 0 to 18446744073709551615)");
    }
    return b.longValue();
  }
}
