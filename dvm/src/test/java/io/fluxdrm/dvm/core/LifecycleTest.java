package io.fluxdrm.dvm.core;

import static io.fluxdrm.dvm.core.AllocationScenariosTest.allocId;
import static io.fluxdrm.dvm.core.AllocationScenariosTest.directive;
import static io.fluxdrm.dvm.core.AllocationScenariosTest.spawnAlloc;
import static io.fluxdrm.dvm.core.DvmHarness.info;
import static io.fluxdrm.dvm.core.DvmHarness.sleep;
import static io.fluxdrm.dvm.core.DvmHarness.tool;
import static io.fluxdrm.dvm.core.SessionControlBasicsTest.apps;
import static io.fluxdrm.dvm.core.SessionControlBasicsTest.nodes;
import static io.fluxdrm.dvm.core.SessionControlBasicsTest.on;
import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.testkit.InvariantsExtension;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Paths between the scenarios: launches that fail, daemons that fail while jobs wait for them,
 * second-phase events of releases and failed grows, spawn allocations through a scheduler, jobs
 * paused before they launch, children ending with their parent.
 */
class LifecycleTest {
  @RegisterExtension final InvariantsExtension inv = new InvariantsExtension();

  final DvmHarness h = new DvmHarness(DvmHarness.fourNodes().withElastic(true), inv);
  final Client t = tool("sessionctrl", 1000);
  final Client sched = DvmHarness.schedulerClient();

