package io.fluxdrm.bridge.translate;

import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixStatus;
import java.util.List;

/**
 * What a PMIx requester is told: the status of {@code PMIx_Allocation_request} and its result
 * infos, plus a human-readable reason for logs (never sent as an info).
 *
 * @param status the status
 * @param infos the result infos
 * @param message why, or empty on success
 */
public record PmixAnswer(PmixStatus status, List<Info> infos, String message) {
  /** Copies the list. */
  public PmixAnswer {
    infos = List.copyOf(infos);
  }
}
