package io.fluxdrm.jobspec;

import com.fasterxml.jackson.databind.JsonNode;
import io.fluxdrm.rset.Constraint;
import io.fluxdrm.rset.ConstraintParser;
import io.fluxdrm.rset.RsetException;
import io.fluxdrm.schemas.Violation;
import java.util.ArrayList;
import java.util.List;

/**
 * RFC 31 constraints as flux-core's job-ingest validator checks them: the structure {@link
 * ConstraintParser} checks, with that validator's leaf rules (property names, and hostlists and
 * idsets by the {@link Syntax} checks), every problem reported as a {@link Violation}.
 */
final class ConstraintRules {
  /** The ingest validator's leaf rules. */
  private static final ConstraintParser.LeafRule INGEST = ConstraintRules::leafFlaw;

  private ConstraintRules() {}

  /**
   * Parses a constraint object.
   *
   * @param json the constraint
   * @return the constraint value
   * @throws JobspecException with every violation (pointers relative to {@code json}) if invalid
   */
  static Constraint parse(JsonNode json) {
    List<Violation> out = new ArrayList<>();
    Constraint c = read(json, "", out);
    if (!out.isEmpty()) {
      throw new JobspecException(out);
    }
    return c;
  }

  /**
   * Checks a constraint object and appends violations.
   *
   * @param json the constraint
   * @param pointer JSON Pointer of {@code json} in its document
   * @param out where violations go
   */
  static void check(JsonNode json, String pointer, List<Violation> out) {
    read(json, pointer, out);
  }

  private static Constraint read(JsonNode json, String pointer, List<Violation> out) {
    List<ConstraintParser.Problem> problems = new ArrayList<>();
    Constraint c = ConstraintParser.read(json, pointer, INGEST, Integer.MAX_VALUE, problems);
    for (ConstraintParser.Problem p : problems) {
      out.add(violation(p));
    }
    return c;
  }

  private static Violation violation(ConstraintParser.Problem p) {
    JsonNode n = p.node();
    return switch (p.kind()) {
      case TOO_DEEP -> new Violation(p.pointer(), "constraint", "nested too deeply");
      case NOT_OBJECT ->
          new Violation(p.pointer(), "constraint", Rules.kind(n) + " (expected: an object)");
      case OPERATORS -> {
        List<String> keys = new ArrayList<>();
        n.fieldNames().forEachRemaining(keys::add);
        yield new Violation(
            p.pointer(),
            "constraint",
            "has " + n.size() + " operators " + keys + " (expected: exactly one per object)");
      }
      case UNKNOWN_OPERATOR ->
          new Violation(
              p.pointer(),
              "constraint",
              "unknown operator \""
                  + p.operator()
                  + "\" (expected: one of "
                  + String.join(", ", Constraint.OPERATORS)
                  + ")");
      case NOT_ARRAY ->
          new Violation(p.pointer(), "constraint", Rules.kind(n) + " (expected: an array)");
      case NOT_STRING ->
          new Violation(p.pointer(), "constraint", Rules.kind(n) + " (expected: a string)");
      case BAD_VALUE -> new Violation(p.pointer(), "constraint-" + p.operator(), p.detail());
    };
  }

  private static ConstraintParser.Flaw leafFlaw(String op, String s) {
    String problem =
        switch (op) {
          case "properties" -> propertyProblem(s);
          case "hostlist" -> Syntax.hostlistProblem(s);
          default -> Syntax.idsetProblem(s);
        };
    if (problem == null) {
      return null;
    }
    String what =
        switch (op) {
          case "properties" -> "property";
          case "hostlist" -> "hostlist";
          default -> "idset";
        };
    return new ConstraintParser.Flaw(
        what + " \"" + s + "\": " + problem, RsetException.Reason.INVALID);
  }

  /** flux-core's ingest rule for a property: a non-empty name, none of {@code & ' " ` | ( )}. */
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
}
