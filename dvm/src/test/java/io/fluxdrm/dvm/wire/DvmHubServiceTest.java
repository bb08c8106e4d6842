package io.fluxdrm.dvm.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.dvm.core.DvmConfig;
import io.fluxdrm.dvm.service.DvmService;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixDataType;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.SchedulerUpcalls;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.reactor.ManualEventLoop;
import io.fluxdrm.schemas.Schemas;
import io.fluxdrm.testkit.InvariantsExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The dvm service on an in-memory hub: identity from the connection, bad payloads, attachment. */
class DvmHubServiceTest {
  @RegisterExtension final InvariantsExtension invariants = new InvariantsExtension();

  private final ManualEventLoop loop = new ManualEventLoop();
  private final Hub hub = new Hub(loop);
  private DvmService dvm;
  private DvmHubService front;

  private void startDvm() {
    List<DvmConfig.NodeSpec> nodes = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      nodes.add(new DvmConfig.NodeSpec("node" + i, 2));
    }
    dvm = DvmService.builder(DvmConfig.of(nodes, "dvm", 1000), loop).checked().start();
    front =
        new DvmHubService(dvm, "node0", hub.attach(Credentials.owner(1000)), dvm::schedulerEvent);
    CompletableFuture<Void> f = front.start();
    loop.runPending();
    assertThat(f).isCompleted();
    invariants.register("service", dvm::checkInvariants);
  }

  private <T> T done(CompletionStage<T> s) {
    loop.runPending();
    assertThat(s.toCompletableFuture()).as("answered").isDone();
    T v = s.toCompletableFuture().join();
    if (dvm != null) {
      invariants.check("step");
    }
    return v;
  }

  private static List<Info> instantiate(String hosts, String... cmd) {
    List<Info> d = new ArrayList<>();
    d.add(Info.of(PmixKey.PMIX_SESSION_INSTANTIATE, true));
    d.add(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, hosts));
    if (cmd.length > 0) {
      d.add(
          Info.of(PmixKey.PMIX_SESSION_APP, List.of(new App(cmd[0], List.of(cmd), 1, List.of()))));
    }
    return d;
  }

  @Test
  void sessionControl_overTheHub_answeredWithSessionAllocIdAndNspace() {
    startDvm();
    HubDvmPort tool = new HubDvmPort(hub.attach(Credentials.owner(1000)), null);
    StatusInfos a = done(tool.sessionControl(42, instantiate("node1", "/bin/sleep", "300")));
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(a.infos())
        .extracting(Info::key)
        .contains(PmixKey.PMIX_SESSION_ID, PmixKey.PMIX_ALLOC_ID, PmixKey.PMIX_NSPACE);
    assertThat(
            done(tool.sessionControl(42, List.of(Info.of(PmixKey.PMIX_SESSION_PAUSE, true))))
                .status())
        .isEqualTo(PmixStatus.PMIX_SUCCESS);
    // the answer's payload is what the schema says
    ObjectNode wire = DvmWire.statusInfos(a);
    assertThat(Schemas.validate("dvm.session-control-response", wire)).isEmpty();
  }

  @Test
  void identity_isTheConnection_otherUidRefused() {
    startDvm();
    HubDvmPort mine = new HubDvmPort(hub.attach(Credentials.user(2000)), null);
    HubDvmPort theirs = new HubDvmPort(hub.attach(Credentials.user(3000)), null);
    assertThat(done(mine.sessionControl(8, instantiate("node2"))).status())
        .isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(
            done(theirs.sessionControl(8, List.of(Info.of(PmixKey.PMIX_SESSION_PAUSE, true))))
                .status())
        .isEqualTo(PmixStatus.PMIX_ERR_NO_PERMISSIONS);
    // a second connection of the same user is entitled (PRRTE §7.4.4 Session Control: the granted
    // user)
    HubDvmPort mineAgain = new HubDvmPort(hub.attach(Credentials.user(2000)), null);
    assertThat(
            done(mineAgain.sessionControl(
                    8, List.of(Info.of(PmixKey.PMIX_SESSION_TERMINATE, true))))
                .status())
        .isEqualTo(PmixStatus.PMIX_SUCCESS);
  }

  @Test
  void payload_requesterMember_refusedWithEproto_nothingChanges() {
    startDvm();
    FluxHandle h = hub.attach(Credentials.user(2000));
    ObjectNode p = DvmWire.sessionControlRequest(8, instantiate("node2"));
    p.set("requester", DvmWire.proc(new PmixProc("someone-else", 0)));
    CompletableFuture<?> f = h.rpc(DvmTopics.SESSION_CONTROL, p);
    loop.runPending();
    assertThat(f).isCompletedExceptionally();
    Throwable c = f.handle((v, e) -> e instanceof CompletionException ? e.getCause() : e).join();
    assertThat(c).isInstanceOf(RpcException.class);
    assertThat(((RpcException) c).errnum()).isEqualTo(Errno.EPROTO);
    assertThat(c.getMessage())
        .isEqualTo(
            "dvm.session-control: /requester: unknown member (expected: one of [directives,"
                + " session_id])");
    assertThat(dvm.view().sessions()).isEmpty();
  }

  @Test
  void payload_wrongInfoType_badParamWithLocatedText_nothingChanges() {
    startDvm();
    HubDvmPort tool = new HubDvmPort(hub.attach(Credentials.owner(1000)), null);
    done(tool.sessionControl(3, instantiate("node3")));
    FluxHandle h = hub.attach(Credentials.owner(1000));
    ObjectNode p = DvmWire.sessionControlRequest(3, List.of());
    p.putArray("directives")
        .addObject()
        .put("key", PmixKey.PMIX_SESSION_SIGNAL)
        .put("type", "PMIX_STRING")
        .put("value", "15");
    StatusInfos a =
        done(
            h.rpc(DvmTopics.SESSION_CONTROL, p)
                .thenApply(m -> DvmWire.readStatusInfos(DvmTopics.SESSION_CONTROL, m.json())));
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM);
    assertThat(DvmWire.errorText(a))
        .get()
        .asString()
        .startsWith("dvm.session-control: /directives/0/type:");
    assertThat(dvm.view().session(3)).isPresent();
  }

  @Test
  void clientGone_portDisconnected_standingSessionStays() {
    startDvm();
    FluxHandle h = hub.attach(Credentials.owner(1000));
    HubDvmPort tool = new HubDvmPort(h, null);
    done(tool.sessionControl(4, instantiate("node1")));
    assertThat(front.clients()).isEqualTo(1);
    done(tool.disconnect());
    assertThat(front.clients()).isZero();
    // detached by default (PRRTE §7.4.4.2.7 "Separation"): the session survives its requester
    assertThat(dvm.view().session(4)).isPresent();
  }

  /** Answers every upcall with SUCCESS and records it. */
  static final class Recorder implements SchedulerUpcalls {
    final List<String> calls = new ArrayList<>();

    @Override
    public CompletionStage<StatusInfos> allocate(
        PmixProc requester, AllocDirective directive, List<Info> infos) {
      calls.add("allocate " + directive);
      return CompletableFuture.completedFuture(StatusInfos.of(PmixStatus.PMIX_ERR_NOT_SUPPORTED));
    }

    @Override
    public CompletionStage<StatusInfos> sessionControl(
        PmixProc requester, long sessionId, List<Info> directives) {
      calls.add("session-control " + sessionId + " from " + requester.nspace());
      return CompletableFuture.completedFuture(
          new StatusInfos(
              PmixStatus.PMIX_SUCCESS,
              List.of(new Info("sched.said", PmixDataType.PMIX_STRING, "yes"))));
    }
  }

  @Test
  void scheduler_startsFirst_attachedWhenTheDvmGreetsIt_forwardsWithRequestor() {
    Recorder r = new Recorder();
    FluxHandle sh = hub.attach(Credentials.owner(1000));
    CompletableFuture<SchedulerEndpoint> ep = SchedulerEndpoint.start(sh, r, null);
    loop.runPending();
    assertThat(ep).isCompleted();
    assertThat(ep.join().attached()).isNotDone();
    startDvm();
    loop.runPending();
    assertThat(ep.join().attached()).isCompleted();
    assertThat(front.schedulerAttached()).isTrue();

    HubDvmPort tool = new HubDvmPort(hub.attach(Credentials.owner(1000)), null);
    StatusInfos a =
        done(tool.sessionControl(5, List.of(Info.of(PmixKey.PMIX_SESSION_PAUSE, true))));
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(a.infos()).extracting(Info::key).contains("sched.said");
    assertThat(r.calls).hasSize(1);
    assertThat(r.calls.get(0))
        .startsWith("session-control 5 from " + DvmHubService.TOOL_NSPACE_PREFIX);
  }

  @Test
  void scheduler_goesAwayAndComesBack_detachedThenReattached() {
    startDvm();
    FluxHandle sh = hub.attach(Credentials.owner(1000));
    CompletableFuture<SchedulerEndpoint> ep = SchedulerEndpoint.start(sh, new Recorder(), null);
    loop.runPending();
    assertThat(ep.join().attached()).isCompleted();
    assertThat(dvm.view().scheduler()).isPresent();

    sh.close();
    loop.runPending();
    assertThat(front.schedulerAttached()).isFalse();
    assertThat(dvm.view().scheduler()).isEmpty();

    Recorder again = new Recorder();
    CompletableFuture<SchedulerEndpoint> ep2 =
        SchedulerEndpoint.start(hub.attach(Credentials.owner(1000)), again, null);
    loop.runPending();
    assertThat(ep2.join().attached()).isCompleted();
    HubDvmPort tool = new HubDvmPort(hub.attach(Credentials.owner(1000)), null);
    done(tool.sessionControl(6, List.of(Info.of(PmixKey.PMIX_SESSION_RESUME, true))));
    assertThat(again.calls).hasSize(1);
    invariants.check("re-attached");
  }

  @Test
  void schedulerAttach_byNonOwner_eperm() {
    startDvm();
    FluxHandle h = hub.attach(Credentials.user(2000));
    CompletableFuture<?> f = h.rpc(DvmTopics.SCHEDULER_ATTACH, io.fluxdrm.rpc.Json.object());
    loop.runPending();
    Throwable c = f.handle((v, e) -> e instanceof CompletionException ? e.getCause() : e).join();
    assertThat(((RpcException) c).errnum()).isEqualTo(Errno.EPERM);
    assertThat(dvm.view().scheduler()).isEmpty();
  }

  @Test
  void events_registeredOverAStream_deregisteredEndsIt() {
    startDvm();
    HubDvmPort tool = new HubDvmPort(hub.attach(Credentials.owner(1000)), null);
    var reg = done(tool.registerEvents(List.of(), e -> {}));
    assertThat(reg.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(done(tool.deregisterEvents(reg.ref())).status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(done(tool.deregisterEvents(reg.ref())).status())
        .isNotEqualTo(PmixStatus.PMIX_SUCCESS);
  }

  @Test
  void schedulerEvent_timeoutWarning_relayedToTheAllocationsRequesterOnly_b23() {
    startDvm();
    HubDvmPort tool = new HubDvmPort(hub.attach(Credentials.owner(1000)), null);
    HubDvmPort other = new HubDvmPort(hub.attach(Credentials.owner(1000)), null);
    List<io.fluxdrm.pmix.port.Event> mine = new ArrayList<>();
    List<io.fluxdrm.pmix.port.Event> theirs = new ArrayList<>();
    done(tool.registerEvents(List.of(), mine::add));
    done(other.registerEvents(List.of(), theirs::add));
    StatusInfos a =
        done(
            tool.allocationRequest(
                AllocDirective.NEW, List.of(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "node3:2"))));
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    String allocId =
        a.infos().stream()
            .filter(i -> i.key().equals(PmixKey.PMIX_ALLOC_ID))
            .map(Info::stringValue)
            .findFirst()
            .orElseThrow();
    mine.clear();
    theirs.clear();
    CompletableFuture<SchedulerEndpoint> ep =
        SchedulerEndpoint.start(hub.attach(Credentials.owner(1000)), new Recorder(), null);
    loop.runPending();
    assertThat(ep.join().attached()).isCompleted();
    CompletableFuture<Void> sent =
        ep.join()
            .notifyEvent(
                PmixStatus.PMIX_ALLOC_TIMEOUT_WARNING,
                List.of(
                    Info.of(PmixKey.PMIX_ALLOC_ID, allocId),
                    Info.of(PmixKey.PMIX_TIME_REMAINING, 30)));
    loop.runPending();
    assertThat(sent).isCompleted();
    assertThat(mine)
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.status()).isEqualTo(PmixStatus.PMIX_ALLOC_TIMEOUT_WARNING.code());
              assertThat(e.infos()).extracting(Info::key).contains(PmixKey.PMIX_ALLOC_ID);
            });
    assertThat(theirs).isEmpty();
    invariants.check("warning relayed");
  }

  @Test
  void schedulerEvent_fromAnotherConnection_eperm() {
    startDvm();
    FluxHandle h = hub.attach(Credentials.owner(1000));
    CompletableFuture<?> f =
        h.rpc(
            DvmTopics.SCHEDULER_EVENT,
            DvmWire.statusInfos(StatusInfos.of(PmixStatus.PMIX_ALLOC_TIMEOUT_WARNING)));
    loop.runPending();
    Throwable c = f.handle((v, e) -> e instanceof CompletionException ? e.getCause() : e).join();
    assertThat(((RpcException) c).errnum()).isEqualTo(Errno.EPERM);
  }
}
