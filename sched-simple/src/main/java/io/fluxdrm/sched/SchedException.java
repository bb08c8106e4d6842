package io.fluxdrm.sched;

import java.io.Serial;

/**
 * Bad input to the scheduler core's value types (a resource request, an option): the message
 * locates the problem and states the rule, e.g. {@code request: slot size 0 (expected: >= 1)}.
 */
public final class SchedException extends IllegalArgumentException {
  @Serial private static final long serialVersionUID = 1L;

  public SchedException(String message) {
    super(message);
  }
}
