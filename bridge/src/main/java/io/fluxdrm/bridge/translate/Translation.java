package io.fluxdrm.bridge.translate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixStatus;
import java.util.List;

/** What a PMIx allocation request becomes on the Flux side (decision D9). */
public sealed interface Translation {

  /**
   * A {@code sched.realloc} to send, and what the answer needs to know about the request.
   *
   * @param directive the PMIx directive (NEW, EXTEND or RELEASE)
   * @param payload the {@code sched.realloc} request payload (job_id, spec_add or spec_sub, R)
   * @param allocId the {@code PMIX_ALLOC_ID} the request acts on: the reservation extended or
   *     released; null for NEW, for an EXTEND of the job's initial allocation and for a release by
   *     node list or count
   * @param echo the infos every answer repeats: {@code PMIX_ALLOC_REQ_ID} and the policy keys
   * @param warnTimeout {@code PMIX_ALLOC_WARN_TIMEOUT} in seconds, or -1 when not asked
   */
  record Realloc(
      AllocDirective directive,
      ObjectNode payload,
      String allocId,
      List<Info> echo,
      long warnTimeout)
      implements Translation {
    /** Copies the payload and the list. */
    public Realloc {
      payload = payload.deepCopy();
      echo = List.copyOf(echo);
    }

    /** A copy of the payload. */
    @Override
    public ObjectNode payload() {
      return payload.deepCopy();
    }
  }

  /**
   * A {@code sched.realloc_cancel} of the pending request the requester labelled {@code reqId}; the
   * job manager finds its matchtag.
   *
   * @param reqId the {@code PMIX_ALLOC_REQ_ID} of the request to cancel
   */
  record Cancel(String reqId) implements Translation {}

  /**
   * A request refused before anything is sent: the requester gets {@code status} at once.
   *
   * @param status the PMIx status
   * @param message where and why
   */
  record Refused(PmixStatus status, String message) implements Translation {}
}
