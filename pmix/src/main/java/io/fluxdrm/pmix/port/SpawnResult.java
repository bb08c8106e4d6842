package io.fluxdrm.pmix.port;

import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@code pmix_spawn_cbfunc_t(status, nspace, cbdata)} receives.
 *
 * @param status the spawn's status
 * @param nspace the new job's namespace, present exactly when the spawn succeeded
 */
public record SpawnResult(PmixStatus status, Optional<String> nspace) {
  /** Checks: a success names a namespace (at most PMIX_MAX_NSLEN), a failure none. */
  public SpawnResult {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(nspace, "nspace");
    if ((status == PmixStatus.PMIX_SUCCESS) != nspace.isPresent()) {
      throw new IllegalArgumentException(
          "nspace: " + nspace + " with " + status + " (expected: a namespace exactly on success)");
    }
    if (nspace.isPresent()
        && (nspace.get().isEmpty() || nspace.get().length() > PmixProc.MAX_NSLEN)) {
      throw new IllegalArgumentException(
          "nspace: length " + nspace.get().length() + " (expected: 1.." + PmixProc.MAX_NSLEN + ")");
    }
  }
}
