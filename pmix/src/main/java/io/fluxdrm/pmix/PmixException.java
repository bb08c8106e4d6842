package io.fluxdrm.pmix;

import java.io.Serial;
import java.util.List;

/**
 * Bad PMIx input: an info entry whose value does not fit its data type, a key used with a type it
 * does not have, or an info array that cannot be decoded. Carries every problem, sorted by
 * location, and the status a PMIx caller gets ({@link PmixStatus#PMIX_ERR_BAD_PARAM}).
 */
public final class PmixException extends IllegalArgumentException {
  @Serial private static final long serialVersionUID = 1L;

  private final transient List<String> problems;

  /**
   * Creates the exception.
   *
   * @param problems one line per problem, each locating it and stating the rule; at least one
   */
  public PmixException(List<String> problems) {
    super(String.join("; ", problems.stream().sorted().toList()));
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("a PmixException needs at least one problem");
    }
    this.problems = problems.stream().sorted().toList();
  }

  /**
   * Creates the exception for one problem.
   *
   * @param problem the problem, locating it and stating the rule
   */
  public PmixException(String problem) {
    this(List.of(problem));
  }

  /** Every problem, sorted by location. */
  public List<String> problems() {
    return problems;
  }

  /** The status a PMIx caller gets for this input. */
  public PmixStatus status() {
    return PmixStatus.PMIX_ERR_BAD_PARAM;
  }
}
