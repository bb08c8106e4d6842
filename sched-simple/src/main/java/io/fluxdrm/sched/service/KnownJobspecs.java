package io.fluxdrm.sched.service;

import static io.fluxdrm.sched.service.PayloadBytes.ascii;
import static io.fluxdrm.sched.service.PayloadBytes.at;
import static io.fluxdrm.sched.service.PayloadBytes.digits;
import static io.fluxdrm.sched.service.PayloadBytes.numberEnd;
import static io.fluxdrm.sched.service.PayloadBytes.numberKind;
import static io.fluxdrm.sched.service.PayloadBytes.objectEnd;
import static io.fluxdrm.sched.service.PayloadBytes.text;

import io.fluxdrm.rpc.Message;
import io.fluxdrm.sched.ResourceRequest;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The resource requests of the jobspecs the scheduler read last, by their exact text, so that a
 * {@code sched.alloc} whose jobspec is one of them is read without a tree, a schema check or the
 * jobspec's walk (D585): jobs submitted together ({@code flux submit --cc}, job arrays, the same
 * script again) carry the same jobspec. flux-core's job manager writes {@code
 * {"id":ID,"priority":P,"userid":U,"t_submit":T,"jobspec":{...}}} with no space; such a payload is
 * read here as bytes, its numbers checked as the schema checks them (ID an unsigned 64-bit integer,
 * P and U unsigned 32-bit, T a number of at least 0). Any other payload, and one whose jobspec is
 * not known, takes the full path, which then teaches this one the jobspec if it was valid.
 *
 * <p>At most {@link #CAPACITY} jobspecs of at most {@link #MAX_TEXT} bytes each are kept, the least
 * recently used dropped first.
 */
final class KnownJobspecs {
  /** The most jobspecs kept. */
  static final int CAPACITY = 64;

  /** The longest jobspec text kept, in bytes. */
  static final int MAX_TEXT = 16 * 1024;

  private static final byte[] ID = ascii("{\"id\":");
  private static final byte[] PRIORITY = ascii(",\"priority\":");
  private static final byte[] USERID = ascii(",\"userid\":");
  private static final byte[] T_SUBMIT = ascii(",\"t_submit\":");
  private static final byte[] JOBSPEC = ascii(",\"jobspec\":");

  /** An alloc's fields read from its bytes; {@code jobspec} is its jobspec's text. */
  record Alloc(long id, long priority, long userid, double tSubmit, Text jobspec) {}

  /** A jobspec's text, compared by content. */
  static final class Text {
    private final byte[] bytes;
    private final int hash;

    Text(byte[] bytes) {
      this.bytes = bytes;
      this.hash = Arrays.hashCode(bytes);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Text t && t.hash == hash && Arrays.equals(t.bytes, bytes);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

  private final Map<Text, ResourceRequest> known =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Text, ResourceRequest> eldest) {
          return size() > CAPACITY;
        }
      };

  /** The request of {@code a}'s jobspec when it is known, else null. */
  ResourceRequest request(Alloc a) {
    return a == null ? null : known.get(a.jobspec());
  }

  /**
   * Remembers that {@code a}'s jobspec asks for {@code request}: the full path read that payload
   * and its jobspec and found them valid. Nothing when {@code a} is null.
   */
  void learn(Alloc a, ResourceRequest request) {
    if (a != null) {
      known.put(a.jobspec(), request);
    }
  }

  int size() {
    return known.size();
  }

  /** The fields of {@code m}'s payload when it is in flux-core's layout, else null. */
  static Alloc read(Message m) {
    if (m.payloadSize() < ID.length + 2) {
      return null;
    }
    byte[] b = m.payload();
    int end = b.length - 1;
    if (b[end] != 0 || b[end - 1] != '}' || !at(b, 0, end, ID)) {
      return null;
    }
    int i = ID.length;
    int j = i + digits(b, i, end);
    long id;
    if (!isPlainInteger(b, i, j, 20)) {
      return null;
    }
    try {
      id = Long.parseUnsignedLong(text(b, i, j));
    } catch (NumberFormatException e) {
      return null; // beyond 64 bits
    }
    long[] u32 = new long[2];
    byte[][] keys = {PRIORITY, USERID};
    for (int k = 0; k < 2; k++) {
      if (!at(b, j, end, keys[k])) {
        return null;
      }
      i = j + keys[k].length;
      j = i + digits(b, i, end);
      if (!isPlainInteger(b, i, j, 10)) {
        return null;
      }
      u32[k] = Long.parseLong(text(b, i, j));
      if (u32[k] > 0xFFFF_FFFFL) {
        return null;
      }
    }
    if (!at(b, j, end, T_SUBMIT)) {
      return null;
    }
    i = j + T_SUBMIT.length;
    j = numberEnd(b, i, end);
    if (numberKind(b, i, j) == 0) {
      return null;
    }
    double t = Double.parseDouble(text(b, i, j));
    if (!(t >= 0) || Double.isInfinite(t) || !at(b, j, end, JOBSPEC)) {
      return null;
    }
    i = j + JOBSPEC.length;
    int close = end - 1; // the payload's own brace
    if (close - i > MAX_TEXT || objectEnd(b, i, close) != close) {
      return null;
    }
    return new Alloc(id, u32[0], u32[1], t, new Text(Arrays.copyOfRange(b, i, close)));
  }

  /** Whether {@code b[s, e)} is 1 to {@code most} digits with no leading zero. */
  private static boolean isPlainInteger(byte[] b, int s, int e, int most) {
    return e > s && e - s <= most && (b[s] != '0' || e == s + 1);
  }
}
