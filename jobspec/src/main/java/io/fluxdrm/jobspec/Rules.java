package io.fluxdrm.jobspec;

import com.fasterxml.jackson.databind.JsonNode;
import io.fluxdrm.schemas.Violation;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The jobspec rules a JSON Schema cannot express: count strings (RFC 22 idset or RFC 45 range),
 * range objects (max >= min, operand rules), a task count with several keys, RFC 31 constraints.
 * They only look at values of the right type; wrong types are the schema's to report.
 */
final class Rules {
  private static final String COUNT_FORMS =
      "an idset such as 4,9,16 or a range such as 2+, 2-32:2:*";

  private Rules() {}

  static void check(JsonNode doc, List<Violation> out) {
    if (!doc.isObject()) {
      return;
    }
    JsonNode resources = doc.get("resources");
    if (resources != null && resources.isArray()) {
      for (int i = 0; i < resources.size(); i++) {
        vertex(resources.get(i), "/resources/" + i, out);
      }
    }
    JsonNode tasks = doc.get("tasks");
    if (tasks != null && tasks.isArray()) {
      for (int i = 0; i < tasks.size(); i++) {
        task(tasks.get(i), "/tasks/" + i, out);
      }
    }
    JsonNode constraints = doc.path("attributes").path("system").get("constraints");
    if (constraints != null && constraints.isObject()) {
      ConstraintRules.check(constraints, "/attributes/system/constraints", out);
    }
  }

  private static void vertex(JsonNode v, String ptr, List<Violation> out) {
    if (!v.isObject()) {
      return;
    }
    JsonNode count = v.get("count");
    if (count != null) {
      count(count, ptr + "/count", out);
    }
    JsonNode with = v.get("with");
    if (with != null && with.isArray()) {
      for (int i = 0; i < with.size(); i++) {
        vertex(with.get(i), ptr + "/with/" + i, out);
      }
    }
  }

  private static void count(JsonNode count, String ptr, List<Violation> out) {
    if (count.isTextual()) {
      List<Violation> problems = new ArrayList<>(1);
      parseCountString(count.asText(), ptr, problems);
      out.addAll(problems);
    } else if (count.isObject()) {
      JsonNode min = count.get("min");
      JsonNode max = count.get("max");
      JsonNode operator = count.get("operator");
      JsonNode operand = count.get("operand");
      rangeRules(
          min != null && min.isIntegralNumber() ? min.asLong() : null,
          max != null && max.isIntegralNumber() ? max.asLong() : null,
          operator != null && operator.isTextual() ? operator.asText() : null,
          operand != null && operand.isIntegralNumber() ? operand.asLong() : null,
          ptr,
          true,
          out);
    }
  }

  /**
   * Parses a count string, flux-core's way: an RFC 22 idset of acceptable values first, else an RFC
   * 45 range {@code min-max[:operand[:operator]]} or {@code min+[:operand[:operator]]} whose
   * numbers are read as Python's {@code int()} reads them (flux-core's validator is Python).
   */
  static Count parseCountString(String s, String ptr, List<Violation> out) {
    if (Syntax.idsetProblem(s) == null) {
      return new Count.Values(s, firstId(s));
    }
    String[] parts = s.split(":", -1);
    String head = parts[0];
    if (parts.length > 3 || (head.indexOf('-') < 0 && head.indexOf('+') < 0)) {
      out.add(new Violation(ptr, "count-string", quote(s) + " (expected: " + COUNT_FORMS + ")"));
      return null;
    }
    Long min;
    Long max = null;
    int dash = head.indexOf('-');
    if (dash >= 0) {
      min = pythonInt(head.substring(0, dash));
      max = pythonInt(head.substring(dash + 1));
    } else {
      int end = head.length();
      while (end > 0 && head.charAt(end - 1) == '+') {
        end--;
      }
      min = pythonInt(head.substring(0, end));
    }
    Long operand = parts.length > 1 ? pythonInt(parts[1]) : Long.valueOf(1);
    String operator = parts.length > 2 ? parts[2] : "+";
    if (min == null || operand == null || (dash >= 0 && max == null)) {
      out.add(new Violation(ptr, "count-string", quote(s) + " (expected: " + COUNT_FORMS + ")"));
      return null;
    }
    int before = out.size();
    rangeRules(min, max, operator, operand, ptr, false, out);
    if (out.size() > before) {
      return null;
    }
    return new Count.Range(
        min, max == null ? Count.Range.UNBOUNDED : max, operator.charAt(0), operand, s);
  }

