package io.fluxdrm.bridge.dvm;

import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.pmix.request.SessionControl;
import java.util.List;

/**
 * The wording of a {@link FluxScheduler}'s refusals: why under {@link FluxScheduler#REASON_KEY}, so
 * that the requester learns why, not only the status (issue 29, finding 8).
 */
final class Refusals {
  private Refusals() {}

  /**
   * Why a forwarded session control is refused: the DVM passes every session control of a tool up
   * to its scheduler (PRRTE §7.4.4.1 "Who answers a request"), and this scheduler executes none,
   * since Flux has no counterpart of them; a session here is a Flux grant, given back by a RELEASE
   * of its allocation (issue 29, finding 8).
   */
  static String notSupportedReason(long sessionId, List<Info> directives) {
    String op =
        directives.stream()
            .flatMap(i -> SessionControl.Operation.of(i.key()).stream())
            .map(o -> PmixKey.nameOf(o.key()).orElse(o.key()))
            .findFirst()
            .orElse("session control");
    return op
        + " of session "
        + sessionId
        + ": the DVM's scheduler is the fluxdrm bridge, which takes no session controls from"
        + " tools (Flux has no counterpart; its sessions are Flux grants: give one back with"
        + " PMIX_ALLOC_RELEASE of its PMIX_ALLOC_ID, e.g. 'fluxdrm alloc release --alloc-id ID')";
  }

  /**
   * A refusal with why, as Flux or the translation said it ({@code sched.realloc}'s DENY note, a
   * refused key), under {@link FluxScheduler#REASON_KEY}: the requester learns why, not only the
   * status (issue 29, finding 8).
   */
  static StatusInfos withReason(StatusInfos answer, String why) {
    if (why == null
        || why.isBlank()
        || answer.infos().stream().anyMatch(i -> i.key().equals(FluxScheduler.REASON_KEY))) {
      return answer;
    }
    List<Info> infos = new java.util.ArrayList<>(answer.infos());
    infos.add(new Info(FluxScheduler.REASON_KEY, io.fluxdrm.pmix.PmixDataType.PMIX_STRING, why));
    return new StatusInfos(answer.status(), infos);
  }
}
