package io.fluxdrm.rset;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The one reader of RFC 31 constraints. It walks a JSON tree, checks the structure RFC 31 §"Design"
 * gives every constraint (an object, at most one operator, a known operator, an array value, string
 * leaves, nested constraints under {@code and}, {@code or}, {@code not}) and hands each leaf string
 * to a {@link LeafRule}, because the two readers flux-core has differ there: its job-ingest
 * validator (Python {@code Jobspec}) and its matcher (librlist). Every problem is collected with
 * its JSON Pointer and kind; each caller words them in its own established form.
 */
public final class ConstraintParser {
  /** The nesting the matcher accepts (librlist refuses deeper trees). */
  public static final int MATCHER_DEPTH = 32;

  /** The characters flux-core's matcher refuses in a property query. */
  private static final String MATCHER_FORBIDDEN = "!&'\"`|()";

  private ConstraintParser() {}

  /** What is wrong. */
  public enum Kind {
    /** Deeper than the depth given. */
    TOO_DEEP,
    /** Not an object (or missing); {@link Problem#node()} is the value or null. */
    NOT_OBJECT,
    /** More than one operator; {@link Problem#node()} is the object. */
    OPERATORS,
    /** Not an RFC 31 operator; {@link Problem#operator()} is the name. */
    UNKNOWN_OPERATOR,
    /** The operator's value is not an array; {@link Problem#node()} is the value. */
    NOT_ARRAY,
    /** A leaf element is not a string; {@link Problem#node()} is the element. */
    NOT_STRING,
    /** The leaf rule refused a string; {@link Problem#detail()} says why. */
    BAD_VALUE
  }

  /**
   * One problem.
   *
   * @param pointer JSON Pointer of the offending value
   * @param kind what is wrong
   * @param operator the operator the value belongs to, or null
   * @param node the offending JSON value, or null when missing or not needed
   * @param detail the leaf rule's message ({@link Kind#BAD_VALUE}), or null
   * @param reason the classification of the failure
   */
  public record Problem(
      String pointer,
      Kind kind,
      String operator,
      JsonNode node,
      String detail,
      RsetException.Reason reason) {}

  /** Why a leaf rule refused a string. */
  public record Flaw(String message, RsetException.Reason reason) {}

  /** The check of one leaf string of {@code properties}, {@code hostlist} or {@code ranks}. */
  @FunctionalInterface
  public interface LeafRule {
    /** The flaw of {@code value} under {@code operator}, or null when it is fine. */
    Flaw check(String operator, String value);
  }

  /**
   * flux-core matcher's leaf rules: a property query without {@code ! & ' " ` | ( )} (it may hold
   * {@code ^} and may be empty), a hostlist {@link Hostlist#parse} reads, an idset {@link
   * IdSet#parse} reads.
   */
  public static final LeafRule MATCHER = ConstraintParser::matcherLeaf;

  /**
   * Reads a constraint, appending every problem to {@code out}.
   *
   * @param json the constraint (null: missing)
   * @param pointer JSON Pointer of {@code json} in its document ("" for the root)
   * @param leaves the rule for leaf strings
   * @param maxDepth the deepest nesting allowed (the root is level 0)
   * @param out where problems go, in document order (a leaf's type problems before its values')
   * @return the constraint, or null when a problem was found
   */
  public static Constraint read(
      JsonNode json, String pointer, LeafRule leaves, int maxDepth, List<Problem> out) {
    int before = out.size();
    Constraint c = read(json, pointer, leaves, maxDepth, 0, out);
    return out.size() == before ? c : null;
  }

  private static Constraint read(
      JsonNode json, String at, LeafRule leaves, int maxDepth, int depth, List<Problem> out) {
    if (depth > maxDepth) {
      out.add(new Problem(at, Kind.TOO_DEEP, null, null, null, RsetException.Reason.INVALID));
      return null;
    }
    if (json == null || !json.isObject()) {
      out.add(new Problem(at, Kind.NOT_OBJECT, null, json, null, RsetException.Reason.INVALID));
      return null;
    }
    // RFC 31: an empty constraint object matches everything
    if (json.isEmpty()) {
      return Constraint.any();
    }
    // RFC 31: each constraint object holds exactly one operator
    if (json.size() > 1) {
      out.add(new Problem(at, Kind.OPERATORS, null, json, null, RsetException.Reason.INVALID));
      return null;
    }
    Map.Entry<String, JsonNode> op = json.properties().iterator().next();
    String name = op.getKey();
    String opAt = at + "/" + RCodec.pointerEscape(name);
    JsonNode args = op.getValue();
    if (!Constraint.OPERATORS.contains(name)) {
      out.add(
          new Problem(opAt, Kind.UNKNOWN_OPERATOR, name, null, null, RsetException.Reason.INVALID));
      return null;
    }
    // RFC 31: the operator's value is an array of values
    if (!args.isArray()) {
      out.add(new Problem(opAt, Kind.NOT_ARRAY, name, args, null, RsetException.Reason.INVALID));
      return null;
    }
    return switch (name) {
      case "and", "or", "not" -> operator(name, args, opAt, leaves, maxDepth, depth, out);
      default -> leaf(name, args, opAt, leaves, out);
    };
  }

