package io.fluxdrm.sched.service;

import static io.fluxdrm.sched.service.PayloadBytes.INTEGER;
import static io.fluxdrm.sched.service.PayloadBytes.ascii;
import static io.fluxdrm.sched.service.PayloadBytes.at;
import static io.fluxdrm.sched.service.PayloadBytes.isNumberByte;
import static io.fluxdrm.sched.service.PayloadBytes.numberEnd;
import static io.fluxdrm.sched.service.PayloadBytes.numberKind;
import static io.fluxdrm.sched.service.PayloadBytes.text;

import io.fluxdrm.rpc.Message;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.JobIdMap;
import io.fluxdrm.sched.SchedEvent;
import java.util.Map;

/**
 * The R of each granted alloc exactly as its SUCCESS carried it, so that the final {@code
 * sched.free} flux-core's job manager sends (that same R) is read without the schema check and the
 * parse, which are most of a free's cost (D571): its bytes are compared with the text that was sent
 * (D584). flux-core's job manager writes {@code {"id":ID,"R":R,"final":B}} with no space, R's keys
 * in the order they were sent, and its fractions with up to 17 digits (1796617984.3399999 where the
 * scheduler wrote 1796617984.34): outside strings, two numbers of the same JSON type and value are
 * the same. Such a payload is valid by construction and its R reads back as the granted value; any
 * other payload (another R or layout, the same numbers written as other JSON types, malformed text)
 * is not recognized and takes the full path, which checks and reports it.
 *
 * <p>One entry per job granted since the last hello and not yet finally freed, so it holds no more
 * than the running jobs.
 */
final class SentGrants {
  private record Sent(byte[] text, ResourceSet r) {}

  private static final byte[] HEAD = ascii("{\"id\":");
  private static final byte[] R_KEY = ascii(",\"R\":");
  private static final byte[] FINAL_TRUE = ascii(",\"final\":true}");
  private static final byte[] FINAL_FALSE = ascii(",\"final\":false}");
  private static final byte[] CLOSE = ascii("}");

  private final Map<Long, Sent> byJob = new JobIdMap<>();

  /** Remembers the grant of job {@code id}: {@code text} is {@code r} as the answer carries it. */
  void sent(long id, byte[] text, ResourceSet r) {
    byJob.put(id, new Sent(text, r));
  }

  /**
   * The free that {@code m} asks for when its payload is {@code {"id":ID,"R":R}} with {@code
   * ,"final":true} or {@code false} before the brace or not, ID a job granted here and R its sent
   * text as above; null otherwise. A final free recognized here is forgotten.
   */
  SchedEvent.Free recognize(Message m) {
    if (byJob.isEmpty() || m.payloadSize() < HEAD.length + 1) {
      return null;
    }
    byte[] b = m.payload();
    int end = b.length - 1;
    if (b[end] != 0 || !at(b, 0, end, HEAD)) {
      return null;
    }
    int i = HEAD.length;
    int j = i;
    long id = 0;
    while (j < end && b[j] >= '0' && b[j] <= '9') {
      int d = b[j++] - '0';
      if (id > (Long.MAX_VALUE - d) / 10) {
        return null; // not a job id of this scheduler's: a signed 64-bit integer at most
      }
      id = id * 10 + d;
    }
    if (j == i || (b[i] == '0' && j > i + 1) || !at(b, j, end, R_KEY)) {
      return null;
    }
    Sent sent = byJob.get(id);
    int k = sent == null ? -1 : sameText(b, j + R_KEY.length, end, sent.text());
    if (k < 0) {
      return null;
    }
    boolean fin = isRest(b, k, end, FINAL_TRUE);
    if (!fin && !isRest(b, k, end, FINAL_FALSE) && !isRest(b, k, end, CLOSE)) {
      return null;
    }
    if (fin) {
      byJob.remove(id);
    }
    return new SchedEvent.Free(id, sent.r(), fin);
  }

  /**
   * Where {@code text} ends in {@code b} read from {@code from} (before {@code end}), when it is
   * there byte for byte but for numbers outside strings, which may be written otherwise with the
   * same JSON type and value; -1 when it is not there.
   */
  static int sameText(byte[] b, int from, int end, byte[] text) {
    int p = from;
    int q = 0;
    boolean inString = false;
    boolean escaped = false;
    while (q < text.length) {
      if (p < end && b[p] == text[q]) {
        byte c = text[q];
        if (inString) {
          if (escaped) {
            escaped = false;
          } else if (c == '\\') {
            escaped = true;
          } else if (c == '"') {
            inString = false;
          }
        } else if (c == '"') {
          inString = true;
        }
        p++;
        q++;
        continue;
      }
      if (inString || p >= end) {
        return -1;
      }
      // outside a string the two differ within a number token, or not at all alike
      int qs = q;
      while (qs > 0 && isNumberByte(text[qs - 1])) {
        qs--;
      }
      int ps = p - (q - qs);
      int qe = numberEnd(text, qs, text.length);
      int pe = numberEnd(b, ps, end);
      if ((qe <= q && pe <= p) || !sameNumber(b, ps, pe, text, qs, qe)) {
        return -1;
      }
      p = pe;
      q = qe;
    }
    return p;
  }

  /** Whether the two are JSON numbers of one type (integer or not) and one value. */
  private static boolean sameNumber(byte[] a, int as, int ae, byte[] b, int bs, int be) {
    int ka = numberKind(a, as, ae);
    int kb = numberKind(b, bs, be);
    if (ka == 0 || ka != kb) {
      return false;
    }
    String x = text(a, as, ae);
    String y = text(b, bs, be);
    if (ka == INTEGER) {
      // integers: one value is one text, but for a minus zero
      return x.equals(y) || (x.replace("-", "").equals("0") && y.replace("-", "").equals("0"));
    }
    return Double.compare(Double.parseDouble(x), Double.parseDouble(y)) == 0;
  }

  private static boolean isRest(byte[] b, int from, int end, byte[] x) {
    return end - from == x.length && at(b, from, end, x);
  }

  /** Forgets job {@code id} (its final free took the full path). */
  void forget(long id) {
    byJob.remove(id);
  }

  /** Forgets every grant: a new hello rebuilds the running jobs (RFC 27 §3). */
  void clear() {
    byJob.clear();
  }

  int size() {
    return byJob.size();
  }
}
