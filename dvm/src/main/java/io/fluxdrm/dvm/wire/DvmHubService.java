package io.fluxdrm.dvm.wire;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.port.DvmConnector;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.SpawnResult;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rpc.service.ServiceRequest;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DVM's end of the hub protocol: the {@code dvm} service. Each hub client is one PMIx client of
 * the master's daemon: its {@link Client} is made from the connection (the route the hub gave it,
 * the uid the transport read, decision D16), never from the payload, and its port is obtained from
 * the {@link DvmConnector} on its first request and disconnected when the hub reports it gone.
 * {@code dvm.scheduler-attach} (instance owner only) makes the connection the scheduler's: the
 * DVM's upcalls then go to its {@code dvm-sched} service. On start the service says {@code
 * dvm-sched.hello} to a scheduler already there, so attachment works whichever side starts first;
 * when the scheduler's service goes away ({@code service.removed}, or its connection), it is
 * detached and may attach again.
 *
 * <p>Everything runs on the handle's loop; the connector's ports complete on it too.
 */
public final class DvmHubService {
  private static final Logger LOG = LoggerFactory.getLogger(DvmHubService.class);

  /** The namespace prefix of the tools that reach the DVM through the hub. */
  public static final String TOOL_NSPACE_PREFIX = "fluxdrm.tool.";

  /** {@code (gid_t) -1}: the hub's credentials carry no group. */
  static final long GID_UNKNOWN = 0xFFFF_FFFFL;

  private final DvmConnector connector;
  private final java.util.function.BiConsumer<Integer, List<io.fluxdrm.pmix.Info>> schedulerEvents;
  private final String host;
  private final FluxHandle handle;
  private final Map<String, CompletionStage<DvmPort>> ports = new HashMap<>();
  private final Map<String, Map<Long, ServiceRequest>> streams = new HashMap<>();
  private String schedulerSender;
  private HubSchedulerUpcalls schedulerUpcalls;

  /**
   * The service.
   *
   * @param connector the DVM
   * @param host the node whose daemon hub clients reach (the master's)
   * @param handle the DVM's connection to its hub (instance owner)
   */
  public DvmHubService(DvmConnector connector, String host, FluxHandle handle) {
    this(connector, host, handle, (code, infos) -> {});
  }

  /**
   * The service, with where the scheduler's events go ({@code DvmService::schedulerEvent}).
   *
   * @param connector the DVM
   * @param host the node whose daemon hub clients reach (the master's)
   * @param handle the DVM's connection to its hub (instance owner)
   * @param schedulerEvents receives each {@code dvm.scheduler-event} of the attached scheduler
   */
  public DvmHubService(
      DvmConnector connector,
      String host,
      FluxHandle handle,
      java.util.function.BiConsumer<Integer, List<io.fluxdrm.pmix.Info>> schedulerEvents) {
    this.schedulerEvents = schedulerEvents;
    this.connector = connector;
    this.host = host;
    this.handle = handle;
  }

  /**
   * The process name of the hub client {@code sender}.
   *
   * @param sender its route on the hub
   * @return {@code fluxdrm.tool.<sender>}, rank 0
   */
  public static PmixProc procOf(String sender) {
    String ns = TOOL_NSPACE_PREFIX + sender;
    return new PmixProc(ns.length() > PmixProc.MAX_NSLEN ? ns.substring(0, 255) : ns, 0);
  }

  /**
   * Registers the service, watches for the scheduler's service going away and greets a scheduler
   * already there.
   *
   * @return completes once the service is registered
   */
  public CompletableFuture<Void> start() {
    Service s = service();
    return handle
        .subscribe(Hub.SERVICE_REMOVED, m -> serviceRemoved(m.json()))
        .thenCompose(sub -> handle.register(s))
        .thenRun(
            () ->
                handle
                    .rpc(DvmTopics.SCHED_HELLO, Json.object(), Duration.ofSeconds(30))
                    .whenComplete(
                        (m, err) -> {
                          if (err == null) {
                            LOG.info("scheduler: greeted, waiting for it to attach");
                          } else {
                            LOG.info("scheduler: none on the hub yet (it attaches when it starts)");
                          }
                        }));
  }

