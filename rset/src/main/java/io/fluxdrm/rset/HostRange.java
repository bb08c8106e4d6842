package io.fluxdrm.rset;

/**
 * One run of a hostlist: {@code prefix} followed by the numbers {@code lo..hi} zero-padded to
 * {@code width}, or, when {@code single}, one host whose whole name is {@code prefix}.
 */
record HostRange(String prefix, long lo, long hi, int width, boolean single) {

  /**
   * A width that pads nothing (not more than the digits of {@code lo}, hence of every number of the
   * run) prints and compares like any other such width, so it is stored as 0: runs that print the
   * same hosts are equal.
   */
  HostRange {
    if (single || padding(lo, width) == 0) {
      width = 0;
    }
  }

  static HostRange single(String name) {
    return new HostRange(name, 0, 0, 0, true);
  }

  static HostRange numeric(String prefix, long lo, long hi, int width) {
    return new HostRange(prefix, lo, hi, width, false);
  }

  long count() {
    return single ? 1 : hi - lo + 1;
  }

  HostRange withBounds(long newLo, long newHi, int newWidth) {
    return new HostRange(prefix, newLo, newHi, newWidth, single);
  }

  /** The host at offset {@code depth} of this run. */
  String host(long depth) {
    if (single) {
      return prefix;
    }
    StringBuilder sb = new StringBuilder(prefix.length() + Math.max(width, 20));
    sb.append(prefix);
    appendNumber(sb, lo + depth, width);
    return sb.toString();
  }

  static void appendNumber(StringBuilder sb, long v, int width) {
    String digits = Long.toString(v);
    for (int i = digits.length(); i < width; i++) {
      sb.append('0');
    }
    sb.append(digits);
  }

  /** Zeros that printing {@code n} at width {@code w} adds. */
  static int padding(long n, int w) {
    int digits = 1;
    for (long x = n / 10; x != 0; x /= 10) {
      digits++;
    }
    return w > digits ? w - digits : 0;
  }

  /**
   * Whether this run and {@code other} print their numbers alike, so that they may be joined: as
   * libhostlist's width test, true unless each run's lowest number would print differently at the
   * other run's width.
   */
  boolean widthCompatible(HostRange other) {
    return padding(lo, width) == padding(lo, other.width)
        || padding(other.lo, other.width) == padding(other.lo, width);
  }

  /** The width a join of this run (first) with {@code other} prints with. */
  int joinedWidth(HostRange other) {
    return padding(lo, width) != padding(lo, other.width) ? width : other.width;
  }

  /** Prefix order of libhostlist: bytes, then length, then single hosts before numbered ones. */
  int comparePrefix(HostRange other) {
    int c = prefix.compareTo(other.prefix);
    if (c != 0) {
      return c < 0 ? -1 : 1;
    }
    return Boolean.compare(other.single, single);
  }

  /** Whether both runs belong in one bracket: same prefix, both numbered. */
  boolean sameBracket(HostRange other) {
    return !single && !other.single && prefix.equals(other.prefix);
  }

  /** Sort order of libhostlist: prefix, then lowest number when widths agree, else width. */
  int compareForSort(HostRange other) {
    int c = comparePrefix(other);
    if (c != 0) {
      return c;
    }
    if (single) {
      return 0;
    }
    if (widthCompatible(other)) {
      return Long.compare(lo, other.lo);
    }
    return Integer.compare(width, other.width);
  }

  /** Offset of {@code host} in this run, or -1 when the run does not hold it. */
  long offsetOf(String host) {
    if (single) {
      return host.equals(prefix) ? 0 : -1;
    }
    int p = prefix.length();
    int len = host.length();
    if (len <= p || !host.startsWith(prefix) || len - p > 18) {
      return -1;
    }
    long v = 0;
    for (int i = p; i < len; i++) {
      char c = host.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
    }
    if (v < lo || v > hi) {
      return -1;
    }
    int digits = len - p;
    int printed = Math.max(width, Long.toString(v).length());
    if (digits != printed) {
      return -1;
    }
    return v - lo;
  }
}
