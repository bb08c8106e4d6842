package io.fluxdrm.bridge.dvm;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.bridge.translate.PmixAnswer;
import io.fluxdrm.dvm.core.DvmConfig;
import io.fluxdrm.dvm.service.DvmService;
import io.fluxdrm.dvm.wire.DvmWire;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.rpc.reactor.ManualEventLoop;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The bridge as the DVM's scheduler: forwarded allocation requests go to the allocation side, and
 * each grant reaches the DVM as INSTANTIATE or EXTEND before the requester is answered.
 */
class FluxSchedulerDvmTest {
  private final ManualEventLoop loop = new ManualEventLoop();
  private final List<String> asked = new ArrayList<>();
  private DvmService dvm;
  private DvmPort tool;
  private DvmPort schedPort;
  private DvmPort selfPort;
  private FluxScheduler sched;

  /** Grants as the RFC 51 chain would (D10): node5 for a NEW, node6 for an EXTEND of "77". */
  private CompletionStage<PmixAnswer> allocate(AllocDirective d, List<Info> infos) {
    asked.add(d + " " + infos.stream().map(Info::key).toList());
    if (infos.stream().anyMatch(i -> i.key().equals(PmixKey.PMIX_ALLOC_NUM_NODES))) {
      return CompletableFuture.completedFuture(
          new PmixAnswer(PmixStatus.PMIX_ERR_OUT_OF_RESOURCE, List.of(), "denied"));
    }
    String node = d == AllocDirective.NEW ? "node5:2" : "node6:2";
    return CompletableFuture.completedFuture(
        new PmixAnswer(
            PmixStatus.PMIX_SUCCESS,
            List.of(
                Info.of(PmixKey.PMIX_ALLOC_ID, "77"), Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, node)),
            ""));
  }

  private final List<String> handedBack = new ArrayList<>();
  private final List<String> released = new ArrayList<>();

  /** Records what goes back to the allocation side. */
  private final FluxScheduler.HandBack handBack =
      new FluxScheduler.HandBack() {
        @Override
        public CompletionStage<PmixAnswer> handBack(String allocId, String nodeList) {
          handedBack.add(allocId + " " + nodeList);
          return CompletableFuture.completedFuture(
              new PmixAnswer(
                  PmixStatus.PMIX_SUCCESS,
                  List.of(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, nodeList)),
                  ""));
        }

        @Override
        public CompletionStage<Void> released(String nodeList) {
          released.add(nodeList);
          return CompletableFuture.completedFuture(null);
        }
      };

  @BeforeEach
  void start() {
    List<DvmConfig.NodeSpec> nodes = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      nodes.add(new DvmConfig.NodeSpec("node" + i, 2));
    }
    dvm = DvmService.builder(DvmConfig.of(nodes, "dvm", 1000), loop).checked().start();
    loop.runPending();
    sched = new FluxScheduler(this::allocate, handBack, () -> schedPort, () -> selfPort);
    schedPort =
        done(
            dvm.attachScheduler(
                new Client(new PmixProc("fluxdrm-bridge", 0), 1000, 1000, Client.Kind.SCHEDULER),
                sched));
    selfPort =
        done(
            dvm.connect(
                new Client(new PmixProc("fluxdrm-bridge.self", 0), 1000, 1000, Client.Kind.TOOL),
                "node0"));
    tool =
        done(
            dvm.connect(
                new Client(new PmixProc("tool", 0), 1000, 1000, Client.Kind.TOOL), "node0"));
  }

  @AfterEach
  void invariantsHold() {
    loop.runPending();
    dvm.checkInvariants();
  }

  private <T> T done(CompletionStage<T> s) {
    loop.runPending();
    assertThat(s.toCompletableFuture()).isDone();
    T v = s.toCompletableFuture().join();
    dvm.checkInvariants();
    return v;
  }

  @Test
  void aDenial_reachesTheRequesterWithFluxsReason() {
    StatusInfos a =
        done(
            tool.allocationRequest(
                AllocDirective.NEW, List.of(Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, 5L))));
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_ERR_OUT_OF_RESOURCE);
    // the allocator's note ("denied" here, Flux's DENY note in production) under the DVM's
    // reason key, which fluxdrm alloc prints beside the status
    assertThat(DvmWire.errorText(a)).contains("denied");
  }

  /**
   * Issue 29, finding 8: a tool's session control, which the DVM passes up to its scheduler, was
   * answered a bare PMIX_ERR_NOT_SUPPORTED; the answer now says why, under the reason key that
   * {@code fluxdrm sessionctrl} prints beside the status.
   */
  @Test
  void aToolsSessionControl_refusedByTheBridge_withWhy() {
    done(
        tool.allocationRequest(
            AllocDirective.NEW, List.of(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "node5:2"))));
    StatusInfos p =
        done(tool.sessionControl(77, List.of(Info.of(PmixKey.PMIX_SESSION_PAUSE, true))));
    assertThat(p.status()).isEqualTo(PmixStatus.PMIX_ERR_NOT_SUPPORTED);
    assertThat(DvmWire.errorText(p))
        .hasValueSatisfying(
            t ->
                assertThat(t)
                    .startsWith("PMIX_SESSION_PAUSE of session 77: ")
                    .contains("scheduler is the fluxdrm bridge")
                    .contains("takes no session controls from tools")
                    .contains("PMIX_ALLOC_RELEASE"));
    StatusInfos i =
        done(
            tool.sessionControl(
                43,
                List.of(
                    Info.of(PmixKey.PMIX_SESSION_INSTANTIATE, true),
                    Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "node9"))));
    assertThat(i.status()).isEqualTo(PmixStatus.PMIX_ERR_NOT_SUPPORTED);
    assertThat(DvmWire.errorText(i))
        .hasValueSatisfying(
            t -> assertThat(t).startsWith("PMIX_SESSION_INSTANTIATE of session 43"));
    assertThat(dvm.view().session(43)).isEmpty();
    assertThat(dvm.view().session(77).orElseThrow().hosts()).containsExactly("node5");
  }

  @Test
  void grantOfNew_instantiatedInTheDvmBeforeTheAnswer_extendAddsNodes_completeAcknowledged() {
    StatusInfos a =
        done(
            tool.allocationRequest(
                AllocDirective.NEW, List.of(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "node5:2"))));
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    // the forwarded request reached the allocator without PMIX_REQUESTOR
    assertThat(asked).containsExactly("NEW [" + PmixKey.PMIX_ALLOC_NODE_LIST + "]");
    assertThat(dvm.view().session(77)).isPresent();
    assertThat(dvm.view().session(77).orElseThrow().hosts()).containsExactly("node5");
    assertThat(sched.sessions()).containsExactly(77L);

    StatusInfos e =
        done(
            tool.allocationRequest(
                AllocDirective.EXTEND, List.of(Info.of(PmixKey.PMIX_ALLOC_ID, "77"))));
    assertThat(e.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(dvm.view().session(77).orElseThrow().hosts())
        .containsExactlyInAnyOrder("node5", "node6");

    StatusInfos t =
        done(schedPort.sessionControl(77, List.of(Info.of(PmixKey.PMIX_SESSION_TERMINATE, true))));
    assertThat(t.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    loop.runPending();
    assertThat(dvm.view().session(77)).isEmpty();
    assertThat(sched.completes()).hasSize(1);
    assertThat(sched.sessions()).isEmpty();
  }

  @Test
  void refusedGrant_requesterGetsTheStatus_dvmUnchanged() {
    StatusInfos a =
        done(
            tool.allocationRequest(
                AllocDirective.NEW, List.of(Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, 2L))));
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_ERR_OUT_OF_RESOURCE);
    assertThat(dvm.view().sessions()).isEmpty();
    assertThat(sched.sessions()).isEmpty();
  }

  /** D376: the DVM refuses the INSTANTIATE (node5 is busy there): the grant goes back to Flux. */
  @Test
  void grantTheDvmRefuses_isHandedBack_requesterGetsTheDvmsStatus() {
    StatusInfos busy =
        done(
            schedPort.sessionControl(
                9,
                List.of(
                    Info.of(PmixKey.PMIX_SESSION_INSTANTIATE, true),
                    Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "node5:2"))));
    assertThat(busy.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);

    StatusInfos a =
        done(
            tool.allocationRequest(
                AllocDirective.NEW, List.of(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "node5:2"))));
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_ERR_RESOURCE_BUSY);
    assertThat(handedBack).containsExactly("77 node5:2");
    assertThat(dvm.view().session(77)).isEmpty();
    assertThat(sched.sessions()).isEmpty();
    assertThat(dvm.view().session(9).orElseThrow().hosts()).containsExactly("node5");
  }

  @Test
  void grantTheDvmAccepts_nothingHandedBack() {
    StatusInfos a =
        done(
            tool.allocationRequest(
                AllocDirective.NEW, List.of(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "node5:2"))));
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(handedBack).isEmpty();
  }

  /**
   * A RELEASE of a session the bridge instantiated: TERMINATE in the DVM; on the DVM's COMPLETE the
   * session's node, still in the DVM's pool with its daemon up, is shrunk out, and it goes back to
   * Flux only once its daemon has left (docs/scenarios.md B10, D450).
   */
  @Test
  void releaseOfASession_terminatedInTheDvm_nodesBackOnceTheirDaemonsLeft() {
    StatusInfos a =
        done(
            tool.allocationRequest(
                AllocDirective.NEW, List.of(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "node5:2"))));
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(released).isEmpty();

    StatusInfos r =
        done(
            tool.allocationRequest(
                AllocDirective.RELEASE, List.of(Info.of(PmixKey.PMIX_ALLOC_ID, "77"))));
    assertThat(r.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    loop.runPending();
    assertThat(dvm.view().session(77)).isEmpty();
    assertThat(sched.completes()).hasSize(1);
    assertThat(released).containsExactly("node5:2");
    // handed back with no daemon of the DVM left on it
    assertThat(dvm.view().node("node5")).isEmpty();
    assertThat(sched.departing()).isEmpty();
    assertThat(sched.sessions()).isEmpty();
    assertThat(handedBack).isEmpty();
  }

  /** D377: the DVM is gone; the nodes of every session the bridge instantiated go back to Flux. */
  @Test
  void dvmLost_sessionsNodesHandedBack() {
    done(
        tool.allocationRequest(
            AllocDirective.NEW, List.of(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "node5:2"))));
    done(
        tool.allocationRequest(
            AllocDirective.EXTEND, List.of(Info.of(PmixKey.PMIX_ALLOC_ID, "77"))));
    assertThat(sched.sessions()).containsExactly(77L);
    done(sched.dvmLost());
    assertThat(handedBack).containsExactly("77 node5:2,node6:2");
    assertThat(sched.sessions()).isEmpty();
  }
}
