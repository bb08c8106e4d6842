package io.fluxdrm.jobspec;

import io.fluxdrm.schemas.Violation;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Bad input: a document that cannot be read, or a jobspec that breaks rules. Carries every
 * violation.
 */
public final class JobspecException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The violations, sorted by location; never empty. */
  private final transient List<Violation> violations;

  /**
   * Creates the exception.
   *
   * @param violations what is wrong, at least one
   */
  public JobspecException(List<Violation> violations) {
    super(violations.stream().sorted().map(Violation::toString).collect(Collectors.joining("; ")));
    if (violations.isEmpty()) {
      throw new IllegalArgumentException("a JobspecException needs at least one violation");
    }
    this.violations = violations.stream().sorted().toList();
  }

  static JobspecException of(String pointer, String rule, String message) {
    return new JobspecException(List.of(new Violation(pointer, rule, message)));
  }

  /**
   * Returns the violations.
   *
   * @return every violation, sorted by location
   */
  public List<Violation> violations() {
    return violations;
  }
}
