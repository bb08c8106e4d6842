package io.fluxdrm.rpc.zmtp;

import java.nio.ByteBuffer;

/**
 * Cuts a ZMTP byte stream into frames (RFC 37 section "Framing"), as bytes arrive in any pieces.
 * Flag bits: MORE 0x01, LONG 0x02 (an 8-byte size instead of a 1-byte one), COMMAND 0x04. As libzmq
 * does, the reserved bits 0xf8 are ignored and a long size below 256 is accepted; a command with
 * MORE, a frame above the configured maximum and a size above 2^63 are refused. Not thread-safe.
 */
public final class FrameDecoder {
  /** The MORE flag. */
  public static final int MORE = 0x01;

  /** The LONG flag. */
  public static final int LONG = 0x02;

  /** The COMMAND flag. */
  public static final int COMMAND = 0x04;

  private final int maxFrameSize;
  private final byte[] size = new byte[8];
  private int flags = -1;
  private int sizeNeeded;
  private int sizeHave;
  private byte[] body;
  private int bodyHave;
  private long offset;
  private long frameAt;

  /** Creates a decoder refusing frames larger than {@code maxFrameSize} bytes. */
  public FrameDecoder(int maxFrameSize) {
    if (maxFrameSize < 0) {
      throw new IllegalArgumentException("negative maximum frame size");
    }
    this.maxFrameSize = maxFrameSize;
  }

  /**
   * Consumes bytes from {@code in} until one frame is complete and returns it, or returns null when
   * {@code in} is used up first (the bytes read so far are kept).
   *
   * @throws ZmtpException when a frame is malformed or too large; the stream cannot go on
   */
  public Frame next(ByteBuffer in) throws ZmtpException {
    while (in.hasRemaining()) {
      if (body != null) {
        int k = Math.min(in.remaining(), body.length - bodyHave);
        in.get(body, bodyHave, k);
        bodyHave += k;
        offset += k;
        if (bodyHave == body.length) {
          return emit();
        }
      } else if (flags < 0) {
        frameAt = offset;
        flags = in.get() & 0xff;
        offset++;
        if ((flags & COMMAND) != 0 && (flags & MORE) != 0) {
          throw new ZmtpException(
              "frame at byte " + frameAt + ": a command with MORE set (expected: MORE clear)");
        }
        sizeNeeded = (flags & LONG) != 0 ? 8 : 1;
        sizeHave = 0;
      } else {
        size[sizeHave++] = in.get();
        offset++;
        if (sizeHave == sizeNeeded) {
          long n = 0;
          for (int i = 0; i < sizeNeeded; i++) {
            n = (n << 8) | (size[i] & 0xff);
          }
          if (n < 0 || n > maxFrameSize) {
            throw new ZmtpException(
                "frame at byte "
                    + frameAt
                    + ": size "
                    + Long.toUnsignedString(n)
                    + " over the limit of "
                    + maxFrameSize
                    + " bytes");
          }
          body = new byte[(int) n];
          bodyHave = 0;
          if (n == 0) {
            return emit();
          }
        }
      }
    }
    return null;
  }

  /** Returns whether a frame has been started but not finished. */
  public boolean midFrame() {
    return flags >= 0;
  }

  /** Returns how many bytes have been consumed. */
  public long offset() {
    return offset;
  }

  private Frame emit() {
    Frame f = new Frame(body, (flags & MORE) != 0, (flags & COMMAND) != 0);
    body = null;
    flags = -1;
    return f;
  }
}
