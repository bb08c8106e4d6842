package io.fluxdrm.protocol;

import java.io.Serial;

/**
 * A Flux protocol payload that breaks its RFC: the message locates the value and states the rule.
 * Each side maps it to its own error (an RPC errno on the Flux side, a PMIx status in the bridge).
 */
public final class ProtocolException extends IllegalArgumentException {
  @Serial private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message where and why
   */
  public ProtocolException(String message) {
    super(message);
  }
}