  /**
   * The {@code dvm} service itself, for a caller that registers it elsewhere (a replay, which puts
   * it on a hub of its own; {@link #start} registers it on the DVM's hub).
   *
   * @return the service
   */
  public Service service() {
    return Service.builder(DvmTopics.SERVICE)
        .on("alloc", this::alloc)
        .on("session-control", this::sessionControl)
        .on("spawn", this::spawn)
        .onStreaming("event-register", this::register)
        .on("event-deregister", this::deregister)
        .on("scheduler-attach", this::attach)
        .on("scheduler-event", this::schedulerEvent)
        .onDisconnect(this::gone)
        .build();
  }

  private Client clientOf(ServiceRequest req, Client.Kind kind) {
    return new Client(
        procOf(req.sender()),
        Integer.toUnsignedLong(req.credentials().userid()),
        GID_UNKNOWN,
        kind);
  }

  private CompletionStage<DvmPort> port(ServiceRequest req) {
    return ports.computeIfAbsent(
        req.sender(), s -> connector.connect(clientOf(req, Client.Kind.TOOL), host));
  }

  /** Runs {@code call} on the sender's port and answers with what it gives, exactly once. */
  private <T> void serve(
      ServiceRequest req,
      Function<DvmPort, CompletionStage<T>> call,
      Function<T, ObjectNode> encode) {
    port(req)
        .thenCompose(call)
        .whenComplete(
            (v, err) -> {
              if (err == null) {
                req.respond(encode.apply(v));
              } else {
                Throwable c = unwrap(err);
                LOG.warn("{}: {}", req.topic(), c.getMessage());
                req.fail(
                    c instanceof RpcException r ? r.errnum() : Errno.EIO,
                    req.topic() + ": " + c.getMessage());
              }
            });
  }

  private static Throwable unwrap(Throwable t) {
    return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
  }

  private void alloc(ServiceRequest req) {
    DvmWire.AllocRequest r;
    try {
      r = DvmWire.readAllocRequest(req.topic(), req.json());
    } catch (DvmWire.BadInfos e) {
      req.respond(DvmWire.statusInfos(e.answer()));
      return;
    }
    if (r.directive().isEmpty()) {
      req.respond(
          DvmWire.statusInfos(
              DvmWire.error(
                  PmixStatus.PMIX_ERR_BAD_PARAM,
                  req.topic()
                      + ": /directive: "
                      + r.code()
                      + " is not a PMIx allocation directive (expected: 1 to 6)")));
      return;
    }
    serve(req, p -> p.allocationRequest(r.directive().get(), r.infos()), DvmWire::statusInfos);
  }

  private void sessionControl(ServiceRequest req) {
    DvmWire.SessionControlRequest r;
    try {
      r = DvmWire.readSessionControlRequest(req.topic(), req.json());
    } catch (DvmWire.BadInfos e) {
      req.respond(DvmWire.statusInfos(e.answer()));
      return;
    }
    serve(req, p -> p.sessionControl(r.sessionId(), r.directives()), DvmWire::statusInfos);
  }

  private void spawn(ServiceRequest req) {
    DvmWire.SpawnRequest r;
    try {
      r = DvmWire.readSpawnRequest(req.topic(), req.json());
    } catch (DvmWire.BadInfos e) {
      req.respond(
          DvmWire.spawnResult(new SpawnResult(PmixStatus.PMIX_ERR_BAD_PARAM, Optional.empty())));
      return;
    }
    serve(req, p -> p.spawn(r.apps(), r.jobInfos()), DvmWire::spawnResult);
  }

