package io.fluxdrm.rpc;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The pure RFC 3 codec: a message as its list of parts (routes, delimiter, topic, payload, proto),
 * and the parts as flux-core's {@code flux_msg_encode} writes them one after another (a size of one
 * byte, or 0xFF and a big-endian u32, then the data).
 *
 * <p>Decoding checks everything and fails with {@link RpcException} EPROTO naming the part and the
 * rule; it never allocates more than the input holds.
 */
public final class MessageCodec {
  /** The size of the proto part. */
  public static final int PROTO_SIZE = 20;

  /** The magic byte that starts the proto part. */
  public static final int PROTO_MAGIC = 0x8e;

  /** The protocol version byte. */
  public static final int PROTO_VERSION = 0x01;

  private MessageCodec() {}

  /** Returns the 20-byte proto part of a message. */
  public static byte[] proto(Message m) {
    byte[] p = new byte[PROTO_SIZE];
    writeProto(m, p, 0);
    return p;
  }

  private static void writeProto(Message m, byte[] p, int off) {
    p[off] = (byte) PROTO_MAGIC;
    p[off + 1] = (byte) PROTO_VERSION;
    p[off + 2] = (byte) m.type().wire();
    p[off + 3] = (byte) m.flags();
    putInt(p, off + 4, m.userid());
    putInt(p, off + 8, m.rolemask());
    putInt(p, off + 12, m.aux1());
    putInt(p, off + 16, m.aux2());
  }

  static void putInt(byte[] b, int off, int v) {
    b[off] = (byte) (v >>> 24);
    b[off + 1] = (byte) (v >>> 16);
    b[off + 2] = (byte) (v >>> 8);
    b[off + 3] = (byte) v;
  }

  static int getInt(byte[] b, int off) {
    return ((b[off] & 0xff) << 24)
        | ((b[off + 1] & 0xff) << 16)
        | ((b[off + 2] & 0xff) << 8)
        | (b[off + 3] & 0xff);
  }

  /** Returns the parts of a message in wire order, one per ZeroMQ frame. */
  public static List<byte[]> toParts(Message m) {
    List<byte[]> parts = new ArrayList<>(m.routes().size() + 4);
    if (m.has(Flags.ROUTE)) {
      for (String r : m.routes()) {
        parts.add(r.getBytes(StandardCharsets.ISO_8859_1));
      }
      parts.add(new byte[0]);
    }
    if (m.has(Flags.TOPIC)) {
      parts.add(m.topic().getBytes(StandardCharsets.UTF_8));
    }
    if (m.has(Flags.PAYLOAD)) {
      parts.add(m.payloadUnsafe());
    }
    parts.add(proto(m));
    return parts;
  }

  /**
   * Returns the message made of these parts.
   *
   * @throws RpcException EPROTO when the parts do not form a message
   */
  public static Message fromParts(List<byte[]> parts) {
    int n = parts.size();
    int[] offs = new int[n];
    int[] lens = new int[n];
    byte[][] bufs = new byte[n][];
    for (int i = 0; i < n; i++) {
      bufs[i] = parts.get(i);
      lens[i] = bufs[i].length;
    }
    return assemble(bufs, offs, lens, n);
  }

  /** Returns the number of bytes {@link #encode(Message)} produces. */
  public static int encodedSize(Message m) {
    int size = 0;
    if (m.has(Flags.ROUTE)) {
      for (String r : m.routes()) {
        size += partSize(r.length());
      }
      size += 1;
    }
    if (m.has(Flags.TOPIC)) {
      size += partSize(utf8Length(m.topic()));
    }
    if (m.has(Flags.PAYLOAD)) {
      size += partSize(m.payloadSize());
    }
    return size + 1 + PROTO_SIZE;
  }

  private static int partSize(int len) {
    return (len < 255 ? 1 : 5) + len;
  }

