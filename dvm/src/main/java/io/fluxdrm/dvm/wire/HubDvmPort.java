package io.fluxdrm.dvm.wire;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.Registration;
import io.fluxdrm.pmix.port.SpawnResult;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.net.FluxHandle;
import io.fluxdrm.rpc.net.RpcStream;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * A {@link DvmPort} over a hub connection: each call is one RPC of {@link DvmTopics} to the {@code
 * dvm} service. The DVM knows the caller by its connection (route and uid), so the port is bound to
 * whoever opened {@code handle}. As the port demands, nothing throws: a transport failure completes
 * with a PMIx status ({@link #statusOf}) and the failure's text under {@link DvmWire#ERROR_KEY}.
 */
public final class HubDvmPort implements DvmPort {
  private final FluxHandle handle;
  private final Duration timeout;
  private final Map<Long, RpcStream> streams = new HashMap<>();

  /**
   * A port over {@code handle}.
   *
   * @param handle the connection to the DVM's hub
   * @param timeout how long one call may take (a session instantiation with apps is answered once
   *     they run), or null for ever
   */
  public HubDvmPort(FluxHandle handle, Duration timeout) {
    this.handle = handle;
    this.timeout = timeout;
  }

  /**
   * The PMIx status for a failed RPC: EPROTO (a payload the DVM refused) {@code
   * PMIX_ERR_BAD_PARAM}, EPERM {@code PMIX_ERR_NO_PERMISSIONS}, ETIMEDOUT {@code PMIX_ERR_TIMEOUT},
   * ENOSYS (no DVM on the hub) and lost connections {@code PMIX_ERR_UNREACH}, anything else {@code
   * PMIX_ERROR}.
   *
   * @param errnum the errno
   * @return the status
   */
  public static PmixStatus statusOf(int errnum) {
    return switch (errnum) {
      case Errno.EPROTO, Errno.EINVAL -> PmixStatus.PMIX_ERR_BAD_PARAM;
      case Errno.EPERM -> PmixStatus.PMIX_ERR_NO_PERMISSIONS;
      case Errno.ETIMEDOUT -> PmixStatus.PMIX_ERR_TIMEOUT;
      case Errno.ENOSYS, Errno.ECONNRESET, Errno.ECONNREFUSED, Errno.EHOSTUNREACH, Errno.ENOENT ->
          PmixStatus.PMIX_ERR_UNREACH;
      default -> PmixStatus.PMIX_ERROR;
    };
  }

  private static StatusInfos failure(Throwable t) {
    Throwable c = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    if (c instanceof RpcException r) {
      return DvmWire.error(statusOf(r.errnum()), r.getMessage());
    }
    return DvmWire.error(PmixStatus.PMIX_ERROR, String.valueOf(c.getMessage()));
  }

  private <T> CompletableFuture<T> call(
      String topic, ObjectNode payload, Function<ObjectNode, T> read) {
    return handle.rpc(topic, payload, timeout).thenApply(m -> read.apply(m.json()));
  }

  /**
   * {@code dvm.alloc}, failing with the {@link RpcException} of the transport rather than a status
   * (for commands, which print the error's text).
   */
  public CompletableFuture<StatusInfos> allocationRequestRaw(
      AllocDirective directive, List<Info> infos) {
    return call(
        DvmTopics.ALLOC,
        DvmWire.allocRequest(directive, infos),
        p -> DvmWire.readStatusInfos(DvmTopics.ALLOC, p));
  }

  /** {@code dvm.session-control}, failing with the transport's {@link RpcException}. */
  public CompletableFuture<StatusInfos> sessionControlRaw(long sessionId, List<Info> directives) {
    return call(
        DvmTopics.SESSION_CONTROL,
        DvmWire.sessionControlRequest(sessionId, directives),
        p -> DvmWire.readStatusInfos(DvmTopics.SESSION_CONTROL, p));
  }

  @Override
  public CompletionStage<StatusInfos> allocationRequest(
      AllocDirective directive, List<Info> infos) {
    return allocationRequestRaw(directive, infos).exceptionally(HubDvmPort::failure);
  }

  @Override
  public CompletionStage<StatusInfos> sessionControl(long sessionId, List<Info> directives) {
    return sessionControlRaw(sessionId, directives).exceptionally(HubDvmPort::failure);
  }

  @Override
  public CompletionStage<SpawnResult> spawn(List<App> apps, List<Info> jobInfos) {
    return call(
            DvmTopics.SPAWN,
            DvmWire.spawnRequest(apps, jobInfos),
            p -> DvmWire.readSpawnResult(DvmTopics.SPAWN, p))
        .exceptionally(t -> new SpawnResult(failure(t).status(), Optional.empty()));
  }

  @Override
  public CompletionStage<Registration> registerEvents(List<Integer> codes, EventHandler handler) {
    CompletableFuture<Registration> reg = new CompletableFuture<>();
    RpcStream[] holder = new RpcStream[1];
    RpcStream s =
        handle.stream(
            DvmTopics.EVENT_REGISTER,
            DvmWire.registerRequest(codes),
            m -> onStream(m, reg, holder[0], handler),
            null);
    holder[0] = s;
    s.done()
        .whenComplete(
            (v, err) -> {
              if (!reg.isDone()) {
                reg.complete(
                    new Registration(
                        err == null ? PmixStatus.PMIX_ERROR : failure(err).status(), 0));
              }
            });
    return reg;
  }

  private void onStream(
      Message m, CompletableFuture<Registration> reg, RpcStream s, EventHandler handler) {
    ObjectNode p = m.json();
    if (!reg.isDone()) {
      PmixStatus st =
          PmixStatus.byCode(p.path("status").asInt(PmixStatus.PMIX_ERROR.code()))
              .orElse(PmixStatus.PMIX_ERROR);
      long ref = p.path("ref").asLong(0);
      if (st == PmixStatus.PMIX_SUCCESS && s != null) {
        streams.put(ref, s);
      }
      reg.complete(new Registration(st, ref));
      return;
    }
    handler.onEvent(DvmWire.readEvent(DvmTopics.EVENT_REGISTER, p));
  }

  @Override
  public CompletionStage<StatusInfos> deregisterEvents(long ref) {
    return call(
            DvmTopics.EVENT_DEREGISTER,
            DvmWire.refRequest(ref),
            p -> DvmWire.readStatusInfos(DvmTopics.EVENT_DEREGISTER, p))
        .whenComplete((a, err) -> handle.loop().execute(() -> streams.remove(ref)))
        .exceptionally(HubDvmPort::failure);
  }

  /**
   * Closes the connection: the DVM sees the client go ({@code dvm.disconnect} from the hub), as a
   * PMIx tool's finalize.
   */
  @Override
  public CompletionStage<StatusInfos> disconnect() {
    handle.close();
    return CompletableFuture.completedFuture(StatusInfos.of(PmixStatus.PMIX_SUCCESS));
  }
}
