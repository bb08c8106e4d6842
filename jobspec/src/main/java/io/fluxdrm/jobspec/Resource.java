package io.fluxdrm.jobspec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A resource vertex (RFC 14): type, count, children, and the optional label (required on slots),
 * exclusive flag, unit and id. Keys flux-core tolerates but RFC 14 does not name are kept in {@code
 * other} so that writing back loses nothing.
 *
 * @param type the vertex type ({@code node}, {@code slot}, {@code core}, {@code gpu}, ...)
 * @param count how many
 * @param with the children, possibly empty
 * @param label the slot label, or {@code null}
 * @param exclusive the exclusive flag as written, or {@code null} when absent
 * @param unit the unit of the count, or {@code null}
 * @param id the acceptable resource ids, or {@code null}
 * @param other any other keys, in document order (values are copies)
 */
public record Resource(
    String type,
    Count count,
    List<Resource> with,
    String label,
    Boolean exclusive,
    String unit,
    String id,
    Map<String, JsonNode> other) {

  /** Copies the collections. */
  public Resource {
    with = List.copyOf(with);
    Map<String, JsonNode> copy = new LinkedHashMap<>();
    other.forEach((k, v) -> copy.put(k, v.deepCopy()));
    other = java.util.Collections.unmodifiableMap(copy);
  }

  /** The other keys; the values are copies, so the record stays unchanged. */
  @Override
  public Map<String, JsonNode> other() {
    Map<String, JsonNode> copy = new LinkedHashMap<>();
    other.forEach((k, v) -> copy.put(k, v.deepCopy()));
    return java.util.Collections.unmodifiableMap(copy);
  }

  /** The exclusive flag, with RFC 14's default (false) when absent. */
  public boolean isExclusive() {
    return Boolean.TRUE.equals(exclusive);
  }

  /** The vertex in jobspec JSON form. */
  public ObjectNode toJson() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.put("type", type);
    o.set("count", count.toJson());
    if (!with.isEmpty()) {
      o.set("with", o.arrayNode().addAll(with.stream().map(r -> (JsonNode) r.toJson()).toList()));
    }
    if (label != null) {
      o.put("label", label);
    }
    if (exclusive != null) {
      o.put("exclusive", exclusive);
    }
    if (unit != null) {
      o.put("unit", unit);
    }
    if (id != null) {
      o.put("id", id);
    }
    other.forEach((k, v) -> o.set(k, v.deepCopy()));
    return o;
  }
}
