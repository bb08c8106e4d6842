package io.fluxdrm.pmix.port;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

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

  /**
   * A scheduler that refuses every request with {@code status}, as one that serves none of them
   * answers (PMIx Standard v5.0, a server module's upcall answering {@code
   * PMIX_ERR_NOT_SUPPORTED}); its release hook is the default.
   *
   * @param status the status of every answer
   */
  static SchedulerUpcalls refusing(PmixStatus status) {
    Objects.requireNonNull(status, "status");
    return new SchedulerUpcalls() {
      @Override
      public CompletionStage<StatusInfos> allocate(
          PmixProc requester, AllocDirective directive, List<Info> infos) {
        return CompletableFuture.completedFuture(StatusInfos.of(status));
      }

      @Override
      public CompletionStage<StatusInfos> sessionControl(
          PmixProc requester, long sessionId, List<Info> directives) {
        return CompletableFuture.completedFuture(StatusInfos.of(status));
      }

      @Override
      public String toString() {
        return "refusing " + status;
      }
    };
  }

  /**
   * A scheduler passing every upcall, the release hook too, on to the one {@code target} gives at
   * the time of the call: a scheduler that can be replaced after the DVM has attached it.
   *
   * @param target gives the scheduler each call goes to
   */
  static SchedulerUpcalls delegating(Supplier<? extends SchedulerUpcalls> target) {
    Objects.requireNonNull(target, "target");
    return (Forwarding) target::get;
  }

  /**
   * A scheduler passing every upcall, the release hook too, on to {@link #upcallsTarget()}, asked
   * at each call.
   */
  @FunctionalInterface
  interface Forwarding extends SchedulerUpcalls {

    /** The scheduler the current call goes to. */
    SchedulerUpcalls upcallsTarget();

    @Override
    default CompletionStage<StatusInfos> allocate(
        PmixProc requester, AllocDirective directive, List<Info> infos) {
      return upcallsTarget().allocate(requester, directive, infos);
    }

    @Override
    default CompletionStage<StatusInfos> sessionControl(
        PmixProc requester, long sessionId, List<Info> directives) {
      return upcallsTarget().sessionControl(requester, sessionId, directives);
    }

    @Override
    default CompletionStage<Void> nodesReleased(List<String> hosts) {
      return upcallsTarget().nodesReleased(hosts);
    }
  }
}
