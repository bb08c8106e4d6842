package io.fluxdrm.pmix.port;

import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixStatus;
import java.util.List;
import java.util.Objects;

/**
 * What a PMIx {@code pmix_info_cbfunc_t} receives: a status and the infos returned with it.
 *
 * @param status the call's status
 * @param infos the infos, in order (copied, unmodifiable)
 */
public record StatusInfos(PmixStatus status, List<Info> infos) {
  /** Checks and copies. */
  public StatusInfos {
    Objects.requireNonNull(status, "status");
    infos = List.copyOf(Objects.requireNonNull(infos, "infos"));
  }

  /**
   * A status without infos.
   *
   * @param status the status
   * @return the result
   */
  public static StatusInfos of(PmixStatus status) {
    return new StatusInfos(status, List.of());
  }

  /** Whether the status is {@code PMIX_SUCCESS}. */
  public boolean succeeded() {
    return status == PmixStatus.PMIX_SUCCESS;
  }
}
