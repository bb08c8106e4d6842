package io.fluxdrm.jobspec;

import com.fasterxml.jackson.databind.JsonNode;
import io.fluxdrm.schemas.Violation;
import java.util.ArrayList;
import java.util.List;

/** RFC 31 constraint syntax rules: one operator per object, known operators, well-formed values. */
final class ConstraintRules {
  private static final List<String> OPERATORS = Constraint.OPERATORS;

  private ConstraintRules() {}

  /**
   * Checks a constraint object and appends violations.
   *
   * @param json the constraint
   * @param pointer JSON Pointer of {@code json} in its document
   * @param out where violations go
   */
  static void check(JsonNode json, String pointer, List<Violation> out) {
    if (!json.isObject()) {
      out.add(new Violation(pointer, "constraint", kind(json) + " (expected: an object)"));
      return;
    }
    if (json.size() == 0) {
      return;
    }
    if (json.size() > 1) {
      List<String> keys = new ArrayList<>();
      json.fieldNames().forEachRemaining(keys::add);
      out.add(
          new Violation(
              pointer,
              "constraint",
              "has " + json.size() + " operators " + keys + " (expected: exactly one per object)"));
      return;
    }
    String op = json.fieldNames().next();
    JsonNode args = json.get(op);
    String at = pointer + "/" + Documents.escape(op);
    if (!OPERATORS.contains(op)) {
      out.add(
          new Violation(
              at,
              "constraint",
              "unknown operator \""
                  + op
                  + "\" (expected: one of "
                  + String.join(", ", OPERATORS)
                  + ")"));
      return;
    }
    if (!args.isArray()) {
      out.add(new Violation(at, "constraint", kind(args) + " (expected: an array)"));
      return;
    }
    for (int i = 0; i < args.size(); i++) {
      JsonNode a = args.get(i);
      String ai = at + "/" + i;
      switch (op) {
        case "and", "or", "not" -> check(a, ai, out);
        default -> checkLeafValue(op, a, ai, out);
      }
    }
  }

  static void checkLeafValue(String op, JsonNode a, String at, List<Violation> out) {
    if (!a.isTextual()) {
      out.add(new Violation(at, "constraint", kind(a) + " (expected: a string)"));
      return;
    }
    String s = a.asText();
    String problem =
        switch (op) {
          case "properties" -> propertyProblem(s);
          case "hostlist" -> Syntax.hostlistProblem(s);
          default -> Syntax.idsetProblem(s);
        };
    if (problem != null) {
      String what =
          switch (op) {
            case "properties" -> "property";
            case "hostlist" -> "hostlist";
            default -> "idset";
          };
      out.add(new Violation(at, "constraint-" + op, what + " \"" + s + "\": " + problem));
    }
  }

  static String propertyProblem(String s) {
    String name = s.startsWith("^") ? s.substring(1) : s;
    if (name.isEmpty()) {
      return "empty name (expected: a property name)";
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if ("&'\"`|()".indexOf(c) >= 0) {
        return "'" + c + "' is not allowed (expected: none of & ' \" ` | ( ))";
      }
    }
    return null;
  }

  private static String kind(JsonNode n) {
    return Rules.kind(n);
  }
}
