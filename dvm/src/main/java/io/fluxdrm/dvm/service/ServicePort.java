package io.fluxdrm.dvm.service;

import io.fluxdrm.dvm.core.DvmEvent;
import io.fluxdrm.dvm.service.ServiceState.Ask;
import io.fluxdrm.dvm.service.ServiceState.PendingAnswer;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.Registration;
import io.fluxdrm.pmix.port.SpawnResult;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.pmix.request.AllocationAnswer;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A {@link DvmService} port bound to one client and the daemon it reached (decision D523). */
final class ServicePort implements DvmPort {
  private static final Logger LOG = LoggerFactory.getLogger(DvmService.class);

  private final ServiceState st;
  private final DvmService service;
  private final Client client;
  private final String via;
  private boolean gone;

  ServicePort(ServiceState st, DvmService service, Client client, String via) {
    this.st = st;
    this.service = service;
    this.client = client;
    this.via = via;
  }

  /** Queues a request to the core; completes with its answer (exactly one). */
  private CompletableFuture<StatusInfos> ask(
      Function<Long, DvmEvent> request, DvmPort.EventHandler handler) {
    CompletableFuture<StatusInfos> f = new CompletableFuture<>();
    st.loop.execute(
        () -> {
          if (st.closed || gone) {
            f.complete(
                StatusInfos.of(st.closed ? DvmService.SHUTDOWN : PmixStatus.PMIX_ERR_UNREACH));
            return;
          }
          long id = st.nextRequest++;
          st.pending.put(id, new PendingAnswer(f, handler));
          service.handle(request.apply(id));
        });
    return f;
  }

  @Override
  public CompletionStage<StatusInfos> allocationRequest(
      AllocDirective directive, List<Info> infos) {
    Optional<String> reqId =
        AllocationAnswer.echoOf(infos).stream().map(Info::stringValue).findFirst();
    return ask(
        id -> {
          st.asks.put(id, new Ask(client.proc(), reqId));
          return new DvmEvent.AllocationRequest(id, client, via, directive, infos);
        },
        null);
  }

  @Override
  public CompletionStage<StatusInfos> sessionControl(long sessionId, List<Info> directives) {
    return ask(id -> new DvmEvent.SessionControl(id, client, via, sessionId, directives), null);
  }

  @Override
  public CompletionStage<SpawnResult> spawn(List<App> apps, List<Info> jobInfos) {
    return ask(id -> new DvmEvent.Spawn(id, client, via, apps, jobInfos), null)
        .thenApply(
            a ->
                a.succeeded()
                    ? new SpawnResult(PmixStatus.PMIX_SUCCESS, nspaceOf(a))
                    : new SpawnResult(a.status(), Optional.empty()));
  }

  @Override
  public CompletionStage<Registration> registerEvents(List<Integer> codes, EventHandler handler) {
    long[] ref = new long[1];
    return ask(
            id -> {
              ref[0] = id;
              return new DvmEvent.RegisterEvents(id, client, via, codes);
            },
            handler)
        .thenApply(a -> new Registration(a.status(), a.succeeded() ? ref[0] : 0));
  }

  @Override
  public CompletionStage<StatusInfos> deregisterEvents(long ref) {
    return ask(id -> new DvmEvent.DeregisterEvents(id, client, via, ref), null)
        .thenApply(
            a -> {
              if (a.succeeded()) {
                st.loop.execute(() -> st.handlers.remove(ref));
              }
              return a;
            });
  }

  @Override
  public CompletionStage<StatusInfos> disconnect() {
    CompletableFuture<StatusInfos> f = new CompletableFuture<>();
    st.loop.execute(
        () -> {
          if (!gone && !st.closed) {
            gone = true;
            if (this == st.schedulerPort) {
              st.schedulerPort = null;
              st.scheduler = null;
              LOG.info("scheduler {} detached", client.proc().nspace());
              service.handle(new DvmEvent.SchedulerDetached());
            } else {
              service.handle(new DvmEvent.ClientGone(client.proc()));
            }
          }
          f.complete(StatusInfos.of(PmixStatus.PMIX_SUCCESS));
        });
    return f;
  }

  private static Optional<String> nspaceOf(StatusInfos a) {
    return a.infos().stream()
        .filter(i -> i.key().equals(PmixKey.PMIX_NSPACE))
        .map(Info::stringValue)
        .findFirst();
  }
}
