package io.fluxdrm.rpc.transcript;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.regex.Pattern;

/**
 * A declared difference that replay comparisons ignore: a JSON field whose value varies (times,
 * generated ids), or a text pattern.
 *
 * <p>Stable: user tests may rely on it; it changes only with a decision that says so
 * (docs/transcripts.md, "What is stable").
 */
public sealed interface Normalisation {
  /**
   * Replaces the value at a JSON pointer of each compared response (e.g. "/payload/R/starttime").
   */
  record Ignore(String pointer) implements Normalisation {}

  /** Replaces every match of a pattern in each compared line. */
  record Replace(Pattern pattern, String replacement) implements Normalisation {}

  /** Returns an {@link Ignore}. */
  static Normalisation ignore(String pointer) {
    JsonPointer.compile(pointer);
    return new Ignore(pointer);
  }

  /** Returns a {@link Replace}. */
  static Normalisation replace(String regex, String replacement) {
    return new Replace(Pattern.compile(regex), replacement);
  }

  /** Applies the JSON normalisations to a rendered response. */
  static void applyJson(ObjectNode line, Iterable<Normalisation> all) {
    for (Normalisation n : all) {
      if (n instanceof Ignore i) {
        JsonPointer p = JsonPointer.compile(i.pointer());
        JsonNode parent = line.at(p.head());
        String field = p.last().getMatchingProperty();
        if (parent instanceof ObjectNode o && o.has(field)) {
          o.put(field, "<normalised>");
        }
      }
    }
  }

  /** Applies the text normalisations to a rendered line. */
  static String applyText(String line, Iterable<Normalisation> all) {
    String s = line;
    for (Normalisation n : all) {
      if (n instanceof Replace r) {
        s = r.pattern().matcher(s).replaceAll(r.replacement());
      }
    }
    return s;
  }
}
