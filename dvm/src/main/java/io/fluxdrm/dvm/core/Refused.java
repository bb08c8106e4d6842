package io.fluxdrm.dvm.core;

import io.fluxdrm.pmix.PmixStatus;
import java.io.Serial;

/**
 * A request refused while the core examines it: the status its answer carries and the reason.
 * Thrown and caught inside the core only (before any state changes); it never leaves {@link
 * DvmCore#handle}.
 */
final class Refused extends RuntimeException {
  @Serial private static final long serialVersionUID = 1L;

  private final transient PmixStatus status;

  Refused(PmixStatus status, String reason) {
    super(reason, null, false, false);
    this.status = status;
  }

  static Refused badParam(String reason) {
    return new Refused(PmixStatus.PMIX_ERR_BAD_PARAM, reason);
  }

  static Refused notFound(String reason) {
    return new Refused(PmixStatus.PMIX_ERR_NOT_FOUND, reason);
  }

  static Refused notSupported(String reason) {
    return new Refused(PmixStatus.PMIX_ERR_NOT_SUPPORTED, reason);
  }

  static Refused noPermissions(String reason) {
    return new Refused(PmixStatus.PMIX_ERR_NO_PERMISSIONS, reason);
  }

  PmixStatus status() {
    return status;
  }
}
