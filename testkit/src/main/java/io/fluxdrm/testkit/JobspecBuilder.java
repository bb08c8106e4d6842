package io.fluxdrm.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * Builds RFC 25 jobspec documents for tests, so no test concatenates jobspec text by hand. The
 * default is the smallest V1 jobspec: one slot labelled {@code task} of one core, one task {@code
 * [true]} per slot, {@code attributes.system.duration} 0. {@link #nodes} puts a node vertex above
 * the slot (RFC 25 "Resources": node is the only vertex allowed above slot in V1), {@link #gpus}
 * adds a gpu vertex beside the cores, {@link #constraints} sets {@code attributes.system
 * .constraints} (RFC 31) and {@link #attribute} sets one user attribute. The builder writes what it
 * is told, also documents the validator refuses (a zero count, {@code version: 2}), so tests of
 * refusals can use it too.
 */
public final class JobspecBuilder {
  private static final JsonNodeFactory F = JsonNodeFactory.instance;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ObjectMapper YAML =
      new ObjectMapper(
          YAMLFactory.builder()
              .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
              .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
              .build());

  private int version = 1;
  private Integer nodes;
  private boolean exclusive;
  private int slots = 1;
  private int cores = 1;
  private int gpus;
  private List<String> command = List.of("true");
  private Double duration = 0.0;
  private JsonNode constraints;
  private final ObjectNode user = F.objectNode();

  private JobspecBuilder() {}

  /** The default jobspec described above. */
  public static JobspecBuilder jobspec() {
    return new JobspecBuilder();
  }

  /** The {@code version} key (1 unless told). */
  public JobspecBuilder version(int v) {
    this.version = v;
    return this;
  }

  /** A node vertex of {@code count} above the slot. */
  public JobspecBuilder nodes(int count) {
    this.nodes = count;
    return this;
  }

  /** Marks the node vertex (or, without nodes, the slot) {@code exclusive: true}. */
  public JobspecBuilder exclusive() {
    this.exclusive = true;
    return this;
  }

  /** The slot count. */
  public JobspecBuilder slots(int count) {
    this.slots = count;
    return this;
  }

  /** Cores per slot. */
  public JobspecBuilder cores(int count) {
    this.cores = count;
    return this;
  }

  /** GPUs per slot; 0 (the default) writes no gpu vertex. */
  public JobspecBuilder gpus(int count) {
    this.gpus = count;
    return this;
  }

  /** The task's command. */
  public JobspecBuilder command(String... argv) {
    this.command = List.of(argv);
    return this;
  }

  /** {@code attributes.system.duration} in seconds. */
  public JobspecBuilder duration(double seconds) {
    this.duration = seconds;
    return this;
  }

  /** Leaves {@code attributes.system.duration} out (a refusal RFC 25 names). */
  public JobspecBuilder noDuration() {
    this.duration = null;
    return this;
  }

  /** {@code attributes.system.constraints}, an RFC 31 constraint given as JSON text. */
  public JobspecBuilder constraints(String json) {
    try {
      this.constraints = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("constraints: not JSON: " + json, e);
    }
    return this;
  }

  /** {@code attributes.user.<name>} set to a string. */
  public JobspecBuilder attribute(String name, String value) {
    user.put(name, value);
    return this;
  }

  /** {@code attributes.user.<name>} set to a number. */
  public JobspecBuilder attribute(String name, long value) {
    user.put(name, value);
    return this;
  }

  /** The jobspec as a tree. */
  public ObjectNode toTree() {
    ObjectNode slot = F.objectNode().put("type", "slot").put("count", slots).put("label", "task");
    if (exclusive && nodes == null) {
      slot.put("exclusive", true);
    }
    ArrayNode with = slot.putArray("with");
    with.addObject().put("type", "core").put("count", cores);
    if (gpus > 0) {
      with.addObject().put("type", "gpu").put("count", gpus);
    }
    ObjectNode top = slot;
    if (nodes != null) {
      top = F.objectNode().put("type", "node").put("count", nodes);
      if (exclusive) {
        top.put("exclusive", true);
      }
      top.putArray("with").add(slot);
    }
    ObjectNode doc = F.objectNode().put("version", version);
    doc.putArray("resources").add(top);
    ObjectNode task = doc.putArray("tasks").addObject();
    ArrayNode argv = task.putArray("command");
    command.forEach(argv::add);
    task.put("slot", "task");
    task.putObject("count").put("per_slot", 1);
    ObjectNode attributes = doc.putObject("attributes");
    ObjectNode system = attributes.putObject("system");
    if (duration != null) {
      system.put("duration", duration);
    }
    if (constraints != null) {
      system.set("constraints", constraints);
    }
    if (!user.isEmpty()) {
      attributes.set("user", user.deepCopy());
    }
    return doc;
  }

  /** The jobspec as compact JSON text. */
  public String toJson() {
    return write(JSON);
  }

  /** The jobspec as YAML text (block style, no document marker). */
  public String toYaml() {
    return write(YAML);
  }

  private String write(ObjectMapper m) {
    try {
      return m.writeValueAsString(toTree());
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
