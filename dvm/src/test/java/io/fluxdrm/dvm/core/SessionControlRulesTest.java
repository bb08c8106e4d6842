package io.fluxdrm.dvm.core;

import static io.fluxdrm.dvm.core.DvmHarness.info;
import static io.fluxdrm.dvm.core.DvmHarness.sleep;
import static io.fluxdrm.dvm.core.DvmHarness.tool;
import static io.fluxdrm.dvm.core.SessionControlBasicsTest.apps;
import static io.fluxdrm.dvm.core.SessionControlBasicsTest.nodes;
import static io.fluxdrm.dvm.core.SessionControlBasicsTest.on;
import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.pmix.AllocInheritance;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.testkit.InvariantsExtension;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Scenarios C16 to C35 of docs/scenarios.md (refusals, suspension bookkeeping, lifetime,
 * inheritance, entitlement, the scheduler's part, completion, separation, credentials), and PRRTE
 * §7.4.4.5 "Trying it out" sequence in simulated terms (the service's integration test runs it with
 * real processes).
 */
class SessionControlRulesTest {
  @RegisterExtension final InvariantsExtension inv = new InvariantsExtension();

  final DvmHarness h = new DvmHarness(DvmHarness.fourNodes(), inv);
  final Client tool = tool("sessionctrl", 1000);
  final Client sched = DvmHarness.schedulerClient();

  StatusInfos sc(long id, Info... d) {
    return h.sessionControl(tool, "node1", id, d).orElseThrow();
  }

  /** Session {@code id} on {@code hosts} running one sleep of {@code np} processes. */
  String running(long id, String hosts, int np) {
    StatusInfos a = sc(id, on(PmixKey.PMIX_SESSION_INSTANTIATE), nodes(hosts), apps(sleep(np)));
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    return info(a, PmixKey.PMIX_NSPACE).orElseThrow().stringValue();
  }

  /** A second job spawned into session {@code id} by its owner. */
  String second(long id) {
    StatusInfos a =
        h.spawn(tool, List.of(sleep(1)), Info.of(PmixKey.PMIX_SPAWN_TARGET, Long.toString(id)))
            .orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    return info(a, PmixKey.PMIX_NSPACE).orElseThrow().stringValue();
  }

  @Test
  void c16_resourceSelectionIsNotSupported() {
    List<Info> selections =
        List.of(
            Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, 2L),
            Info.of(PmixKey.PMIX_ALLOC_NUM_CPUS, 8L),
            Info.of(PmixKey.PMIX_ALLOC_MEM_SIZE, 1024.0f),
            Info.of(PmixKey.PMIX_ALLOC_QUEUE, "batch"));
    for (Info sel : selections) {
      Info res = Info.of(PmixKey.PMIX_SESSION_RESOURCES, List.of(nodes("node4"), sel));
      assertThat(sc(5, on(PmixKey.PMIX_SESSION_INSTANTIATE), res).status())
          .as(sel.key())
          .isEqualTo(PmixStatus.PMIX_ERR_NOT_SUPPORTED);
    }
    assertThat(h.core.view().sessions()).isEmpty();
  }

  @Test
  void c17_provisioningIsNotSupported() {
    assertThat(
            sc(
                    5,
                    on(PmixKey.PMIX_SESSION_INSTANTIATE),
                    nodes("node4"),
                    Info.of(PmixKey.PMIX_SESSION_PROVISION_NODES, "node4"))
                .status())
        .isEqualTo(PmixStatus.PMIX_ERR_NOT_SUPPORTED);
    assertThat(
            sc(
                    5,
                    on(PmixKey.PMIX_SESSION_INSTANTIATE),
                    nodes("node4"),
                    Info.of(PmixKey.PMIX_SESSION_PROVISION_IMAGE, "rhel9"))
                .status())
        .isEqualTo(PmixStatus.PMIX_ERR_NOT_SUPPORTED);
    assertThat(h.core.view().sessions()).isEmpty();
  }

  @Test
  void c18_aRequestCarryingCompleteIsNotSupported() {
    running(4242, "node3:2", 1);
    assertThat(sc(4242, on(PmixKey.PMIX_SESSION_COMPLETE)).status())
        .isEqualTo(PmixStatus.PMIX_ERR_NOT_SUPPORTED);
    assertThat(sc(4242, on(PmixKey.PMIX_SESSION_PAUSE), on(PmixKey.PMIX_SESSION_COMPLETE)).status())
        .isEqualTo(PmixStatus.PMIX_ERR_NOT_SUPPORTED);
    assertThat(h.signals).isEmpty();
  }

  @Test
  void c19_aSignalOfZeroOrBelowIsABadParam() {
    running(4242, "node3:2", 1);
    for (int n : new int[] {0, -1, -15}) {
      assertThat(sc(4242, Info.of(PmixKey.PMIX_SESSION_SIGNAL, n)).status())
          .as("signal %d", n)
          .isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM);
    }
    assertThat(h.signals).isEmpty();
  }

  @Test
  void c20_preemptOfAJobNotInTheSessionIsNotFound() {
    running(4242, "node3:2", 1);
    String other =
        info(h.spawn(tool, List.of(sleep(1))).orElseThrow(), PmixKey.PMIX_NSPACE)
            .orElseThrow()
            .stringValue();
    for (String ns : List.of("job-not-here", other)) {
      assertThat(
              sc(4242, on(PmixKey.PMIX_SESSION_PREEMPT), Info.of(PmixKey.PMIX_NSPACE, ns)).status())
          .as(ns)
          .isEqualTo(PmixStatus.PMIX_ERR_NOT_FOUND);
    }
    assertThat(h.signals).isEmpty();
  }

  @Test
  void c21_preemptStopsEveryJobAndKeepsItsResourcesThenRestoreContinuesThem() {
    String a = running(4242, "node3:2,node4:2", 2);
    String b = second(4242);
    DvmView.SessionView before = h.core.view().session(4242).orElseThrow();
    assertThat(sc(4242, on(PmixKey.PMIX_SESSION_PREEMPT)).status())
        .isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(h.signals).containsExactly(a + " SIGSTOP", b + " SIGSTOP");
    assertThat(h.allStopped(a) && h.allStopped(b)).isTrue();
    DvmView.SessionView after = h.core.view().session(4242).orElseThrow();
    assertThat(after.hosts()).isEqualTo(before.hosts());
    assertThat(h.core.view().job(a).orElseThrow().procsPerNode()).containsEntry("node3", 2);
    assertThat(sc(4242, on(PmixKey.PMIX_SESSION_RESTORE)).status())
        .isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(h.signals).endsWith(a + " SIGCONT", b + " SIGCONT");
    assertThat(h.allStopped(a) || h.allStopped(b)).isFalse();
  }

  @Test
  void c22_aSecondPauseSignalsNothingAndResumeContinuesOnlyStoppedJobs() {
    String a = running(4242, "node3:2,node4:2", 2);
    String b = second(4242);
    sc(4242, on(PmixKey.PMIX_SESSION_PREEMPT), Info.of(PmixKey.PMIX_NSPACE, b));
    assertThat(h.signals).containsExactly(b + " SIGSTOP");
    sc(4242, on(PmixKey.PMIX_SESSION_PAUSE));
    sc(4242, on(PmixKey.PMIX_SESSION_PAUSE));
    assertThat(h.signals).containsExactly(b + " SIGSTOP", a + " SIGSTOP");
    sc(4242, on(PmixKey.PMIX_SESSION_RESUME));
    assertThat(h.signals).endsWith(a + " SIGCONT", b + " SIGCONT").hasSize(4);
    sc(4242, on(PmixKey.PMIX_SESSION_RESUME));
    assertThat(h.signals).hasSize(4);
  }

  @Test
  void c23_terminateOfAPausedSessionContinuesThenKillsAndReclaimsAfterTheLastJob() {
    String a = running(4242, "node3:2", 2);
    sc(4242, on(PmixKey.PMIX_SESSION_PAUSE));
    assertThat(sc(4242, on(PmixKey.PMIX_SESSION_TERMINATE)).status())
        .isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(h.signals).containsExactly(a + " SIGSTOP", a + " SIGCONT", a + " SIGTERM");
    assertThat(h.liveProcs(a)).isZero();
    assertThat(h.core.view().session(4242)).isEmpty();
    assertThat(h.core.view().pool()).contains("node3");
  }

  @Test
  void c23_aJobIgnoringSigtermIsKilledAfterTheGraceAndOnlyThenReclaimed() {
    String a = running(4242, "node3:2", 1);
    h.procs.get(a).values().forEach(p -> p.stopped = true); // it cannot act on SIGTERM
    sc(4242, on(PmixKey.PMIX_SESSION_TERMINATE));
    assertThat(h.core.view().session(4242)).isPresent();
    assertThat(h.timers).containsValue(DvmConfig.DEFAULT_KILL_GRACE);
    h.fireAll();
    assertThat(h.signals).endsWith(a + " SIGKILL");
    assertThat(h.core.view().session(4242)).isEmpty();
  }

  @Test
  void c24_aTimeLimitTerminatesTheSessionAsTerminateWouldAndCompletesToTheScheduler() {
    h.event(new DvmEvent.SchedulerAttached(sched));
    StatusInfos a =
        h.sessionControl(
                sched,
                "node1",
                4242,
                on(PmixKey.PMIX_SESSION_INSTANTIATE),
                nodes("node3:2"),
                apps(sleep(1)),
                Info.of(PmixKey.PMIX_ALLOC_TIME, "5"))
            .orElseThrow();
    String ns = info(a, PmixKey.PMIX_NSPACE).orElseThrow().stringValue();
    assertThat(h.timers).containsValue(Duration.ofSeconds(5));
    assertThat(h.core.view().session(4242).orElseThrow().timeLimit())
        .contains(Duration.ofSeconds(5));
    assertThat(h.signals).isEmpty();
    h.fireAll();
    assertThat(h.signals).containsExactly(ns + " SIGTERM");
    assertThat(h.core.view().session(4242)).isEmpty();
    // the scheduler instantiated it: its one call is the DVM's own SESSION_COMPLETE of 4242
    assertThat(h.decisions(DvmDecision.ToScheduler.class))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.requestId()).isEmpty();
              assertThat(c.call()).isInstanceOf(DvmDecision.SessionControl.class);
              DvmDecision.SessionControl up = (DvmDecision.SessionControl) c.call();
              assertThat(up.sessionId()).isEqualTo(4242);
              assertThat(up.directives())
                  .startsWith(
                      Info.of(PmixKey.PMIX_SESSION_COMPLETE, true),
                      Info.of(PmixKey.PMIX_SESSION_ID, 4242L))
                  .anySatisfy(
                      i -> {
                        assertThat(i.key()).isEqualTo(PmixKey.PMIX_JOB_INFO_ARRAY);
                        assertThat(i.infosValue()).contains(Info.of(PmixKey.PMIX_NSPACE, ns));
                      });
            });
  }

  @Test
  void c24_pmixTimeoutArmsTheLimitTooAndAllocTimeWinsWhenBothAreGiven() {
    sc(
        4242,
        on(PmixKey.PMIX_SESSION_INSTANTIATE),
        nodes("node3"),
        Info.of(PmixKey.PMIX_TIMEOUT, 7));
    assertThat(h.timers.values()).containsExactly(Duration.ofSeconds(7));
    sc(
        4243,
        on(PmixKey.PMIX_SESSION_INSTANTIATE),
        nodes("node4"),
        Info.of(PmixKey.PMIX_TIMEOUT, 7),
        Info.of(PmixKey.PMIX_ALLOC_TIME, "1:0"));
    assertThat(h.core.view().session(4243).orElseThrow().timeLimit())
        .contains(Duration.ofMinutes(1));
    sc(4244, on(PmixKey.PMIX_SESSION_INSTANTIATE), nodes("node2"));
    assertThat(h.core.view().session(4244).orElseThrow().timeLimit()).isEmpty();
  }

  @Test
  void c11_unknownKeysBesideAnOperationAreIgnored() {
    running(4242, "node3:2", 1);
    StatusInfos a =
        sc(
            4242,
            on(PmixKey.PMIX_SESSION_PAUSE),
            new Info("slurm.only.key", io.fluxdrm.pmix.PmixDataType.PMIX_STRING, "x"));
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(h.signals).hasSize(1);
  }

  @Test
  void c25_extendReArmsTheTimeLimitAndZeroDisarmsIt() {
    sc(
        4242,
        on(PmixKey.PMIX_SESSION_INSTANTIATE),
        nodes("node3"),
        Info.of(PmixKey.PMIX_ALLOC_TIME, "5"));
    long first = h.decisions(DvmDecision.ArmTimer.class).get(0).timerId();
    assertThat(
            sc(4242, on(PmixKey.PMIX_SESSION_EXTEND), Info.of(PmixKey.PMIX_ALLOC_TIME, "60"))
                .status())
        .isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(h.decisions(DvmDecision.CancelTimer.class))
        .extracting(DvmDecision.CancelTimer::timerId)
        .containsExactly(first);
    assertThat(h.timers.values()).containsExactly(Duration.ofMinutes(1));
    h.event(new DvmEvent.TimerFired(first)); // the cancelled one, late: ignored
    assertThat(h.core.view().session(4242)).isPresent();
    sc(4242, on(PmixKey.PMIX_SESSION_EXTEND), Info.of(PmixKey.PMIX_ALLOC_TIME, "0"));
    assertThat(h.timers).isEmpty();
    assertThat(h.core.view().session(4242).orElseThrow().timeLimit()).isEmpty();
  }

  /**
   * Issue 29, finding 9: {@code sessionctrl instantiate 43} without nodes created a session on no
   * node. A session holds nodes: an INSTANTIATE naming none is a BAD_PARAM that changes nothing, as
   * a NEW naming none is (D355; decision D497). Nodes outside the DVM are not refused: the DVM is
   * extended across them (PRRTE §7.4.4.2.1 "Instantiation", elastic mode or not).
   */
  @Test
  void anInstantiateNamingNoNodesIsABadParam_nodesOutsideTheDvmExtendIt() {
    String before = DvmHarness.snapshot(h.core.view());
    StatusInfos a = sc(43, on(PmixKey.PMIX_SESSION_INSTANTIATE));
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM);
    assertThat(a.infos().toString()).contains("without PMIX_ALLOC_NODE_LIST: names no nodes");
    assertThat(h.core.view().session(43)).isEmpty();
    assertThat(DvmHarness.snapshot(h.core.view())).isEqualTo(before);

    assertThat(sc(46, on(PmixKey.PMIX_SESSION_INSTANTIATE), nodes("node9")).status())
        .isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(h.core.view().session(46).orElseThrow().hosts()).containsExactly("node9");
  }

  @Test
  void c26_anExtendThatExtendsNothingIsABadParam() {
    sc(4242, on(PmixKey.PMIX_SESSION_INSTANTIATE), nodes("node3"));
    String before = DvmHarness.snapshot(h.core.view());
    assertThat(sc(4242, on(PmixKey.PMIX_SESSION_EXTEND)).status())
        .isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM);
    assertThat(DvmHarness.snapshot(h.core.view())).isEqualTo(before);
  }

  @Test
  void c27_extendByANewNodeWithholdsItAndGrowsTheDvm() {
    sc(4242, on(PmixKey.PMIX_SESSION_INSTANTIATE), nodes("node3:2"));
    assertThat(sc(4242, on(PmixKey.PMIX_SESSION_EXTEND), nodes("node5:2")).status())
        .isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(h.decisions(DvmDecision.StartDaemon.class, s -> s.host().equals("node5")))
        .containsExactly(new DvmDecision.StartDaemon("node5", 2));
    assertThat(h.core.view().session(4242).orElseThrow().hosts()).containsExactly("node3", "node5");
    assertThat(h.core.view().pool()).doesNotContain("node5");
    assertThat(h.core.view().node("node5").orElseThrow().daemon()).isEqualTo(DaemonState.UP);
  }

  @Test
  void c28_aMalformedAllocTimeIsABadParam() {
    StatusInfos a =
        sc(
            4242,
            on(PmixKey.PMIX_SESSION_INSTANTIATE),
            nodes("node3"),
            Info.of(PmixKey.PMIX_ALLOC_TIME, "1::2"));
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM);
    assertThat(info(a, DvmKeys.REASON).orElseThrow().stringValue())
        .contains("field 2 of 3 is empty");
    assertThat(h.core.view().sessions()).isEmpty();
  }

  @Test
  void c29_aToolOfAnotherUserMayNotActOnTheSession() {
    running(4242, "node3:2", 1);
    StatusInfos a =
        h.sessionControl(tool("intruder", 2000), "node1", 4242, on(PmixKey.PMIX_SESSION_PAUSE))
            .orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_ERR_NO_PERMISSIONS);
    assertThat(h.signals).isEmpty();
    // the same user from a second command is entitled (PRRTE §7.4.4 Session Control)
    assertThat(
            h.sessionControl(
                    tool("sessionctrl-2", 1000), "node2", 4242, on(PmixKey.PMIX_SESSION_PAUSE))
                .orElseThrow()
                .status())
        .isEqualTo(PmixStatus.PMIX_SUCCESS);
  }

  @Test
  void c30_uint32MaxActsOnEverySessionTheRequestorControls() {
    Client other = tool("someone", 2000);
    assertThat(sc(SessionControlBasicsTest.ALL, on(PmixKey.PMIX_SESSION_PAUSE)).status())
        .isEqualTo(PmixStatus.PMIX_ERR_NOT_FOUND);
    String a = running(1, "node2:2", 1);
    String b = running(2, "node3:2", 1);
    StatusInfos o =
        h.sessionControl(
                other,
                "node1",
                3,
                on(PmixKey.PMIX_SESSION_INSTANTIATE),
                nodes("node4"),
                apps(sleep(1)))
            .orElseThrow();
    String c = info(o, PmixKey.PMIX_NSPACE).orElseThrow().stringValue();
    assertThat(sc(SessionControlBasicsTest.ALL, on(PmixKey.PMIX_SESSION_PAUSE)).status())
        .isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(h.allStopped(a) && h.allStopped(b)).isTrue();
    assertThat(h.allStopped(c)).isFalse();
    assertThat(h.core.view().defaultSession().flags()).isEmpty();
  }

  @Test
  void c31_withASchedulerAttachedAToolsRequestIsForwardedAndItsAnswerReturnedUnchanged() {
    h.event(new DvmEvent.SchedulerAttached(sched));
    assertThat(h.sessionControl(tool, "node2", 7, on(PmixKey.PMIX_SESSION_PAUSE))).isEmpty();
    DvmDecision.ToScheduler call = h.decisions(DvmDecision.ToScheduler.class).get(0);
    DvmDecision.SessionControl up = (DvmDecision.SessionControl) call.call();
    assertThat(up.sessionId()).isEqualTo(7);
    assertThat(up.requester()).isEqualTo(tool.proc());
    assertThat(up.directives())
        .containsExactly(
            on(PmixKey.PMIX_SESSION_PAUSE), Info.of(PmixKey.PMIX_REQUESTOR, tool.proc()));
    StatusInfos answer =
        new StatusInfos(
            PmixStatus.PMIX_ERR_NO_PERMISSIONS,
            List.of(Info.of(PmixKey.PMIX_SESSION_CTRL_ID, "from-the-scheduler")));
    h.event(new DvmEvent.SchedulerAnswered(call.callId(), answer));
    assertThat(h.answers.get(call.requestId().getAsLong())).isEqualTo(answer);
  }

  @Test
  void c32_aSchedulerInstantiatedSessionCompletesOnceAfterTeardownWithEveryJobsStatus() {
    h.event(new DvmEvent.SchedulerAttached(sched));
    StatusInfos a =
        h.sessionControl(
                sched,
                "node1",
                4242,
                on(PmixKey.PMIX_SESSION_INSTANTIATE),
                Info.of(PmixKey.PMIX_ALLOC_ID, "flux-77"),
                nodes("node3:2,node4:2"),
                apps(sleep(2)))
            .orElseThrow();
    String j1 = info(a, PmixKey.PMIX_NSPACE).orElseThrow().stringValue();
    StatusInfos s =
        h.spawn(sched, List.of(sleep(1)), Info.of(PmixKey.PMIX_SPAWN_TARGET, "flux-77"))
            .orElseThrow();
    String j2 = info(s, PmixKey.PMIX_NSPACE).orElseThrow().stringValue();
    h.exitAll(j1, 0);
    assertThat(h.decisions(DvmDecision.ToScheduler.class)).isEmpty();
    h.exitAll(j2, 3);
    List<DvmDecision.ToScheduler> calls = h.decisions(DvmDecision.ToScheduler.class);
    assertThat(calls).hasSize(1);
    DvmDecision.ToScheduler c = calls.get(0);
    assertThat(c.requestId()).isEmpty();
    DvmDecision.SessionControl up = (DvmDecision.SessionControl) c.call();
    assertThat(up.sessionId()).isEqualTo(4242);
    assertThat(up.directives())
        .containsExactly(
            Info.of(PmixKey.PMIX_SESSION_COMPLETE, true),
            Info.of(PmixKey.PMIX_SESSION_ID, 4242L),
            Info.of(PmixKey.PMIX_ALLOC_ID, "flux-77"),
            Info.of(
                PmixKey.PMIX_JOB_INFO_ARRAY,
                List.of(
                    Info.of(PmixKey.PMIX_NSPACE, j1), Info.of(PmixKey.PMIX_JOB_TERM_STATUS, 0))),
            Info.of(
                PmixKey.PMIX_JOB_INFO_ARRAY,
                List.of(
                    Info.of(PmixKey.PMIX_NSPACE, j2), Info.of(PmixKey.PMIX_JOB_TERM_STATUS, 3))));
    // teardown first: the reclaim precedes the notice in the decisions
    assertThat(h.log.indexOf(h.decisions(DvmDecision.SessionReclaimed.class).get(0)))
        .isLessThan(h.log.indexOf(c));
    assertThat(h.core.view().pool()).contains("node3", "node4");
  }

  @Test
  void c33_aSessionSurvivesItsRequestorUnlessSepFalseTiesItToIt() {
    running(1, "node2:2", 1);
    String tied =
        info(
                sc(
                    2,
                    on(PmixKey.PMIX_SESSION_INSTANTIATE),
                    nodes("node3:2"),
                    apps(sleep(1)),
                    Info.of(PmixKey.PMIX_SESSION_SEP, false)),
                PmixKey.PMIX_NSPACE)
            .orElseThrow()
            .stringValue();
    assertThat(h.core.view().session(1).orElseThrow().has(DvmView.SessionFlag.DETACHED)).isTrue();
    assertThat(h.core.view().session(2).orElseThrow().has(DvmView.SessionFlag.DETACHED)).isFalse();
    h.event(new DvmEvent.ClientGone(tool.proc()));
    assertThat(h.core.view().session(1)).isPresent();
    assertThat(h.core.view().session(2)).isEmpty();
    assertThat(h.signals).containsExactly(tied + " SIGTERM");
  }

  @Test
  void c34_inheritanceNoneHandsTheNodesBackOnTerminate() {
    sc(
        4242,
        on(PmixKey.PMIX_SESSION_INSTANTIATE),
        nodes("node1,node3"),
        Info.of(PmixKey.PMIX_ALLOC_INHERITANCE, AllocInheritance.NONE));
    sc(4242, on(PmixKey.PMIX_SESSION_TERMINATE));
    assertThat(h.decisions(DvmDecision.StopDaemon.class))
        .extracting(DvmDecision.StopDaemon::host)
        .containsExactly("node3");
    assertThat(h.core.view().node("node3")).isEmpty();
    assertThat(h.core.view().pool()).contains("node1"); // the master's node is never shrunk
    assertThat(h.decisions(DvmDecision.SessionReclaimed.class).get(0).handedBack()).isTrue();
  }

  @Test
  void c35_grpidIsIgnoredAndUseridIsRecordedAsTheGrantedUser() {
    StatusInfos a =
        sc(
            4242,
            on(PmixKey.PMIX_SESSION_INSTANTIATE),
            nodes("node3"),
            Info.of(PmixKey.PMIX_USERID, 4321L),
            Info.of(PmixKey.PMIX_GRPID, 99L));
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(h.core.view().session(4242).orElseThrow().ownerUid()).hasValue(4321);
    assertThat(
            h.sessionControl(
                    tool("granted-user", 4321), "node1", 4242, on(PmixKey.PMIX_SESSION_PAUSE))
                .orElseThrow()
                .status())
        .isEqualTo(PmixStatus.PMIX_SUCCESS);
  }

  @Test
  void tryingItOut_instantiatePauseResumeSignalTerminateAsSeed000Shows() {
    StatusInfos a =
        sc(
            42,
            on(PmixKey.PMIX_SESSION_INSTANTIATE),
            Info.of(PmixKey.PMIX_SESSION_CTRL_ID, "sessionctrl-example"),
            nodes("node1"),
            apps(
                new io.fluxdrm.pmix.App("/bin/sleep", List.of("/bin/sleep", "300"), 1, List.of())));
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    String ns = info(a, PmixKey.PMIX_NSPACE).orElseThrow().stringValue();
    assertThat(sc(42, on(PmixKey.PMIX_SESSION_PAUSE)).status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(h.allStopped(ns)).isTrue();
    assertThat(sc(42, on(PmixKey.PMIX_SESSION_RESUME)).status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(h.allStopped(ns)).isFalse();
    assertThat(sc(42, Info.of(PmixKey.PMIX_SESSION_SIGNAL, 15)).status())
        .isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(h.signals).containsExactly(ns + " SIGSTOP", ns + " SIGCONT", ns + " SIGTERM");
    // sleep dies of SIGTERM: the session, created to run it, is reclaimed (C6), so the
    // terminate that follows in PRRTE §7.4.4's sequence finds nothing (decision D359)
    assertThat(h.core.view().session(42)).isEmpty();
    assertThat(h.core.view().pool()).contains("node1");
    assertThat(sc(42, on(PmixKey.PMIX_SESSION_TERMINATE)).status())
        .isEqualTo(PmixStatus.PMIX_ERR_NOT_FOUND);
  }

  @Test
  void tryingItOut_terminateWhileTheAppStillRunsEndsItAndCompletesWithItsStatus() {
    h.event(new DvmEvent.SchedulerAttached(sched));
    StatusInfos a =
        h.sessionControl(
                sched,
                "node1",
                42,
                on(PmixKey.PMIX_SESSION_INSTANTIATE),
                nodes("node1"),
                apps(sleep(1)))
            .orElseThrow();
    String ns = info(a, PmixKey.PMIX_NSPACE).orElseThrow().stringValue();
    h.sessionControl(sched, "node1", 42, on(PmixKey.PMIX_SESSION_PAUSE));
    h.sessionControl(sched, "node1", 42, on(PmixKey.PMIX_SESSION_TERMINATE));
    assertThat(h.signals).containsExactly(ns + " SIGSTOP", ns + " SIGCONT", ns + " SIGTERM");
    DvmDecision.SessionControl complete =
        (DvmDecision.SessionControl) h.decisions(DvmDecision.ToScheduler.class).get(0).call();
    assertThat(complete.directives())
        .contains(
            Info.of(
                PmixKey.PMIX_JOB_INFO_ARRAY,
                List.of(
                    Info.of(PmixKey.PMIX_NSPACE, ns),
                    Info.of(PmixKey.PMIX_JOB_TERM_STATUS, 128 + 15))));
  }
}
