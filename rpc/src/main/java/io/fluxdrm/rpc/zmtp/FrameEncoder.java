package io.fluxdrm.rpc.zmtp;

import java.util.List;

/** Writes ZMTP frames (RFC 37 section "Framing"): the short form up to 255 bytes, else long. */
public final class FrameEncoder {
  private FrameEncoder() {}

  /** Returns the size of a frame with a body of {@code bodyLength} bytes, header included. */
  public static int encodedSize(int bodyLength) {
    return bodyLength + (bodyLength <= 255 ? 2 : 9);
  }

  /** Writes a frame into {@code dst} at {@code off}; returns the offset after it. */
  public static int put(Frame f, byte[] dst, int off) {
    int n = f.body().length;
    int flags = (f.more() ? FrameDecoder.MORE : 0) | (f.command() ? FrameDecoder.COMMAND : 0);
    if (n <= 255) {
      dst[off++] = (byte) flags;
      dst[off++] = (byte) n;
    } else {
      dst[off++] = (byte) (flags | FrameDecoder.LONG);
      long l = n;
      for (int shift = 56; shift >= 0; shift -= 8) {
        dst[off++] = (byte) (l >>> shift);
      }
    }
    System.arraycopy(f.body(), 0, dst, off, n);
    return off + n;
  }

  /** Returns one frame's bytes. */
  public static byte[] encode(Frame f) {
    byte[] b = new byte[encodedSize(f.body().length)];
    put(f, b, 0);
    return b;
  }

  /** Returns the bytes of several frames, one after the other. */
  public static byte[] encode(List<Frame> frames) {
    int total = 0;
    for (Frame f : frames) {
      total += encodedSize(f.body().length);
    }
    byte[] b = new byte[total];
    int off = 0;
    for (Frame f : frames) {
      off = put(f, b, off);
    }
    return b;
  }

  /** Encodes a message's parts as frames in one array, MORE set on every part but the last. */
  public static byte[] encodeMessage(List<byte[]> parts) {
    int n = parts.size();
    int total = 0;
    for (byte[] p : parts) {
      total += encodedSize(p.length);
    }
    byte[] bytes = new byte[total];
    int off = 0;
    for (int i = 0; i < n; i++) {
      off = put(Frame.part(parts.get(i), i < n - 1), bytes, off);
    }
    return bytes;
  }
}
