package io.fluxdrm.schemas;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.ValidationMessage;

/** Turns a networknt message into a {@link Violation} in the project's error style. */
final class MessageText {
  private static final int MAX_SHOWN = 40;

  private MessageText() {}

  static Violation toViolation(ValidationMessage m) {
    String pointer = m.getInstanceLocation() == null ? "" : m.getInstanceLocation().toString();
    if (pointer.equals("/") || pointer.equals("$")) {
      pointer = "";
    }
    String type = m.getType() == null ? "schema" : m.getType();
    JsonNode found = m.getInstanceNode();
    JsonNode rule = m.getSchemaNode();
    String property = m.getProperty();
    return switch (type) {
      case "required" ->
          new Violation(child(pointer, property), type, "missing (expected: present)");
      case "additionalProperties", "unevaluatedProperties" ->
          new Violation(child(pointer, property), type, "unknown key (expected: not present)");
      case "type" ->
          new Violation(
              pointer,
              type,
              (found != null && found.isNumber() ? show(found) : kind(found))
                  + " (expected: "
                  + expectedTypes(rule)
                  + ")");
      case "minimum" ->
          new Violation(pointer, type, show(found) + " (expected: >= " + show(rule) + ")");
      case "maximum" ->
          new Violation(pointer, type, show(found) + " (expected: <= " + show(rule) + ")");
      case "exclusiveMinimum" ->
          new Violation(pointer, type, show(found) + " (expected: > " + show(rule) + ")");
      case "const" -> new Violation(pointer, type, show(found) + " (expected: " + show(rule) + ")");
      case "enum" ->
          new Violation(pointer, type, show(found) + " (expected: one of " + show(rule) + ")");
      case "minItems" ->
          new Violation(
              pointer, type, size(found) + " items (expected: at least " + show(rule) + ")");
      case "maxItems" ->
          new Violation(
              pointer, type, size(found) + " items (expected: at most " + show(rule) + ")");
      case "minProperties" ->
          new Violation(
              pointer, type, size(found) + " keys (expected: at least " + show(rule) + ")");
      case "maxProperties" ->
          new Violation(
              pointer, type, size(found) + " keys (expected: at most " + show(rule) + ")");
      case "minLength" ->
          new Violation(
              pointer,
              type,
              show(found) + " is too short (expected: at least " + show(rule) + " characters)");
      case "pattern" ->
          new Violation(pointer, type, show(found) + " (expected: " + patternName(m) + ")");
      case "false" -> new Violation(pointer, type, "not allowed here (expected: absent)");
      case "dependentRequired" ->
          new Violation(
              pointer,
              type,
              "has "
                  + property
                  + " without "
                  + dependents(rule, property)
                  + " (expected: both or neither)");
      default ->
          new Violation(
              pointer, type, lowerFirst(m.getError() == null ? m.getMessage() : m.getError()));
    };
  }

  private static String dependents(JsonNode rule, String property) {
    JsonNode deps = rule == null || property == null ? null : rule.get(property);
    if (deps == null || !deps.isArray()) {
      return "the keys it depends on";
    }
    StringBuilder sb = new StringBuilder();
    for (JsonNode d : deps) {
      sb.append(sb.length() > 0 ? " and " : "").append(d.asText());
    }
    return sb.toString();
  }

  private static String patternName(ValidationMessage m) {
    String where = m.getSchemaLocation() == null ? "" : m.getSchemaLocation().toString();
    int i = where.lastIndexOf("$defs/");
    if (i >= 0) {
      int end = where.indexOf('/', i + 6);
      return "a valid " + where.substring(i + 6, end < 0 ? where.length() : end);
    }
    return "to match " + show(m.getSchemaNode());
  }

  private static String child(String pointer, String property) {
    if (property == null) {
      return pointer;
    }
    return pointer + "/" + property.replace("~", "~0").replace("/", "~1");
  }

  static String kind(JsonNode n) {
    if (n == null || n.isMissingNode()) {
      return "missing";
    }
    return switch (n.getNodeType()) {
      case OBJECT -> "an object";
      case ARRAY -> "an array";
      case STRING -> "a string";
      case NUMBER -> n.isIntegralNumber() ? "an integer" : "a number";
      case BOOLEAN -> "a boolean";
      case NULL -> "null";
      default -> "a value";
    };
  }

  private static String expectedTypes(JsonNode rule) {
    if (rule == null) {
      return "another type";
    }
    if (rule.isArray()) {
      StringBuilder sb = new StringBuilder();
      for (JsonNode t : rule) {
        if (sb.length() > 0) {
          sb.append(" or ");
        }
        sb.append(article(t.asText()));
      }
      return sb.toString();
    }
    return article(rule.asText());
  }

  private static String article(String t) {
    return switch (t) {
      case "object", "array", "integer" -> "an " + t;
      case "null" -> "null";
      default -> "a " + t;
    };
  }

  private static String size(JsonNode n) {
    return n == null ? "0" : Integer.toString(n.size());
  }

  static String show(JsonNode n) {
    if (n == null) {
      return "nothing";
    }
    String s =
        n.isContainerNode() ? n.toString() : n.isTextual() ? '"' + n.asText() + '"' : n.asText();
    return s.length() > MAX_SHOWN ? s.substring(0, MAX_SHOWN) + "..." : s;
  }

  private static String lowerFirst(String s) {
    if (s == null || s.isEmpty()) {
      return "does not match the schema";
    }
    String t = s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    return Character.toLowerCase(t.charAt(0)) + t.substring(1);
  }
}
