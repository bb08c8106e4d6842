package io.fluxdrm.rpc.zmtp;

import java.nio.charset.StandardCharsets;

/**
 * The body of a ZMTP command frame (RFC 37 section "Commands"): a name length byte, the name, then
 * the command's data; and the commands every mechanism shares.
 */
public final class Command {
  /** The NULL mechanism's (and CURVE's server) handshake command. */
  public static final String READY = "READY";

  /** A handshake refusal, carrying a reason. */
  public static final String ERROR = "ERROR";

  /** A ZMTP 3.1 heartbeat. */
  public static final String PING = "PING";

  /** The answer to a PING. */
  public static final String PONG = "PONG";

  private Command() {}

  /** Returns a command body: the name then the data. */
  public static byte[] of(String name, byte[] data) {
    byte[] n = name.getBytes(StandardCharsets.US_ASCII);
    if (n.length == 0 || n.length > 255) {
      throw new IllegalArgumentException("command name of 1 to 255 characters expected");
    }
    byte[] b = new byte[1 + n.length + data.length];
    b[0] = (byte) n.length;
    System.arraycopy(n, 0, b, 1, n.length);
    System.arraycopy(data, 0, b, 1 + n.length, data.length);
    return b;
  }

  /**
   * Returns the name of a command.
   *
   * @throws ZmtpException when the body is empty, its name is empty or longer than the body
   */
  public static String name(byte[] body) throws ZmtpException {
    if (body.length == 0) {
      throw new ZmtpException("command: empty body (expected: a name length and a name)");
    }
    int n = body[0] & 0xff;
    if (n == 0) {
      throw new ZmtpException("command: empty name (expected: 1 to 255 characters)");
    }
    if (1 + n > body.length) {
      throw new ZmtpException(
          "command: name of "
              + n
              + " bytes in a body of "
              + body.length
              + " (expected: the name within the body)");
    }
    return new String(body, 1, n, StandardCharsets.US_ASCII);
  }

  /** Returns where a command's data starts (call after {@link #name}). */
  public static int dataOffset(byte[] body) {
    return 1 + (body[0] & 0xff);
  }

  /** Returns an ERROR command with its reason (cut to 255 bytes). */
  public static byte[] error(String reason) {
    byte[] r = reason.getBytes(StandardCharsets.US_ASCII);
    int n = Math.min(255, r.length);
    byte[] data = new byte[1 + n];
    data[0] = (byte) n;
    System.arraycopy(r, 0, data, 1, n);
    return of(ERROR, data);
  }

  /**
   * Returns the reason of an ERROR command, non-printable bytes shown as '?'.
   *
   * @throws ZmtpException when the reason's length runs past the body
   */
  public static String errorReason(byte[] body) throws ZmtpException {
    int at = dataOffset(body);
    if (at >= body.length) {
      throw new ZmtpException("ERROR: no reason length (expected: a length byte and a reason)");
    }
    int n = body[at] & 0xff;
    if (at + 1 + n > body.length) {
      throw new ZmtpException(
          "ERROR: reason of " + n + " bytes runs past the command (expected: within it)");
    }
    StringBuilder s = new StringBuilder(n);
    for (int i = at + 1; i < at + 1 + n; i++) {
      int c = body[i] & 0xff;
      s.append(c >= 0x20 && c < 0x7f ? (char) c : '?');
    }
    return s.toString();
  }
}
