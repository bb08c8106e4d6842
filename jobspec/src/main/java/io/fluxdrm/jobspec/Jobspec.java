package io.fluxdrm.jobspec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.schemas.Violation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A validated jobspec (RFC 14 canonical or RFC 25 version 1) as an immutable value.
 *
 * @param version the jobspec version (1 for RFC 25)
 * @param resources the top-level resource vertices
 * @param tasks the tasks
 * @param attributes the attributes
 */
public record Jobspec(
    int version, List<Resource> resources, List<Task> tasks, Attributes attributes) {
  private static final Set<String> VERTEX_KEYS =
      Set.of("type", "count", "with", "label", "exclusive", "unit", "id");
  private static final Set<String> TASK_KEYS = Set.of("command", "slot", "count");

  /** Copies the lists. */
  public Jobspec {
    resources = List.copyOf(resources);
    tasks = List.copyOf(tasks);
  }

  /**
   * Reads (YAML or JSON) and validates a jobspec.
   *
   * @param content the document's bytes
   * @param level the level it must meet
   * @return the jobspec
   * @throws JobspecException with every violation if it cannot be read or is not valid
   */
  public static Jobspec parse(byte[] content, Level level) {
    return of(Documents.read(content), level);
  }

  /**
   * Validates a JSON document and builds the value.
   *
   * @param doc the document
   * @param level the level it must meet
   * @return the jobspec
   * @throws JobspecException with every violation if it is not valid
   */
  public static Jobspec of(JsonNode doc, Level level) {
    List<Violation> violations = JobspecValidator.validate(doc, level);
    if (!violations.isEmpty()) {
      throw new JobspecException(violations);
    }
    List<Resource> resources = new ArrayList<>();
    doc.get("resources").forEach(r -> resources.add(vertex(r)));
    List<Task> tasks = new ArrayList<>();
    doc.get("tasks").forEach(t -> tasks.add(task(t)));
    JsonNode attrs = doc.get("attributes");
    Map<String, JsonNode> system = new LinkedHashMap<>();
    JsonNode sys = attrs.get("system");
    if (sys != null) {
      sys.properties().forEach(e -> system.put(e.getKey(), e.getValue()));
    }
    return new Jobspec(
        doc.get("version").asInt(),
        resources,
        tasks,
        new Attributes(system, attrs.get("user"), sys != null));
  }

  private static Resource vertex(JsonNode v) {
    List<Resource> with = new ArrayList<>();
    JsonNode w = v.get("with");
    if (w != null) {
      w.forEach(c -> with.add(vertex(c)));
    }
    Map<String, JsonNode> other = new LinkedHashMap<>();
    v.properties()
        .forEach(
            e -> {
              if (!VERTEX_KEYS.contains(e.getKey())) {
                other.put(e.getKey(), e.getValue());
              }
            });
    JsonNode ex = v.get("exclusive");
    return new Resource(
        v.get("type").asText(),
        count(v.get("count")),
        with,
        textOrNull(v.get("label")),
        ex == null ? null : ex.asBoolean(),
        textOrNull(v.get("unit")),
        textOrNull(v.get("id")),
        other);
  }

  static Count count(JsonNode c) {
    if (c.isIntegralNumber()) {
      return new Count.Fixed(c.asLong());
    }
    if (c.isTextual()) {
      List<Violation> problems = new ArrayList<>();
      Count parsed = Rules.parseCountString(c.asText(), "", problems);
      if (parsed == null) {
        throw new JobspecException(problems);
      }
      return parsed;
    }
    long min = c.get("min").asLong();
    long max = c.has("max") ? c.get("max").asLong() : Count.Range.UNBOUNDED;
    char op = c.has("operator") ? c.get("operator").asText().charAt(0) : '+';
    long operand = c.has("operand") ? c.get("operand").asLong() : 1;
    return new Count.Range(min, max, op, operand, null);
  }

  private static Task task(JsonNode t) {
    List<String> command = new ArrayList<>();
    t.get("command").forEach(a -> command.add(a.asText()));
    JsonNode c = t.get("count");
    Task.TaskCount count;
    if (c.has("per_slot")) {
      count = new Task.PerSlot(c.get("per_slot").asLong());
    } else if (c.has("total")) {
      count = new Task.Total(c.get("total").asLong());
    } else {
      count = new Task.PerResource(c.get("per_resource"));
    }
    Map<String, JsonNode> other = new LinkedHashMap<>();
    t.properties()
        .forEach(
            e -> {
              if (!TASK_KEYS.contains(e.getKey())) {
                other.put(e.getKey(), e.getValue());
              }
            });
    return new Task(command, t.get("slot").asText(), count, other);
  }

  /** A JSON number node of the narrowest integral type, as a parser would produce it. */
  static JsonNode number(long value) {
    return value == (int) value
        ? JsonNodeFactory.instance.numberNode((int) value)
        : JsonNodeFactory.instance.numberNode(value);
  }

  private static String textOrNull(JsonNode n) {
    return n == null ? null : n.asText();
  }

  /** The jobspec as JSON, equivalent to the document it was read from. */
  public ObjectNode toJson() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.put("version", version);
    o.set(
        "resources",
        o.arrayNode().addAll(resources.stream().map(r -> (JsonNode) r.toJson()).toList()));
    o.set("tasks", o.arrayNode().addAll(tasks.stream().map(t -> (JsonNode) t.toJson()).toList()));
    o.set("attributes", attributes.toJson());
    return o;
  }
}
