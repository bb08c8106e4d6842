package io.fluxdrm.schemas;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.ValidationMessage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Refuses numbers written with a fraction part ({@code 2.0}) where a schema asks for an integer.
 *
 * <p>JSON Schema (draft 6 and later) counts {@code 2.0} as an integer; flux-core does not (Python
 * {@code isinstance(2.0, int)} and jansson's {@code "i"} both refuse it), so neither do we. When a
 * document holds such numbers, it is validated a second time with each of them moved off the
 * integers ({@code 2.0} becomes {@code 2.5}); a {@code type} violation at one of those places whose
 * expected types do not include {@code number} means the schema wants an integer there.
 */
final class IntegerFidelity {
  private IntegerFidelity() {}

  static List<Violation> check(JsonSchema schema, JsonNode doc) {
    if (!hasIntegralFloat(doc)) {
      // most documents: nothing to probe, and no pointer made (issue 32)
      return List.of();
    }
    Map<String, JsonNode> found = new HashMap<>();
    JsonNode probe = probe(doc, "", found);
    if (found.isEmpty()) {
      return List.of();
    }
    List<Violation> out = new ArrayList<>();
    for (ValidationMessage m : schema.validate(probe)) {
      if (!"type".equals(m.getType()) || m.getInstanceLocation() == null) {
        continue;
      }
      String pointer = m.getInstanceLocation().toString();
      JsonNode original = found.get(pointer.equals("/") ? "" : pointer);
      if (original != null && wantsIntegerOnly(m.getSchemaNode())) {
        out.add(
            new Violation(
                pointer.equals("/") ? "" : pointer,
                "type",
                original.asText() + " (expected: an integer, without a fraction part)"));
      }
    }
    return out;
  }

  private static boolean wantsIntegerOnly(JsonNode types) {
    if (types == null) {
      return false;
    }
    boolean integer = false;
    for (JsonNode t : types.isArray() ? types : List.of(types)) {
      if (t.asText().equals("number")) {
        return false;
      }
      integer |= t.asText().equals("integer");
    }
    return integer;
  }

  /** Whether {@code node} holds a floating-point number without a fraction part. */
  private static boolean hasIntegralFloat(JsonNode node) {
    if (node.isFloatingPointNumber()) {
      double d = node.asDouble();
      return Double.isFinite(d) && d == Math.rint(d);
    }
    if (node.isContainerNode()) {
      for (JsonNode child : node) {
        if (hasIntegralFloat(child)) {
          return true;
        }
      }
    }
    return false;
  }

  /** A copy of {@code node} with integral floating-point numbers moved by 0.5, or {@code node}. */
  private static JsonNode probe(JsonNode node, String ptr, Map<String, JsonNode> found) {
    if (node.isFloatingPointNumber()) {
      double d = node.asDouble();
      if (Double.isFinite(d) && d == Math.rint(d)) {
        found.put(ptr, node);
        return DoubleNode.valueOf(d + 0.5);
      }
      return node;
    }
    if (node.isObject()) {
      ObjectNode copy = null;
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        String child = ptr + "/" + e.getKey().replace("~", "~0").replace("/", "~1");
        JsonNode p = probe(e.getValue(), child, found);
        if (p != e.getValue()) {
          if (copy == null) {
            copy = ((ObjectNode) node).deepCopy();
          }
          copy.set(e.getKey(), p);
        }
      }
      return copy == null ? node : copy;
    }
    if (node.isArray()) {
      ArrayNode copy = null;
      for (int i = 0; i < node.size(); i++) {
        JsonNode p = probe(node.get(i), ptr + "/" + i, found);
        if (p != node.get(i)) {
          if (copy == null) {
            copy = ((ArrayNode) node).deepCopy();
          }
          copy.set(i, p);
        }
      }
      return copy == null ? node : copy;
    }
    return node;
  }
}
