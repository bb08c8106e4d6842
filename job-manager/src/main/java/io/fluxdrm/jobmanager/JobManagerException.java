package io.fluxdrm.jobmanager;

/**
 * Bad input to the job manager outside an RPC: an eventlog that cannot be read back, a job that
 * cannot be registered. The message locates the problem ({@code 7.eventlog:3: /context/R: ...}).
 */
public final class JobManagerException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * A new exception.
   *
   * @param message where and why, lower case, no trailing period
   */
  public JobManagerException(String message) {
    super(message);
  }
}
