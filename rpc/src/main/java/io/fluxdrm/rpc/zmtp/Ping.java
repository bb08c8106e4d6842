package io.fluxdrm.rpc.zmtp;

import java.util.Arrays;

/**
 * A ZMTP 3.1 PING (RFC 37 section "Connection Heartbeating"): a time to live in deciseconds (zero:
 * none) and a context of up to 16 bytes that the PONG echoes.
 *
 * @param ttlDeciseconds how long the receiver may wait for traffic before closing, 0 for no limit
 * @param context the bytes the PONG must echo (at most 16)
 */
public record Ping(int ttlDeciseconds, byte[] context) {
  /** The longest context a PING carries. */
  public static final int MAX_CONTEXT = 16;

  /** Checks the fields. */
  public Ping {
    if (ttlDeciseconds < 0 || ttlDeciseconds > 0xffff) {
      throw new IllegalArgumentException("ttl of 0 to 65535 deciseconds expected");
    }
    if (context.length > MAX_CONTEXT) {
      throw new IllegalArgumentException("context of at most 16 bytes expected");
    }
    context = context.clone();
  }

  /** Returns the context (a copy). */
  @Override
  public byte[] context() {
    return context.clone();
  }

  /** Returns the PING command body. */
  public byte[] encode() {
    byte[] data = new byte[2 + context.length];
    data[0] = (byte) (ttlDeciseconds >>> 8);
    data[1] = (byte) ttlDeciseconds;
    System.arraycopy(context, 0, data, 2, context.length);
    return Command.of(Command.PING, data);
  }

  /** Returns the PONG that answers this PING. */
  public byte[] pong() {
    return Command.of(Command.PONG, context);
  }

  /**
   * Parses a PING command body. A context longer than 16 bytes is cut to 16, as libzmq does.
   *
   * @throws ZmtpException when the command is not a PING or has no time to live
   */
  public static Ping parse(byte[] body) throws ZmtpException {
    String name = Command.name(body);
    if (!name.equals(Command.PING)) {
      throw new ZmtpException("PING: command " + name + " (expected: PING)");
    }
    int at = Command.dataOffset(body);
    if (body.length - at < 2) {
      throw new ZmtpException(
          "PING: " + (body.length - at) + " bytes of data (expected: a 2-byte ttl and a context)");
    }
    int ttl = ((body[at] & 0xff) << 8) | (body[at + 1] & 0xff);
    int n = Math.min(MAX_CONTEXT, body.length - at - 2);
    return new Ping(ttl, Arrays.copyOfRange(body, at + 2, at + 2 + n));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Ping p
        && p.ttlDeciseconds == ttlDeciseconds
        && Arrays.equals(p.context, context);
  }

  @Override
  public int hashCode() {
    return 31 * ttlDeciseconds + Arrays.hashCode(context);
  }

  @Override
  public String toString() {
    return "Ping[ttl=" + ttlDeciseconds + "ds, context=" + context.length + " bytes]";
  }
}
