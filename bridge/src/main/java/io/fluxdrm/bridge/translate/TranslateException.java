package io.fluxdrm.bridge.translate;

import io.fluxdrm.pmix.PmixStatus;
import java.io.Serial;

/**
 * Bad input to a translation: a PMIx request the bridge refuses (turned into a {@link
 * Translation.Refused} by {@link RequestTranslator}) or a scheduler response that breaks RFC 51
 * (thrown by {@link AnswerTranslator}; the requester then gets {@link #status()}). The message
 * locates the problem and states the rule.
 */
public final class TranslateException extends IllegalArgumentException {
  @Serial private static final long serialVersionUID = 1L;

  private final PmixStatus status;

  /**
   * Creates the exception.
   *
   * @param status the PMIx status the requester gets
   * @param message where and why
   */
  public TranslateException(PmixStatus status, String message) {
    super(message);
    this.status = status;
  }

  /** The PMIx status the requester gets. */
  public PmixStatus status() {
    return status;
  }
}
