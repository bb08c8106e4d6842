package io.fluxdrm.pmix;

import java.util.function.Function;

/**
 * A decoder of one LZ4 frame (the LZ4 frame and block formats, as published with the LZ4 library),
 * bounded by the length its caller expects: what libpmix's {@code lz4} compressor puts behind the
 * 4-byte length of a {@code compress} regex (decision D503). Written from the format description;
 * the header and content checksums are skipped, not verified (the caller's declared length and the
 * block bounds catch truncation); a frame that needs a dictionary is refused.
 */
final class Lz4Frame {
  private Lz4Frame() {}

  private static final int MAGIC = 0x184D2204;

  /**
   * Decodes {@code frame}.
   *
   * @param frame the frame, magic number first, nothing after it
   * @param expected the number of bytes it must decode to
   * @param error makes the exception for a reason
   * @return exactly {@code expected} bytes
   */
  static byte[] decode(byte[] frame, int expected, Function<String, PmixException> error) {
    Reader r = new Reader(frame, error);
    if (r.int32() != MAGIC) {
      throw error.apply("no magic number");
    }
    int flg = r.u8();
    int bd = r.u8();
    if ((flg >>> 6) != 1) {
      throw error.apply("version " + (flg >>> 6) + " (expected: 1)");
    }
    if ((flg & 0x02) != 0 || (bd & 0x8F) != 0) {
      throw error.apply("reserved bits set in the frame descriptor");
    }
    boolean blockChecksum = (flg & 0x10) != 0;
    boolean contentSize = (flg & 0x08) != 0;
    boolean contentChecksum = (flg & 0x04) != 0;
    if ((flg & 0x01) != 0) {
      throw error.apply("a frame that needs a dictionary is not supported");
    }
    int maxCode = (bd >>> 4) & 0x07;
    if (maxCode < 4) {
      throw error.apply("block maximum size code " + maxCode + " (expected: 4 to 7)");
    }
    long maxBlock = 1L << (8 + 2 * maxCode);
    if (contentSize) {
      long declared = r.int32() & 0xFFFFFFFFL | (r.int32() & 0xFFFFFFFFL) << 32;
      if (declared != expected) {
        throw error.apply(
            "content size " + declared + " (expected: the " + expected + " bytes declared)");
      }
    }
    r.u8(); // header checksum, not verified
    byte[] out = new byte[expected];
    int pos = 0;
    while (true) {
      long word = r.int32() & 0xFFFFFFFFL;
      if (word == 0) {
        break;
      }
      boolean stored = (word & 0x80000000L) != 0;
      long size = word & 0x7FFFFFFFL;
      if (size > maxBlock || size > r.left()) {
        throw error.apply("a block of " + size + " bytes does not fit");
      }
      int end = r.at + (int) size;
      if (stored) {
        if (size > expected - pos) {
          throw error.apply("decodes to more than the " + expected + " bytes declared");
        }
        System.arraycopy(frame, r.at, out, pos, (int) size);
        pos += (int) size;
      } else {
        pos = block(frame, r.at, end, out, pos, error);
      }
      r.at = end;
      if (blockChecksum) {
        r.int32(); // not verified
      }
    }
    if (contentChecksum) {
      r.int32(); // not verified
    }
    if (r.left() != 0) {
      throw error.apply(r.left() + " bytes after the end mark");
    }
    if (pos != expected) {
      throw error.apply("decodes to " + pos + " bytes, not the " + expected + " declared");
    }
    return out;
  }

  /** Decodes the sequences of one compressed block into {@code out} from {@code pos}. */
  private static int block(
      byte[] in, int i, int end, byte[] out, int pos, Function<String, PmixException> error) {
    while (true) {
      if (i >= end) {
        throw error.apply("a block ends inside a sequence");
      }
      int token = in[i++] & 0xFF;
      long lit = token >>> 4;
      if (lit == 15) {
        int b;
        do {
          if (i >= end) {
            throw error.apply("a block ends inside a literal length");
          }
          b = in[i++] & 0xFF;
          lit += b;
        } while (b == 255 && lit <= out.length);
      }
      if (lit > end - i || lit > out.length - pos) {
        throw error.apply("literals run past the block or the declared length");
      }
      System.arraycopy(in, i, out, pos, (int) lit);
      i += (int) lit;
      pos += (int) lit;
      if (i == end) {
        return pos;
      }
      if (end - i < 2) {
        throw error.apply("a block ends inside an offset");
      }
      int offset = (in[i] & 0xFF) | (in[i + 1] & 0xFF) << 8;
      i += 2;
      if (offset == 0 || offset > pos) {
        throw error.apply("match offset " + offset + " points before the start");
      }
      long len = token & 0x0F;
      if (len == 15) {
        int b;
        do {
          if (i >= end) {
            throw error.apply("a block ends inside a match length");
          }
          b = in[i++] & 0xFF;
          len += b;
        } while (b == 255 && len <= out.length);
      }
      len += 4;
      if (len > out.length - pos) {
        throw error.apply("decodes to more than the " + out.length + " bytes declared");
      }
      for (int k = 0; k < len; k++, pos++) {
        out[pos] = out[pos - offset];
      }
    }
  }

  private static final class Reader {
    final byte[] b;
    final Function<String, PmixException> error;
    int at;

    Reader(byte[] b, Function<String, PmixException> error) {
      this.b = b;
      this.error = error;
    }

    int left() {
      return b.length - at;
    }

    int u8() {
      if (at >= b.length) {
        throw error.apply("truncated");
      }
      return b[at++] & 0xFF;
    }

    int int32() {
      return u8() | u8() << 8 | u8() << 16 | u8() << 24;
    }
  }
}
