package io.fluxdrm.rpc.zmtp;

import java.nio.charset.StandardCharsets;

/**
 * A ZMTP greeting (RFC 37 section "The Greeting"): 64 bytes of signature, version, mechanism,
 * as-server flag and filler. This side sends version 3.1; it accepts peers of version 3.0 and later
 * (a version above 3.1 speaks 3.1 to us) and refuses anything older.
 *
 * @param major the peer's major version
 * @param minor the peer's minor version
 * @param mechanism the mechanism name, without its zero padding
 * @param asServer the as-server flag
 */
public record Greeting(int major, int minor, String mechanism, boolean asServer) {
  /** The size of a greeting. */
  public static final int SIZE = 64;

  /** How many bytes of a greeting tell its version: signature (10) and major version (1). */
  public static final int VERSION_PREFIX = 11;

  private static final int MECHANISM_AT = 12;
  private static final int MECHANISM_SIZE = 20;
  private static final int AS_SERVER_AT = 32;

  /** Returns this side's greeting: version 3.1, the mechanism and the as-server flag. */
  public static byte[] encode(String mechanism, boolean asServer) {
    byte[] name = mechanism.getBytes(StandardCharsets.US_ASCII);
    if (name.length == 0 || name.length > MECHANISM_SIZE) {
      throw new IllegalArgumentException("mechanism name of 1 to 20 characters expected");
    }
    byte[] g = new byte[SIZE];
    g[0] = (byte) 0xff;
    g[9] = 0x7f;
    g[10] = 3;
    g[11] = 1;
    System.arraycopy(name, 0, g, MECHANISM_AT, name.length);
    g[AS_SERVER_AT] = (byte) (asServer ? 1 : 0);
    return g;
  }

  /**
   * Checks the first {@code len} bytes of a peer's greeting as they arrive, so that a peer that is
   * not a ZMTP 3 peer is refused before its whole greeting is read.
   *
   * @throws ZmtpException when the signature or the version is wrong
   */
  public static void checkPrefix(byte[] g, int len) throws ZmtpException {
    if (len >= 1 && (g[0] & 0xff) != 0xff) {
      throw new ZmtpException(
          "greeting: byte 0 is 0x"
              + hex(g[0])
              + " (expected: 0xff, the ZMTP signature; not a ZeroMQ peer)");
    }
    if (len >= 10 && (g[9] & 0x01) == 0) {
      throw new ZmtpException(
          "greeting: byte 9 is 0x"
              + hex(g[9])
              + " (expected: 0x7f; a ZMTP 1.0 peer, which is not supported)");
    }
    if (len >= VERSION_PREFIX && (g[10] & 0xff) < 3) {
      throw new ZmtpException(
          "greeting: ZMTP version "
              + (g[10] & 0xff)
              + ".x (expected: 3.0 or later; libzmq 4 or JeroMQ 0.4 and later)");
    }
  }

  /**
   * Parses a whole peer greeting.
   *
   * @throws ZmtpException when the signature, the version or the mechanism name is malformed
   */
  public static Greeting parse(byte[] g) throws ZmtpException {
    if (g.length != SIZE) {
      throw new ZmtpException("greeting: " + g.length + " bytes (expected: 64)");
    }
    checkPrefix(g, SIZE);
    int end = MECHANISM_AT;
    while (end < MECHANISM_AT + MECHANISM_SIZE && g[end] != 0) {
      end++;
    }
    for (int i = MECHANISM_AT; i < MECHANISM_AT + MECHANISM_SIZE; i++) {
      int b = g[i] & 0xff;
      boolean ok = i < end ? b >= 0x21 && b < 0x7f : b == 0;
      if (!ok) {
        throw new ZmtpException(
            "greeting: mechanism byte "
                + (i - MECHANISM_AT)
                + " is 0x"
                + hex(g[i])
                + " (expected: printable ASCII padded with zeros)");
      }
    }
    if (end == MECHANISM_AT) {
      throw new ZmtpException("greeting: empty mechanism name (expected: NULL, PLAIN or CURVE)");
    }
    return new Greeting(
        g[10] & 0xff,
        g[11] & 0xff,
        new String(g, MECHANISM_AT, end - MECHANISM_AT, StandardCharsets.US_ASCII),
        g[AS_SERVER_AT] != 0);
  }

  /** Returns whether the peer speaks ZMTP 3.1 (PING and PONG) rather than 3.0. */
  public boolean speaks31() {
    return major > 3 || minor >= 1;
  }

  private static String hex(byte b) {
    return String.format("%02x", b & 0xff);
  }
}
