package io.fluxdrm.dvm.core;

import io.fluxdrm.pmix.AllocInheritance;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.request.AllocationRequest;
import io.fluxdrm.pmix.request.NodeList;
import io.fluxdrm.pmix.request.RequestException;
import io.fluxdrm.pmix.request.SessionControl;
import java.util.List;
import java.util.Optional;

/**
 * One {@code PMIx_Session_control} request's directives, scanned whole before anything is done
 * (PRRTE §7.4.4.2 Operations: order is irrelevant), with every rule of PRRTE §7.4.4 Session Control
 * that needs no state.
 */
record SessionDirectives(
    Op op,
    Optional<Boolean> sep,
    Optional<String> ctrlId,
    Optional<PmixProc> requestor,
    List<NodeList.Entry> nodes,
    Optional<String> allocId,
    Optional<String> reqId,
    Optional<Long> timeLimitSeconds,
    Optional<AllocInheritance> inheritance,
    Optional<Long> userId,
    List<App> apps,
    List<Info> jobInfos,
    List<String> nspaces,
    int signal) {

  /** The operational directives: alternatives, not a program (PRRTE §7.4.4.2 "Operations"). */
  enum Op {
    /** None: {@code PMIX_SESSION_SEP} alone ("modify only"). */
    NONE,
    INSTANTIATE,
    PAUSE,
    RESUME,
    TERMINATE,
    PREEMPT,
    RESTORE,
    SIGNAL,
    EXTEND
  }

  /**
   * Scans {@code directives}.
   *
   * @throws Refused with the status PRRTE §7.4.4 Session Control and PRRTE §7.4.4.2 Operations give
   */
  static SessionDirectives parse(List<Info> directives) {
    // PRRTE §7.4.4.2.8 "Completion": a request carrying COMPLETE is refused, whatever else it holds
    if (SessionControl.completes(directives)) {
      throw Refused.notSupported(
          "PMIX_SESSION_COMPLETE: sent by the DVM to its scheduler, never accepted");
    }
    SessionControl c;
    try {
      c = SessionControl.parse(directives);
    } catch (RequestException e) {
      throw Requests.refused(e);
    }
    int signal = c.signal().orElse(0);
    // PRRTE §7.4.4.2 Operations: an integer > 0; Signal.MAX bounds it (decision D356)
    if (c.signal().isPresent() && (signal <= 0 || signal > Signal.MAX)) {
      throw Refused.badParam(
          "PMIX_SESSION_SIGNAL " + signal + ": out of range (expected: 1 to " + Signal.MAX + ")");
    }
    if (!c.provisioning().isEmpty()) {
      // PRRTE §7.4.4.4 "What PRRTE does not support": provisioning
      throw Refused.notSupported(
          PmixKey.nameOf(c.provisioning().get(0).key()).orElseThrow()
              + ": provisioning is not supported (the DVM runs on the nodes as it finds them)");
    }
    // PRRTE §7.4.4.4 "What PRRTE does not support": resource selection (counts, memory, queues)
    selection(c.resources(), " in PMIX_SESSION_RESOURCES");
    selection(c.direct(), "");
    Optional<Integer> timeout = c.timeout();
    if (timeout.isPresent() && timeout.get() < 0) {
      throw Refused.badParam(
          "PMIX_TIMEOUT " + timeout.get() + ": negative (expected: >= 0 seconds)");
    }
    Optional<String> allocId = c.direct().allocId().or(() -> c.resources().allocId());
    if (allocId.isPresent() && allocId.get().isEmpty()) {
      throw Refused.badParam("PMIX_ALLOC_ID \"\": empty (expected: an allocation id)");
    }
    List<SessionControl.Operation> ops = c.operations();
    if (ops.size() > 1) {
      throw Refused.badParam(
          "directives "
              + ops
              + ": more than one operation (expected: one of INSTANTIATE, PAUSE, RESUME, TERMINATE,"
              + " PREEMPT, RESTORE, SIGNAL, EXTEND)");
    }
    Op op = ops.isEmpty() ? Op.NONE : Op.valueOf(ops.get(0).name());
    if (op == Op.NONE && c.sep().isEmpty()) {
      throw Refused.badParam("directives: no operation and no PMIX_SESSION_SEP (nothing asked)");
    }
    if (c.job().isPresent() && c.apps().isEmpty()) {
      throw Refused.badParam("PMIX_SESSION_JOB without PMIX_SESSION_APP (expected: apps with it)");
    }
    if ((c.job().isPresent() || !c.apps().isEmpty()) && op != Op.INSTANTIATE) {
      throw Refused.badParam(
          "PMIX_SESSION_APP/PMIX_SESSION_JOB with "
              + op
              + " (expected: only with PMIX_SESSION_INSTANTIATE)");
    }
    Optional<Long> allocTime = c.direct().timeSeconds().or(() -> c.resources().timeSeconds());
    Optional<Long> limit = allocTime.isPresent() ? allocTime : timeout.map(Integer::longValue);
    return new SessionDirectives(
        op,
        c.sep(),
        c.ctrlId(),
        c.requestor(),
        c.nodes(),
        allocId,
        c.direct().reqId().or(() -> c.resources().reqId()),
        limit,
        c.direct().inheritance().or(() -> c.resources().inheritance()),
        c.userId(),
        c.apps(),
        c.job().orElse(List.of()),
        c.nspaces(),
        signal);
  }

  /** Whether anything was asked of an EXTEND: nodes, a time limit or an inheritance. */
  boolean extendsSomething() {
    return !nodes.isEmpty() || timeLimitSeconds.isPresent() || inheritance.isPresent();
  }

  /** Refuses the first resource-selection key of {@code r}. */
  private static void selection(AllocationRequest r, String where) {
    r.firstSelection()
        .ifPresent(
            name -> {
              throw Refused.notSupported(
                  name
                      + where
                      + ": resource selection is not supported (expected: nodes named by"
                      + " PMIX_ALLOC_NODE_LIST)");
            });
  }
}