  @Test
  void aFailedLaunchReclaimsTheInstantiatedSessionAndAnswersTheLaunchStatus() {
    h.failingLaunches.add("prte-dvm@1");
    StatusInfos a =
        h.sessionControl(
                t, "node1", 9, on(PmixKey.PMIX_SESSION_INSTANTIATE), nodes("node3"), apps(sleep(1)))
            .orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_ERR_JOB_FAILED_TO_LAUNCH);
    assertThat(h.core.view().session(9)).isEmpty();
    assertThat(h.core.view().pool()).contains("node3");
  }

  @Test
  void aDaemonFailingWhileAJobWaitsForItRollsTheGrowBackAndFailsTheJob() {
    // elastic mode: the failed grow is rolled back as a whole (decision D406, PRRTE's elastic-DVM
    // spec)
    h.registerAll(t);
    h.failingHosts.add("node5");
    StatusInfos a =
        h.sessionControl(
                t,
                "node1",
                9,
                on(PmixKey.PMIX_SESSION_INSTANTIATE),
                nodes("node4:1,node5:1"),
                apps(sleep(2)))
            .orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_ERR_JOB_FAILED_TO_LAUNCH);
    assertThat(h.core.view().node("node5")).isEmpty();
    assertThat(h.core.view().session(9)).isEmpty();
    assertThat(h.decisions(DvmDecision.Notify.class))
        .singleElement()
        .satisfies(
            n -> {
              assertThat(n.event().status()).isEqualTo(PmixStatus.PMIX_ERR_DVM_MOD.code());
              assertThat(n.event().infos())
                  .contains(
                      Info.of(
                          PmixKey.PMIX_JOB_TERM_STATUS,
                          PmixStatus.PMIX_ERR_PROC_FAILED_TO_START.code()));
            });
  }

  @Test
  void withoutElasticModeADaemonFailingWhileAJobWaitsLeavesTooFewSlotsAndFailsTheJob() {
    InvariantsExtension other = new InvariantsExtension();
    DvmHarness plain = new DvmHarness(DvmHarness.fourNodes(), other);
    plain.failingHosts.add("node5");
    StatusInfos a =
        plain
            .sessionControl(
                t,
                "node1",
                9,
                on(PmixKey.PMIX_SESSION_INSTANTIATE),
                nodes("node4:1,node5:1"),
                apps(sleep(2)))
            .orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_ERR_OUT_OF_RESOURCE);
    assertThat(plain.core.view().node("node5").orElseThrow().daemon())
        .isEqualTo(DaemonState.FAILED);
    assertThat(plain.core.view().session(9)).isEmpty();
  }

  @Test
  void aJobWaitsForItsDaemonsAndLaunchesWhenTheyAreUp() {
    h.autoDaemons = false;
    assertThat(
            h.sessionControl(
                t,
                "node1",
                9,
                on(PmixKey.PMIX_SESSION_INSTANTIATE),
                nodes("node5:2"),
                apps(sleep(2))))
        .isEmpty();
    assertThat(h.core.view().pendingRequests())
        .singleElement()
        .satisfies(p -> assertThat(p.waiting()).isEqualTo(DvmView.Waiting.DAEMONS));
    assertThat(h.decisions(DvmDecision.LaunchJob.class)).isEmpty();
    h.event(new DvmEvent.DaemonStarted("node5"));
    assertThat(h.answers.get(1L).status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(h.decisions(DvmDecision.LaunchJob.class)).hasSize(1);
  }

  @Test
  void aReleaseByNodeListReportsReadyOnceTheDaemonsHaveLeft() {
    long ref = h.registerAll(t);
    h.autoDaemons = false;
    StatusInfos a =
        h.alloc(
                t,
                AllocDirective.RELEASE,
                nodes("node3,node4"),
                Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "shrink"))
            .orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(h.core.view().node("node3")).isEmpty();
    h.event(new DvmEvent.DaemonLeft("node3"));
    assertThat(h.decisions(DvmDecision.Notify.class)).isEmpty();
    h.event(new DvmEvent.DaemonFailed("node4", "crashed on its way out"));
    assertThat(h.decisions(DvmDecision.Notify.class))
        .singleElement()
        .satisfies(
            n -> {
              assertThat(n.event().status()).isEqualTo(PmixStatus.PMIX_DVM_IS_READY.code());
              assertThat(n.handlers()).containsExactly(ref);
            });
  }

  @Test
  void withoutElasticModeNoSecondPhaseEventIsSent() {
    InvariantsExtension other = new InvariantsExtension();
    DvmHarness plain = new DvmHarness(DvmHarness.fourNodes().withElastic(false), other);
    plain.registerAll(t);
    plain.alloc(t, AllocDirective.NEW, nodes("node5"));
    assertThat(plain.core.view().node("node5").orElseThrow().daemon()).isEqualTo(DaemonState.UP);
    assertThat(plain.decisions(DvmDecision.Notify.class)).isEmpty();
  }

  @Test
  void aSpawnAllocationThroughTheSchedulerLaunchesIntoTheSessionItInstantiated() {
    h.event(new DvmEvent.SchedulerAttached(sched));
    h.spawn(t, List.of(sleep(1)), spawnAlloc(directive(AllocDirective.NEW), nodes("node5")));
    DvmDecision.ToScheduler call = h.decisions(DvmDecision.ToScheduler.class).get(0);
    assertThat(((DvmDecision.Allocate) call.call()).infos())
        .contains(nodes("node5"), Info.of(PmixKey.PMIX_REQUESTOR, t.proc()));
    h.sessionControl(
        sched, "node1", 77, on(PmixKey.PMIX_SESSION_INSTANTIATE), allocId("g77"), nodes("node5"));
    h.event(
        new DvmEvent.SchedulerAnswered(
            call.callId(), new StatusInfos(PmixStatus.PMIX_SUCCESS, List.of(allocId("g77")))));
    StatusInfos a = h.answers.get(call.requestId().getAsLong());
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    String ns = info(a, PmixKey.PMIX_NSPACE).orElseThrow().stringValue();
    assertThat(h.core.view().job(ns).orElseThrow().sessionId()).isEqualTo(77);
  }

  @Test
  void aGrantNamingAnAllocationTheDvmDoesNotKnowFailsTheSpawn() {
    h.event(new DvmEvent.SchedulerAttached(sched));
    h.spawn(t, List.of(sleep(1)), spawnAlloc(directive(AllocDirective.NEW), nodes("node5")));
    DvmDecision.ToScheduler call = h.decisions(DvmDecision.ToScheduler.class).get(0);
    h.event(
        new DvmEvent.SchedulerAnswered(
            call.callId(), new StatusInfos(PmixStatus.PMIX_SUCCESS, List.of(allocId("nobody")))));
    assertThat(h.answers.get(call.requestId().getAsLong()).status())
        .isEqualTo(PmixStatus.PMIX_ERR_JOB_ALLOC_FAILED);
    assertThat(h.core.view().jobs()).isEmpty();
  }

  @Test
  void aSchedulerLeavingAnswersItsOutstandingCallsUnreachable() {
    h.event(new DvmEvent.SchedulerAttached(sched));
    h.sessionControl(t, "node2", 7, on(PmixKey.PMIX_SESSION_PAUSE));
    h.spawn(t, List.of(sleep(1)), spawnAlloc(directive(AllocDirective.NEW), nodes("node5")));
    h.event(new DvmEvent.ClientGone(sched.proc()));
    assertThat(h.answers.get(1L).status()).isEqualTo(PmixStatus.PMIX_ERR_UNREACH);
    assertThat(h.answers.get(2L).status()).isEqualTo(PmixStatus.PMIX_ERR_JOB_ALLOC_FAILED);
    assertThat(h.core.view().scheduler()).isEmpty();
    // without it, the master decides again
    assertThat(
            h.sessionControl(t, "node2", 7, on(PmixKey.PMIX_SESSION_PAUSE)).orElseThrow().status())
        .isEqualTo(PmixStatus.PMIX_ERR_NOT_FOUND);
  }

  @Test
  void aJobSpawnedIntoAPausedSessionIsStoppedAsSoonAsItLaunches() {
    h.sessionControl(t, "node1", 9, on(PmixKey.PMIX_SESSION_INSTANTIATE), nodes("node3:2"));
    h.sessionControl(t, "node1", 9, on(PmixKey.PMIX_SESSION_PAUSE));
    StatusInfos a =
        h.spawn(t, List.of(sleep(1)), Info.of(PmixKey.PMIX_SPAWN_TARGET, "9")).orElseThrow();
    String ns = info(a, PmixKey.PMIX_NSPACE).orElseThrow().stringValue();
    assertThat(h.signals).containsExactly(ns + " SIGSTOP");
    assertThat(h.allStopped(ns)).isTrue();
  }

  @Test
  void childJobsEndWithTheirParentUnlessNohup() {
    StatusInfos p = h.spawn(t, List.of(sleep(1))).orElseThrow();
    String parent = info(p, PmixKey.PMIX_NSPACE).orElseThrow().stringValue();
    Client proc = DvmHarness.app(parent, 0);
    String child =
        info(h.spawn(proc, List.of(sleep(1))).orElseThrow(), PmixKey.PMIX_NSPACE)
            .orElseThrow()
            .stringValue();
    String kept =
        info(
                h.spawn(proc, List.of(sleep(1)), Info.of(PmixKey.PMIX_NOHUP, true)).orElseThrow(),
                PmixKey.PMIX_NSPACE)
            .orElseThrow()
            .stringValue();
    h.exitAll(parent, 0);
    assertThat(h.signals).containsExactly(child + " SIGTERM");
    assertThat(h.core.view().job(child)).isEmpty();
    assertThat(h.core.view().job(kept)).isPresent();
  }

  @Test
  void aJobsOwnAllocationIsAChildSessionOfItsSession() {
    StatusInfos s =
        h.sessionControl(
                t, "node1", 9, on(PmixKey.PMIX_SESSION_INSTANTIATE), nodes("node3"), apps(sleep(1)))
            .orElseThrow();
    Client proc = DvmHarness.app(info(s, PmixKey.PMIX_NSPACE).orElseThrow().stringValue(), 0);
    String id =
        info(h.alloc(proc, AllocDirective.NEW, nodes("node4")).orElseThrow(), PmixKey.PMIX_ALLOC_ID)
            .orElseThrow()
            .stringValue();
    DvmView.SessionView child = h.core.view().session(Long.parseLong(id)).orElseThrow();
    assertThat(child.parent()).hasValue(9);
    assertThat(h.core.view().session(9).orElseThrow().children()).containsExactly(child.id());
    // the job may spawn into it; a tool of another user may not
    assertThat(
            h.spawn(proc, List.of(sleep(1)), Info.of(PmixKey.PMIX_SPAWN_TARGET, id))
                .orElseThrow()
                .status())
        .isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(
            h.spawn(tool("x", 2000), List.of(sleep(1)), Info.of(PmixKey.PMIX_SPAWN_TARGET, id))
                .orElseThrow()
                .status())
        .isEqualTo(PmixStatus.PMIX_ERR_NO_PERMISSIONS);
  }
}
