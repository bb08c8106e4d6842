package io.fluxdrm.pmix.port;

import io.fluxdrm.pmix.PmixStatus;
import java.util.Objects;

/**
 * What {@code pmix_hdlr_reg_cbfunc_t(status, refid, cbdata)} receives.
 *
 * @param status the registration's status
 * @param ref the handler's reference, for {@link DvmPort#deregisterEvents}; meaningful on success
 */
public record Registration(PmixStatus status, long ref) {
  /** Checks. */
  public Registration {
    Objects.requireNonNull(status, "status");
  }
}
