package io.fluxdrm.pmix.request;

import java.util.ArrayList;
import java.util.List;

/**
 * The RFC 29 hostlist ranges a node-list entry may use, expanded: {@code prefix[ranges]suffix} with
 * ranges {@code n} or {@code lo-hi} separated by commas, zero padding kept from the width of the
 * low number ({@code n[08-10]} is n08, n09, n10). One bracket per name; at most {@code limit} hosts
 * (decision D545: pmix depends on nothing Flux-side, so it does not use rset's {@code Hostlist}).
 */
final class HostRanges {
  private HostRanges() {}

  /**
   * Expands one name.
   *
   * @param name the name, without a slot suffix
   * @param limit the most hosts it may name
   * @return the hosts, in order
   * @throws IllegalArgumentException saying what is wrong (no label)
   */
  static List<String> expand(String name, int limit) {
    int open = name.indexOf('[');
    if (open < 0) {
      if (name.indexOf(']') >= 0) {
        throw new IllegalArgumentException("an unmatched ']'");
      }
      return List.of(name);
    }
    int close = name.indexOf(']', open + 1);
    if (close < 0) {
      throw new IllegalArgumentException("an unclosed '[' (expected: balanced brackets)");
    }
    String prefix = name.substring(0, open);
    String list = name.substring(open + 1, close);
    String suffix = name.substring(close + 1);
    if (prefix.indexOf(']') >= 0 || list.indexOf('[') >= 0 || suffix.indexOf('[') >= 0) {
      throw new IllegalArgumentException(
          "nested or repeated brackets (expected: one bracket per name)");
    }
    if (suffix.indexOf(']') >= 0) {
      throw new IllegalArgumentException("an unmatched ']'");
    }
    List<String> out = new ArrayList<>();
    for (String r : list.split(",", -1)) {
      int dash = r.indexOf('-');
      String lo = dash < 0 ? r : r.substring(0, dash);
      String hi = dash < 0 ? r : r.substring(dash + 1);
      if (!digits(lo) || !digits(hi)) {
        throw new IllegalArgumentException(
            "\"" + r + "\" is not a number or a range (expected: n or lo-hi)");
      }
      long a = Long.parseLong(lo);
      long b = Long.parseLong(hi);
      if (b < a) {
        throw new IllegalArgumentException("the reversed range \"" + r + "\" (expected: lo <= hi)");
      }
      if (b - a + 1 > limit - out.size()) {
        throw new IllegalArgumentException("more than " + limit + " hosts");
      }
      for (long v = a; v <= b; v++) {
        String n = Long.toString(v);
        out.add(prefix + "0".repeat(Math.max(0, lo.length() - n.length())) + n + suffix);
      }
    }
    return out;
  }

  private static boolean digits(String s) {
    if (s.isEmpty() || s.length() > 18) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }
}