  private void register(ServiceRequest req) {
    List<Integer> codes = DvmWire.readRegisterRequest(req.topic(), req.json());
    String sender = req.sender();
    port(req)
        .thenCompose(
            p ->
                p.registerEvents(
                    codes, e -> handle.loop().execute(() -> req.respond(DvmWire.event(e)))))
        .whenComplete(
            (reg, err) -> {
              if (err != null) {
                req.fail(Errno.EIO, req.topic() + ": " + unwrap(err).getMessage());
                return;
              }
              req.respond(DvmWire.registered(reg.status(), reg.ref()));
              if (reg.status() == PmixStatus.PMIX_SUCCESS) {
                streams.computeIfAbsent(sender, s -> new HashMap<>()).put(reg.ref(), req);
              } else {
                req.end();
              }
            });
  }

  private void deregister(ServiceRequest req) {
    long ref = DvmWire.readRef(req.topic(), req.json());
    String sender = req.sender();
    serve(
        req,
        p ->
            p.deregisterEvents(ref)
                .thenApply(
                    a -> {
                      Map<Long, ServiceRequest> mine = streams.get(sender);
                      ServiceRequest stream = mine == null ? null : mine.remove(ref);
                      if (stream != null) {
                        stream.end();
                      }
                      return a;
                    }),
        DvmWire::statusInfos);
  }

  private void attach(ServiceRequest req) {
    req.requireOwner("the instance owner's scheduler");
    String sender = req.sender();
    if (sender.equals(schedulerSender)) {
      req.respond(Json.object());
      return;
    }
    CompletionStage<DvmPort> old = ports.remove(sender);
    if (old != null) {
      old.thenCompose(DvmPort::disconnect);
    }
    HubSchedulerUpcalls upcalls = new HubSchedulerUpcalls(handle);
    CompletionStage<DvmPort> p =
        connector.attachScheduler(clientOf(req, Client.Kind.SCHEDULER), upcalls);
    ports.put(sender, p);
    p.whenComplete(
        (port, err) -> {
          if (err != null) {
            ports.remove(sender, p);
            Throwable c = unwrap(err);
            req.fail(
                c instanceof RpcException r ? r.errnum() : Errno.EEXIST,
                req.topic() + ": " + c.getMessage());
            return;
          }
          schedulerSender = sender;
          schedulerUpcalls = upcalls;
          LOG.info("scheduler {} attached", procOf(sender).nspace());
          req.respond(Json.object());
        });
  }

  private void schedulerEvent(ServiceRequest req) {
    if (!req.sender().equals(schedulerSender)) {
      throw new RpcException(
          Errno.EPERM, req.topic() + ": not the attached scheduler (expected: its connection)");
    }
    StatusInfos e = DvmWire.readStatusInfos(req.topic(), req.json());
    schedulerEvents.accept(e.status().code(), e.infos());
    req.respond(Json.object());
  }

  private void serviceRemoved(ObjectNode p) {
    if (DvmTopics.SCHED_SERVICE.equals(p.path("service").asText()) && schedulerSender != null) {
      LOG.info("scheduler {}: its service is gone, detached", procOf(schedulerSender).nspace());
      gone(schedulerSender);
    }
  }

  private void gone(String sender) {
    if (sender.equals(schedulerSender)) {
      schedulerSender = null;
      schedulerUpcalls.detached();
      schedulerUpcalls = null;
    }
    streams.remove(sender);
    CompletionStage<DvmPort> p = ports.remove(sender);
    if (p != null) {
      p.thenCompose(DvmPort::disconnect)
          .whenComplete((a, err) -> LOG.debug("client {} gone", procOf(sender).nspace()));
    }
  }

  /** The hub clients with a port, for tests and status. */
  public int clients() {
    return ports.size();
  }

  /** Whether a scheduler is attached through the hub. */
  public boolean schedulerAttached() {
    return schedulerSender != null;
  }
}
