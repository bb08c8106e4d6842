package io.fluxdrm.jobspec;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.schemas.Violation;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The verdict on one document: its name and every violation, sorted by location.
 *
 * @param source the document's name as the user gave it ({@code -} for standard input)
 * @param violations every violation; empty when the document is valid
 */
public record Report(String source, List<Violation> violations) {
  /** errnum of an invalid document in {@link #toJson()}: EINVAL, as flux's job-validator. */
  public static final int EINVAL = 22;

  /** Copies the list, sorted by location. */
  public Report {
    violations = violations.stream().sorted().toList();
  }

  /** True when there is no violation. */
  public boolean valid() {
    return violations.isEmpty();
  }

  /**
   * The text form: {@code SOURCE: ok}, or one {@code SOURCE: POINTER: MESSAGE} line per violation.
   *
   * @return the lines, without line terminators
   */
  public List<String> lines() {
    if (valid()) {
      return List.of(source + ": ok");
    }
    return violations.stream().map(v -> source + ": " + v).toList();
  }

  /**
   * The machine form, one object per document, shaped like flux's job-validator output: {@code
   * {"file":"a.yaml","errnum":0}} or {@code {"file":"a.yaml","errnum":22,"errstr":"/x: ...; /y:
   * ..."}}.
   *
   * @return a new JSON object
   */
  public ObjectNode toJson() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.put("file", source);
    o.put("errnum", valid() ? 0 : EINVAL);
    if (!valid()) {
      o.put(
          "errstr", violations.stream().map(Violation::toString).collect(Collectors.joining("; ")));
    }
    return o;
  }
}
