package io.fluxdrm.rpc.zmtp;

import java.nio.ByteBuffer;

/**
 * Cuts a ZMTP byte stream into frames (RFC 37 section "Framing"), as bytes arrive in any pieces.
 * Flag bits: MORE 0x01, LONG 0x02 (an 8-byte size instead of a 1-byte one), COMMAND 0x04. As libzmq
 * does, the reserved bits 0xf8 are ignored and a long size below 256 is accepted; a command with
 * MORE, a frame above the configured maximum and a size above 2^63 are refused. Not thread-safe.
 *
 * <p>A frame's body grows with the bytes actually received (from 4 KiB, doubling): a header that
 * claims a large size reserves nothing by itself (issue 12, finding 1). Every growth is first asked
 * of a {@link Budget}, so that a listener can bound the memory that incomplete frames hold.
 */
public final class FrameDecoder {
  /** The MORE flag. */
  public static final int MORE = 0x01;

  /** The LONG flag. */
  public static final int LONG = 0x02;

  /** The COMMAND flag. */
  public static final int COMMAND = 0x04;

  /** Where the memory of incomplete frames is accounted (on the decoder's thread). */
  public interface Budget {
    /** Returns whether {@code bytes} more may be held; when true they are counted as held. */
    boolean reserve(long bytes);
  }

  /** A budget that grants everything. */
  public static final Budget UNLIMITED = bytes -> true;

  private static final int FIRST_CHUNK = 4096;

  private int maxFrameSize;
  private Budget budget = UNLIMITED;
  private int bodySize;
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

  /** Changes the largest frame accepted from the next frame header on (e.g. after a handshake). */
  public void setMaxFrameSize(int maxFrameSize) {
    if (maxFrameSize < 0) {
      throw new IllegalArgumentException("negative maximum frame size");
    }
    this.maxFrameSize = maxFrameSize;
  }

  /** Sets where body growth is accounted. */
  public void setBudget(Budget budget) {
    this.budget = java.util.Objects.requireNonNull(budget, "budget");
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
        if (bodyHave == body.length) {
          grow();
        }
        int k = Math.min(in.remaining(), body.length - bodyHave);
        in.get(body, bodyHave, k);
        bodyHave += k;
        offset += k;
        if (bodyHave == bodySize) {
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
          bodySize = (int) n;
          bodyHave = 0;
          body = new byte[0];
          if (n == 0) {
            return emit();
          }
        }
      }
    }
    return null;
  }

  /** Grows the body towards its size: the bytes received so far are kept, never the claim. */
  private void grow() throws ZmtpException {
    int next = (int) Math.min(bodySize, Math.max(FIRST_CHUNK, 2L * body.length));
    if (!budget.reserve(next - body.length)) {
      throw new ZmtpException(
          "frame at byte "
              + frameAt
              + ": memory budget for incomplete frames used up ("
              + bodyHave
              + " of "
              + bodySize
              + " bytes received)");
    }
    body = java.util.Arrays.copyOf(body, next);
  }

  /** Returns the size the frame in progress claims; -1 before its header is complete. */
  public long claimedSize() {
    return body == null ? -1 : bodySize;
  }

  /** Returns the stream offset of the frame in progress (or of the last one). */
  public long frameAt() {
    return frameAt;
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
