package io.fluxdrm.jobspec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rset.Constraint;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Job attributes (RFC 14): the {@code system} section, kept whole with typed accessors for the keys
 * schedulers use, and the free-form {@code user} section.
 *
 * @param system the system attributes in document order (copies), empty when absent
 * @param user the user attributes (a copy), or {@code null} when absent
 * @param hasSystem whether the {@code system} key was present
 */
public record Attributes(Map<String, JsonNode> system, JsonNode user, boolean hasSystem) {

  /** Copies the values. */
  public Attributes {
    Map<String, JsonNode> copy = new LinkedHashMap<>();
    system.forEach((k, v) -> copy.put(k, v.deepCopy()));
    system = Collections.unmodifiableMap(copy);
    user = user == null ? null : user.deepCopy();
  }

  /** The system attributes; the values are copies, so the record stays unchanged. */
  @Override
  public Map<String, JsonNode> system() {
    return copies(system);
  }

  /** The user attributes (a copy), or {@code null} when absent. */
  @Override
  public JsonNode user() {
    return user == null ? null : user.deepCopy();
  }

  private static Map<String, JsonNode> copies(Map<String, JsonNode> m) {
    Map<String, JsonNode> copy = new LinkedHashMap<>();
    m.forEach((k, v) -> copy.put(k, v.deepCopy()));
    return Collections.unmodifiableMap(copy);
  }

  /** {@code system.duration} in seconds (0 = unlimited), if present. */
  public OptionalDouble duration() {
    JsonNode d = system.get("duration");
    return d != null && d.isNumber() ? OptionalDouble.of(d.asDouble()) : OptionalDouble.empty();
  }

  /** {@code system.cwd}, if present. */
  public Optional<String> cwd() {
    return text("cwd");
  }

  /** {@code system.queue}, if present. */
  public Optional<String> queue() {
    return text("queue");
  }

  /** {@code system.constraints} as an RFC 31 value, if present. */
  public Optional<Constraint> constraint() {
    JsonNode c = system.get("constraints");
    return c == null ? Optional.empty() : Optional.of(ConstraintRules.parse(c));
  }

  /** {@code system.environment} (a copy), if present. */
  public Optional<JsonNode> environment() {
    JsonNode e = system.get("environment");
    return e == null ? Optional.empty() : Optional.of(e.deepCopy());
  }

  /** {@code system.dependencies} (a copy), if present. */
  public Optional<JsonNode> dependencies() {
    JsonNode d = system.get("dependencies");
    return d == null ? Optional.empty() : Optional.of(d.deepCopy());
  }

  /** {@code system.shell.options} (a copy), if present. */
  public Optional<JsonNode> shellOptions() {
    JsonNode o = system.get("shell");
    return o == null || !o.has("options")
        ? Optional.empty()
        : Optional.of(o.get("options").deepCopy());
  }

  private Optional<String> text(String key) {
    JsonNode v = system.get(key);
    return v != null && v.isTextual() ? Optional.of(v.asText()) : Optional.empty();
  }

  /** The attributes in jobspec JSON form. */
  public ObjectNode toJson() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    if (hasSystem) {
      ObjectNode s = o.putObject("system");
      system.forEach((k, v) -> s.set(k, v.deepCopy()));
    }
    if (user != null) {
      o.set("user", user.deepCopy());
    }
    return o;
  }
}
