package io.fluxdrm.jobspec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.schemas.Violation;
import java.util.ArrayList;
import java.util.List;

/**
 * An RFC 31 constraint ({@code attributes.system.constraints}): a tree of {@code and}, {@code or},
 * {@code not} over {@code properties}, {@code hostlist} and {@code ranks} leaves. This type only
 * parses and validates; matching a constraint against an R is the {@code rset} module's job.
 *
 * <p>An empty object {@code {}} means "everything" and is represented as an empty {@link And}.
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

  /** The constraint in RFC 31 JSON form. */
  JsonNode toJson();

  /**
   * Every listed property must be present on a target ({@code ^name}: must be absent).
   *
   * @param names the property queries, as written
   */
  record Properties(List<String> names) implements Constraint {
    /** Copies the list. */
    public Properties {
      names = List.copyOf(names);
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
    public JsonNode toJson() {
      return node("not", operands);
    }
  }

  /**
   * Parses a constraint object.
   *
   * @param json the constraint
   * @return the constraint value
   * @throws JobspecException with every violation (pointers relative to {@code json}) if invalid
   */
  static Constraint parse(JsonNode json) {
    List<Violation> out = new ArrayList<>();
    ConstraintRules.check(json, "", out);
    if (!out.isEmpty()) {
      throw new JobspecException(out);
    }
    return build(json);
  }

  private static Constraint build(JsonNode json) {
    if (json.size() == 0) {
      return new And(List.of());
    }
    String op = json.fieldNames().next();
    JsonNode args = json.get(op);
    List<String> strings = new ArrayList<>();
    List<Constraint> subs = new ArrayList<>();
    for (JsonNode a : args) {
      if (a.isTextual()) {
        strings.add(a.asText());
      } else {
        subs.add(build(a));
      }
    }
    return switch (op) {
      case "properties" -> new Properties(strings);
      case "hostlist" -> new Hostlist(strings);
      case "ranks" -> new Ranks(strings);
      case "and" -> new And(subs);
      case "or" -> new Or(subs);
      default -> new Not(subs);
    };
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
