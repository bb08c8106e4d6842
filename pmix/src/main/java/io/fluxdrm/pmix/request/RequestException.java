package io.fluxdrm.pmix.request;

import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import java.io.Serial;

/**
 * A PMIx request whose infos do not read as the typed value: located at the key that breaks the
 * rule, with the status a PMIx caller gets. The message is {@code <label> <problem>}, where the
 * label is the key's macro name ({@code PMIX_ALLOC_NODE_LIST "n[3-": ...}); a consumer that words
 * its locations with the key string instead asks {@link #problem()} and {@link #key()}.
 */
public final class RequestException extends IllegalArgumentException {
  @Serial private static final long serialVersionUID = 1L;

  private final PmixStatus status;
  private final String key;
  private final String problem;

  /**
   * Creates the exception.
   *
   * @param status what a PMIx caller gets
   * @param key the key string ({@code pmix.alloc.nlist}) of the info at fault
   * @param problem what is wrong, after the label: {@code "\"n[3-\": ..."}
   */
  public RequestException(PmixStatus status, String key, String problem) {
    super(PmixKey.nameOf(key).orElse(key) + " " + problem);
    this.status = status;
    this.key = key;
    this.problem = problem;
  }

  /**
   * Creates the exception with a message of its own, not built from a label.
   *
   * @param status what a PMIx caller gets
   * @param key the key string of the info at fault
   * @param message the whole message
   * @return the exception
   */
  static RequestException whole(PmixStatus status, String key, String message) {
    return new RequestException(status, key, message, true);
  }

  private RequestException(PmixStatus status, String key, String message, boolean whole) {
    super(message);
    this.status = status;
    this.key = key;
    this.problem = message;
  }

  /** What a PMIx caller gets. */
  public PmixStatus status() {
    return status;
  }

  /** The key string of the info at fault. */
  public String key() {
    return key;
  }

  /** What is wrong, without the label. */
  public String problem() {
    return problem;
  }

  /**
   * The message with another label in front ({@code pmix.alloc.nlist "n[3-": ...}).
   *
   * @param label the label
   * @return {@code label + " " + problem()}, or the message when it was given whole
   */
  public String labelled(String label) {
    return getMessage().equals(problem) ? problem : label + " " + problem;
  }
}
