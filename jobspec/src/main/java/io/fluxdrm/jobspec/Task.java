package io.fluxdrm.jobspec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A task (RFC 14): the command, the slot label it runs in, how many, and any other keys (per-task
 * {@code attributes}, {@code distribution}, ...).
 *
 * @param command the argument vector, at least one element
 * @param slot the label of the slot the tasks run in
 * @param count how many tasks
 * @param other any other keys, in document order (values are copies)
 */
public record Task(
    List<String> command, String slot, TaskCount count, Map<String, JsonNode> other) {

  /** Copies the collections. */
  public Task {
    command = List.copyOf(command);
    Map<String, JsonNode> copy = new LinkedHashMap<>();
    other.forEach((k, v) -> copy.put(k, v.deepCopy()));
    other = Collections.unmodifiableMap(copy);
  }

  /** The other keys; the values are copies, so the record stays unchanged. */
  @Override
  public Map<String, JsonNode> other() {
    Map<String, JsonNode> copy = new LinkedHashMap<>();
    other.forEach((k, v) -> copy.put(k, v.deepCopy()));
    return Collections.unmodifiableMap(copy);
  }

  /** The task in jobspec JSON form. */
  public ObjectNode toJson() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.set("command", o.arrayNode().addAll(command.stream().map(o::textNode).toList()));
    o.put("slot", slot);
    o.set("count", count.toJson());
    other.forEach((k, v) -> o.set(k, v.deepCopy()));
    return o;
  }

  /** How many tasks: per slot, in total, or per resource (RFC 14 only). */
  public sealed interface TaskCount permits PerSlot, Total, PerResource {
    /** The count in jobspec JSON form. */
    ObjectNode toJson();
  }

  /**
   * Tasks per slot.
   *
   * @param value tasks in each slot, >= 1
   */
  public record PerSlot(long value) implements TaskCount {
    @Override
    public ObjectNode toJson() {
      return JsonNodeFactory.instance.objectNode().set("per_slot", Jobspec.number(value));
    }
  }

  /**
   * Tasks in total.
   *
   * @param value the total, >= 1
   */
  public record Total(long value) implements TaskCount {
    @Override
    public ObjectNode toJson() {
      return JsonNodeFactory.instance.objectNode().set("total", Jobspec.number(value));
    }
  }

  /**
   * Tasks per resource of a type (RFC 14; not allowed in version 1).
   *
   * @param spec the {@code per_resource} object as written (a copy)
   */
  public record PerResource(JsonNode spec) implements TaskCount {
    /** Copies the object. */
    public PerResource {
      spec = spec.deepCopy();
    }

    /** The {@code per_resource} object (a copy). */
    @Override
    public JsonNode spec() {
      return spec.deepCopy();
    }

    @Override
    public ObjectNode toJson() {
      ObjectNode o = JsonNodeFactory.instance.objectNode();
      o.set("per_resource", spec.deepCopy());
      return o;
    }
  }
}
