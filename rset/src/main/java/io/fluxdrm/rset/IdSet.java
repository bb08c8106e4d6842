package io.fluxdrm.rset;

import java.util.Arrays;
import java.util.NoSuchElementException;
import java.util.PrimitiveIterator;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.IntStream;
import java.util.stream.StreamSupport;

/**
 * An immutable set of non-negative integer ids (RFC 22), stored as sorted, disjoint, non-adjacent
 * inclusive ranges so that no operation ever expands ids it does not have to.
 *
 * <p>{@link #parse(String)} accepts exactly what flux-core's {@code idset_decode()} accepts: ids in
 * ascending order without duplicates or leading zeros, {@code lo-hi} ranges with {@code hi > lo},
 * optionally one outer pair of brackets, ids up to {@value #MAX_ID}. {@link #toString()} gives the
 * canonical ranged form ({@code 1,7-9}), as R_lite writes it.
 *
 * <p>Why one class: it is one immutable value with flux-core's whole idset algebra (parse, encode,
 * union, difference, intersection, slicing), all working on the same private range array.
 */
public final class IdSet implements Iterable<Integer> {

  /** The largest id RFC 22 sets may hold in flux-core (INT_MAX). */
  public static final int MAX_ID = Integer.MAX_VALUE;

  /** How {@link #encode(Style)} writes a set. */
  public enum Style {
    /** Every id, comma separated: {@code 2,3,4,5}. */
    PLAIN,
    /** Consecutive ids as ranges: {@code 2-5}; the canonical form. */
    RANGES,
    /** Ranges in brackets when the set has more than one member: {@code [2-5]}, {@code 2}. */
    BRACKETS
  }

  private static final int[] NO_RANGES = new int[0];
  private static final IdSet EMPTY = new IdSet(NO_RANGES, 0);
  private static final int MESSAGE_INPUT_LIMIT = 64;

  /** {lo0, hi0, lo1, hi1, ...}: inclusive, ascending, with a gap of at least one between ranges. */
  private final int[] ranges;

  private final long count;

  private IdSet(int[] ranges, long count) {
    this.ranges = ranges;
    this.count = count;
  }

  private static IdSet ofRanges(int[] ranges, int length) {
    if (length == 0) {
      return EMPTY;
    }
    int[] r = length == ranges.length ? ranges : Arrays.copyOf(ranges, length);
    long n = 0;
    for (int i = 0; i < length; i += 2) {
      n += (long) r[i + 1] - r[i] + 1;
    }
    return new IdSet(r, n);
  }

  /** The empty set. */
  public static IdSet empty() {
    return EMPTY;
  }

  /** The set {@code lo..hi} inclusive. */
  public static IdSet range(int lo, int hi) {
    checkId(lo);
    checkId(hi);
    if (hi < lo) {
      throw new RsetException("idset range " + lo + "-" + hi + " is reversed (expected: lo <= hi)");
    }
    return new IdSet(new int[] {lo, hi}, (long) hi - lo + 1);
  }

  /** The set of the given ids, in any order, duplicates allowed. */
  public static IdSet of(int... ids) {
    Builder b = builder();
    for (int id : ids) {
      b.add(id);
    }
    return b.build();
  }

  /** A builder that accepts ids and ranges in any order. */
  public static Builder builder() {
    return new Builder();
  }

  private static void checkId(long id) {
    if (id < 0 || id > MAX_ID) {
      throw new RsetException(
          RsetException.Reason.RANGE,
          "id " + id + " is out of range (expected: 0 to " + MAX_ID + ")");
    }
  }

