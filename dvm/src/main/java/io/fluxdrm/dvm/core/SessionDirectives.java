package io.fluxdrm.dvm.core;

import io.fluxdrm.pmix.AllocInheritance;
import io.fluxdrm.pmix.AllocTime;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixException;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.request.AllocationRequest;
import io.fluxdrm.pmix.request.NodeList;
import java.util.ArrayList;
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
    Builder b = new Builder();
    // PRRTE §7.4.4.2.8 "Completion": a request carrying COMPLETE is refused, whatever else it holds
    for (Info i : directives) {
      if (i.key().equals(PmixKey.PMIX_SESSION_COMPLETE) && i.boolValue()) {
        throw Refused.notSupported(
            "PMIX_SESSION_COMPLETE: sent by the DVM to its scheduler, never accepted");
      }
    }
    List<Op> ops = new ArrayList<>();
    for (Info i : directives) {
      switch (i.key()) {
        case PmixKey.PMIX_SESSION_INSTANTIATE -> flag(i, Op.INSTANTIATE, ops);
        case PmixKey.PMIX_SESSION_PAUSE -> flag(i, Op.PAUSE, ops);
        case PmixKey.PMIX_SESSION_RESUME -> flag(i, Op.RESUME, ops);
        case PmixKey.PMIX_SESSION_TERMINATE -> flag(i, Op.TERMINATE, ops);
        case PmixKey.PMIX_SESSION_PREEMPT -> flag(i, Op.PREEMPT, ops);
        case PmixKey.PMIX_SESSION_RESTORE -> flag(i, Op.RESTORE, ops);
        case PmixKey.PMIX_SESSION_EXTEND -> flag(i, Op.EXTEND, ops);
        case PmixKey.PMIX_SESSION_SIGNAL -> {
          int n = (Integer) i.value();
          // PRRTE §7.4.4.2 Operations: an integer > 0; Signal.MAX bounds it (decision D356)
          if (n <= 0 || n > Signal.MAX) {
            throw Refused.badParam(
                "PMIX_SESSION_SIGNAL " + n + ": out of range (expected: 1 to " + Signal.MAX + ")");
          }
          b.signal = n;
          ops.add(Op.SIGNAL);
        }
        case PmixKey.PMIX_SESSION_SEP -> b.sep = Optional.of(i.boolValue());
        case PmixKey.PMIX_SESSION_CTRL_ID -> b.ctrlId = Optional.of(i.stringValue());
        case PmixKey.PMIX_REQUESTOR -> b.requestor = Optional.of((PmixProc) i.value());
        case PmixKey.PMIX_SESSION_RESOURCES -> {
          if (!i.isInfoArray()) {
            throw Refused.badParam(
                "PMIX_SESSION_RESOURCES: a data array of apps (expected: a data array of info)");
          }
          for (Info r : i.infosValue()) {
            resource(r, b, true);
          }
        }
        case PmixKey.PMIX_SESSION_JOB -> {
          if (!i.isInfoArray()) {
            throw Refused.badParam(
                "PMIX_SESSION_JOB: a data array of apps (expected: a data array of info)");
          }
          b.hasJob = true;
          b.jobInfos.addAll(i.infosValue());
        }
        case PmixKey.PMIX_SESSION_APP -> {
          if (!i.isAppArray()) {
            throw Refused.badParam(
                "PMIX_SESSION_APP: "
                    + (((List<?>) i.value()).isEmpty() ? "an empty array" : "a data array of info")
                    + " (expected: a data array of at least one app)");
          }
          b.apps.addAll(i.appsValue());
        }
        case PmixKey.PMIX_SESSION_PROVISION_NODES, PmixKey.PMIX_SESSION_PROVISION_IMAGE ->
            // PRRTE §7.4.4.4 "What PRRTE does not support": provisioning
            throw Refused.notSupported(
                PmixKey.nameOf(i.key()).orElseThrow()
                    + ": provisioning is not supported (the DVM runs on the nodes as it finds them)");
        case PmixKey.PMIX_USERID -> b.userId = Optional.of(i.longValue());
        case PmixKey.PMIX_GRPID -> {
          // PRRTE §7.4.4.4 "Credentials": accepted and ignored
        }
        case PmixKey.PMIX_NSPACE -> b.nspaces.add(i.stringValue());
        case PmixKey.PMIX_TIMEOUT -> {
          int t = (Integer) i.value();
          if (t < 0) {
            throw Refused.badParam("PMIX_TIMEOUT " + t + ": negative (expected: >= 0 seconds)");
          }
          b.timeout = Optional.of((long) t);
        }
        default -> resource(i, b, false);
      }
    }
    if (ops.size() > 1) {
      throw Refused.badParam(
          "directives "
              + ops
              + ": more than one operation (expected: one of INSTANTIATE, PAUSE, RESUME, TERMINATE,"
              + " PREEMPT, RESTORE, SIGNAL, EXTEND)");
    }
    Op op = ops.isEmpty() ? Op.NONE : ops.get(0);
    if (op == Op.NONE && b.sep.isEmpty()) {
      throw Refused.badParam("directives: no operation and no PMIX_SESSION_SEP (nothing asked)");
    }
    if (b.hasJob && b.apps.isEmpty()) {
      throw Refused.badParam("PMIX_SESSION_JOB without PMIX_SESSION_APP (expected: apps with it)");
    }
    if ((b.hasJob || !b.apps.isEmpty()) && op != Op.INSTANTIATE) {
      throw Refused.badParam(
          "PMIX_SESSION_APP/PMIX_SESSION_JOB with "
              + op
              + " (expected: only with PMIX_SESSION_INSTANTIATE)");
    }
    Optional<Long> limit = b.allocTime.isPresent() ? b.allocTime : b.timeout;
    return new SessionDirectives(
        op,
        b.sep,
        b.ctrlId,
        b.requestor,
        List.copyOf(b.nodes),
        b.allocId,
        b.reqId,
        limit,
        b.inheritance,
        b.userId,
        List.copyOf(b.apps),
        List.copyOf(b.jobInfos),
        List.copyOf(b.nspaces),
        b.signal);
  }

  /** Whether anything was asked of an EXTEND: nodes, a time limit or an inheritance. */
  boolean extendsSomething() {
    return !nodes.isEmpty() || timeLimitSeconds.isPresent() || inheritance.isPresent();
  }

  private static void flag(Info i, Op op, List<Op> ops) {
    if (i.boolValue()) {
      ops.add(op);
    }
  }

  /**
   * A resource key, inside {@code PMIX_SESSION_RESOURCES} or given directly on the request (PRRTE
   * §7.4.4.2.1 "Instantiation"); an unrecognised key is ignored (PRRTE §7.4.4 Session Control: not
   * an error).
   */
  private static void resource(Info r, Builder b, boolean inResources) {
    if (AllocationRequest.isResourceSelection(r.key())) {
      // PRRTE §7.4.4.4 "What PRRTE does not support": resource selection (counts, memory, queues)
      throw Refused.notSupported(
          PmixKey.nameOf(r.key()).orElseThrow()
              + (inResources ? " in PMIX_SESSION_RESOURCES" : "")
              + ": resource selection is not supported (expected: nodes named by"
              + " PMIX_ALLOC_NODE_LIST)");
    }
    switch (r.key()) {
      case PmixKey.PMIX_ALLOC_NODE_LIST -> b.nodes.addAll(Requests.nodes(r));
      case PmixKey.PMIX_ALLOC_ID -> {
        if (r.stringValue().isEmpty()) {
          throw Refused.badParam("PMIX_ALLOC_ID \"\": empty (expected: an allocation id)");
        }
        b.allocId = Optional.of(r.stringValue());
      }
      case PmixKey.PMIX_ALLOC_REQ_ID -> b.reqId = Optional.of(r.stringValue());
      case PmixKey.PMIX_ALLOC_TIME -> {
        try {
          b.allocTime = Optional.of(AllocTime.parseSeconds(r.stringValue()));
        } catch (PmixException e) {
          throw Refused.badParam(e.getMessage());
        }
      }
      case PmixKey.PMIX_ALLOC_INHERITANCE ->
          b.inheritance = Optional.of((AllocInheritance) r.value());
      default -> {
        // PRRTE §7.4.4 Session Control: an unrecognized directive is not an error
      }
    }
  }

  private static final class Builder {
    Optional<Boolean> sep = Optional.empty();
    Optional<String> ctrlId = Optional.empty();
    Optional<PmixProc> requestor = Optional.empty();
    final List<NodeList.Entry> nodes = new ArrayList<>();
    Optional<String> allocId = Optional.empty();
    Optional<String> reqId = Optional.empty();
    Optional<Long> allocTime = Optional.empty();
    Optional<Long> timeout = Optional.empty();
    Optional<AllocInheritance> inheritance = Optional.empty();
    Optional<Long> userId = Optional.empty();
    final List<App> apps = new ArrayList<>();
    final List<Info> jobInfos = new ArrayList<>();
    boolean hasJob;
    final List<String> nspaces = new ArrayList<>();
    int signal;
  }
}
