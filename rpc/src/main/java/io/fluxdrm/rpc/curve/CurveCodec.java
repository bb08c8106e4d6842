package io.fluxdrm.rpc.curve;

import io.fluxdrm.rpc.zmtp.Frame;
import io.fluxdrm.rpc.zmtp.ZmtpException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The CurveZMQ pieces both sides share: command names, short nonces, and the MESSAGE command that
 * seals every frame after the handshake.
 *
 * <p>On the wire a sealed frame is {@code "\x07MESSAGE"}, the 8-byte short nonce, then the box of
 * one flags byte (0x01 MORE, 0x02 COMMAND) and the frame's bytes; the outer frame is a message part
 * without MORE, as libzmq 4.3 and JeroMQ 0.6.0 write it, and they read it whatever its outer flags,
 * as this class does. Short nonces go up by one per command or message sent, starting at 1; a
 * received one must exceed the last one received from the peer.
 */
final class CurveCodec {
  static final byte[] HELLO_PREFIX = ascii("CurveZMQHELLO---");
  static final byte[] WELCOME_PREFIX = ascii("WELCOME-");
  static final byte[] COOKIE_PREFIX = ascii("COOKIE--");
  static final byte[] VOUCH_PREFIX = ascii("VOUCH---");
  static final byte[] INITIATE_PREFIX = ascii("CurveZMQINITIATE");
  static final byte[] READY_PREFIX = ascii("CurveZMQREADY---");
  static final byte[] CLIENT_MESSAGE_PREFIX = ascii("CurveZMQMESSAGEC");
  static final byte[] SERVER_MESSAGE_PREFIX = ascii("CurveZMQMESSAGES");

  private static final byte[] MESSAGE = command("MESSAGE");
  private static final int MIN_MESSAGE = MESSAGE.length + 8 + CurveCrypto.TAG + 1;

  private final byte[] key;
  private final byte[] sendPrefix;
  private final byte[] receivePrefix;
  private long nextNonce;
  private long lastPeerNonce;

  /**
   * Creates the codec of one side once the handshake is done.
   *
   * @param key the precomputed box key of the two short-term keys
   * @param client whether this side is the client
   * @param nextNonce the short nonce of the next message this side sends
   * @param lastPeerNonce the last short nonce the peer used
   */
  CurveCodec(byte[] key, boolean client, long nextNonce, long lastPeerNonce) {
    this.key = key;
    this.sendPrefix = client ? CLIENT_MESSAGE_PREFIX : SERVER_MESSAGE_PREFIX;
    this.receivePrefix = client ? SERVER_MESSAGE_PREFIX : CLIENT_MESSAGE_PREFIX;
    this.nextNonce = nextNonce;
    this.lastPeerNonce = lastPeerNonce;
  }

  /** Zeroes the session key: the connection is over (the codec is not used afterwards). */
  void wipe() {
    Arrays.fill(key, (byte) 0);
  }

  /** Returns the session key itself, not a copy (for tests of its wiping). */
  byte[] keyForTest() {
    return key;
  }

  Frame encode(Frame plain) {
    byte[] body = plain.body();
    byte[] inner = new byte[1 + body.length];
    inner[0] = (byte) ((plain.more() ? 0x01 : 0) | (plain.command() ? 0x02 : 0));
    System.arraycopy(body, 0, inner, 1, body.length);
    long n = nextNonce++;
    byte[] box = CurveCrypto.seal(key, CurveCrypto.nonce(sendPrefix, n), inner, 0, inner.length);
    byte[] out = new byte[MESSAGE.length + 8 + box.length];
    System.arraycopy(MESSAGE, 0, out, 0, MESSAGE.length);
    CurveCrypto.putLong(out, MESSAGE.length, n);
    System.arraycopy(box, 0, out, MESSAGE.length + 8, box.length);
    return Frame.part(out, false);
  }

  Frame decode(Frame wire) throws ZmtpException {
    byte[] body = wire.body();
    if (body.length < MIN_MESSAGE) {
      throw new ZmtpException(
          "curve: MESSAGE: " + body.length + " bytes (expected: at least " + MIN_MESSAGE + ")");
    }
    if (!Arrays.equals(body, 0, MESSAGE.length, MESSAGE, 0, MESSAGE.length)) {
      throw new ZmtpException("curve: frame is " + nameOf(body) + " (expected: MESSAGE)");
    }
    long n = CurveCrypto.getLong(body, MESSAGE.length);
    checkNonce("MESSAGE", n, lastPeerNonce);
    int boxAt = MESSAGE.length + 8;
    byte[] inner =
        CurveCrypto.open(
            key, CurveCrypto.nonce(receivePrefix, n), body, boxAt, body.length - boxAt);
    if (inner == null) {
      throw new ZmtpException("curve: MESSAGE: box does not open");
    }
    int flags = inner[0] & 0xff;
    boolean more = (flags & 0x01) != 0;
    boolean command = (flags & 0x02) != 0;
    if (more && command) {
      throw new ZmtpException("curve: MESSAGE: flags 0x03 mark a command with MORE");
    }
    if ((flags & ~0x03) != 0) {
      // RFC 26, MESSAGE: only MORE (0x01) and COMMAND (0x02) are defined; the rest are reserved
      throw new ZmtpException(
          "curve: MESSAGE: reserved flag bits set in 0x"
              + Integer.toHexString(flags)
              + " (expected: only 0x01 and 0x02)");
    }
    lastPeerNonce = n;
    return new Frame(Arrays.copyOfRange(inner, 1, inner.length), more, command);
  }

  /** Throws unless the short nonce {@code n} exceeds {@code last} (both unsigned). */
  static void checkNonce(String what, long n, long last) throws ZmtpException {
    if (Long.compareUnsigned(n, last) <= 0) {
      throw new ZmtpException(
          "curve: "
              + what
              + ": nonce "
              + Long.toUnsignedString(n)
              + " is not above the last one ("
              + Long.toUnsignedString(last)
              + ")");
    }
  }

  /** Returns a command's name and length prefix: the length byte then the name. */
  static byte[] command(String name) {
    byte[] n = ascii(name);
    byte[] out = new byte[1 + n.length];
    out[0] = (byte) n.length;
    System.arraycopy(n, 0, out, 1, n.length);
    return out;
  }

  /** Whether a command body starts with the given name prefix (from {@link #command}). */
  static boolean is(byte[] body, byte[] name) {
    return body.length >= name.length && Arrays.equals(body, 0, name.length, name, 0, name.length);
  }

  /** Returns a command body's name for an error text, or a description when it has none. */
  static String nameOf(byte[] body) {
    if (body.length == 0) {
      return "an empty frame";
    }
    int len = body[0] & 0xff;
    if (len == 0 || len > body.length - 1) {
      return "a frame without a command name";
    }
    StringBuilder s = new StringBuilder();
    for (int i = 1; i <= len; i++) {
      char c = (char) (body[i] & 0xff);
      s.append(c >= 0x20 && c < 0x7f ? c : '?');
    }
    return s.toString();
  }

  /** Returns an ERROR command with its reason (at most 255 bytes of ASCII). */
  static byte[] error(String reason) {
    byte[] name = command("ERROR");
    byte[] r = ascii(reason);
    byte[] out = new byte[name.length + 1 + r.length];
    System.arraycopy(name, 0, out, 0, name.length);
    out[name.length] = (byte) r.length;
    System.arraycopy(r, 0, out, name.length + 1, r.length);
    return out;
  }

  static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
