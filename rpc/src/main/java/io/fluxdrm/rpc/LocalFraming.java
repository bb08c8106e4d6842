package io.fluxdrm.rpc;

import java.nio.ByteBuffer;

/**
 * The stream framing of flux-core's local connector (decision D14): each message is the magic
 * 0xFFEE0012 as bytes {@code 12 00 EE FF}, a big-endian u32 counting the bytes that follow, then
 * the encoded parts. Before any message the server writes one handshake byte (0 = accepted,
 * otherwise an errno).
 */
public final class LocalFraming {
  /** The framing prefix size: magic and length. */
  public static final int PREFIX_SIZE = 8;

  /** The default maximum size of one message (the bytes after the prefix): 64 MiB. */
  public static final int DEFAULT_MAX_MESSAGE_SIZE = 64 * 1024 * 1024;

  /** The handshake byte of an accepted connection. */
  public static final int HANDSHAKE_ACCEPTED = 0;

  private static final byte[] MAGIC_LE = {0x12, 0x00, (byte) 0xee, (byte) 0xff};

  /** The smallest body: one size byte and the 20-byte proto part. */
  private static final int MIN_BODY = 1 + MessageCodec.PROTO_SIZE;

  private LocalFraming() {}

  /** Returns the framed bytes of a message: prefix then encoded parts. */
  public static byte[] frame(Message m) {
    int size = MessageCodec.encodedSize(m);
    byte[] out = new byte[PREFIX_SIZE + size];
    System.arraycopy(MAGIC_LE, 0, out, 0, 4);
    MessageCodec.putInt(out, 4, size);
    MessageCodec.encodeInto(m, out, PREFIX_SIZE);
    return out;
  }

  /**
   * An incremental decoder for one byte stream. Feed it whatever arrived; take whole messages out.
   * It grows its buffer only as bytes arrive, whatever a length field claims. After an error the
   * stream cannot be resynchronised: the connection must be closed.
   */
  public static final class Decoder {
    private final int maxMessageSize;
    private byte[] buf = new byte[4096];
    private int start;
    private int end;
    private long streamOffset;
    private RpcException failed;

    /** Creates a decoder that refuses messages longer than {@code maxMessageSize} bytes. */
    public Decoder(int maxMessageSize) {
      if (maxMessageSize < MIN_BODY) {
        throw new IllegalArgumentException("maxMessageSize: below " + MIN_BODY);
      }
      this.maxMessageSize = maxMessageSize;
    }

    /** Appends the remaining bytes of {@code in}. */
    public void feed(ByteBuffer in) {
      int n = in.remaining();
      ensure(n);
      in.get(buf, end, n);
      end += n;
    }

    /** Appends bytes. */
    public void feed(byte[] b, int off, int len) {
      ensure(len);
      System.arraycopy(b, off, buf, end, len);
      end += len;
    }

    int capacity() {
      return buf.length;
    }

    /** Returns the number of buffered bytes not yet decoded. */
    public int buffered() {
      return end - start;
    }

    private void ensure(int more) {
      if (buf.length - end >= more) {
        return;
      }
      int live = end - start;
      if (start > 0 && buf.length - live >= more) {
        System.arraycopy(buf, start, buf, 0, live);
        end = live;
        start = 0;
        return;
      }
      long want = Math.max((long) live + more, (long) buf.length * 2);
      int cap = (int) Math.min(want, (long) PREFIX_SIZE + maxMessageSize + more);
      cap = Math.max(cap, live + more);
      byte[] nb = new byte[cap];
      System.arraycopy(buf, start, nb, 0, live);
      buf = nb;
      end = live;
      start = 0;
    }

    /**
     * Returns the next whole message, or null when more bytes are needed.
     *
     * @throws RpcException EPROTO on a bad prefix or bad parts, ENOMEM-free EPROTO on a message
     *     over the limit; once thrown, every later call throws the same error
     */
    public Message next() {
      if (failed != null) {
        throw failed;
      }
      if (end - start < PREFIX_SIZE) {
        return null;
      }
      try {
        boolean le =
            buf[start] == 0x12
                && buf[start + 1] == 0x00
                && buf[start + 2] == (byte) 0xee
                && buf[start + 3] == (byte) 0xff;
        boolean be =
            buf[start] == (byte) 0xff
                && buf[start + 1] == (byte) 0xee
                && buf[start + 2] == 0x00
                && buf[start + 3] == 0x12;
        if (!le && !be) {
          throw RpcException.proto(
              String.format(
                  "frame at stream byte %d: magic %02x %02x %02x %02x (expected: 12 00 ee ff)",
                  streamOffset,
                  buf[start] & 0xff,
                  buf[start + 1] & 0xff,
                  buf[start + 2] & 0xff,
                  buf[start + 3] & 0xff));
        }
        long len = MessageCodec.getInt(buf, start + 4) & 0xffffffffL;
        if (len > maxMessageSize) {
          throw RpcException.proto(
              "frame at stream byte "
                  + streamOffset
                  + ": length "
                  + len
                  + " (expected: at most "
                  + maxMessageSize
                  + ")");
        }
        if (len < MIN_BODY) {
          throw RpcException.proto(
              "frame at stream byte "
                  + streamOffset
                  + ": length "
                  + len
                  + " (expected: at least "
                  + MIN_BODY
                  + ")");
        }
        if (end - start - PREFIX_SIZE < len) {
          return null;
        }
        int body = start + PREFIX_SIZE;
        Message m;
        try {
          m = MessageCodec.decode(buf, body, (int) len);
        } catch (RpcException e) {
          throw RpcException.proto("frame at stream byte " + streamOffset + ": " + e.getMessage());
        }
        start = body + (int) len;
        streamOffset += PREFIX_SIZE + len;
        if (start == end) {
          start = 0;
          end = 0;
          if (buf.length > 1 << 20) {
            buf = new byte[4096];
          }
        }
        return m;
      } catch (RpcException e) {
        failed = e;
        throw e;
      }
    }

    /** Returns whether the stream ended in the middle of a message (call at end of stream). */
    public boolean truncated() {
      return end > start;
    }

    /** Returns a description of the unfinished bytes at end of stream. */
    public String truncation() {
      return "stream ended inside a frame at stream byte "
          + streamOffset
          + " ("
          + (end - start)
          + " bytes buffered)";
    }
  }
}
