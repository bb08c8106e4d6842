package io.fluxdrm.dvm.wire;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.SchedulerUpcalls;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * The DVM's upcalls to a scheduler on the hub: RPCs to its {@code dvm-sched} service. A scheduler
 * that does not answer (gone, no service) gives {@code PMIX_ERR_UNREACH}, with the reason; so does
 * every call still in flight when it detaches ({@link #detached}), so that each forwarded request
 * is answered once even when its scheduler never answers it.
 */
final class HubSchedulerUpcalls implements SchedulerUpcalls {
  private final FluxHandle handle;
  private final Set<CompletableFuture<StatusInfos>> inFlight = new HashSet<>();

  HubSchedulerUpcalls(FluxHandle handle) {
    this.handle = handle;
  }

  private static StatusInfos unreachable(Throwable t) {
    Throwable c = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    return DvmWire.error(
        c instanceof RpcException r ? HubDvmPort.statusOf(r.errnum()) : PmixStatus.PMIX_ERROR,
        "scheduler: " + c.getMessage());
  }

  /** Completes every call in flight with {@code PMIX_ERR_UNREACH}; runs on the loop. */
  void detached() {
    for (CompletableFuture<StatusInfos> f : Set.copyOf(inFlight)) {
      f.complete(
          DvmWire.error(PmixStatus.PMIX_ERR_UNREACH, "scheduler: detached before it answered"));
    }
    inFlight.clear();
  }

  private CompletionStage<StatusInfos> track(CompletableFuture<StatusInfos> call) {
    CompletableFuture<StatusInfos> out = new CompletableFuture<>();
    handle.loop().execute(() -> inFlight.add(out));
    call.whenComplete(
        (a, err) ->
            handle
                .loop()
                .execute(
                    () -> {
                      inFlight.remove(out);
                      out.complete(a);
                    }));
    return out;
  }

  @Override
  public CompletionStage<StatusInfos> allocate(
      PmixProc requester, AllocDirective directive, List<Info> infos) {
    return track(
        handle
            .rpc(DvmTopics.SCHED_ALLOCATE, DvmWire.allocUpcall(requester, directive, infos))
            .thenApply(m -> DvmWire.readStatusInfos(DvmTopics.SCHED_ALLOCATE, m.json()))
            .exceptionally(HubSchedulerUpcalls::unreachable));
  }

  @Override
  public CompletionStage<StatusInfos> sessionControl(
      PmixProc requester, long sessionId, List<Info> directives) {
    return track(
        handle
            .rpc(
                DvmTopics.SCHED_SESSION_CONTROL,
                DvmWire.sessionControlUpcall(requester, sessionId, directives))
            .thenApply(m -> DvmWire.readStatusInfos(DvmTopics.SCHED_SESSION_CONTROL, m.json()))
            .exceptionally(HubSchedulerUpcalls::unreachable));
  }

  @Override
  public CompletionStage<Void> nodesReleased(List<String> hosts) {
    return handle
        .rpc(DvmTopics.SCHED_NODES_RELEASED, DvmWire.hosts(hosts))
        .handle((m, err) -> (Void) null);
  }
}
