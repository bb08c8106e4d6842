package io.fluxdrm.rset;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An RFC 31 constraint, evaluated on one rank of an R as flux-core's matcher does: {@code
 * properties} (a host name matches as if it were a property; {@code ^name} negates), {@code
 * hostlist}, {@code ranks}, {@code and}, {@code or} and {@code not} (the negation of the
 * conjunction of its terms). An empty object, {@code and} or {@code or} matches everything; an
 * empty {@code not} matches nothing.
 */
public sealed interface Constraint {

  /** Whether a rank has a named property. */
  @FunctionalInterface
  interface Properties {
    boolean has(int rank, String name);
  }

  /** Whether the rank {@code rank} on host {@code host} (may be null) matches. */
  boolean matches(int rank, String host, Properties properties);

  /** The constraint that matches every rank ({@code {}}). */
  static Constraint any() {
    return And.ALL;
  }

  /**
   * Reads a constraint from JSON text.
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
   * Reads a constraint from a JSON tree.
   *
   * @throws RsetException naming the JSON Pointer of the problem
   */
  static Constraint parse(JsonNode json) {
    return parse(json, "", 0);
  }

  private static Constraint parse(JsonNode json, String at, int depth) {
    String where = "constraint: " + (at.isEmpty() ? "/" : at) + ": ";
    if (depth > 32) {
      throw new RsetException(where + "nested too deeply (expected: at most 32 levels)");
    }
    if (json == null || !json.isObject()) {
      throw new RsetException(
          where + (json == null ? "missing" : RCodec.describe(json)) + " is not an object");
    }
    if (json.isEmpty()) {
      return And.ALL;
    }
    if (json.size() > 1) {
      throw new RsetException(where + "constraint must only contain 1 element");
    }
    Map.Entry<String, JsonNode> op = json.properties().iterator().next();
    String name = op.getKey();
    String opAt = at + "/" + RCodec.pointerEscape(name);
    JsonNode args = op.getValue();
    switch (name) {
      case "properties":
        {
          List<String> names = strings(array(args, opAt), opAt);
          for (int i = 0; i < names.size(); i++) {
            checkQuery(names.get(i), opAt + "/" + i);
          }
          return new HasProperties(List.copyOf(names));
        }
      case "hostlist":
        {
          Hostlist all = Hostlist.empty();
          List<String> lists = strings(array(args, opAt), opAt);
          for (int i = 0; i < lists.size(); i++) {
            try {
              all = all.append(Hostlist.parse(lists.get(i)));
            } catch (RsetException e) {
              throw new RsetException(
                  e.reason(), "constraint: " + opAt + "/" + i + ": " + e.getMessage());
            }
          }
          return new OnHosts(all);
        }
      case "ranks":
        {
          IdSet all = IdSet.empty();
          List<String> sets = strings(array(args, opAt), opAt);
          for (int i = 0; i < sets.size(); i++) {
            try {
              all = all.union(IdSet.parse(sets.get(i)));
            } catch (RsetException e) {
              throw new RsetException(
                  e.reason(), "constraint: " + opAt + "/" + i + ": " + e.getMessage());
            }
          }
          return new OnRanks(all);
        }
      case "and":
      case "or":
      case "not":
        {
          array(args, opAt);
          List<Constraint> terms = new ArrayList<>(args.size());
          for (int i = 0; i < args.size(); i++) {
            terms.add(parse(args.get(i), opAt + "/" + i, depth + 1));
          }
          if (name.equals("and")) {
            return new And(List.copyOf(terms));
          }
          if (name.equals("or")) {
            return new Or(List.copyOf(terms));
          }
          return new Not(new And(List.copyOf(terms)));
        }
      default:
        throw new RsetException(
            "constraint: "
                + opAt
                + ": unknown constraint operator: "
                + name
                + " (expected: properties, hostlist, ranks, and, or, not)");
    }
  }

  /** The operator's value, which must be an array. */
  private static JsonNode array(JsonNode args, String at) {
    if (!args.isArray()) {
      throw new RsetException(
          "constraint: " + at + ": " + RCodec.describe(args) + " is not an array");
    }
    return args;
  }

  /**
   * Refuses the characters flux-core refuses in a property query ({@code ! & ' " ` | ( )}). Unlike
   * a property name that is set, a query may hold {@code ^} (a leading one negates) and may be
   * empty, as in flux-core.
   */
  private static void checkQuery(String p, String at) {
    String forbidden = "!&'\"`|()";
    for (int k = 0; k < p.length(); k++) {
      if (forbidden.indexOf(p.charAt(k)) >= 0) {
        throw new RsetException(
            "constraint: "
                + at
                + ": invalid character '"
                + p.charAt(k)
                + "' in property \""
                + p
                + "\" (expected: none of "
                + forbidden
                + ")");
      }
    }
  }

  private static List<String> strings(JsonNode args, String at) {
    List<String> out = new ArrayList<>(args.size());
    for (int i = 0; i < args.size(); i++) {
      JsonNode s = args.get(i);
      if (!s.isTextual()) {
        throw new RsetException(
            "constraint: " + at + "/" + i + ": " + RCodec.describe(s) + " is not a string");
      }
      out.add(s.textValue());
    }
    return out;
  }

  /** Every listed property (or host name) present, {@code ^name} absent. */
  record HasProperties(List<String> names) implements Constraint {
    @Override
    public boolean matches(int rank, String host, Properties properties) {
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
  }

  /** The rank's host is in the list. */
  record OnHosts(Hostlist hosts) implements Constraint {
    @Override
    public boolean matches(int rank, String host, Properties properties) {
      return host != null && hosts.contains(host);
    }
  }

  /** The rank is in the set. */
  record OnRanks(IdSet ranks) implements Constraint {
    @Override
    public boolean matches(int rank, String host, Properties properties) {
      return ranks.contains(rank);
    }
  }

  /** All terms match (true when there are none). */
  record And(List<Constraint> terms) implements Constraint {
    static final And ALL = new And(List.of());

    @Override
    public boolean matches(int rank, String host, Properties properties) {
      for (Constraint c : terms) {
        if (!c.matches(rank, host, properties)) {
          return false;
        }
      }
      return true;
    }
  }

  /** Some term matches (true when there are none, as flux-core). */
  record Or(List<Constraint> terms) implements Constraint {
    @Override
    public boolean matches(int rank, String host, Properties properties) {
      if (terms.isEmpty()) {
        return true;
      }
      for (Constraint c : terms) {
        if (c.matches(rank, host, properties)) {
          return true;
        }
      }
      return false;
    }
  }

  /** The term does not match. */
  record Not(Constraint term) implements Constraint {
    @Override
    public boolean matches(int rank, String host, Properties properties) {
      return !term.matches(rank, host, properties);
    }
  }
}