  /**
   * Reads an integer as Python's {@code int()} does for ASCII text: surrounding blanks, an optional
   * sign, digits with single underscores between them, leading zeros allowed; {@code null} if
   * malformed or beyond 18 digits.
   */
  static Long pythonInt(String text) {
    String t = text.strip();
    int i = 0;
    boolean negative = false;
    if (!t.isEmpty() && (t.charAt(0) == '+' || t.charAt(0) == '-')) {
      negative = t.charAt(0) == '-';
      i = 1;
    }
    StringBuilder digits = new StringBuilder();
    boolean lastUnderscore = true;
    for (; i < t.length(); i++) {
      char c = t.charAt(i);
      if (c >= '0' && c <= '9') {
        digits.append(c);
        lastUnderscore = false;
      } else if (c == '_' && !lastUnderscore) {
        lastUnderscore = true;
      } else {
        return null;
      }
    }
    if (digits.length() == 0 || lastUnderscore || digits.length() > 18) {
      return null;
    }
    long v = Long.parseLong(digits.toString());
    return negative ? -v : v;
  }

  private static void rangeRules(
      Long min,
      Long max,
      String operator,
      Long operand,
      String ptr,
      boolean object,
      List<Violation> out) {
    if (!object) {
      if (min != null && min < 1) {
        out.add(new Violation(ptr, "count-range", "min " + min + " (expected: >= 1)"));
      }
      if (max != null && max < 1) {
        out.add(new Violation(ptr, "count-range", "max " + max + " (expected: >= 1)"));
      }
      if (operand != null && operand < 1) {
        out.add(new Violation(ptr, "count-range", "operand " + operand + " (expected: >= 1)"));
      }
      if (operator != null
          && !(operator.equals("+") || operator.equals("*") || operator.equals("^"))) {
        out.add(
            new Violation(
                ptr, "count-range", "operator " + quote(operator) + " (expected: one of +, *, ^)"));
        return;
      }
    }
    if (min != null && max != null && max >= 1 && max < min) {
      add(out, object, ptr, "max", max + " (expected: >= min " + min + ")");
    }
    if (operator != null
        && operand != null
        && (operator.equals("*") || operator.equals("^"))
        && operand < 2
        && operand >= 1) {
      add(out, object, ptr, "operand", operand + " (expected: >= 2 for operator " + operator + ")");
    }
    if (operator != null && operator.equals("^") && min != null && min < 2 && min >= 1) {
      add(out, object, ptr, "min", min + " (expected: >= 2 for operator ^)");
    }
  }

  private static void add(
      List<Violation> out, boolean object, String ptr, String key, String text) {
    if (object) {
      out.add(new Violation(ptr + "/" + key, "count-range", text));
    } else {
      out.add(new Violation(ptr, "count-range", key + " " + text));
    }
  }

  private static void task(JsonNode t, String ptr, List<Violation> out) {
    if (!t.isObject()) {
      return;
    }
    JsonNode count = t.get("count");
    if (count != null && count.isObject() && count.size() > 1) {
      List<String> keys = new ArrayList<>();
      for (Iterator<String> it = count.fieldNames(); it.hasNext(); ) {
        keys.add(it.next());
      }
      out.add(
          new Violation(
              ptr + "/count",
              "task-count",
              "has both " + String.join(" and ", keys) + " (expected: exactly one)"));
    }
  }

  private static long firstId(String idset) {
    int start = 0;
    while (start < idset.length() && !Character.isDigit(idset.charAt(start))) {
      start++;
    }
    int end = start;
    while (end < idset.length() && Character.isDigit(idset.charAt(end))) {
      end++;
    }
    return end == start ? 0 : Long.parseLong(idset.substring(start, end));
  }

  private static String quote(String s) {
    return "\"" + (s.length() > 40 ? s.substring(0, 40) + "..." : s) + "\"";
  }

  static String kind(JsonNode n) {
    if (n == null || n.isMissingNode()) {
      return "missing";
    }
    return switch (n.getNodeType()) {
      case OBJECT -> "an object";
      case ARRAY -> "an array";
      case STRING -> "a string";
      case NUMBER -> n.isIntegralNumber() ? "an integer" : "a number";
      case BOOLEAN -> "a boolean";
      case NULL -> "null";
      default -> "a value";
    };
  }
}
