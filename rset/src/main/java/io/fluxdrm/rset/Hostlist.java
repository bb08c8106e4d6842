package io.fluxdrm.rset;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * An immutable, ordered list of host names (RFC 29), duplicates allowed, kept as compressed runs
 * ({@code prefix} + zero-padded numbers) so that counting, indexing and searching never expand it.
 *
 * <p>{@link #parse(String)} follows flux-core's {@code hostlist_decode()}: elements separated by
 * commas, spaces or tabs; {@code prefix[ranges]suffix}; the width of each range is the length of
 * its first number, so zero padding is kept; one range holds at most {@value #MAX_RANGE} hosts and
 * one bracket at most {@value #MAX_RANGES} ranges. {@link #toString()} is flux-core's {@code
 * hostlist_encode()}: order kept, consecutive numbers with a common prefix compressed, no suffix
 * after brackets.
 *
 * <p>Operations that must look at every host ({@link #expand()}, {@link #intersect}, {@link
 * #minus}, {@link #deleteAll}) refuse lists of more than {@link #EXPANSION_LIMIT} hosts.
 *
 * <p>Why one class: it is one immutable value with libhostlist's whole algebra, whose operations
 * share the private run representation and its width rules (D18–D21).
 */
public final class Hostlist {

  /** Most hosts one range may name (flux-core's MAX_RANGE). */
  public static final long MAX_RANGE = 1L << 20;

  /** Most ranges one bracket may hold (flux-core's MAX_RANGES). */
  public static final int MAX_RANGES = 10240;

  /** Most hosts an operation will visit one by one. */
  public static final long EXPANSION_LIMIT = 1L << 22;

  private static final HostRange[] NO_RANGES = new HostRange[0];
  private static final Hostlist EMPTY = new Hostlist(NO_RANGES, 0);

  private final HostRange[] ranges;
  private final long count;

  private Hostlist(HostRange[] ranges, long count) {
    this.ranges = ranges;
    this.count = count;
  }

  public static Hostlist empty() {
    return EMPTY;
  }

  /** The hosts in the given order, each one parsed as a single host name. */
  public static Hostlist of(Iterable<String> hosts) {
    Builder b = new Builder();
    for (String h : hosts) {
      b.appendHost(h, h);
    }
    return b.build();
  }

  /** The hosts in the given order, each one parsed as a single host name. */
  public static Hostlist of(String... hosts) {
    return of(Arrays.asList(hosts));
  }

  /**
   * Decodes an RFC 29 hostlist string.
   *
   * @throws RsetException saying which element breaks which rule
   */
  public static Hostlist parse(String s) {
    if (s == null) {
      throw new RsetException("hostlist is missing (expected: an RFC 29 hostlist string)");
    }
    Builder b = new Builder();
    int n = s.length();
    int i = 0;
    while (i < n) {
      char c = s.charAt(i);
      if (isSeparator(c)) {
        i++;
        continue;
      }
      int level = 0;
      int end = i;
      while (end < n && (level != 0 || !isSeparator(s.charAt(end)))) {
        char d = s.charAt(end);
        if (d == '[') {
          level++;
        } else if (d == ']') {
          level--;
        }
        end++;
      }
      parseElement(s, s.substring(i, end), b);
      i = end;
    }
    return b.build();
  }

  private static boolean isSeparator(char c) {
    return c == ',' || c == ' ' || c == '\t';
  }

  private static void parseElement(String all, String tok, Builder b) {
    int open = tok.indexOf('[');
    if (open < 0) {
      if (tok.indexOf(']') >= 0) {
        throw invalid(all, "\"" + IdSet.abbreviate(tok) + "\" has an unmatched ']'");
      }
      b.appendHost(tok, all);
      return;
    }
    String prefix = tok.substring(0, open);
    if (prefix.indexOf(']') >= 0) {
      throw invalid(all, "\"" + IdSet.abbreviate(tok) + "\" has an unmatched ']'");
    }
    int close = tok.indexOf(']', open + 1);
    if (close < 0) {
      throw invalid(
          all,
          "\"" + IdSet.abbreviate(tok) + "\" has an unclosed '[' (expected: balanced brackets)");
    }
    String list = tok.substring(open + 1, close);
    String suffix = tok.substring(close + 1);
    if (list.indexOf('[') >= 0 || suffix.indexOf('[') >= 0 || suffix.indexOf(']') >= 0) {
      throw invalid(
          all,
          "\""
              + IdSet.abbreviate(tok)
              + "\" has nested or repeated brackets (expected: one bracket per element)");
    }
    long[] parsed = parseRangeList(all, tok, list);
    for (int k = 0; k < parsed.length; k += 3) {
      long lo = parsed[k];
      long hi = parsed[k + 1];
      int width = (int) parsed[k + 2];
      if (suffix.isEmpty()) {
        b.append(HostRange.numeric(prefix, lo, hi, width));
      } else {
        if (b.count + (hi - lo + 1) > EXPANSION_LIMIT) {
          throw new RsetException(
              RsetException.Reason.RANGE,
              "hostlist \""
                  + IdSet.abbreviate(all)
                  + "\": suffixed ranges expand to more than "
                  + EXPANSION_LIMIT
                  + " hosts");
        }
        StringBuilder sb = new StringBuilder();
        for (long v = lo; v <= hi; v++) {
          sb.setLength(0);
          sb.append(prefix);
          HostRange.appendNumber(sb, v, width);
          sb.append(suffix);
          b.append(HostRange.single(sb.toString()));
        }
      }
    }
  }

  /** Parses "a,b-c,..." into {lo, hi, width} triples. */
  private static long[] parseRangeList(String all, String tok, String list) {
    long[] out = new long[12];
    int n = 0;
    int ranges = 0;
    int i = 0;
    int len = list.length();
    while (true) {
      int end = list.indexOf(',', i);
      if (end < 0) {
        end = len;
      }
      if (++ranges > MAX_RANGES) {
        throw new RsetException(
            RsetException.Reason.RANGE,
            "hostlist \""
                + IdSet.abbreviate(all)
                + "\": more than "
                + MAX_RANGES
                + " ranges in one bracket");
      }
      String r = list.substring(i, end);
      int dash = r.indexOf('-');
      String loText = dash < 0 ? r : r.substring(0, dash);
      String hiText = dash < 0 ? r : r.substring(dash + 1);
      if (!isDigits(loText) || !isDigits(hiText)) {
        throw invalid(
            all,
            "\""
                + IdSet.abbreviate(tok)
                + "\" has \""
                + IdSet.abbreviate(r)
                + "\", not a number or a range (expected: n or lo-hi)");
      }
      long lo = Long.parseLong(loText);
      long hi = Long.parseLong(hiText);
      if (hi < lo) {
        throw invalid(
            all,
            "\""
                + IdSet.abbreviate(tok)
                + "\" has the reversed range \""
                + r
                + "\" (expected: lo <= hi)");
      }
      if (hi - lo + 1 > MAX_RANGE) {
        throw new RsetException(
            RsetException.Reason.RANGE,
            "hostlist \""
                + IdSet.abbreviate(all)
                + "\": range \""
                + r
                + "\" names "
                + (hi - lo + 1)
                + " hosts (expected: at most "
                + MAX_RANGE
                + ")");
      }
      if (n == out.length) {
        out = Arrays.copyOf(out, n * 2);
      }
      out[n++] = lo;
      out[n++] = hi;
      out[n++] = loText.length();
      if (end == len) {
        break;
      }
      i = end + 1;
    }
    return Arrays.copyOf(out, n);
  }

  private static boolean isDigits(String s) {
    if (s.isEmpty() || s.length() > 18) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  private static RsetException invalid(String all, String what) {
    return new RsetException("hostlist \"" + IdSet.abbreviate(all) + "\": " + what);
  }

  /** Number of hosts, duplicates included. */
  public long count() {
    return count;
  }

  public boolean isEmpty() {
    return count == 0;
  }

  /**
   * The host at position {@code index} (0 = first).
   *
   * @throws NoSuchElementException when index is out of bounds
   */
  public String get(long index) {
    if (index < 0 || index >= count) {
      throw new NoSuchElementException(
          "hostlist index " + index + " is out of range (expected: 0 to " + (count - 1) + ")");
    }
    long left = index;
    for (HostRange r : ranges) {
      long c = r.count();
      if (left < c) {
        return r.host(left);
      }
      left -= c;
    }
    throw new IllegalStateException("unreachable");
  }

  /** Position of the first occurrence of {@code host}, or -1 when it is absent. */
  public long indexOf(String host) {
    long base = 0;
    for (HostRange r : ranges) {
      long off = r.offsetOf(host);
      if (off >= 0) {
        return base + off;
      }
      base += r.count();
    }
    return -1;
  }

  public boolean contains(String host) {
    return indexOf(host) >= 0;
  }

  /** Every host in order; refuses lists of more than {@link #EXPANSION_LIMIT} hosts. */
  public List<String> expand() {
    checkExpandable("expand");
    List<String> out = new ArrayList<>((int) count);
    for (HostRange r : ranges) {
      long c = r.count();
      for (long d = 0; d < c; d++) {
        out.add(r.host(d));
      }
    }
    return out;
  }

  private void checkExpandable(String what) {
    if (count > EXPANSION_LIMIT) {
      throw new RsetException(
          RsetException.Reason.RANGE,
          "hostlist of "
              + count
              + " hosts is too large to "
              + what
              + " (expected: at most "
              + EXPANSION_LIMIT
              + ")");
    }
  }

  /** This list followed by {@code other}. */
  public Hostlist append(Hostlist other) {
    if (other.count == 0) {
      return this;
    }
    if (count == 0) {
      return other;
    }
    Builder b = new Builder();
    for (HostRange r : ranges) {
      b.append(r);
    }
    for (HostRange r : other.ranges) {
      b.append(r);
    }
    return b.build();
  }

  /** The hosts at the given positions, in the order of this list. */
  public Hostlist select(IdSet positions) {
    if (positions.isEmpty()) {
      return EMPTY;
    }
    if (positions.last() >= count) {
      throw new RsetException(
          RsetException.Reason.NOT_FOUND,
          "hostlist index "
              + positions.last()
              + " is out of range (expected: 0 to "
              + (count - 1)
              + ")");
    }
    Builder b = new Builder();
    int ri = 0;
    long base = 0;
    for (int k = 0; k < positions.rangeCount(); k++) {
      long lo = positions.rangeLo(k);
      long hi = positions.rangeHi(k);
      while (lo <= hi) {
        while (base + ranges[ri].count() <= lo) {
          base += ranges[ri].count();
          ri++;
        }
        HostRange r = ranges[ri];
        long from = lo - base;
        long to = Math.min(hi - base, r.count() - 1);
        b.append(r.single() ? r : r.withBounds(r.lo() + from, r.lo() + to, r.width()));
        lo = base + to + 1;
      }
    }
    return b.build();
  }

  /** Sorted as libhostlist's {@code hostlist_sort()}: by prefix, then number; duplicates kept. */
  public Hostlist sort() {
    if (ranges.length <= 1) {
      return this;
    }
    HostRange[] sorted = mergeSort(ranges);
    Builder b = new Builder();
    int i = 0;
    while (i < sorted.length) {
      int j = groupEnd(sorted, i);
      if (j - i == 1) {
        b.append(sorted[i]);
      } else {
        coalesce(sorted, i, j, b);
      }
      i = j;
    }
    return b.build();
  }

  /** Sorted with duplicates removed, as libhostlist's {@code hostlist_uniq()}. */
  public Hostlist uniq() {
    if (ranges.length == 0) {
      return this;
    }
    HostRange[] sorted = mergeSort(ranges);
    Builder b = new Builder();
    HostRange cur = sorted[0];
    for (int k = 1; k < sorted.length; k++) {
      HostRange next = sorted[k];
      if (cur.comparePrefix(next) == 0 && cur.widthCompatible(next)) {
        if (cur.single()) {
          continue; // the same single host again
        }
        if (next.lo() <= cur.hi() + 1) {
          if (next.hi() > cur.hi()) {
            cur = cur.withBounds(cur.lo(), next.hi(), cur.joinedWidth(next));
          }
          continue;
        }
      }
      b.append(cur);
      cur = next;
    }
    b.append(cur);
    return b.build();
  }

  /** End (exclusive) of the run of numbered ranges from {@code i} that may share numbers. */
  private static int groupEnd(HostRange[] a, int i) {
    int j = i + 1;
    if (a[i].single()) {
      return j;
    }
    while (j < a.length
        && a[j].sameBracket(a[j - 1])
        && a[j - 1].widthCompatible(a[j])
        && a[j].lo() >= a[j - 1].lo()) {
      j++;
    }
    return j;
  }

  /**
   * Writes the sorted hosts of a[from, to) (ascending lo, one prefix, compatible widths) as runs: a
   * run goes on from n to n+1 and breaks at every repeated number, as libhostlist's coalesce.
   */
  private static void coalesce(HostRange[] a, int from, int to, Builder b) {
    // sweep line over the interval ends: coverage count per stretch of numbers
    int n = to - from;
    long[] starts = new long[n];
    long[] ends = new long[n];
    for (int k = 0; k < n; k++) {
      starts[k] = a[from + k].lo();
      ends[k] = a[from + k].hi() + 1;
    }
    Arrays.sort(ends);
    HostRange proto = a[from];
    int si = 0;
    int ei = 0;
    int depth = 0;
    long pos = starts[0];
    long runLo = -1;
    long runHi = -2;
    int runWidth = proto.width();
    while (si < n || ei < n) {
      long nextEvent =
          Math.min(si < n ? starts[si] : Long.MAX_VALUE, ei < n ? ends[ei] : Long.MAX_VALUE);
      if (depth > 0 && nextEvent > pos) {
        long segLo = pos;
        long segHi = nextEvent - 1;
        if (depth == 1) {
          if (runHi == segLo - 1) {
            runHi = segHi;
          } else {
            if (runHi >= runLo) {
              b.append(proto.withBounds(runLo, runHi, runWidth));
            }
            runLo = segLo;
            runHi = segHi;
          }
        } else {
          for (long v = segLo; v <= segHi; v++) {
            if (runHi == v - 1) {
              runHi = v;
            } else {
              if (runHi >= runLo) {
                b.append(proto.withBounds(runLo, runHi, runWidth));
              }
              runLo = v;
              runHi = v;
            }
            for (int c = 1; c < depth; c++) {
              b.append(proto.withBounds(runLo, runHi, runWidth));
              runLo = v;
              runHi = v;
            }
          }
        }
      }
      pos = nextEvent;
      while (si < n && starts[si] == pos) {
        depth++;
        si++;
      }
      while (ei < n && ends[ei] == pos) {
        depth--;
        ei++;
      }
    }
    if (runHi >= runLo) {
      b.append(proto.withBounds(runLo, runHi, runWidth));
    }
  }

  private static HostRange[] mergeSort(HostRange[] in) {
    HostRange[] a = in.clone();
    HostRange[] tmp = new HostRange[a.length];
    for (int width = 1; width < a.length; width *= 2) {
      for (int lo = 0; lo < a.length - width; lo += 2 * width) {
        int mid = lo + width;
        int hi = Math.min(lo + 2 * width, a.length);
        int i = lo;
        int j = mid;
        int k = lo;
        while (i < mid && j < hi) {
          tmp[k++] = a[j].compareForSort(a[i]) < 0 ? a[j++] : a[i++];
        }
        while (i < mid) {
          tmp[k++] = a[i++];
        }
        while (j < hi) {
          tmp[k++] = a[j++];
        }
        System.arraycopy(tmp, lo, a, lo, hi - lo);
      }
    }
    return a;
  }

  /**
   * This list without the first occurrence of each host of {@code hosts} (libhostlist's {@code
   * hostlist_delete()}).
   */
  public Hostlist delete(Hostlist hosts) {
    return remove(hosts, false);
  }

  /** This list without any occurrence of the hosts of {@code hosts}. */
  public Hostlist deleteAll(Hostlist hosts) {
    return remove(hosts, true);
  }

  private Hostlist remove(Hostlist hosts, boolean all) {
    if (hosts.isEmpty() || isEmpty()) {
      return this;
    }
    checkExpandable("delete from");
    hosts.checkExpandable("delete");
    List<String> mine = expand();
    boolean[] gone = new boolean[mine.size()];
    if (all) {
      Index idx = hosts.index();
      for (int k = 0; k < gone.length; k++) {
        gone[k] = idx.contains(mine.get(k));
      }
    } else {
      Map<String, List<Integer>> positions = new HashMap<>();
      for (int k = 0; k < mine.size(); k++) {
        positions.computeIfAbsent(mine.get(k), x -> new ArrayList<>(1)).add(k);
      }
      Map<String, Integer> used = new HashMap<>();
      for (String h : hosts.expand()) {
        List<Integer> at = positions.get(h);
        if (at == null) {
          continue;
        }
        int u = used.getOrDefault(h, 0);
        if (u < at.size()) {
          gone[at.get(u)] = true;
          used.put(h, u + 1);
        }
      }
    }
    // libhostlist deletes by trimming or splitting runs and never joins what is left: each run
    // keeps its own surviving stretches, so "n1,n3,n2" minus n3 stays "n[1,2]"
    Builder b = new Builder();
    int pos = 0;
    for (HostRange r : ranges) {
      int c = (int) r.count();
      int k = 0;
      while (k < c) {
        if (gone[pos + k]) {
          k++;
          continue;
        }
        int start = k;
        while (k < c && !gone[pos + k]) {
          k++;
        }
        b.appendUnjoined(r.single() ? r : r.withBounds(r.lo() + start, r.lo() + k - 1, r.width()));
      }
      pos += c;
    }
    return b.build();
  }

  /** Hosts of this list that are also in {@code other}, sorted and unique. */
  public Hostlist intersect(Hostlist other) {
    checkExpandable("intersect");
    Index idx = other.index();
    Builder b = new Builder();
    for (HostRange r : ranges) {
      long c = r.count();
      for (long d = 0; d < c; d++) {
        String h = r.host(d);
        if (idx.contains(h)) {
          b.appendHost(h, h);
        }
      }
    }
    return b.build().uniq();
  }

  /** Hosts of this list that are not in {@code other}, in order, duplicates kept. */
  public Hostlist minus(Hostlist other) {
    checkExpandable("subtract from");
    Index idx = other.index();
    Builder b = new Builder();
    for (HostRange r : ranges) {
      long c = r.count();
      for (long d = 0; d < c; d++) {
        String h = r.host(d);
        if (!idx.contains(h)) {
          b.appendHost(h, h);
        }
      }
    }
    return b.build();
  }

  /** Membership test over this list's runs, grouped by prefix. */
  Index index() {
    return new Index(ranges);
  }

  static final class Index {
    private final Map<String, List<HostRange>> numbered = new HashMap<>();
    private final java.util.Set<String> singles = new java.util.HashSet<>();

    Index(HostRange[] ranges) {
      for (HostRange r : ranges) {
        if (r.single()) {
          singles.add(r.prefix());
        } else {
          numbered.computeIfAbsent(r.prefix(), x -> new ArrayList<>()).add(r);
        }
      }
    }

    boolean contains(String host) {
      if (singles.contains(host)) {
        return true;
      }
      int end = host.length();
      int p = end;
      while (p > 0 && Character.isDigit(host.charAt(p - 1)) && host.charAt(p - 1) < 128) {
        p--;
      }
      for (int cut = p; cut < end; cut++) {
        List<HostRange> rs = numbered.get(host.substring(0, cut));
        if (rs != null) {
          for (HostRange r : rs) {
            if (r.offsetOf(host) >= 0) {
              return true;
            }
          }
        }
      }
      return false;
    }
  }

  /** The compressed form, as flux-core's {@code hostlist_encode()}: {@code n[1-3,5],foo}. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    int i = 0;
    while (i < ranges.length) {
      if (i > 0) {
        sb.append(',');
      }
      HostRange first = ranges[i];
      boolean bracket =
          first.count() > 1 || (i + 1 < ranges.length && ranges[i + 1].sameBracket(first));
      sb.append(first.prefix());
      if (bracket) {
        sb.append('[');
      }
      while (true) {
        HostRange r = ranges[i];
        if (!r.single()) {
          HostRange.appendNumber(sb, r.lo(), r.width());
          if (r.lo() < r.hi()) {
            sb.append('-');
            HostRange.appendNumber(sb, r.hi(), r.width());
          }
        }
        i++;
        if (i >= ranges.length || !ranges[i].sameBracket(ranges[i - 1])) {
          break;
        }
        sb.append(',');
      }
      if (bracket) {
        sb.append(']');
      }
    }
    return sb.toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Hostlist other && Arrays.equals(ranges, other.ranges);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(ranges);
  }

  /** Appends runs, joining a run with the last one when its numbers continue it. */
  static final class Builder {
    private HostRange[] buf = new HostRange[8];
    private int n;
    private long count;

    void append(HostRange r) {
      if (n > 0) {
        HostRange tail = buf[n - 1];
        if (!tail.single()
            && !r.single()
            && tail.prefix().equals(r.prefix())
            && tail.hi() == r.lo() - 1
            && tail.widthCompatible(r)) {
          buf[n - 1] = tail.withBounds(tail.lo(), r.hi(), tail.joinedWidth(r));
          count += r.count();
          return;
        }
      }
      if (n == buf.length) {
        buf = Arrays.copyOf(buf, n * 2);
      }
      buf[n++] = r;
      count += r.count();
    }

    /** Appends a run as it is, even when it continues the last one. */
    void appendUnjoined(HostRange r) {
      if (n == buf.length) {
        buf = Arrays.copyOf(buf, n * 2);
      }
      buf[n++] = r;
      count += r.count();
    }

    /**
     * Appends one host name: its trailing digits, if any, become a number of width their length.
     */
    void appendHost(String host, String context) {
      if (host.isEmpty()) {
        return;
      }
      for (int i = 0; i < host.length(); i++) {
        char c = host.charAt(i);
        if (c == ',' || c == '[' || c == ']' || c == ' ' || c == '\t') {
          throw new RsetException(
              "hostlist \""
                  + IdSet.abbreviate(context)
                  + "\": host name \""
                  + IdSet.abbreviate(host)
                  + "\" contains '"
                  + c
                  + "' (expected: no separators or brackets)");
        }
      }
      int end = host.length();
      int p = end;
      while (p > 0 && host.charAt(p - 1) >= '0' && host.charAt(p - 1) <= '9') {
        p--;
      }
      if (p == end || end - p > 18) {
        append(HostRange.single(host));
      } else {
        long v = Long.parseLong(host.substring(p));
        append(HostRange.numeric(host.substring(0, p), v, v, end - p));
      }
    }

    Hostlist build() {
      return n == 0 ? EMPTY : new Hostlist(Arrays.copyOf(buf, n), count);
    }
  }
}
