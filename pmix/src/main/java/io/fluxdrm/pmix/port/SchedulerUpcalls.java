package io.fluxdrm.pmix.port;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixProc;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * What a DVM calls on the scheduler attached to it when it forwards a request it does not answer
 * itself (PRRTE §7.4.3 Flow-of-Control: allocation requests go to the scheduler; PRRTE §7.4.4
 * Session Control: session controls a scheduler must decide). Mirrors the PMIx server module's
 * upcalls a scheduler serves.
 */
public interface SchedulerUpcalls {

  /**
   * {@code pmix_server_alloc_fn_t(client, directive, data, ndata, cbfunc, cbdata)}: an allocation
   * request forwarded by the DVM, {@code PMIX_REQUESTOR} naming the process that made it.
   *
   * @param requester the process that asked
   * @param directive the directive
   * @param infos the request's attributes
   * @return the status and infos the DVM hands back to the requester
   */
  CompletionStage<StatusInfos> allocate(
      PmixProc requester, AllocDirective directive, List<Info> infos);

  /**
   * {@code pmix_server_session_control_fn_t(requestor, sessionID, directives, ndirs, cbfunc,
   * cbdata)}: a session control forwarded by the DVM.
   *
   * @param requester the process that asked
   * @param sessionId the session's numeric id
   * @param directives the directives
   * @return the status and infos the DVM hands back
   */
  CompletionStage<StatusInfos> sessionControl(
      PmixProc requester, long sessionId, List<Info> directives);

  /**
   * The DVM's release hook toward its scheduler (PRRTE runs each RAS module's {@code
   * shrink_complete} hook before a shrink's event, PRRTE elastic-DVM spec, two-phase answer;
   * decision D421): these hosts have left the DVM and nothing of it runs there any more, their
   * daemons gone (a shrink completed, a rolled-back grow's daemons left or never started, a
   * session's nodes shrunk). Only now may the scheduler hand them to anyone else. The default does
   * nothing.
   *
   * @param hosts the hosts, each once, in the order their daemons went
   * @return completes once the scheduler has taken note; never fails
   */
  default CompletionStage<Void> nodesReleased(List<String> hosts) {
    return java.util.concurrent.CompletableFuture.completedFuture(null);
  }
}
