package io.fluxdrm.jobspec;

/**
 * Syntax checks for the notations a jobspec embeds: RFC 22 idsets (with flux-core's decoder rules)
 * and RFC 29 hostlists. Each check returns {@code null} when the text is well formed, else a
 * lower-case reason that names the offending part.
 */
final class Syntax {
  /** Largest id an idset may hold, as in flux-core (2^31 - 1). */
  static final long MAX_ID = Integer.MAX_VALUE;

  /** Most hosts one hostlist range may expand to, as in flux-core (2^20). */
  static final long MAX_RANGE_HOSTS = 1L << 20;

  private Syntax() {}

  /**
   * Checks an RFC 22 idset string as flux-core's decoder does: ascending, no duplicates, no leading
   * zeros, {@code hi > lo}, one optional outer pair of brackets, empty elements skipped.
   */
  static String idsetProblem(String s) {
    String body = s;
    if (body.startsWith("[") || body.endsWith("]")) {
      if (!(body.startsWith("[") && body.endsWith("]")) || body.length() < 2) {
        return "unbalanced brackets";
      }
      body = body.substring(1, body.length() - 1);
    }
    long prevMax = -1;
    for (String token : body.split(",", -1)) {
      if (token.isEmpty()) {
        continue; // flux-core's tokenizer skips empty elements ("1,,2")
      }
      int dash = token.indexOf('-');
      String lo = dash < 0 ? token : token.substring(0, dash);
      String hi = dash < 0 ? null : token.substring(dash + 1);
      long a = decimal(lo);
      if (a < 0) {
        return "\"" + token + "\" is not a decimal id or range";
      }
      long b = a;
      if (hi != null) {
        b = decimal(hi);
        if (b < 0) {
          return "\"" + token + "\" is not a decimal id or range";
        }
        if (b <= a) {
          return "\"" + token + "\" ends before it starts";
        }
      }
      if (b > MAX_ID) {
        return "\"" + token + "\" is larger than " + MAX_ID;
      }
      if (a <= prevMax) {
        return "\"" + token + "\" is out of order (expected: ascending)";
      }
      prevMax = b;
    }
    return null;
  }

  /** Checks an RFC 29 hostlist string. */
  static String hostlistProblem(String s) {
    if (s.isEmpty()) {
      return null;
    }
    int i = 0;
    int n = s.length();
    while (i <= n) {
      int end = i;
      int depth = 0;
      while (end < n && (s.charAt(end) != ',' || depth > 0)) {
        char c = s.charAt(end);
        if (c == '[') {
          depth++;
        } else if (c == ']') {
          depth--;
        }
        end++;
      }
      if (end > i) {
        String p = hostProblem(s.substring(i, end));
        if (p != null) {
          return p;
        }
      }
      i = end + 1;
    }
    return null;
  }

  private static String hostProblem(String h) {
    for (int k = 0; k < h.length(); k++) {
      char c = h.charAt(k);
      if (c <= ' ' || c > '~') {
        return "\"" + h + "\" contains a space or a non-printable character";
      }
    }
    int open = h.indexOf('[');
    int close = h.indexOf(']');
    if (open < 0 && close < 0) {
      return null;
    }
    if (open < 0
        || close < open
        || h.indexOf('[', open + 1) >= 0
        || h.indexOf(']', close + 1) >= 0) {
      return "\"" + h + "\" has unbalanced brackets";
    }
    String list = h.substring(open + 1, close);
    if (list.isEmpty()) {
      return "\"" + h + "\" has an empty bracket list";
    }
    for (String item : list.split(",", -1)) {
      int dash = item.indexOf('-');
      String lo = dash < 0 ? item : item.substring(0, dash);
      String hi = dash < 0 ? lo : item.substring(dash + 1);
      if (!digits(lo) || !digits(hi)) {
        return "\"" + h + "\": \"" + item + "\" is not a number or range";
      }
      if (lo.length() > 9 || hi.length() > 9) {
        return "\"" + h + "\": \"" + item + "\" is too large";
      }
      long a = Long.parseLong(lo);
      long b = Long.parseLong(hi);
      if (b < a) {
        return "\"" + h + "\": \"" + item + "\" ends before it starts";
      }
      if (b - a + 1 > MAX_RANGE_HOSTS) {
        return "\"" + h + "\": \"" + item + "\" expands to more than " + MAX_RANGE_HOSTS + " hosts";
      }
    }
    return null;
  }

  private static boolean digits(String s) {
    if (s.isEmpty()) {
      return false;
    }
    for (int k = 0; k < s.length(); k++) {
      if (s.charAt(k) < '0' || s.charAt(k) > '9') {
        return false;
      }
    }
    return true;
  }

  /** Parses a decimal without sign or leading zero (except "0"); -1 if malformed or too long. */
  static long decimal(String s) {
    if (!digits(s) || (s.length() > 1 && s.charAt(0) == '0') || s.length() > 12) {
      return -1;
    }
    return Long.parseLong(s);
  }
}
