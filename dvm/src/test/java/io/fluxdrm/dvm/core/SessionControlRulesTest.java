package io.fluxdrm.dvm.core;

import static io.fluxdrm.dvm.core.DvmSteps.check;
import static io.fluxdrm.dvm.core.SessionControlBasicsTest.nodes;
import static io.fluxdrm.dvm.core.SessionControlBasicsTest.on;
import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixDataType;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.testkit.StepTable;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Scenarios C16 to C35 of docs/scenarios.md (refusals, suspension bookkeeping, lifetime,
 * inheritance, entitlement, the scheduler's part, completion, separation, credentials), and PRRTE
 * §7.4.4.5 "Trying it out" sequence in simulated terms (the service's integration test runs it with
 * real processes): one step table per scenario ({@link DvmSteps}), each a test named by its id.
 */
class SessionControlRulesTest {

  static final Client TOOL = SessionControlBasicsTest.TOOL;

  /**
   * Session {@code ID} on {@code HOSTS} running one sleep of {@code NP} processes, as {@code $V}.
   */
  static String running(long id, String hosts, int np, String v) {
    return "sc tool node1 %d inst nodes=%s apps=sleep:%d | SUCCESS nspace>%s |\n"
        .formatted(id, hosts, np, v);
  }

  /** A second job spawned into session {@code ID} by its owner, as {@code $V}. */
  static String second(long id, String v) {
    return "spawn tool sleep:1 spawn_target=%d | SUCCESS nspace>%s |\n".formatted(id, v);
  }

  static StepTable.Scenario scenario(
      String id, String title, String table, DvmSteps.Named... checks) {
    return SessionControlBasicsTest.scenario(
        id,
        title,
        s -> {
          s.clients.put("sched", DvmHarness.schedulerClient());
          // a node list beside one resource selection, in PMIX_SESSION_RESOURCES
          s.named.put("nnodes", resources(Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, 2L)));
          s.named.put("ncpus", resources(Info.of(PmixKey.PMIX_ALLOC_NUM_CPUS, 8L)));
          s.named.put("memsize", resources(Info.of(PmixKey.PMIX_ALLOC_MEM_SIZE, 1024.0f)));
          s.named.put("queue", resources(Info.of(PmixKey.PMIX_ALLOC_QUEUE, "batch")));
          s.named.put("slurm", new Info("slurm.only.key", PmixDataType.PMIX_STRING, "x"));
          s.named.put(
              "binSleep",
              List.of(new App("/bin/sleep", List.of("/bin/sleep", "300"), 1, List.of())));
        },
        table,
        checks);
  }

  static Info resources(Info selection) {
    return Info.of(PmixKey.PMIX_SESSION_RESOURCES, List.of(nodes("node4"), selection));
  }

  /** The DVM's own calls to the scheduler. */
  static List<DvmDecision.ToScheduler> calls(DvmSteps s) {
    return s.h.decisions(DvmDecision.ToScheduler.class);
  }

  @TestFactory
  Stream<DynamicTest> scenarios() {
    return StepTable.tests(
        List.of(
            scenario(
                "C16",
                "resourceSelectionIsNotSupported",
                """
                sc tool node1 5 inst @nnodes  | ERR_NOT_SUPPORTED
                sc tool node1 5 inst @ncpus   | ERR_NOT_SUPPORTED
                sc tool node1 5 inst @memsize | ERR_NOT_SUPPORTED
                sc tool node1 5 inst @queue   | ERR_NOT_SUPPORTED | sessions: -
                """),
            scenario(
                "C17",
                "provisioningIsNotSupported",
                """
                sc tool node1 5 inst nodes=node4 session_provision_nodes=node4 | ERR_NOT_SUPPORTED
                sc tool node1 5 inst nodes=node4 session_provision_image=rhel9 | ERR_NOT_SUPPORTED | sessions: -
                """),
            scenario(
                "C18",
                "aRequestCarryingCompleteIsNotSupported",
                running(4242, "node3:2", 1, "a")
                    + """
                    sc tool node1 4242 complete       | ERR_NOT_SUPPORTED
                    sc tool node1 4242 pause complete | ERR_NOT_SUPPORTED | signals: -
                    """),
            scenario(
                "C19",
                "aSignalOfZeroOrBelowIsABadParam",
                running(4242, "node3:2", 1, "a")
                    + """
                    sc tool node1 4242 signal=0   | ERR_BAD_PARAM
                    sc tool node1 4242 signal=-1  | ERR_BAD_PARAM
                    sc tool node1 4242 signal=-15 | ERR_BAD_PARAM | signals: -
                    """),
            scenario(
                "C20",
                "preemptOfAJobNotInTheSessionIsNotFound",
                running(4242, "node3:2", 1, "a")
                    + """
                    spawn tool sleep:1 | answered nspace>other |
                    sc tool node1 4242 preempt nspace=job-not-here | ERR_NOT_FOUND
                    sc tool node1 4242 preempt nspace=$other       | ERR_NOT_FOUND | signals: -
                    """),
            scenario(
                "C21",
                "preemptStopsEveryJobAndKeepsItsResourcesThenRestoreContinuesThem",
                running(4242, "node3:2,node4:2", 2, "a")
                    + second(4242, "b")
                    + """
                    check hosts
                    sc tool node1 4242 preempt | SUCCESS | signals: $a SIGSTOP, $b SIGSTOP; all stopped $a; all stopped $b; check sameHosts; check resourcesKept
                    sc tool node1 4242 restore | SUCCESS | check continued
                    """,
                check(
                    "hosts",
                    s -> s.named.put("hosts", s.h.core.view().session(4242).orElseThrow().hosts())),
                check(
                    "sameHosts",
                    s ->
                        assertThat(s.h.core.view().session(4242).orElseThrow().hosts())
                            .isEqualTo(s.named.get("hosts"))),
                check(
                    "resourcesKept",
                    s ->
                        assertThat(s.h.core.view().job(s.var("a")).orElseThrow().procsPerNode())
                            .containsEntry("node3", 2)),
                check(
                    "continued",
                    s -> {
                      String a = s.var("a");
                      String b = s.var("b");
                      assertThat(s.h.signals).endsWith(a + " SIGCONT", b + " SIGCONT");
                      assertThat(s.h.allStopped(a) || s.h.allStopped(b)).isFalse();
                    })),
            scenario(
                "C22",
                "aSecondPauseSignalsNothingAndResumeContinuesOnlyStoppedJobs",
                running(4242, "node3:2,node4:2", 2, "a")
                    + second(4242, "b")
                    + """
                    sc tool node1 4242 preempt nspace=$b | | signals: $b SIGSTOP
                    sc tool node1 4242 pause  | |
                    sc tool node1 4242 pause  | | signals: $b SIGSTOP, $a SIGSTOP
                    sc tool node1 4242 resume | | check resumed
                    sc tool node1 4242 resume | | check resumed
                    """,
                check(
                    "resumed",
                    s ->
                        assertThat(s.h.signals)
                            .endsWith(s.var("a") + " SIGCONT", s.var("b") + " SIGCONT")
                            .hasSize(4))),
            scenario(
                "C23",
                "terminateOfAPausedSessionContinuesThenKillsAndReclaimsAfterTheLastJob",
                running(4242, "node3:2", 2, "a")
                    + """
                    sc tool node1 4242 pause     | |
                    sc tool node1 4242 terminate | SUCCESS | signals: $a SIGSTOP, $a SIGCONT, $a SIGTERM; live $a 0; session 4242 absent; pool has node3
                    """),
            scenario(
                "C23",
                "aJobIgnoringSigtermIsKilledAfterTheGraceAndOnlyThenReclaimed",
                running(4242, "node3:2", 1, "a")
                    + """
                    # it cannot act on SIGTERM
                    check stopAll
                    sc tool node1 4242 terminate | | session 4242 present; check graceArmed
                    fire-all | | check killed; session 4242 absent
                    """,
                check(
                    "stopAll",
                    s -> s.h.procs.get(s.var("a")).values().forEach(p -> p.stopped = true)),
                check(
                    "graceArmed",
                    s -> assertThat(s.h.timers).containsValue(DvmConfig.DEFAULT_KILL_GRACE)),
                check("killed", s -> assertThat(s.h.signals).endsWith(s.var("a") + " SIGKILL"))),
            scenario(
                "C24",
                "aTimeLimitTerminatesTheSessionAsTerminateWouldAndCompletesToTheScheduler",
                """
                attach sched
                sc sched node1 4242 inst nodes=node3:2 apps=sleep:1 alloc_time=5 | answered nspace>ns | check armed5; limit 4242 PT5S; signals: -
                fire-all | | signals: $ns SIGTERM; session 4242 absent; check completed
                """,
                check("armed5", s -> assertThat(s.h.timers).containsValue(Duration.ofSeconds(5))),
                // the scheduler instantiated it: its one call is the DVM's own SESSION_COMPLETE
                check(
                    "completed",
                    s ->
                        assertThat(calls(s))
                            .singleElement()
                            .satisfies(
                                c -> {
                                  assertThat(c.requestId()).isEmpty();
                                  assertThat(c.call())
                                      .isInstanceOf(DvmDecision.SessionControl.class);
                                  DvmDecision.SessionControl up =
                                      (DvmDecision.SessionControl) c.call();
                                  assertThat(up.sessionId()).isEqualTo(4242);
                                  assertThat(up.directives())
                                      .startsWith(
                                          Info.of(PmixKey.PMIX_SESSION_COMPLETE, true),
                                          Info.of(PmixKey.PMIX_SESSION_ID, 4242L))
                                      .anySatisfy(
                                          i -> {
                                            assertThat(i.key())
                                                .isEqualTo(PmixKey.PMIX_JOB_INFO_ARRAY);
                                            assertThat(i.infosValue())
                                                .contains(
                                                    Info.of(PmixKey.PMIX_NSPACE, s.var("ns")));
                                          });
                                }))),
            scenario(
                "C24",
                "pmixTimeoutArmsTheLimitTooAndAllocTimeWinsWhenBothAreGiven",
                """
                sc tool node1 4242 inst nodes=node3 timeout=7 | | timers: PT7S
                sc tool node1 4243 inst nodes=node4 timeout=7 alloc_time=1:0 | | limit 4243 PT1M
                sc tool node1 4244 inst nodes=node2 | | limit 4244 -
                """),
            scenario(
                "C11",
                "unknownKeysBesideAnOperationAreIgnored",
                running(4242, "node3:2", 1, "a")
                    + """
                    sc tool node1 4242 pause @slurm | SUCCESS | check oneSignal
                    """,
                check("oneSignal", s -> assertThat(s.h.signals).hasSize(1))),
            scenario(
                "C25",
                "extendReArmsTheTimeLimitAndZeroDisarmsIt",
                """
                sc tool node1 4242 inst nodes=node3 alloc_time=5 | |
                check first
                sc tool node1 4242 extend alloc_time=60 | SUCCESS | check cancelledFirst; timers: PT1M
                # the cancelled one, late: ignored
                check fireFirst
                sc tool node1 4242 extend alloc_time=0 | | timers: -; limit 4242 -
                """,
                check(
                    "first",
                    s ->
                        s.named.put(
                            "first", s.h.decisions(DvmDecision.ArmTimer.class).get(0).timerId())),
                check(
                    "cancelledFirst",
                    s ->
                        assertThat(s.h.decisions(DvmDecision.CancelTimer.class))
                            .extracting(DvmDecision.CancelTimer::timerId)
                            .containsExactly((Long) s.named.get("first"))),
                check(
                    "fireFirst",
                    s -> {
                      s.h.event(new DvmEvent.TimerFired((Long) s.named.get("first")));
                      assertThat(s.h.core.view().session(4242)).isPresent();
                    })),
            // Issue 29, finding 9: `sessionctrl instantiate 43` without nodes created a session on
            // no node. A session holds nodes: an INSTANTIATE naming none is a BAD_PARAM that
            // changes nothing, as a NEW naming none is (D355; decision D497). Nodes outside the
            // DVM are not refused: the DVM is extended across them (PRRTE §7.4.4.2.1
            // "Instantiation", elastic mode or not).
            scenario(
                "",
                "anInstantiateNamingNoNodesIsABadParam_nodesOutsideTheDvmExtendIt",
                """
                sc tool node1 43 inst | ERR_BAD_PARAM | check namesNoNodes; session 43 absent; unchanged
                sc tool node1 46 inst nodes=node9 | SUCCESS | session 46 hosts node9
                """,
                check(
                    "namesNoNodes",
                    s ->
                        assertThat(s.last.infos().toString())
                            .contains("without PMIX_ALLOC_NODE_LIST: names no nodes"))),
            scenario(
                "C26",
                "anExtendThatExtendsNothingIsABadParam",
                """
                sc tool node1 4242 inst nodes=node3 | |
                sc tool node1 4242 extend | ERR_BAD_PARAM | unchanged
                """),
            scenario(
                "C27",
                "extendByANewNodeWithholdsItAndGrowsTheDvm",
                """
                sc tool node1 4242 inst nodes=node3:2 | |
                sc tool node1 4242 extend nodes=node5:2 | SUCCESS | check startedNode5; session 4242 hosts node3 node5; pool lacks node5; daemon node5 UP
                """,
                check(
                    "startedNode5",
                    s ->
                        assertThat(
                                s.h.decisions(
                                    DvmDecision.StartDaemon.class, x -> x.host().equals("node5")))
                            .containsExactly(new DvmDecision.StartDaemon("node5", 2)))),
            scenario(
                "C28",
                "aMalformedAllocTimeIsABadParam",
                """
                sc tool node1 4242 inst nodes=node3 alloc_time=1::2 | ERR_BAD_PARAM reason~field 2 of 3 is empty | sessions: -
                """),
            scenario(
                "C29",
                "aToolOfAnotherUserMayNotActOnTheSession",
                running(4242, "node3:2", 1, "a")
                    + """
                    sc tool:intruder:2000 node1 4242 pause | ERR_NO_PERMISSIONS | signals: -
                    # the same user from a second command is entitled (PRRTE §7.4.4 Session Control)
                    sc tool:sessionctrl-2:1000 node2 4242 pause | SUCCESS
                    """),
            scenario(
                "C30",
                "uint32MaxActsOnEverySessionTheRequestorControls",
                "sc tool node1 4294967295 pause | ERR_NOT_FOUND\n"
                    + running(1, "node2:2", 1, "a")
                    + running(2, "node3:2", 1, "b")
                    + """
                    sc tool:someone:2000 node1 3 inst nodes=node4 apps=sleep:1 | answered nspace>c |
                    sc tool node1 4294967295 pause | SUCCESS | all stopped $a; all stopped $b; not all stopped $c; check defaultUnflagged
                    """,
                check(
                    "defaultUnflagged",
                    s -> assertThat(s.h.core.view().defaultSession().flags()).isEmpty())),
            scenario(
                "C31",
                "withASchedulerAttachedAToolsRequestIsForwardedAndItsAnswerReturnedUnchanged",
                """
                attach sched
                sc tool node2 7 pause | pending | check forwardedAndAnswered
                """,
                check(
                    "forwardedAndAnswered",
                    s -> {
                      DvmDecision.ToScheduler call = calls(s).get(0);
                      DvmDecision.SessionControl up = (DvmDecision.SessionControl) call.call();
                      assertThat(up.sessionId()).isEqualTo(7);
                      assertThat(up.requester()).isEqualTo(TOOL.proc());
                      assertThat(up.directives())
                          .containsExactly(
                              on(PmixKey.PMIX_SESSION_PAUSE),
                              Info.of(PmixKey.PMIX_REQUESTOR, TOOL.proc()));
                      StatusInfos answer =
                          new StatusInfos(
                              PmixStatus.PMIX_ERR_NO_PERMISSIONS,
                              List.of(Info.of(PmixKey.PMIX_SESSION_CTRL_ID, "from-the-scheduler")));
                      assertThat(s.schedulerAnswers(call, answer)).isEqualTo(answer);
                    })),
            scenario(
                "C32",
                "aSchedulerInstantiatedSessionCompletesOnceAfterTeardownWithEveryJobsStatus",
                """
                attach sched
                sc sched node1 4242 inst alloc_id=flux-77 nodes=node3:2,node4:2 apps=sleep:2 | answered nspace>j1 |
                spawn sched sleep:1 spawn_target=flux-77 | answered nspace>j2 |
                exit $j1 0 | | check noCall
                exit $j2 3 | | check completedOnceAfterTeardown; pool has node3 node4
                """,
                check("noCall", s -> assertThat(calls(s)).isEmpty()),
                check(
                    "completedOnceAfterTeardown",
                    s -> {
                      assertThat(calls(s)).hasSize(1);
                      DvmDecision.ToScheduler c = calls(s).get(0);
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
                                      Info.of(PmixKey.PMIX_NSPACE, s.var("j1")),
                                      Info.of(PmixKey.PMIX_JOB_TERM_STATUS, 0))),
                              Info.of(
                                  PmixKey.PMIX_JOB_INFO_ARRAY,
                                  List.of(
                                      Info.of(PmixKey.PMIX_NSPACE, s.var("j2")),
                                      Info.of(PmixKey.PMIX_JOB_TERM_STATUS, 3))));
                      // teardown first: the reclaim precedes the notice in the decisions
                      assertThat(
                              s.h.log.indexOf(
                                  s.h.decisions(DvmDecision.SessionReclaimed.class).get(0)))
                          .isLessThan(s.h.log.indexOf(c));
                    })),
            scenario(
                "C33",
                "aSessionSurvivesItsRequestorUnlessSepFalseTiesItToIt",
                running(1, "node2:2", 1, "a")
                    + """
                    sc tool node1 2 inst nodes=node3:2 apps=sleep:1 session_sep=false | answered nspace>tied | check detached
                    gone tool | | session 1 present; session 2 absent; signals: $tied SIGTERM
                    """,
                check(
                    "detached",
                    s -> {
                      DvmView v = s.h.core.view();
                      assertThat(v.session(1).orElseThrow().has(DvmView.SessionFlag.DETACHED))
                          .isTrue();
                      assertThat(v.session(2).orElseThrow().has(DvmView.SessionFlag.DETACHED))
                          .isFalse();
                    })),
            scenario(
                "C34",
                "inheritanceNoneHandsTheNodesBackOnTerminate",
                """
                sc tool node1 4242 inst nodes=node1,node3 alloc_inheritance=NONE | |
                # the master's node is never shrunk
                sc tool node1 4242 terminate | | check stoppedNode3; node node3 absent; pool has node1; check handedBack
                """,
                check(
                    "stoppedNode3",
                    s ->
                        assertThat(s.h.decisions(DvmDecision.StopDaemon.class))
                            .extracting(DvmDecision.StopDaemon::host)
                            .containsExactly("node3")),
                check(
                    "handedBack",
                    s ->
                        assertThat(
                                s.h
                                    .decisions(DvmDecision.SessionReclaimed.class)
                                    .get(0)
                                    .handedBack())
                            .isTrue())),
            scenario(
                "C35",
                "grpidIsIgnoredAndUseridIsRecordedAsTheGrantedUser",
                """
                sc tool node1 4242 inst nodes=node3 userid=4321 grpid=99 | SUCCESS | check owner
                sc tool:granted-user:4321 node1 4242 pause | SUCCESS
                """,
                check(
                    "owner",
                    s ->
                        assertThat(s.h.core.view().session(4242).orElseThrow().ownerUid())
                            .hasValue(4321))),
            scenario(
                "",
                "tryingItOut_instantiatePauseResumeSignalTerminateAsSeed000Shows",
                """
                sc tool node1 42 inst ctrlid=sessionctrl-example nodes=node1 apps=@binSleep | SUCCESS nspace>ns |
                sc tool node1 42 pause     | SUCCESS | all stopped $ns
                sc tool node1 42 resume    | SUCCESS | not all stopped $ns
                # sleep dies of SIGTERM: the session, created to run it, is reclaimed (C6), so the
                # terminate that follows in PRRTE §7.4.4's sequence finds nothing (decision D359)
                sc tool node1 42 signal=15 | SUCCESS | signals: $ns SIGSTOP, $ns SIGCONT, $ns SIGTERM; session 42 absent; pool has node1
                sc tool node1 42 terminate | ERR_NOT_FOUND
                """),
            scenario(
                "",
                "tryingItOut_terminateWhileTheAppStillRunsEndsItAndCompletesWithItsStatus",
                """
                attach sched
                sc sched node1 42 inst nodes=node1 apps=sleep:1 | answered nspace>ns |
                sc sched node1 42 pause     | |
                sc sched node1 42 terminate | | signals: $ns SIGSTOP, $ns SIGCONT, $ns SIGTERM; check completeStatus
                """,
                check(
                    "completeStatus",
                    s -> {
                      DvmDecision.SessionControl complete =
                          (DvmDecision.SessionControl) calls(s).get(0).call();
                      assertThat(complete.directives())
                          .contains(
                              Info.of(
                                  PmixKey.PMIX_JOB_INFO_ARRAY,
                                  List.of(
                                      Info.of(PmixKey.PMIX_NSPACE, s.var("ns")),
                                      Info.of(PmixKey.PMIX_JOB_TERM_STATUS, 128 + 15))));
                    }))));
  }
}