  /**
   * Decodes an RFC 22 idset string as flux-core does.
   *
   * @throws RsetException saying which element breaks which rule
   */
  public static IdSet parse(String s) {
    if (s == null) {
      throw new RsetException("idset is missing (expected: an RFC 22 idset string)");
    }
    int start = 0;
    int end = s.length();
    if (end > 0 && s.charAt(0) == '[') {
      if (s.charAt(end - 1) != ']' || end < 2) {
        throw invalid(s, "brackets are unbalanced (expected: one outer pair)");
      }
      start = 1;
      end--;
    }
    int[] out = new int[8];
    int n = 0;
    long prevHi = -1;
    int i = start;
    while (i < end) {
      char c = s.charAt(i);
      if (c == ',') { // flux-core's tokenizer skips empty elements
        i++;
        continue;
      }
      int tokEnd = i;
      while (tokEnd < end && s.charAt(tokEnd) != ',') {
        tokEnd++;
      }
      long lo;
      long hi;
      int dash = -1;
      for (int k = i; k < tokEnd; k++) {
        char d = s.charAt(k);
        if (d == '-' && dash < 0 && k > i) {
          dash = k;
        } else if (d < '0' || d > '9') {
          throw invalid(s, elementError(s, i, tokEnd));
        }
      }
      if (dash < 0) {
        lo = number(s, i, tokEnd);
        hi = lo;
      } else {
        if (dash == tokEnd - 1) {
          throw invalid(s, quote(s, i, tokEnd) + " is an unfinished range (expected: lo-hi)");
        }
        lo = number(s, i, dash);
        hi = number(s, dash + 1, tokEnd);
        if (hi <= lo) {
          throw invalid(
              s,
              quote(s, i, tokEnd)
                  + (hi < lo ? " is a reversed range" : " is a degenerate range")
                  + " (expected: lo < hi)");
        }
      }
      if (lo <= prevHi) {
        throw invalid(
            s,
            quote(s, i, tokEnd)
                + (lo == prevHi ? " repeats an id" : " is out of order")
                + " (expected: ascending, no duplicates)");
      }
      if (n > 0 && lo == prevHi + 1) {
        out[n - 1] = (int) hi;
      } else {
        if (n == out.length) {
          out = Arrays.copyOf(out, n * 2);
        }
        out[n++] = (int) lo;
        out[n++] = (int) hi;
      }
      prevHi = hi;
      i = tokEnd;
    }
    return ofRanges(out, n);
  }

  private static String elementError(String s, int from, int to) {
    for (int k = from; k < to; k++) {
      char d = s.charAt(k);
      if (d == '[' || d == ']') {
        return "brackets are misplaced (expected: one outer pair)";
      }
    }
    return quote(s, from, to) + " is not an id or a range (expected: decimal ids and lo-hi ranges)";
  }

  private static long number(String s, int from, int to) {
    if (to - from > 1 && s.charAt(from) == '0') {
      throw invalid(s, quote(s, from, to) + " has a leading zero (expected: none)");
    }
    if (to - from > 10) {
      throw new RsetException(
          RsetException.Reason.RANGE,
          prefix(s) + quote(s, from, to) + " is too large (expected: at most " + MAX_ID + ")");
    }
    long v = 0;
    for (int k = from; k < to; k++) {
      v = v * 10 + (s.charAt(k) - '0');
    }
    if (v > MAX_ID) {
      throw new RsetException(
          RsetException.Reason.RANGE,
          prefix(s) + quote(s, from, to) + " is too large (expected: at most " + MAX_ID + ")");
    }
    return v;
  }

  private static RsetException invalid(String s, String what) {
    return new RsetException(prefix(s) + what);
  }

  private static String prefix(String s) {
    return "idset \"" + abbreviate(s) + "\": ";
  }

  static String abbreviate(String s) {
    return s.length() <= MESSAGE_INPUT_LIMIT ? s : s.substring(0, MESSAGE_INPUT_LIMIT) + "...";
  }

  private static String quote(String s, int from, int to) {
    return "\"" + abbreviate(s.substring(from, to)) + "\"";
  }

  /** Number of ids in the set. */
  public long count() {
    return count;
  }

  public boolean isEmpty() {
    return count == 0;
  }

  /** Number of maximal ranges of consecutive ids. */
  public int rangeCount() {
    return ranges.length / 2;
  }

  /** Lowest id of the {@code i}-th range. */
  public int rangeLo(int i) {
    return ranges[2 * i];
  }

  /** Highest id of the {@code i}-th range. */
  public int rangeHi(int i) {
    return ranges[2 * i + 1];
  }

  /** Whether {@code id} is a member. */
  public boolean contains(long id) {
    if (id < 0 || id > MAX_ID || count == 0) {
      return false;
    }
    int k = findRange((int) id);
    return k >= 0;
  }

  /** Index of the range holding id, or -(insertion point) - 1 counted in ranges. */
  private int findRange(int id) {
    int lo = 0;
    int hi = ranges.length / 2 - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (ranges[2 * mid + 1] < id) {
        lo = mid + 1;
      } else if (ranges[2 * mid] > id) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -(lo + 1);
  }

  /** Smallest member, or -1 when empty. */
  public int first() {
    return count == 0 ? -1 : ranges[0];
  }

  /** Largest member, or -1 when empty. */
  public int last() {
    return count == 0 ? -1 : ranges[ranges.length - 1];
  }

  /** Smallest member greater than {@code id}, or -1 when there is none. */
  public int next(int id) {
    if (count == 0 || id >= last()) {
      return -1;
    }
    if (id < ranges[0]) {
      return ranges[0];
    }
    int k = findRange(id + 1);
    return k >= 0 ? id + 1 : ranges[2 * (-k - 1)];
  }

