package io.fluxdrm.dvm.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.dvm.core.DvmConfig;
import io.fluxdrm.dvm.exec.DaemonPolicy;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.SchedulerUpcalls;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.rpc.reactor.ManualEventLoop;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/**
 * An elastic DVM under a scheduler that grants as the bridge does (issue 14 scope 6): the grant is
 * instantiated on behalf of the requester before the answer, the phase-one answer still comes
 * before the second-phase event (D422), a granted RELEASE shrinks the DVM on the answer (D420), and
 * the scheduler hears of the hosts only once their daemons are gone (D421).
 */
class SchedulerElasticServiceTest {
  private final ManualEventLoop loop = new ManualEventLoop();
  private final List<String> seen = new ArrayList<>();
  private final List<List<String>> released = new ArrayList<>();
  private DvmService dvm;
  private DvmPort sched;
  private DvmPort tool;

  static final Client TOOL = new Client(new PmixProc("tool", 0), 1000, 1000, Client.Kind.TOOL);
  static final Client SCHED =
      new Client(new PmixProc("sched", 0), 1000, 1000, Client.Kind.SCHEDULER);

  /** Grants NEW as n5 (session 5, instantiated for the requester first), RELEASE as asked. */
  private final SchedulerUpcalls upcalls =
      new SchedulerUpcalls() {
        @Override
        public CompletionStage<StatusInfos> allocate(
            PmixProc requester, AllocDirective directive, List<Info> infos) {
          if (directive == AllocDirective.RELEASE) {
            return CompletableFuture.completedFuture(
                new StatusInfos(
                    PmixStatus.PMIX_SUCCESS,
                    infos.stream().filter(i -> !i.key().equals(PmixKey.PMIX_REQUESTOR)).toList()));
          }
          List<Info> grant =
              List.of(
                  Info.of(PmixKey.PMIX_ALLOC_ID, "5"),
                  Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "n5:2"),
                  Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "g"));
          return sched
              .sessionControl(
                  5,
                  List.of(
                      Info.of(PmixKey.PMIX_SESSION_INSTANTIATE, true),
                      Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "n5:2"),
                      Info.of(PmixKey.PMIX_REQUESTOR, requester),
                      Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "g")))
              .thenApply(s -> s.succeeded() ? new StatusInfos(PmixStatus.PMIX_SUCCESS, grant) : s);
        }

        @Override
        public CompletionStage<StatusInfos> sessionControl(
            PmixProc requester, long sessionId, List<Info> directives) {
          return CompletableFuture.completedFuture(StatusInfos.of(PmixStatus.PMIX_SUCCESS));
        }

        @Override
        public CompletionStage<Void> nodesReleased(List<String> hosts) {
          released.add(hosts);
          seen.add("released " + hosts);
          return CompletableFuture.completedFuture(null);
        }
      };

  private void start(DaemonPolicy daemons) {
    dvm =
        DvmService.builder(
                DvmConfig.of(List.of(new DvmConfig.NodeSpec("n1", 2)), "dvm", 1000)
                    .withElastic(true),
                loop)
            .daemons(daemons)
            .checkedEveryStep()
            .start();
    loop.runPending();
    sched = done(dvm.attachScheduler(SCHED, upcalls));
    tool = done(dvm.connect(TOOL, "n1"));
    done(
        tool.registerEvents(
            List.of(PmixStatus.PMIX_DVM_IS_READY.code(), PmixStatus.PMIX_ERR_DVM_MOD.code()),
            e -> seen.add("event " + PmixStatus.byCode(e.status()).orElseThrow())));
  }

  private <T> T done(CompletionStage<T> s) {
    loop.runPending();
    CompletableFuture<T> f = s.toCompletableFuture();
    assertThat(f).as("answered").isDone();
    dvm.checkInvariants();
    assertThat(dvm.invariantViolations()).isZero();
    return f.join();
  }

  private StatusInfos ask(AllocDirective d, Info... infos) {
    return done(
        tool.allocationRequest(d, List.of(infos))
            .thenApply(
                a -> {
                  seen.add("answer " + a.status());
                  return a;
                }));
  }

  @Test
  void grantInstantiatedBeforeTheAnswer_zeroLatency_answerStillBeforeIsReady() {
    start(DaemonPolicy.immediate());
    ask(
        AllocDirective.NEW,
        Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, 1L),
        Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "g"));
    assertThat(seen).containsExactly("answer PMIX_SUCCESS", "event PMIX_DVM_IS_READY");
    assertThat(dvm.view().session(5).orElseThrow().hosts()).containsExactly("n5");
  }

  @Test
  void grantedReleaseByNodeList_shrinksOnTheAnswer_schedulerHearsAfterDeparture() {
    start(DaemonPolicy.immediate().withLatency(Duration.ZERO, Duration.ofSeconds(3)));
    ask(
        AllocDirective.NEW,
        Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, 1L),
        Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "g"));
    seen.clear();
    ask(
        AllocDirective.RELEASE,
        Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "n5"),
        Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "r"));
    assertThat(seen).containsExactly("answer PMIX_SUCCESS");
    assertThat(dvm.departing()).containsExactly("n5");
    assertThat(dvm.view().node("n5")).isEmpty();
    assertThat(released).isEmpty();
    loop.advance(Duration.ofSeconds(3));
    loop.runPending();
    assertThat(dvm.departing()).isEmpty();
    assertThat(seen)
        .containsExactly("answer PMIX_SUCCESS", "event PMIX_DVM_IS_READY", "released [n5]");
  }

  @Test
  void grantedReleaseNamingNoNodeOfTheDvm_answeredNothingShrunk() {
    start(DaemonPolicy.immediate());
    StatusInfos r = ask(AllocDirective.RELEASE, Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "n9"));
    assertThat(r.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(dvm.departing()).isEmpty();
    assertThat(dvm.view().elastic().campaigns()).isEmpty();
    assertThat(seen).containsExactly("answer PMIX_SUCCESS");
  }

  @Test
  void rolledBackGrow_schedulerHearsOfTheFailedHost() {
    start(DaemonPolicy.immediate().failing(java.util.Set.of("n5")));
    ask(
        AllocDirective.NEW,
        Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, 1L),
        Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "g"));
    // the failed host may be reported before the requester's answer; the event never is
    assertThat(seen)
        .containsExactlyInAnyOrder(
            "answer PMIX_SUCCESS", "event PMIX_ERR_DVM_MOD", "released [n5]");
    assertThat(seen.indexOf("answer PMIX_SUCCESS"))
        .isLessThan(seen.indexOf("event PMIX_ERR_DVM_MOD"));
    assertThat(dvm.view().node("n5")).isEmpty();
  }
}
