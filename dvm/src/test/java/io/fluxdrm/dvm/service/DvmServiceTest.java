package io.fluxdrm.dvm.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.dvm.core.DvmConfig;
import io.fluxdrm.dvm.exec.Signals;
import io.fluxdrm.dvm.exec.SimulatedExecutor;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.SchedulerUpcalls;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.rpc.reactor.ManualEventLoop;
import io.fluxdrm.testkit.InvariantsExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The service on a manual loop, simulated mode: decisions carried out, answers exactly once. */
class DvmServiceTest {
  @RegisterExtension final InvariantsExtension invariants = new InvariantsExtension();

  private final ManualEventLoop loop = new ManualEventLoop();
  private DvmService dvm;
  private DvmPort tool;

  static final Client TOOL = new Client(new PmixProc("tool-1", 0), 1000, 1000, Client.Kind.TOOL);
  static final Client OTHER = new Client(new PmixProc("tool-2", 0), 2000, 2000, Client.Kind.TOOL);
  static final Client SCHED =
      new Client(new PmixProc("sched", 0), 1000, 1000, Client.Kind.SCHEDULER);

  @BeforeEach
  void start() {
    List<DvmConfig.NodeSpec> nodes = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      nodes.add(new DvmConfig.NodeSpec("node" + i, 2));
    }
    dvm = DvmService.builder(DvmConfig.of(nodes, "dvm", 1000), loop).checked().start();
    loop.runPending();
    tool = done(dvm.connect(TOOL, "node0"));
    invariants.register("service", dvm::checkInvariants);
  }

  private <T> T done(CompletionStage<T> s) {
    loop.runPending();
    CompletableFuture<T> f = s.toCompletableFuture();
    assertThat(f).as("answered").isDone();
    T v = f.join();
    invariants.check("step");
    return v;
  }

  private SimulatedExecutor sim() {
    return (SimulatedExecutor) dvm.executor();
  }

  static List<Info> instantiate(String hosts, String... cmd) {
    List<Info> d = new ArrayList<>();
    d.add(Info.of(PmixKey.PMIX_SESSION_INSTANTIATE, true));
    d.add(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, hosts));
    if (cmd.length > 0) {
      d.add(
          Info.of(PmixKey.PMIX_SESSION_APP, List.of(new App(cmd[0], List.of(cmd), 1, List.of()))));
    }
    return d;
  }

  static List<Info> op(String key, Object value) {
    return List.of(Info.of(key, value));
  }

  static String nspace(StatusInfos a) {
    return a.infos().stream()
        .filter(i -> i.key().equals(PmixKey.PMIX_NSPACE))
        .map(Info::stringValue)
        .findFirst()
        .orElseThrow();
  }

  @Test
  void inElasticModeTheServiceFeedsLaunchAppsBackAndTheJobRuns() {
    ManualEventLoop l2 = new ManualEventLoop();
    List<DvmConfig.NodeSpec> nodes = List.of(new DvmConfig.NodeSpec("node0", 2));
    DvmService e =
        DvmService.builder(DvmConfig.of(nodes, "dvm", 1000).withElastic(true), l2)
            .checkedEveryStep()
            .start();
    l2.runPending();
    CompletableFuture<DvmPort> c = e.connect(TOOL, "node0").toCompletableFuture();
    l2.runPending();
    assertThat(c).isDone();
    DvmPort p = c.join();
    CompletableFuture<StatusInfos> a =
        p.sessionControl(42, instantiate("node5", "/bin/sleep", "300")).toCompletableFuture();
    l2.runPending();
    assertThat(a).isDone();
    assertThat(a.join().status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(((SimulatedExecutor) e.executor()).liveRanks(nspace(a.join()))).containsExactly(0L);
    assertThat(e.invariantViolations()).isZero();
  }

  @Test
  void tryingItOut_instantiatePauseResumeSignalTerminate_simulated() {
    StatusInfos a = done(tool.sessionControl(42, instantiate("node1", "/bin/sleep", "300")));
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    String ns = nspace(a);
    assertThat(sim().liveRanks(ns)).containsExactly(0L);

    assertThat(done(tool.sessionControl(42, op(PmixKey.PMIX_SESSION_PAUSE, true))).status())
        .isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(sim().isStopped(ns, 0)).isTrue();
    assertThat(done(tool.sessionControl(42, op(PmixKey.PMIX_SESSION_RESUME, true))).status())
        .isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(sim().isStopped(ns, 0)).isFalse();

    assertThat(done(tool.sessionControl(42, op(PmixKey.PMIX_SESSION_SIGNAL, 15))).status())
        .isEqualTo(PmixStatus.PMIX_SUCCESS);
    loop.runPending();
    // the app retired: the session was reclaimed (PRRTE §7.4.4.2.1 "Instantiation")
    assertThat(sim().liveJobs()).isEmpty();
    assertThat(done(tool.sessionControl(42, op(PmixKey.PMIX_SESSION_TERMINATE, true))).status())
        .isEqualTo(PmixStatus.PMIX_ERR_NOT_FOUND);
    assertThat(sim().sent())
        .extracting(SimulatedExecutor.Sent::signo)
        .containsExactly(Signals.STOP, Signals.CONT, Signals.TERM);
    assertThat(dvm.view().sessions()).isEmpty();
  }

  @Test
  void terminate_pausedSession_continuedThenKilledAndReclaimed() {
    String ns = nspace(done(tool.sessionControl(7, instantiate("node2", "/bin/sleep", "300"))));
    done(tool.sessionControl(7, op(PmixKey.PMIX_SESSION_PAUSE, true)));
    StatusInfos t = done(tool.sessionControl(7, op(PmixKey.PMIX_SESSION_TERMINATE, true)));
    assertThat(t.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    loop.runPending();
    assertThat(sim().liveRanks(ns)).isEmpty();
    assertThat(dvm.view().session(7)).isEmpty();
    assertThat(dvm.view().pool()).contains("node2");
  }

  @Test
  void timeLimit_firesOnTheLoopsTimer_sessionTerminated() {
    List<Info> d = new ArrayList<>(instantiate("node3"));
    d.add(Info.of(PmixKey.PMIX_ALLOC_TIME, "5"));
    assertThat(done(tool.sessionControl(9, d)).status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    loop.advance(Duration.ofSeconds(4));
    assertThat(dvm.view().session(9)).isPresent();
    loop.advance(Duration.ofSeconds(2));
    invariants.check("time limit");
    assertThat(dvm.view().session(9)).isEmpty();
  }

  @Test
  void otherUser_noEntitlement_noPermissions() {
    done(tool.sessionControl(11, instantiate("node1")));
    DvmPort other = done(dvm.connect(OTHER, "node0"));
    assertThat(done(other.sessionControl(11, op(PmixKey.PMIX_SESSION_PAUSE, true))).status())
        .isEqualTo(PmixStatus.PMIX_ERR_NO_PERMISSIONS);
  }

  @Test
  void connect_unknownHostOrSchedulerKind_refused() {
    CompletionStage<DvmPort> s = dvm.connect(TOOL, "nowhere");
    loop.runPending();
    assertThat(s.toCompletableFuture()).isCompletedExceptionally();
    CompletionStage<DvmPort> k = dvm.connect(SCHED, "node0");
    loop.runPending();
    assertThat(k.toCompletableFuture()).isCompletedExceptionally();
  }

  /** A scheduler that answers every upcall with SUCCESS and records them. */
  static class Recorder implements SchedulerUpcalls {
    final List<String> calls = new ArrayList<>();

    @Override
    public CompletionStage<StatusInfos> allocate(
        PmixProc requester, AllocDirective directive, List<Info> infos) {
      calls.add("allocate " + directive + " for " + requester.nspace());
      return CompletableFuture.completedFuture(StatusInfos.of(PmixStatus.PMIX_ERR_NOT_SUPPORTED));
    }

    @Override
    public CompletionStage<StatusInfos> sessionControl(
        PmixProc requester, long sessionId, List<Info> directives) {
      calls.add("session-control " + sessionId + " for " + requester.nspace());
      return CompletableFuture.completedFuture(StatusInfos.of(PmixStatus.PMIX_SUCCESS));
    }
  }

  @Test
  void scheduler_attachedForwardsDetachedAndReattached() {
    Recorder r = new Recorder();
    DvmPort s = done(dvm.attachScheduler(SCHED, r));
    assertThat(done(tool.sessionControl(5, op(PmixKey.PMIX_SESSION_PAUSE, true))).status())
        .isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(r.calls).containsExactly("session-control 5 for tool-1");

    // a second scheduler is refused while one is attached
    CompletionStage<DvmPort> second = dvm.attachScheduler(SCHED, new Recorder());
    loop.runPending();
    assertThat(second.toCompletableFuture()).isCompletedExceptionally();

    done(s.disconnect());
    assertThat(dvm.view().scheduler()).isEmpty();
    // no scheduler: the master decides (PRRTE §7.4.4.1 "Who answers a request")
    assertThat(done(tool.sessionControl(5, op(PmixKey.PMIX_SESSION_PAUSE, true))).status())
        .isEqualTo(PmixStatus.PMIX_ERR_NOT_FOUND);

    Recorder again = new Recorder();
    done(dvm.attachScheduler(SCHED, again));
    done(tool.sessionControl(6, op(PmixKey.PMIX_SESSION_RESUME, true)));
    assertThat(again.calls).containsExactly("session-control 6 for tool-1");
  }

  @Test
  void close_answersWaitingRequestsAndKillsProcs() {
    Recorder slow =
        new Recorder() {
          @Override
          public CompletionStage<StatusInfos> sessionControl(
              PmixProc requester, long sessionId, List<Info> directives) {
            return new CompletableFuture<>();
          }
        };
    done(dvm.attachScheduler(SCHED, slow));
    CompletionStage<StatusInfos> waiting =
        tool.sessionControl(5, op(PmixKey.PMIX_SESSION_PAUSE, true));
    loop.runPending();
    assertThat(waiting.toCompletableFuture()).isNotDone();
    dvm.close();
    assertThat(waiting.toCompletableFuture().join().status())
        .isEqualTo(PmixStatus.PMIX_ERR_UNREACH);
  }
}