  /**
   * The member at position {@code index} in ascending order (0 = smallest).
   *
   * @throws NoSuchElementException when index is out of bounds
   */
  public int nth(long index) {
    if (index < 0 || index >= count) {
      throw new NoSuchElementException("index " + index + " of an idset of " + count);
    }
    long left = index;
    for (int i = 0; i < ranges.length; i += 2) {
      long len = (long) ranges[i + 1] - ranges[i] + 1;
      if (left < len) {
        return (int) (ranges[i] + left);
      }
      left -= len;
    }
    throw new IllegalStateException("unreachable");
  }

  /** Position of {@code id} in ascending order, or -1 when it is not a member. */
  public long indexOf(long id) {
    if (!contains(id)) {
      return -1;
    }
    long pos = 0;
    for (int i = 0; i < ranges.length; i += 2) {
      if (id <= ranges[i + 1]) {
        return pos + (id - ranges[i]);
      }
      pos += (long) ranges[i + 1] - ranges[i] + 1;
    }
    return -1;
  }

  /** The {@code n} smallest members (all of them when n exceeds the count). */
  public IdSet first(long n) {
    if (n >= count) {
      return this;
    }
    if (n <= 0) {
      return EMPTY;
    }
    int[] out = new int[ranges.length];
    int len = 0;
    long left = n;
    for (int i = 0; i < ranges.length && left > 0; i += 2) {
      long size = (long) ranges[i + 1] - ranges[i] + 1;
      out[len++] = ranges[i];
      if (size <= left) {
        out[len++] = ranges[i + 1];
        left -= size;
      } else {
        out[len++] = (int) (ranges[i] + left - 1);
        left = 0;
      }
    }
    return ofRanges(out, len);
  }

  /** This set ∪ other. */
  public IdSet union(IdSet other) {
    if (other.count == 0 || other == this) {
      return this;
    }
    if (count == 0) {
      return other;
    }
    int[] a = ranges;
    int[] b = other.ranges;
    int[] out = new int[a.length + b.length];
    int n = 0;
    int i = 0;
    int j = 0;
    while (i < a.length || j < b.length) {
      int lo;
      int hi;
      if (j >= b.length || (i < a.length && a[i] <= b[j])) {
        lo = a[i];
        hi = a[i + 1];
        i += 2;
      } else {
        lo = b[j];
        hi = b[j + 1];
        j += 2;
      }
      if (n > 0 && (long) lo <= (long) out[n - 1] + 1) {
        if (hi > out[n - 1]) {
          out[n - 1] = hi;
        }
      } else {
        out[n++] = lo;
        out[n++] = hi;
      }
    }
    return ofRanges(out, n);
  }

  /** This set ∩ other. */
  public IdSet intersection(IdSet other) {
    if (count == 0 || other.count == 0) {
      return EMPTY;
    }
    if (other == this) {
      return this;
    }
    int[] a = ranges;
    int[] b = other.ranges;
    int[] out = new int[a.length + b.length];
    int n = 0;
    int i = 0;
    int j = 0;
    while (i < a.length && j < b.length) {
      int lo = Math.max(a[i], b[j]);
      int hi = Math.min(a[i + 1], b[j + 1]);
      if (lo <= hi) {
        out[n++] = lo;
        out[n++] = hi;
      }
      if (a[i + 1] < b[j + 1]) {
        i += 2;
      } else {
        j += 2;
      }
    }
    return ofRanges(out, n);
  }

  /** This set − other. */
  public IdSet difference(IdSet other) {
    if (count == 0 || other.count == 0) {
      return this;
    }
    if (other == this) {
      return EMPTY;
    }
    int[] a = ranges;
    int[] b = other.ranges;
    int[] out = new int[a.length + b.length];
    int n = 0;
    int j = 0;
    for (int i = 0; i < a.length; i += 2) {
      long lo = a[i];
      long hi = a[i + 1];
      while (j < b.length && b[j + 1] < lo) {
        j += 2;
      }
      int k = j;
      while (lo <= hi && k < b.length && b[k] <= hi) {
        if (b[k] > lo) {
          out[n++] = (int) lo;
          out[n++] = b[k] - 1;
        }
        lo = (long) b[k + 1] + 1;
        k += 2;
      }
      if (lo <= hi) {
        out[n++] = (int) lo;
        out[n++] = (int) hi;
      }
    }
    return ofRanges(out, n);
  }

  /** Whether every member of this set is in other. */
  public boolean isSubsetOf(IdSet other) {
    return difference(other).isEmpty();
  }

