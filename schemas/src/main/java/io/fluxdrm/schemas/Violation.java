package io.fluxdrm.schemas;

import java.util.Comparator;
import java.util.Objects;

/**
 * One problem found in a JSON document: where (a JSON Pointer, RFC 6901, {@code ""} for the whole
 * document), which rule was broken, and a lower-case message that states what was found and what
 * was expected.
 *
 * @param pointer JSON Pointer of the offending value
 * @param rule short name of the rule (a JSON Schema keyword such as {@code required}, or a semantic
 *     rule name such as {@code count-range})
 * @param message what was found and what was expected, lower case, no trailing period
 */
public record Violation(String pointer, String rule, String message)
    implements Comparable<Violation> {

  /**
   * Order by location (pointer segments compared numerically where both are numbers), then text.
   */
  public static final Comparator<Violation> BY_LOCATION =
      Comparator.comparing(Violation::pointer, Violation::comparePointers)
          .thenComparing(Violation::message)
          .thenComparing(Violation::rule);

  /** Creates a violation; every component is required. */
  public Violation {
    Objects.requireNonNull(pointer, "pointer");
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(message, "message");
  }

  @Override
  public int compareTo(Violation other) {
    return BY_LOCATION.compare(this, other);
  }

  /** The text shown to users: {@code /tasks/0/count: has both total and per_slot (...)}. */
  @Override
  public String toString() {
    return (pointer.isEmpty() ? "/" : pointer) + ": " + message;
  }

  private static int comparePointers(String a, String b) {
    String[] sa = a.split("/", -1);
    String[] sb = b.split("/", -1);
    int n = Math.min(sa.length, sb.length);
    for (int i = 0; i < n; i++) {
      int c = compareSegment(sa[i], sb[i]);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(sa.length, sb.length);
  }

  private static int compareSegment(String a, String b) {
    if (isIndex(a) && isIndex(b)) {
      int c = Integer.compare(a.length(), b.length());
      return c != 0 ? c : a.compareTo(b);
    }
    return a.compareTo(b);
  }

  private static boolean isIndex(String s) {
    if (s.isEmpty() || s.length() > 9) {
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
