package io.fluxdrm.dvm.service;

import io.fluxdrm.dvm.core.DvmDecision;
import io.fluxdrm.dvm.exec.Executor;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.SchedulerUpcalls;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.rpc.reactor.EventLoop;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The state the parts of a {@link DvmService} share (decision D523): the loop and the executor, the
 * requests waiting for their answers, the timers armed, the event handlers registered, the
 * scheduler attached, and what the service tracks for its own checks and events. On the loop only.
 */
final class ServiceState {
  final EventLoop loop;
  final Executor exec;
  final Map<Long, PendingAnswer> pending = new HashMap<>();
  final Map<Long, EventLoop.Cancellable> timers = new HashMap<>();
  final Map<Long, DvmPort.EventHandler> handlers = new HashMap<>();
  final Map<String, Long> jobSession = new HashMap<>();
  final Set<Long> reclaimed = new HashSet<>();
  final Map<String, Long> launchedAt = new HashMap<>();
  SchedulerUpcalls scheduler;
  ServicePort schedulerPort;
  long nextRequest = 1;
  long answered;
  boolean closed;

  /** A request waiting for its answer, and the handler to register if it succeeds. */
  record PendingAnswer(CompletableFuture<StatusInfos> answer, DvmPort.EventHandler handler) {}

  /** An allocation request not answered yet: who asked, and its PMIX_ALLOC_REQ_ID. */
  record Ask(PmixProc requester, Optional<String> reqId) {}

  /** Allocation requests in flight, by request id. */
  final Map<Long, Ask> asks = new HashMap<>();

  /** Second-phase events held until the answer of the request they follow (D422). */
  final Map<Long, List<DvmDecision.Notify>> afterAnswer = new HashMap<>();

  /** Hosts whose daemons were told to stop and have not left yet. */
  final Set<String> departing = new java.util.LinkedHashSet<>();

  /** Hosts whose daemon went during the event being handled. */
  final List<String> gone = new ArrayList<>();

  ServiceState(EventLoop loop, Executor exec) {
    this.loop = loop;
    this.exec = exec;
  }
}
