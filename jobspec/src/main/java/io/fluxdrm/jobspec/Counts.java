package io.fluxdrm.jobspec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rset.Constraint;
import java.util.ArrayList;
import java.util.Optional;

/**
 * What a scheduler needs from a jobspec, derived the way flux-core's jobspec count reader does: the
 * node count, slots, cores and GPUs per slot, exclusivity, duration and the constraint.
 *
 * <p>The resource graph is walked depth first; the last node, slot, core and gpu vertex seen give
 * the counts. {@code nodefactor} is the product of the counts of the vertices above the node vertex
 * (0 without a node vertex); ranges are only allowed at the node level or below.
 *
 * @param nodefactor product of the counts above the node vertex, 0 when there is no node vertex
 * @param nnodes the node vertex's count, {@code 0} when there is none
 * @param nslots the slot count (per node when there is a node vertex, else in total)
 * @param slotSize cores per slot
 * @param slotGpus gpus per slot
 * @param exclusive whether the node vertex asks for whole nodes
 * @param duration {@code attributes.system.duration} in seconds, 0 = unlimited
 * @param constraint the RFC 31 constraint, if any
 */
public record Counts(
    long nodefactor,
    Count nnodes,
    Count nslots,
    Count slotSize,
    long slotGpus,
    boolean exclusive,
    double duration,
    Optional<Constraint> constraint) {

  /**
   * Derives the counts of a validated jobspec.
   *
   * @param jobspec the jobspec
   * @return the counts
   * @throws JobspecException if the graph has no slot or no core under the slot
   */
  public static Counts of(Jobspec jobspec) {
    return of(jobspec.toJson());
  }

  /**
   * Derives the counts of a jobspec document (any version, as flux-core's reader tolerates).
   *
   * @param doc the document
   * @return the counts
   * @throws JobspecException at the first problem, located
   */
  public static Counts of(JsonNode doc) {
    if (!doc.isObject()) {
      throw JobspecException.of("", "counts", Rules.kind(doc) + " (expected: an object)");
    }
    if (!doc.has("version")) {
      throw JobspecException.of(
          "/version", "counts", "object item not found: version (expected: present)");
    }
    JsonNode resources = doc.get("resources");
    if (resources == null || !resources.isArray()) {
      throw JobspecException.of(
          "/resources", "counts", Rules.kind(resources) + " (expected: must be an array)");
    }
    Walk w = new Walk();
    w.level(resources, "/resources", 1);
    JsonNode system = doc.path("attributes").get("system");
    if (system == null || !system.isObject()) {
      throw JobspecException.of(
          "/attributes/system", "counts", "getting duration: object item not found: system");
    }
    JsonNode duration = system.get("duration");
    if (duration == null) {
      throw JobspecException.of(
          "/attributes/system/duration",
          "counts",
          "getting duration: object item not found: duration");
    }
    if (!duration.isNumber()) {
      throw JobspecException.of(
          "/attributes/system/duration", "counts", Rules.kind(duration) + " (expected: a number)");
    }
    if (w.nslots == null) {
      throw JobspecException.of(
          "/resources", "counts", "unable to determine slot count (expected: a slot vertex)");
    }
    if (w.slotSize == null) {
      throw JobspecException.of(
          "/resources",
          "counts",
          "unable to determine slot size (expected: a core vertex under the slot)");
    }
    JsonNode c = system.get("constraints");
    Optional<Constraint> constraint = Optional.empty();
    if (c != null) {
      try {
        constraint = Optional.of(ConstraintRules.parse(c));
      } catch (JobspecException e) {
        throw new JobspecException(
            e.violations().stream()
                .map(
                    v ->
                        new io.fluxdrm.schemas.Violation(
                            "/attributes/system/constraints" + v.pointer(), v.rule(), v.message()))
                .toList());
      }
    }
    return new Counts(
        w.nodefactor,
        w.nnodes,
        w.nslots,
        w.slotSize,
        w.slotGpus,
        w.exclusive,
        duration.asDouble(),
        constraint);
  }

  /** The counts as JSON; fixed counts as integers, ranges as strings such as {@code "4+"}. */
  public ObjectNode toJson() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.put("nodefactor", nodefactor);
    put(o, "nnodes", nnodes);
    put(o, "nslots", nslots);
    put(o, "slot_size", slotSize);
    o.put("slot_gpus", slotGpus);
    o.put("exclusive", exclusive);
    o.put("duration", duration);
    constraint.ifPresent(x -> o.set("constraint", x.toJson()));
    return o;
  }

  private static void put(ObjectNode o, String key, Count c) {
    if (c instanceof Count.Fixed f) {
      o.put(key, f.value());
    } else {
      o.put(key, c.toString());
    }
  }

  private static final class Walk {
    long nodefactor;
    Count nnodes = new Count.Fixed(0);
    Count nslots;
    Count slotSize;
    long slotGpus;
    boolean exclusive;

    void level(JsonNode list, String ptr, long factor) {
      for (int i = 0; i < list.size(); i++) {
        vertex(list.get(i), ptr + "/" + i, factor);
      }
    }

    private void vertex(JsonNode v, String ptr, long factor) {
      JsonNode type = v.get("type");
      JsonNode countNode = v.get("count");
      if (!v.isObject() || type == null || !type.isTextual() || countNode == null) {
        throw JobspecException.of(
            ptr, "counts", Rules.kind(v) + " (expected: a vertex with type and count)");
      }
      Count count = count(countNode, ptr + "/count");
      String t = type.asText();
      JsonNode with = v.get("with");
      if (with != null && !with.isArray()) {
        throw JobspecException.of(
            ptr + "/with", "counts", Rules.kind(with) + " (expected: an array)");
      }
      if (!(count instanceof Count.Fixed) && !t.equals("node") && hasNodeBelow(with)) {
        throw JobspecException.of(
            ptr + "/count", "counts", "non-integer count not allowed above node");
      }
      switch (t) {
        case "node" -> {
          nodefactor = factor;
          nnodes = count;
          exclusive |= v.path("exclusive").asBoolean(false);
        }
        case "slot" -> nslots = count;
        case "core" -> slotSize = count;
        case "gpu" -> slotGpus = count.min();
        default -> {
          // other vertex types only scale the node factor
        }
      }
      if (with != null) {
        long next = t.equals("node") ? factor : times(factor, count.min(), ptr);
        level(with, ptr + "/with", next);
      }
    }

    private static Count count(JsonNode c, String ptr) {
      if (c.isIntegralNumber()) {
        if (c.asLong() < 1) {
          throw JobspecException.of(
              ptr, "counts", c.asText() + " (expected: integer count must be >= 1)");
        }
        return new Count.Fixed(c.asLong());
      }
      if (c.isTextual() || c.isObject()) {
        ArrayList<io.fluxdrm.schemas.Violation> problems = new ArrayList<>();
        if (c.isObject()) {
          JsonNode min = c.get("min");
          if (min == null || !min.isIntegralNumber() || min.asLong() < 1) {
            throw JobspecException.of(
                ptr, "counts", "malformed jobspec resource count (expected: min >= 1)");
          }
          return Jobspec.count(c);
        }
        Count parsed = Rules.parseCountString(c.asText(), ptr, problems);
        if (parsed == null) {
          throw JobspecException.of(
              ptr, "counts", "malformed jobspec resource count: " + problems.get(0).message());
        }
        return parsed;
      }
      throw JobspecException.of(
          ptr,
          "counts",
          c.asText()
              + " (expected: malformed jobspec resource count; an integer, a range or a range object)");
    }

    private static long times(long factor, long count, String ptr) {
      try {
        return Math.multiplyExact(factor, count);
      } catch (ArithmeticException e) {
        throw JobspecException.of(
            ptr + "/count",
            "counts",
            "product of counts above the node overflows (expected: < 2^63)");
      }
    }

    private static boolean hasNodeBelow(JsonNode with) {
      if (with == null || !with.isArray()) {
        return false;
      }
      for (JsonNode c : with) {
        if ("node".equals(c.path("type").asText()) || hasNodeBelow(c.get("with"))) {
          return true;
        }
      }
      return false;
    }
  }
}
