package io.fluxdrm.pmix.port;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * How a client (the bridge, a tool, a test) talks to a DVM: the reference DVM or PRRTE behind
 * libpmix. Each method mirrors one PMIx call and completes, never throws, with what that call's
 * callback receives; a refusal is a non-success {@link io.fluxdrm.pmix.PmixStatus} in the result.
 *
 * <p>A port is bound to one {@link Client} and one daemon (see {@link DvmConnector}): every request
 * made through it is that client's, relayed by that daemon.
 */
public interface DvmPort {

  /**
   * {@code PMIx_Allocation_request_nb(directive, info, ninfo, cbfunc, cbdata)}: asks for an
   * allocation change (PMIx standard v5, "Allocation Requests"; PRRTE §7.4.3 Flow-of-Control).
   *
   * @param directive the {@code pmix_alloc_directive_t}
   * @param infos the request's attributes ({@code PMIX_ALLOC_NUM_NODES}, ...)
   * @return the status and the infos the callback receives ({@code PMIX_ALLOC_ID}, ...)
   */
  CompletionStage<StatusInfos> allocationRequest(AllocDirective directive, List<Info> infos);

  /**
   * {@code PMIx_Session_control(sessionID, directives, ndirs, cbfunc, cbdata)}: controls a session
   * (PRRTE §7.4.4 Session Control); the directives are infos such as {@code PMIX_SESSION_PAUSE}.
   *
   * @param sessionId the session's numeric id
   * @param directives the session control directives and their qualifiers
   * @return the status and the infos the callback receives
   */
  CompletionStage<StatusInfos> sessionControl(long sessionId, List<Info> directives);

  /**
   * {@code PMIx_Spawn_nb(job_info, ninfo, apps, napps, cbfunc, cbdata)}: launches applications
   * (with {@code PMIX_SPAWN_ALLOC}-style infos when the launch needs an allocation, PRRTE §7.4.3
   * Flow-of-Control).
   *
   * @param apps the {@code pmix_app_t} array, at least one
   * @param jobInfos the job-level infos
   * @return the status and the new job's namespace
   */
  CompletionStage<SpawnResult> spawn(List<App> apps, List<Info> jobInfos);

  /**
   * {@code PMIx_Register_event_handler(codes, ncodes, info, ninfo, evhdlr, cbfunc, cbdata)}: asks
   * for the events with these status codes ({@code PMIX_DVM_IS_READY}, {@code PMIX_ERR_DVM_MOD},
   * ... the two-phase answer of PRRTE's elastic-DVM spec).
   *
   * @param codes the status codes of interest; empty means every event (as {@code ncodes == 0})
   * @param handler receives each event
   * @return completes with the handler's reference once registered (or a failure status)
   */
  CompletionStage<Registration> registerEvents(List<Integer> codes, EventHandler handler);

  /**
   * {@code PMIx_Deregister_event_handler(evhdlr_ref, cbfunc, cbdata)}.
   *
   * @param ref the reference {@link #registerEvents} returned
   * @return the status
   */
  CompletionStage<StatusInfos> deregisterEvents(long ref);

  /**
   * {@code PMIx_tool_finalize} / {@code PMIx_Finalize}: the client leaves. The DVM drops its event
   * registrations and treats it as gone (a reservation it owns follows its inheritance, PRRTE PR
   * #1904; a session it instantiated without {@code PMIX_SESSION_SEP=false} is unaffected, PRRTE
   * §7.4.4 Session Control "Separation"); for the scheduler's port, the scheduler detaches.
   * Requests still pending through the port are answered before this completes.
   *
   * @return the status
   */
  CompletionStage<StatusInfos> disconnect();

  /** {@code pmix_notification_fn_t}: the handler {@link #registerEvents} registers. */
  @FunctionalInterface
  interface EventHandler {
    /**
     * Delivers one event.
     *
     * @param event its status code, infos and where it was directed
     */
    void onEvent(Event event);
  }
}