  /** Whether the two sets share a member. */
  public boolean intersects(IdSet other) {
    int i = 0;
    int j = 0;
    int[] a = ranges;
    int[] b = other.ranges;
    while (i < a.length && j < b.length) {
      if (a[i + 1] < b[j]) {
        i += 2;
      } else if (b[j + 1] < a[i]) {
        j += 2;
      } else {
        return true;
      }
    }
    return false;
  }

  /** Members in ascending order. */
  @Override
  public PrimitiveIterator.OfInt iterator() {
    return new PrimitiveIterator.OfInt() {
      private int r = 0;
      private long next = count == 0 ? 0 : ranges[0];

      @Override
      public boolean hasNext() {
        return r < ranges.length;
      }

      @Override
      public int nextInt() {
        if (r >= ranges.length) {
          throw new NoSuchElementException();
        }
        int v = (int) next;
        if (next == ranges[r + 1]) {
          r += 2;
          if (r < ranges.length) {
            next = ranges[r];
          }
        } else {
          next++;
        }
        return v;
      }
    };
  }

  /** Members in ascending order, as a stream. */
  public IntStream stream() {
    return StreamSupport.intStream(
        Spliterators.spliterator(
            iterator(),
            count,
            Spliterator.ORDERED
                | Spliterator.SORTED
                | Spliterator.DISTINCT
                | Spliterator.NONNULL
                | Spliterator.IMMUTABLE),
        false);
  }

  /** The set written in the given style, as flux-core's {@code idset_encode()} writes it. */
  public String encode(Style style) {
    if (count == 0) {
      return "";
    }
    StringBuilder sb = new StringBuilder(ranges.length * 4);
    boolean brackets = style == Style.BRACKETS && count > 1;
    if (brackets) {
      sb.append('[');
    }
    for (int i = 0; i < ranges.length; i += 2) {
      if (i > 0) {
        sb.append(',');
      }
      int lo = ranges[i];
      int hi = ranges[i + 1];
      if (style == Style.PLAIN) {
        for (long v = lo; v <= hi; v++) {
          if (v > lo) {
            sb.append(',');
          }
          sb.append(v);
        }
      } else {
        sb.append(lo);
        if (hi > lo) {
          sb.append('-').append(hi);
        }
      }
    }
    if (brackets) {
      sb.append(']');
    }
    return sb.toString();
  }

  /** The canonical ranged form, as in R_lite: {@code 0-3,7}. */
  @Override
  public String toString() {
    return encode(Style.RANGES);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof IdSet other && Arrays.equals(ranges, other.ranges);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(ranges);
  }

  /** Collects ids and ranges in any order; overlaps are merged. */
  public static final class Builder {
    private int[] buf = new int[16];
    private int n;
    private boolean sorted = true;

    private Builder() {}

    /** Adds one id. */
    public Builder add(int id) {
      return add(id, id);
    }

    /** Adds the range lo..hi inclusive. */
    public Builder add(int lo, int hi) {
      checkId(lo);
      checkId(hi);
      if (hi < lo) {
        throw new RsetException(
            "idset range " + lo + "-" + hi + " is reversed (expected: lo <= hi)");
      }
      if (n > 0) {
        int lastHi = buf[n - 1];
        if ((long) lo <= (long) lastHi + 1 && lo >= buf[n - 2]) {
          if (hi > lastHi) {
            buf[n - 1] = hi;
          }
          return this;
        }
        if (lo < buf[n - 2]) {
          sorted = false;
        }
      }
      if (n == buf.length) {
        buf = Arrays.copyOf(buf, n * 2);
      }
      buf[n++] = lo;
      buf[n++] = hi;
      return this;
    }

    /** Adds every member of a set. */
    public Builder addAll(IdSet set) {
      for (int i = 0; i < set.ranges.length; i += 2) {
        add(set.ranges[i], set.ranges[i + 1]);
      }
      return this;
    }

    public IdSet build() {
      if (sorted) {
        return ofRanges(Arrays.copyOf(buf, n), n);
      }
      long[] packed = new long[n / 2];
      for (int i = 0; i < n; i += 2) {
        packed[i / 2] = ((long) buf[i] << 32) | (buf[i + 1] & 0xffffffffL);
      }
      Arrays.sort(packed);
      int[] out = new int[n];
      int m = 0;
      for (long p : packed) {
        int lo = (int) (p >>> 32);
        int hi = (int) p;
        if (m > 0 && (long) lo <= (long) out[m - 1] + 1) {
          if (hi > out[m - 1]) {
            out[m - 1] = hi;
          }
        } else {
          out[m++] = lo;
          out[m++] = hi;
        }
      }
      return ofRanges(out, m);
    }
  }
}