  private static int utf8Length(String s) {
    int n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        n++;
      } else if (c < 0x800) {
        n += 2;
      } else if (Character.isHighSurrogate(c)) {
        n += 4;
        i++;
      } else {
        n += 3;
      }
    }
    return n;
  }

  /** Returns the parts encoded one after another, as {@code flux_msg_encode} does. */
  public static byte[] encode(Message m) {
    byte[] out = new byte[encodedSize(m)];
    int end = encodeInto(m, out, 0);
    if (end != out.length) {
      throw new IllegalStateException("encoded size mismatch");
    }
    return out;
  }

  /** Writes the encoded parts at {@code off}; returns the offset after them. */
  static int encodeInto(Message m, byte[] out, int off) {
    int p = off;
    if (m.has(Flags.ROUTE)) {
      for (String r : m.routes()) {
        p = putPart(out, p, r.getBytes(StandardCharsets.ISO_8859_1));
      }
      out[p++] = 0;
    }
    if (m.has(Flags.TOPIC)) {
      p = putPart(out, p, m.topic().getBytes(StandardCharsets.UTF_8));
    }
    if (m.has(Flags.PAYLOAD)) {
      p = putPart(out, p, m.payloadUnsafe());
    }
    out[p++] = (byte) PROTO_SIZE;
    writeProto(m, out, p);
    return p + PROTO_SIZE;
  }

  private static int putPart(byte[] out, int p, byte[] data) {
    if (data.length < 255) {
      out[p++] = (byte) data.length;
    } else {
      out[p++] = (byte) 0xff;
      putInt(out, p, data.length);
      p += 4;
    }
    System.arraycopy(data, 0, out, p, data.length);
    return p + data.length;
  }

  /**
   * Decodes encoded parts.
   *
   * @throws RpcException EPROTO when the bytes are not one well-formed message
   */
  public static Message decode(byte[] buf) {
    return decode(buf, 0, buf.length);
  }

  /**
   * Decodes {@code len} bytes of encoded parts starting at {@code off}.
   *
   * @throws RpcException EPROTO when the bytes are not one well-formed message
   */
  public static Message decode(byte[] buf, int off, int len) {
    if (off < 0 || len < 0 || off + len > buf.length) {
      throw new IndexOutOfBoundsException("range outside buffer");
    }
    // every part takes at least one byte, so there are at most len parts
    int cap = Math.min(len, 16);
    int[] offs = new int[cap];
    int[] lens = new int[cap];
    int n = 0;
    int p = off;
    int end = off + len;
    while (p < end) {
      int size = buf[p] & 0xff;
      int hdr = 1;
      if (size == 0xff) {
        if (end - p < 5) {
          throw RpcException.proto(
              "part "
                  + n
                  + " at byte "
                  + (p - off)
                  + ": truncated 4-byte size (expected: 4 bytes)");
        }
        long big = getInt(buf, p + 1) & 0xffffffffL;
        if (big > end - p - 5) {
          throw RpcException.proto(
              "part "
                  + n
                  + " at byte "
                  + (p - off)
                  + ": length "
                  + big
                  + " beyond message ("
                  + (end - p - 5)
                  + " bytes left)");
        }
        size = (int) big;
        hdr = 5;
      } else if (size > end - p - 1) {
        throw RpcException.proto(
            "part "
                + n
                + " at byte "
                + (p - off)
                + ": length "
                + size
                + " beyond message ("
                + (end - p - 1)
                + " bytes left)");
      }
      if (n == offs.length) {
        offs = java.util.Arrays.copyOf(offs, n * 2);
        lens = java.util.Arrays.copyOf(lens, n * 2);
      }
      offs[n] = p + hdr;
      lens[n] = size;
      n++;
      p += hdr + size;
    }
    byte[][] bufs = new byte[n][];
    java.util.Arrays.fill(bufs, buf);
    return assemble(bufs, offs, lens, n);
  }

  private static Message assemble(byte[][] bufs, int[] offs, int[] lens, int n) {
    if (n == 0) {
      throw RpcException.proto("message: no parts (expected: at least the proto part)");
    }
    int last = n - 1;
    if (lens[last] != PROTO_SIZE) {
      throw RpcException.proto(
          "proto part: " + lens[last] + " bytes (expected: " + PROTO_SIZE + ")");
    }
    byte[] b = bufs[last];
    int o = offs[last];
    int magic = b[o] & 0xff;
    if (magic != PROTO_MAGIC) {
      throw RpcException.proto(String.format("proto magic: 0x%02x (expected: 0x8e)", magic));
    }
    int version = b[o + 1] & 0xff;
    if (version != PROTO_VERSION) {
      throw RpcException.proto("proto version: " + version + " (expected: 1)");
    }
    MessageType type = MessageType.fromWire(b[o + 2] & 0xff);
    int flags = b[o + 3] & 0xff;
    if ((flags & (Flags.NORESPONSE | Flags.STREAMING)) == (Flags.NORESPONSE | Flags.STREAMING)) {
      throw RpcException.proto("proto flags: NORESPONSE and STREAMING both set (expected: one)");
    }
    int userid = getInt(b, o + 4);
    int rolemask = getInt(b, o + 8);
    int aux1 = getInt(b, o + 12);
    int aux2 = getInt(b, o + 16);

    int i = 0;
    List<String> routes = List.of();
    if ((flags & Flags.ROUTE) != 0) {
      List<String> r = new ArrayList<>(4);
      while (i < last && lens[i] != 0) {
        r.add(new String(bufs[i], offs[i], lens[i], StandardCharsets.ISO_8859_1));
        i++;
      }
      if (i == last) {
        throw RpcException.proto(
            "routes: no empty delimiter part before the proto part (expected: with flag ROUTE)");
      }
      i++;
      routes = List.copyOf(r);
    }
    String topic = null;
    if ((flags & Flags.TOPIC) != 0) {
      if (i == last) {
        throw RpcException.proto("topic: missing part (expected: with flag TOPIC)");
      }
      for (int k = 0; k < lens[i]; k++) {
        if (bufs[i][offs[i] + k] == 0) {
          throw RpcException.proto("topic: NUL at byte " + k + " (expected: no NUL on the wire)");
        }
      }
      topic = Json.utf8(slice(bufs[i], offs[i], lens[i]), lens[i], "topic");
      i++;
    }
    byte[] payload = null;
    if ((flags & Flags.PAYLOAD) != 0) {
      if (i == last) {
        throw RpcException.proto("payload: missing part (expected: with flag PAYLOAD)");
      }
      payload = slice(bufs[i], offs[i], lens[i]);
      i++;
    }
    if (i != last) {
      throw RpcException.proto(
          "message: "
              + (last - i)
              + " unexpected part(s) before the proto part (flags "
              + (flags == 0 ? "none" : Flags.describe(flags))
              + ")");
    }
    return Message.trusted(type, flags, topic, payload, userid, rolemask, aux1, aux2, routes);
  }

  private static byte[] slice(byte[] b, int off, int len) {
    if (off == 0 && len == b.length) {
      return b.clone();
    }
    return java.util.Arrays.copyOfRange(b, off, off + len);
  }
}
