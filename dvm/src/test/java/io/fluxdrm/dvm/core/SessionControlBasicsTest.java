package io.fluxdrm.dvm.core;

import static io.fluxdrm.dvm.core.DvmHarness.info;
import static io.fluxdrm.dvm.core.DvmHarness.tool;
import static io.fluxdrm.dvm.core.DvmSteps.check;
import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixDataType;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.testkit.InvariantsExtension;
import io.fluxdrm.testkit.StepTable;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Scenarios C1 to C15 of docs/scenarios.md (session control without a scheduler, PRRTE §7.4.4
 * Session Control), against the core in a simulated world of four 2-slot nodes, node1 the master:
 * one step table per scenario ({@link DvmSteps}), each a test named by its id.
 */
class SessionControlBasicsTest {

  static final long ALL = 0xFFFF_FFFFL;

  static Info on(String key) {
    return Info.of(key, true);
  }

  static Info apps(App... apps) {
    return new Info(PmixKey.PMIX_SESSION_APP, PmixDataType.PMIX_DATA_ARRAY, List.of(apps));
  }

  static Info job(Info... infos) {
    return Info.of(PmixKey.PMIX_SESSION_JOB, List.of(infos));
  }

  static Info nodes(String list) {
    return Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, list);
  }

  static final Client TOOL = tool("sessionctrl", 1000);

  /** C1's instantiation: session 4242 on node3:2,node4:2 running sleep np 2 mapped by node. */
  static final String C1_INSTANTIATE =
      "sc tool node1 4242 inst ctrlid=sessionctrl-example nodes=node3:2,node4:2 apps=@c1 job=@mapby";

  /** C1 done: its job bound to {@code $a}. */
  static final String C1 = C1_INSTANTIATE + " | answered nspace>a |\n";

  static StepTable.Scenario scenario(
      String id, String title, String table, DvmSteps.Named... checks) {
    return scenario(id, title, s -> {}, table, checks);
  }

  /**
   * A scenario on four 2-slot nodes, the client {@code tool} and this class's named values known,
   * then {@code more} of the caller's set up.
   */
  static StepTable.Scenario scenario(
      String id, String title, DvmSteps.Check more, String table, DvmSteps.Named... checks) {
    return DvmSteps.scenario(
        id,
        title,
        DvmHarness::fourNodes,
        s -> {
          s.clients.put("tool", TOOL);
          s.named.put("c1", List.of(new App("/bin/sleep", List.of("sleep", "240"), 2, List.of())));
          s.named.put("mapby", List.of(Info.of(PmixKey.PMIX_MAPBY, "node")));
          s.named.put(
              "hostname4", List.of(new App("/bin/hostname", List.of("hostname"), 4, List.of())));
          s.named.put("unknown", new Info("prrte.some.other.rte", PmixDataType.PMIX_BOOL, true));
          more.run(s);
        },
        table,
        checks);
  }

  /**
   * C1's session in a second world, as the master sees it: the same requests sent to the master
   * directly, for comparison with a relayed one (PRRTE §7.4.4 Session Control: the master "applies
   * the same rules it would to a request that arrived directly").
   */
  static DvmHarness direct() {
    DvmHarness d = new DvmHarness(DvmHarness.fourNodes(), new InvariantsExtension());
    d.sessionControl(
        TOOL,
        "node1",
        4242,
        on(PmixKey.PMIX_SESSION_INSTANTIATE),
        Info.of(PmixKey.PMIX_SESSION_CTRL_ID, "sessionctrl-example"),
        nodes("node3:2,node4:2"),
        apps(new App("/bin/sleep", List.of("sleep", "240"), 2, List.of())),
        job(Info.of(PmixKey.PMIX_MAPBY, "node")));
    return d;
  }

  @TestFactory
  Stream<DynamicTest> scenarios() {
    return StepTable.tests(
        List.of(
            scenario(
                "C1",
                "instantiateWithAppsAnswersOnlyAfterLaunchWithSessionAllocAndNspace",
                """
                set autoLaunch false
                %s | pending | check heldForLaunch
                launched $ns | SUCCESS ctrlid=sessionctrl-example session_id=4242 alloc_id=4242 nspace=$ns
                """
                    .formatted(C1_INSTANTIATE),
                check(
                    "heldForLaunch",
                    s -> {
                      assertThat(s.h.core.view().pendingRequests())
                          .singleElement()
                          .satisfies(
                              p -> assertThat(p.waiting()).isEqualTo(DvmView.Waiting.LAUNCH));
                      DvmDecision.LaunchJob launch =
                          s.h.decisions(DvmDecision.LaunchJob.class).get(0);
                      assertThat(launch.sessionId()).isEqualTo(4242);
                      assertThat(launch.procs())
                          .extracting(DvmDecision.Placement::host)
                          .containsExactly("node3", "node4");
                      s.vars.put("ns", launch.nspace());
                    })),
            scenario(
                "C2",
                "aJobOutsideTheSessionDoesNotMapOntoItsNodes",
                C1
                    + """
                    spawn tool:prun:1000 @hostname4 mapby=node | SUCCESS nspace>j | launched $j on node1 node2 node1 node2
                    """),
            scenario(
                "C3",
                "pauseThroughANonMasterDaemonIsRelayedAndStopsTheSessionsProcessesOnEveryNode",
                C1
                    + """
                    # node2 is not the master and runs none of the session's processes: it relays
                    sc tool node2 4242 pause | SUCCESS | signals: $a SIGSTOP; all stopped $a; check onNode3And4; session 4242 paused; check sameAsDirect
                    """,
                check(
                    "onNode3And4",
                    s ->
                        assertThat(s.h.procs.get(s.var("a")).values())
                            .extracting(p -> p.host)
                            .containsExactly("node3", "node4")),
                // the same answer, decisions and state as the master gives a request that reached
                // it directly
                check(
                    "sameAsDirect",
                    s -> {
                      DvmHarness d = direct();
                      int from = d.log.size();
                      StatusInfos da =
                          d.sessionControl(TOOL, "node1", 4242, on(PmixKey.PMIX_SESSION_PAUSE))
                              .orElseThrow();
                      assertThat(s.last).isEqualTo(da);
                      assertThat(
                              s.h.log.subList(
                                  s.h.log.size() - (d.log.size() - from), s.h.log.size()))
                          .isEqualTo(d.log.subList(from, d.log.size()));
                      assertThat(DvmHarness.snapshot(s.h.core.view()))
                          .isEqualTo(DvmHarness.snapshot(d.core.view()));
                    })),
            scenario(
                "C4",
                "resumeThroughANonMasterDaemonIsRelayedAndContinuesThem",
                C1
                    + """
                    sc tool node3 4242 pause  | |
                    sc tool node3 4242 resume | SUCCESS | signals: $a SIGSTOP, $a SIGCONT; none stopped $a; job $a not stopped; check sameAsDirect
                    """,
                check(
                    "sameAsDirect",
                    s -> {
                      DvmHarness d = direct();
                      d.sessionControl(TOOL, "node1", 4242, on(PmixKey.PMIX_SESSION_PAUSE));
                      assertThat(s.last)
                          .isEqualTo(
                              d.sessionControl(TOOL, "node1", 4242, on(PmixKey.PMIX_SESSION_RESUME))
                                  .orElseThrow());
                      assertThat(DvmHarness.snapshot(s.h.core.view()))
                          .isEqualTo(DvmHarness.snapshot(d.core.view()));
                    })),
            scenario(
                "C3 C4",
                "aDaemonThatIsNotUpCannotRelayTheRequestWhichIsUnreachAndChangesNothing",
                """
                # node5 joins the DVM through a standing reservation; its daemon is still starting
                set autoDaemons false
                sc tool node1 7 inst nodes=node5:2 | | daemon node5 STARTING
                set autoDaemons true
                """
                    + C1
                    + """
                    sc tool node5 4242 pause | ERR_UNREACH | check cannotRelay node5; signals: -; unchanged
                    sc tool node9 4242 pause | ERR_UNREACH | check cannotRelay node9; signals: -; unchanged
                    # once its daemon is up, the same node relays
                    started node5
                    sc tool node5 4242 pause | SUCCESS | signals: $a SIGSTOP
                    """,
                check(
                    "cannotRelay",
                    s -> {
                      String via = s.args.get(0);
                      assertThat(info(s.last, DvmKeys.REASON).orElseThrow().stringValue())
                          .as(via)
                          .startsWith("request via " + via + ": ")
                          .contains("master node1");
                    })),
            scenario(
                "C5",
                "signal15KillsTheProcessesOnEveryNode",
                C1
                    + """
                    sc tool node1 4242 signal=15 | SUCCESS | signals: $a SIGTERM; live $a 0; job $a absent
                    """),
            scenario(
                "C6",
                "afterItsJobsEndedTheAutoCompleteSessionIsGoneAndItsNodesAreBack",
                C1
                    + """
                    sc tool node1 4242 signal=15 | |
                    sc tool node1 4242 pause     | ERR_NOT_FOUND | pool is node1 node2 node3 node4; check reclaimedNotHandedBack
                    """,
                check(
                    "reclaimedNotHandedBack",
                    s ->
                        assertThat(s.h.decisions(DvmDecision.SessionReclaimed.class))
                            .singleElement()
                            .satisfies(r -> assertThat(r.handedBack()).isFalse()))),
            scenario(
                "C7",
                "instantiateWithoutAppsIsAStandingReservationAnsweredAtOnce",
                """
                set autoDaemons true
                sc tool node1 4243 inst nodes=node4:2 | SUCCESS session_id=4243 | session 4243 hosts node4; pool lacks node4
                # it persists: a job elsewhere comes and goes, the reservation stays
                spawn tool:prun:1000 sleep:1 | answered nspace>s |
                exit $s 0 | | session 4243 present
                """),
            scenario(
                "C8",
                "terminateOfAStandingReservationReturnsItsNodeToThePool",
                """
                sc tool node1 4243 inst nodes=node4:2 | |
                sc tool node1 4243 terminate | SUCCESS !session_id | session 4243 absent; pool has node4; daemon node4 UP
                """),
            scenario(
                "C9",
                "pauseOfAnUnknownSessionIsNotFound",
                """
                sc tool node1 9999 pause | ERR_NOT_FOUND reason~9999
                """),
            scenario(
                "C10",
                "twoOperationsInOneRequestAreABadParam",
                """
                sc tool node1 1 inst nodes=node4 | |
                sc tool node1 1 pause terminate  | ERR_BAD_PARAM | unchanged
                """),
            scenario(
                "C11",
                "nothingAskedIsABadParam",
                """
                sc tool node1 1          | ERR_BAD_PARAM
                sc tool node1 1 @unknown | ERR_BAD_PARAM
                # a false operation flag asks nothing either
                sc tool node1 1 pause=false | ERR_BAD_PARAM
                """),
            scenario(
                "C12",
                "instantiateOfUint32MaxIsABadParam",
                """
                sc tool node1 %d inst nodes=node4 | ERR_BAD_PARAM | sessions: -
                """
                    .formatted(ALL)),
            scenario(
                "C13",
                "instantiateOfAnExistingSessionIsExists",
                C1
                    + """
                    sc tool node1 4242 inst nodes=node2 | ERR_EXISTS | unchanged
                    """),
            scenario(
                "C14",
                "appsWithoutANodeListAreABadParam",
                """
                sc tool node1 5 inst apps=sleep:1 | ERR_BAD_PARAM | sessions: -; launches: -
                """),
            scenario(
                "C15",
                "jobInfoWithoutAppsOrAppsOutsideAnInstantiationAreABadParam",
                """
                sc tool node1 5 inst nodes=node4 job=@mapby | ERR_BAD_PARAM
                sc tool node1 6 inst nodes=node4            | |
                sc tool node1 6 pause apps=sleep:1          | ERR_BAD_PARAM | session 5 absent; session 6 not paused
                """)));
  }
}
