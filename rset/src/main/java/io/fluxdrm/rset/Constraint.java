package io.fluxdrm.rset;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * An RFC 31 constraint ({@code attributes.system.constraints}): a tree of {@code and}, {@code or},
 * {@code not} over {@code properties}, {@code hostlist} and {@code ranks} leaves, the one value
 * both the jobspec validator and the matchers use. {@link ConstraintParser} reads it with located
 * problems; {@link #parse(JsonNode)} reads it under the rules of flux-core's matcher and {@link
 * #matches} evaluates it on one rank of an R as that matcher does: {@code properties} (a host name
 * matches as if it were a property; {@code ^name} negates), {@code hostlist}, {@code ranks}, {@code
 * and}, {@code or} and {@code not} (the negation of the conjunction of its terms). An empty object,
 * {@code and} or {@code or} matches everything; an empty {@code not} matches nothing.
 *
 * <p>The leaves keep their strings as written, so {@link #toJson()} gives back the document read.
 */
public sealed interface Constraint
    permits Constraint.Properties,
        Constraint.Hostlist,
        Constraint.Ranks,
        Constraint.And,
        Constraint.Or,
        Constraint.Not {

  /** The operator names RFC 31 defines, in the order error messages list them. */
  List<String> OPERATORS = List.of("properties", "hostlist", "ranks", "and", "or", "not");

  /** Whether a rank has a named property. */
  @FunctionalInterface
  interface PropertyLookup {
    boolean has(int rank, String name);
  }

  /**
   * Whether the rank {@code rank} on host {@code host} (may be null) matches.
   *
   * @throws RsetException when a hostlist or idset leaf is not one the matcher reads (only for a
   *     constraint not read by {@link #parse(JsonNode)})
   */
  boolean matches(int rank, String host, PropertyLookup properties);

  /** The constraint in RFC 31 JSON form. */
  JsonNode toJson();

  /** The constraint that matches every rank ({@code {}}). */
  static Constraint any() {
    return new And(List.of());
  }

  /**
   * Reads a constraint from JSON text under the matcher's rules.
   *
   * @throws RsetException naming the JSON Pointer of the problem
   */
  static Constraint parse(String json) {
    try {
      return parse(RCodec.MAPPER.readTree(json));
    } catch (JsonProcessingException e) {
      throw new RsetException("constraint: not valid JSON: " + ResourceSet.jsonProblem(e));
    }
  }

  /**
   * Reads a constraint from a JSON tree under the matcher's rules ({@link
   * ConstraintParser#MATCHER}, at most {@link ConstraintParser#MATCHER_DEPTH} levels).
   *
   * @throws RsetException naming the JSON Pointer of the first problem
   */
  static Constraint parse(JsonNode json) {
    List<ConstraintParser.Problem> problems = new ArrayList<>();
    Constraint c =
        ConstraintParser.read(
            json, "", ConstraintParser.MATCHER, ConstraintParser.MATCHER_DEPTH, problems);
    if (!problems.isEmpty()) {
      ConstraintParser.Problem p = problems.get(0);
      throw new RsetException(p.reason(), ConstraintParser.matcherMessage(p));
    }
    return c;
  }

  /**
   * Every listed property (or host name) must be present on a target, {@code ^name} absent.
   *
   * @param names the property queries, as written
   */
  record Properties(List<String> names) implements Constraint {
    /** Copies the list. */
    public Properties {
      names = List.copyOf(names);
    }

    @Override
    public boolean matches(int rank, String host, PropertyLookup properties) {
      for (String p : names) {
        boolean negate = p.startsWith("^");
        String name = negate ? p.substring(1) : p;
        boolean has = properties.has(rank, name) || name.equals(host);
        if (has == negate) {
          return false;
        }
      }
      return true;
    }

    @Override
    public JsonNode toJson() {
      return leaf("properties", names);
    }
  }

  /**
   * The target's host must be in one of the RFC 29 hostlists.
   *
   * @param hostlists hostlist strings, as written
   */
  record Hostlist(List<String> hostlists) implements Constraint {
    /** Copies the list. */
    public Hostlist {
      hostlists = List.copyOf(hostlists);
    }

    @Override
    public boolean matches(int rank, String host, PropertyLookup properties) {
      if (host == null) {
        return false;
      }
      for (String s : hostlists) {
        if (io.fluxdrm.rset.Hostlist.parse(s).contains(host)) {
          return true;
        }
      }
      return false;
    }

    @Override
    public JsonNode toJson() {
      return leaf("hostlist", hostlists);
    }
  }

  /**
   * The target's rank must be in one of the RFC 22 idsets.
   *
   * @param idsets idset strings, as written
   */
  record Ranks(List<String> idsets) implements Constraint {
    /** Copies the list. */
    public Ranks {
      idsets = List.copyOf(idsets);
    }

    @Override
    public boolean matches(int rank, String host, PropertyLookup properties) {
      for (String s : idsets) {
        if (IdSet.parse(s).contains(rank)) {
          return true;
        }
      }
      return false;
    }

    @Override
    public JsonNode toJson() {
      return leaf("ranks", idsets);
    }
  }

  /**
   * All operands must match; an empty {@code and} matches everything.
   *
   * @param operands the sub-constraints
   */
  record And(List<Constraint> operands) implements Constraint {
    /** Copies the list. */
    public And {
      operands = List.copyOf(operands);
    }

    @Override
    public boolean matches(int rank, String host, PropertyLookup properties) {
      return all(operands, rank, host, properties);
    }

    @Override
    public JsonNode toJson() {
      return node("and", operands);
    }
  }

  /**
   * At least one operand must match; an empty {@code or} matches everything (RFC 31).
   *
   * @param operands the sub-constraints
   */
  record Or(List<Constraint> operands) implements Constraint {
    /** Copies the list. */
    public Or {
      operands = List.copyOf(operands);
    }

    @Override
    public boolean matches(int rank, String host, PropertyLookup properties) {
      if (operands.isEmpty()) {
        return true;
      }
      for (Constraint c : operands) {
        if (c.matches(rank, host, properties)) {
          return true;
        }
      }
      return false;
    }

    @Override
    public JsonNode toJson() {
      return node("or", operands);
    }
  }

  /**
   * Negation of the conjunction of the operands (flux-core's reading); an empty {@code not} matches
   * nothing.
   *
   * @param operands the sub-constraints
   */
  record Not(List<Constraint> operands) implements Constraint {
    /** Copies the list. */
    public Not {
      operands = List.copyOf(operands);
    }

    @Override
    public boolean matches(int rank, String host, PropertyLookup properties) {
      return !all(operands, rank, host, properties);
    }

    @Override
    public JsonNode toJson() {
      return node("not", operands);
    }
  }

  private static boolean all(
      List<Constraint> operands, int rank, String host, PropertyLookup properties) {
    for (Constraint c : operands) {
      if (!c.matches(rank, host, properties)) {
        return false;
      }
    }
    return true;
  }

  private static JsonNode leaf(String op, List<String> values) {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    ArrayNode a = o.putArray(op);
    values.forEach(a::add);
    return o;
  }

  private static JsonNode node(String op, List<Constraint> operands) {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    ArrayNode a = o.putArray(op);
    operands.forEach(c -> a.add(c.toJson()));
    return o;
  }
}
