package io.fluxdrm.shell;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.fluxdrm.rpc.JobId;
import java.math.BigInteger;

/** Job ids (RFC 19 FLUIDs, unsigned 64 bits): the F58 text form and the JSON integer form. */
final class JobIds {
  private static final BigInteger UINT64_MAX =
      BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

  private JobIds() {}

  /** F58 with the {@code ƒ} prefix (for people and logs). */
  static String f58(long id) {
    return JobId.f58(id);
  }

  /** F58 with an ASCII {@code f} prefix, as in shell service names. */
  static String f58plain(long id) {
    return JobId.f58plain(id);
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
