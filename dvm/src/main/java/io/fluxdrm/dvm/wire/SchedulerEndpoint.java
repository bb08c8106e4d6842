package io.fluxdrm.dvm.wire;

import io.fluxdrm.pmix.port.SchedulerUpcalls;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rpc.service.ServiceRequest;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A scheduler's end of the hub protocol (PRRTE §7.4.3 Flow-of-Control: "scheduler attachment upon
 * startup of either side"): it serves the DVM's upcalls as the {@code dvm-sched} service and
 * attaches with {@code dvm.scheduler-attach}, at once when the DVM is already there, else when the
 * DVM greets it with {@code dvm-sched.hello} on its start, and again whenever a restarted DVM
 * greets it. Its own requests go through {@link #port()}: being the scheduler's connection, they
 * are directives the DVM executes (PRRTE §7.4.4.1 "Who answers a request").
 */
public final class SchedulerEndpoint implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SchedulerEndpoint.class);

  private final FluxHandle handle;
  private final SchedulerUpcalls upcalls;
  private final HubDvmPort port;
  private volatile CompletableFuture<Void> attached = new CompletableFuture<>();

  private SchedulerEndpoint(FluxHandle handle, SchedulerUpcalls upcalls, Duration timeout) {
    this.handle = handle;
    this.upcalls = upcalls;
    this.port = new HubDvmPort(handle, timeout);
  }

  /**
   * Registers {@code dvm-sched} on {@code handle} (the instance owner's connection) and attaches.
   *
   * @param handle the scheduler's connection
   * @param upcalls what answers the DVM's upcalls
   * @param timeout the timeout of the scheduler's own calls down, or null
   * @return the endpoint, once its service is registered (attachment may come later: {@link
   *     #attached()})
   */
  public static CompletableFuture<SchedulerEndpoint> start(
      FluxHandle handle, SchedulerUpcalls upcalls, Duration timeout) {
    SchedulerEndpoint e = new SchedulerEndpoint(handle, upcalls, timeout);
    Service s =
        Service.builder(DvmTopics.SCHED_SERVICE)
            .on("hello", e::hello)
            .on("allocate", e::allocate)
            .on("session-control", e::sessionControl)
            .on("nodes-released", e::nodesReleased)
            .build();
    return handle
        .register(s)
        .thenApply(
            v -> {
              e.attach();
              return e;
            });
  }

  /** Completes once attached (again after a DVM restart: read it anew). */
  public CompletableFuture<Void> attached() {
    return attached;
  }

  /** The scheduler's port to the DVM. */
  public HubDvmPort port() {
    return port;
  }

  private void attach() {
    handle
        .rpc(DvmTopics.SCHEDULER_ATTACH, Json.object(), Duration.ofSeconds(30))
        .whenComplete(
            (m, err) -> {
              if (err == null) {
                LOG.info("attached to the DVM");
                attached.complete(null);
                return;
              }
              Throwable c =
                  err instanceof CompletionException && err.getCause() != null
                      ? err.getCause()
                      : err;
              if (c instanceof RpcException r && r.errnum() == Errno.ENOSYS) {
                LOG.info("no DVM on the hub yet: attaching when it greets us");
              } else {
                LOG.warn("attach: {}", c.getMessage());
                attached.completeExceptionally(c);
              }
            });
  }

  private void hello(ServiceRequest req) {
    req.requireOwner("the DVM");
    req.respond(Json.object());
    if (attached.isDone()) {
      attached = new CompletableFuture<>();
    }
    attach();
  }

  private void answer(ServiceRequest req, Supplier<CompletionStage<StatusInfos>> call) {
    req.requireOwner("the DVM");
    call.get()
        .whenComplete(
            (a, err) -> {
              if (err != null) {
                req.respond(
                    DvmWire.statusInfos(
                        DvmWire.error(
                            io.fluxdrm.pmix.PmixStatus.PMIX_ERROR,
                            "scheduler: " + err.getMessage())));
              } else {
                req.respond(DvmWire.statusInfos(a));
              }
            });
  }

  private void allocate(ServiceRequest req) {
    DvmWire.Upcall<DvmWire.AllocRequest> u = DvmWire.readAllocUpcall(req.topic(), req.json());
    if (u.request().directive().isEmpty()) {
      throw new RpcException(
          Errno.EPROTO, req.topic() + ": /directive: " + u.request().code() + " unknown");
    }
    answer(
        req,
        () -> upcalls.allocate(u.requester(), u.request().directive().get(), u.request().infos()));
  }

  private void sessionControl(ServiceRequest req) {
    DvmWire.Upcall<DvmWire.SessionControlRequest> u =
        DvmWire.readSessionControlUpcall(req.topic(), req.json());
    answer(
        req,
        () ->
            upcalls.sessionControl(
                u.requester(), u.request().sessionId(), u.request().directives()));
  }

  private void nodesReleased(ServiceRequest req) {
    req.requireOwner("the DVM");
    java.util.List<String> hosts = HostsPayload.readHosts(req.topic(), req.json());
    upcalls.nodesReleased(hosts).whenComplete((v, err) -> req.respond(Json.object()));
  }

  /**
   * Raises an event toward the DVM ({@code PMIx_Notify_event} from the scheduler), e.g. {@code
   * PMIX_ALLOC_TIMEOUT_WARNING} with {@code PMIX_ALLOC_ID} and {@code PMIX_TIME_REMAINING}.
   *
   * @param status the event's code
   * @param infos its infos
   * @return completes once the DVM took it
   */
  public CompletableFuture<Void> notifyEvent(
      io.fluxdrm.pmix.PmixStatus status, java.util.List<io.fluxdrm.pmix.Info> infos) {
    return handle
        .rpc(DvmTopics.SCHEDULER_EVENT, DvmWire.statusInfos(new StatusInfos(status, infos)))
        .thenApply(m -> null);
  }

  /** Removes the {@code dvm-sched} service: the DVM detaches this scheduler. */
  @Override
  public void close() {
    handle.unregister(DvmTopics.SCHED_SERVICE);
  }
}