  private static Constraint operator(
      String name,
      JsonNode args,
      String at,
      LeafRule leaves,
      int maxDepth,
      int depth,
      List<Problem> out) {
    List<Constraint> terms = new ArrayList<>(args.size());
    for (int i = 0; i < args.size(); i++) {
      terms.add(read(args.get(i), at + "/" + i, leaves, maxDepth, depth + 1, out));
    }
    if (terms.contains(null)) {
      return null;
    }
    return switch (name) {
      case "and" -> new Constraint.And(terms);
      case "or" -> new Constraint.Or(terms);
      default -> new Constraint.Not(terms);
    };
  }

  private static Constraint leaf(
      String name, JsonNode args, String at, LeafRule leaves, List<Problem> out) {
    int before = out.size();
    List<String> values = new ArrayList<>(args.size());
    for (int i = 0; i < args.size(); i++) {
      JsonNode s = args.get(i);
      if (s.isTextual()) {
        values.add(s.textValue());
      } else {
        out.add(
            new Problem(
                at + "/" + i, Kind.NOT_STRING, name, s, null, RsetException.Reason.INVALID));
      }
    }
    for (int i = 0; i < args.size(); i++) {
      JsonNode s = args.get(i);
      Flaw f = s.isTextual() ? leaves.check(name, s.textValue()) : null;
      if (f != null) {
        out.add(new Problem(at + "/" + i, Kind.BAD_VALUE, name, s, f.message(), f.reason()));
      }
    }
    if (out.size() > before) {
      return null;
    }
    return switch (name) {
      case "properties" -> new Constraint.Properties(values);
      case "hostlist" -> new Constraint.Hostlist(values);
      default -> new Constraint.Ranks(values);
    };
  }

  private static Flaw matcherLeaf(String operator, String value) {
    try {
      switch (operator) {
        case "properties" -> {
          return matcherQuery(value);
        }
        case "hostlist" -> Hostlist.parse(value);
        default -> IdSet.parse(value);
      }
      return null;
    } catch (RsetException e) {
      return new Flaw(e.getMessage(), e.reason());
    }
  }

  /**
   * Refuses the characters flux-core refuses in a property query. Unlike a property name that is
   * set, a query may hold {@code ^} (a leading one negates) and may be empty, as in flux-core.
   */
  private static Flaw matcherQuery(String p) {
    for (int k = 0; k < p.length(); k++) {
      if (MATCHER_FORBIDDEN.indexOf(p.charAt(k)) >= 0) {
        return new Flaw(
            "invalid character '"
                + p.charAt(k)
                + "' in property \""
                + p
                + "\" (expected: none of "
                + MATCHER_FORBIDDEN
                + ")",
            RsetException.Reason.INVALID);
      }
    }
    return null;
  }

  /** The matcher's wording of a problem: {@code constraint: POINTER: what}. */
  static String matcherMessage(Problem p) {
    String what =
        switch (p.kind()) {
          case TOO_DEEP -> "nested too deeply (expected: at most " + MATCHER_DEPTH + " levels)";
          case NOT_OBJECT ->
              (p.node() == null ? "missing" : RCodec.describe(p.node())) + " is not an object";
          case OPERATORS -> "constraint must only contain 1 element";
          case UNKNOWN_OPERATOR ->
              "unknown constraint operator: "
                  + p.operator()
                  + " (expected: "
                  + String.join(", ", Constraint.OPERATORS)
                  + ")";
          case NOT_ARRAY -> RCodec.describe(p.node()) + " is not an array";
          case NOT_STRING -> RCodec.describe(p.node()) + " is not a string";
          case BAD_VALUE -> p.detail();
        };
    return "constraint: " + (p.pointer().isEmpty() ? "/" : p.pointer()) + ": " + what;
  }
}
