package io.fluxdrm.dvm.core;

import static io.fluxdrm.dvm.core.DvmHarness.info;
import static io.fluxdrm.dvm.core.DvmHarness.sleep;
import static io.fluxdrm.dvm.core.DvmHarness.tool;
import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixDataType;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.testkit.InvariantsExtension;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Scenarios C1 to C15 of docs/scenarios.md (session control without a scheduler, PRRTE §7.4.4
 * Session Control), against the core in a simulated world of four 2-slot nodes, node1 the master.
 */
class SessionControlBasicsTest {
  @RegisterExtension final InvariantsExtension inv = new InvariantsExtension();

  final DvmHarness h = new DvmHarness(DvmHarness.fourNodes(), inv);
  final Client tool = tool("sessionctrl", 1000);

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

  /** C1's instantiation: session 4242 on node3:2,node4:2 running sleep np 2 mapped by node. */
  StatusInfos c1() {
    return h.sessionControl(
            tool,
            "node1",
            4242,
            on(PmixKey.PMIX_SESSION_INSTANTIATE),
            Info.of(PmixKey.PMIX_SESSION_CTRL_ID, "sessionctrl-example"),
            nodes("node3:2,node4:2"),
            apps(new App("/bin/sleep", List.of("sleep", "240"), 2, List.of())),
            job(Info.of(PmixKey.PMIX_MAPBY, "node")))
        .orElseThrow();
  }

  String c1Job() {
    return h.core.view().session(4242).orElseThrow().jobs().get(0);
  }

  @Test
  void c1_instantiateWithAppsAnswersOnlyAfterLaunchWithSessionAllocAndNspace() {
    h.autoLaunch = false;
    long rid = 1;
    assertThat(
            h.sessionControl(
                tool,
                "node1",
                4242,
                on(PmixKey.PMIX_SESSION_INSTANTIATE),
                Info.of(PmixKey.PMIX_SESSION_CTRL_ID, "sessionctrl-example"),
                nodes("node3:2,node4:2"),
                apps(new App("/bin/sleep", List.of("sleep", "240"), 2, List.of())),
                job(Info.of(PmixKey.PMIX_MAPBY, "node"))))
        .isEmpty();
    assertThat(h.core.view().pendingRequests())
        .singleElement()
        .satisfies(p -> assertThat(p.waiting()).isEqualTo(DvmView.Waiting.LAUNCH));
    DvmDecision.LaunchJob launch = h.decisions(DvmDecision.LaunchJob.class).get(0);
    assertThat(launch.sessionId()).isEqualTo(4242);
    assertThat(launch.procs())
        .extracting(DvmDecision.Placement::host)
        .containsExactly("node3", "node4");

    h.event(new DvmEvent.JobLaunched(launch.nspace()));
    StatusInfos a = h.answers.get(rid);
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(info(a, PmixKey.PMIX_SESSION_CTRL_ID).orElseThrow().stringValue())
        .isEqualTo("sessionctrl-example");
    assertThat(info(a, PmixKey.PMIX_SESSION_ID).orElseThrow().longValue()).isEqualTo(4242);
    assertThat(info(a, PmixKey.PMIX_ALLOC_ID).orElseThrow().stringValue()).isEqualTo("4242");
    assertThat(info(a, PmixKey.PMIX_NSPACE).orElseThrow().stringValue()).isEqualTo(launch.nspace());
  }

  @Test
  void c2_aJobOutsideTheSessionDoesNotMapOntoItsNodes() {
    c1();
    App hostname = new App("/bin/hostname", List.of("hostname"), 4, List.of());
    StatusInfos a =
        h.spawn(tool("prun", 1000), List.of(hostname), Info.of(PmixKey.PMIX_MAPBY, "node"))
            .orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    String ns = info(a, PmixKey.PMIX_NSPACE).orElseThrow().stringValue();
    DvmDecision.LaunchJob l =
        h.decisions(DvmDecision.LaunchJob.class, x -> x.nspace().equals(ns)).get(0);
    assertThat(l.procs())
        .extracting(DvmDecision.Placement::host)
        .containsExactly("node1", "node2", "node1", "node2");
  }

  /**
   * C1's session in a second world, as the master sees it: the same requests sent to the master
   * directly, for comparison with a relayed one (PRRTE §7.4.4 Session Control: the master "applies
   * the same rules it would to a request that arrived directly").
   */
  DvmHarness direct() {
    DvmHarness d = new DvmHarness(DvmHarness.fourNodes(), new InvariantsExtension());
    d.sessionControl(
        tool,
        "node1",
        4242,
        on(PmixKey.PMIX_SESSION_INSTANTIATE),
        Info.of(PmixKey.PMIX_SESSION_CTRL_ID, "sessionctrl-example"),
        nodes("node3:2,node4:2"),
        apps(new App("/bin/sleep", List.of("sleep", "240"), 2, List.of())),
        job(Info.of(PmixKey.PMIX_MAPBY, "node")));
    return d;
  }

  @Test
  void c3_pauseThroughANonMasterDaemonIsRelayedAndStopsTheSessionsProcessesOnEveryNode() {
    c1();
    String ns = c1Job();
    // node2 is not the master and runs none of the session's processes: it relays the request
    StatusInfos a =
        h.sessionControl(tool, "node2", 4242, on(PmixKey.PMIX_SESSION_PAUSE)).orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(h.signals).containsExactly(ns + " SIGSTOP");
    assertThat(h.allStopped(ns)).isTrue();
    assertThat(h.procs.get(ns).values()).extracting(p -> p.host).containsExactly("node3", "node4");
    assertThat(h.core.view().session(4242).orElseThrow().has(DvmView.SessionFlag.PAUSED)).isTrue();
    // the same answer, decisions and state as the master gives a request that reached it directly
    DvmHarness d = direct();
    int from = d.log.size();
    StatusInfos da =
        d.sessionControl(tool, "node1", 4242, on(PmixKey.PMIX_SESSION_PAUSE)).orElseThrow();
    assertThat(a).isEqualTo(da);
    assertThat(h.log.subList(h.log.size() - (d.log.size() - from), h.log.size()))
        .isEqualTo(d.log.subList(from, d.log.size()));
    assertThat(DvmHarness.snapshot(h.core.view())).isEqualTo(DvmHarness.snapshot(d.core.view()));
  }

  @Test
  void c4_resumeThroughANonMasterDaemonIsRelayedAndContinuesThem() {
    c1();
    String ns = c1Job();
    h.sessionControl(tool, "node3", 4242, on(PmixKey.PMIX_SESSION_PAUSE));
    StatusInfos a =
        h.sessionControl(tool, "node3", 4242, on(PmixKey.PMIX_SESSION_RESUME)).orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(h.signals).containsExactly(ns + " SIGSTOP", ns + " SIGCONT");
    assertThat(h.procs.get(ns).values()).noneMatch(p -> p.stopped);
    assertThat(h.core.view().job(ns).orElseThrow().stopped()).isFalse();
    DvmHarness d = direct();
    d.sessionControl(tool, "node1", 4242, on(PmixKey.PMIX_SESSION_PAUSE));
    assertThat(a)
        .isEqualTo(
            d.sessionControl(tool, "node1", 4242, on(PmixKey.PMIX_SESSION_RESUME)).orElseThrow());
    assertThat(DvmHarness.snapshot(h.core.view())).isEqualTo(DvmHarness.snapshot(d.core.view()));
  }

  @Test
  void c3_c4_aDaemonThatIsNotUpCannotRelayTheRequestWhichIsUnreachAndChangesNothing() {
    h.autoDaemons = false;
    // node5 joins the DVM through a standing reservation; its daemon is still starting
    h.sessionControl(tool, "node1", 7, on(PmixKey.PMIX_SESSION_INSTANTIATE), nodes("node5:2"));
    assertThat(h.core.view().node("node5").orElseThrow().daemon()).isEqualTo(DaemonState.STARTING);
    h.autoDaemons = true;
    c1();
    String ns = c1Job();
    String before = DvmHarness.snapshot(h.core.view());
    for (String via : List.of("node5", "node9")) {
      StatusInfos a =
          h.sessionControl(tool, via, 4242, on(PmixKey.PMIX_SESSION_PAUSE)).orElseThrow();
      assertThat(a.status()).as(via).isEqualTo(PmixStatus.PMIX_ERR_UNREACH);
      assertThat(info(a, DvmKeys.REASON).orElseThrow().stringValue())
          .as(via)
          .startsWith("request via " + via + ": ")
          .contains("master node1");
    }
    assertThat(h.signals).isEmpty();
    assertThat(DvmHarness.snapshot(h.core.view())).isEqualTo(before);
    // once its daemon is up, the same node relays
    h.event(new DvmEvent.DaemonStarted("node5"));
    assertThat(
            h.sessionControl(tool, "node5", 4242, on(PmixKey.PMIX_SESSION_PAUSE))
                .orElseThrow()
                .status())
        .isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(h.signals).containsExactly(ns + " SIGSTOP");
  }

  @Test
  void c5_signal15KillsTheProcessesOnEveryNode() {
    c1();
    String ns = c1Job();
    StatusInfos a =
        h.sessionControl(tool, "node1", 4242, Info.of(PmixKey.PMIX_SESSION_SIGNAL, 15))
            .orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(h.signals).containsExactly(ns + " SIGTERM");
    assertThat(h.liveProcs(ns)).isZero();
    assertThat(h.core.view().job(ns)).isEmpty();
  }

  @Test
  void c6_afterItsJobsEndedTheAutoCompleteSessionIsGoneAndItsNodesAreBack() {
    c1();
    h.sessionControl(tool, "node1", 4242, Info.of(PmixKey.PMIX_SESSION_SIGNAL, 15));
    StatusInfos a =
        h.sessionControl(tool, "node1", 4242, on(PmixKey.PMIX_SESSION_PAUSE)).orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_ERR_NOT_FOUND);
    assertThat(h.core.view().pool()).containsExactlyInAnyOrder("node1", "node2", "node3", "node4");
    assertThat(h.decisions(DvmDecision.SessionReclaimed.class))
        .singleElement()
        .satisfies(r -> assertThat(r.handedBack()).isFalse());
  }

  @Test
  void c7_instantiateWithoutAppsIsAStandingReservationAnsweredAtOnce() {
    h.autoDaemons = true;
    StatusInfos a =
        h.sessionControl(
                tool, "node1", 4243, on(PmixKey.PMIX_SESSION_INSTANTIATE), nodes("node4:2"))
            .orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(info(a, PmixKey.PMIX_SESSION_ID).orElseThrow().longValue()).isEqualTo(4243);
    assertThat(h.core.view().session(4243).orElseThrow().hosts()).containsExactly("node4");
    assertThat(h.core.view().pool()).doesNotContain("node4");
    // it persists: a job elsewhere comes and goes, the reservation stays
    StatusInfos s = h.spawn(tool("prun", 1000), List.of(sleep(1))).orElseThrow();
    h.exitAll(info(s, PmixKey.PMIX_NSPACE).orElseThrow().stringValue(), 0);
    assertThat(h.core.view().session(4243)).isPresent();
  }

  @Test
  void c8_terminateOfAStandingReservationReturnsItsNodeToThePool() {
    h.sessionControl(tool, "node1", 4243, on(PmixKey.PMIX_SESSION_INSTANTIATE), nodes("node4:2"));
    StatusInfos a =
        h.sessionControl(tool, "node1", 4243, on(PmixKey.PMIX_SESSION_TERMINATE)).orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(info(a, PmixKey.PMIX_SESSION_ID)).isEmpty();
    assertThat(h.core.view().session(4243)).isEmpty();
    assertThat(h.core.view().pool()).contains("node4");
    assertThat(h.core.view().node("node4").orElseThrow().daemon()).isEqualTo(DaemonState.UP);
  }

  @Test
  void c9_pauseOfAnUnknownSessionIsNotFound() {
    StatusInfos a =
        h.sessionControl(tool, "node1", 9999, on(PmixKey.PMIX_SESSION_PAUSE)).orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_ERR_NOT_FOUND);
    assertThat(info(a, DvmKeys.REASON).orElseThrow().stringValue()).contains("9999");
  }

  @Test
  void c10_twoOperationsInOneRequestAreABadParam() {
    h.sessionControl(tool, "node1", 1, on(PmixKey.PMIX_SESSION_INSTANTIATE), nodes("node4"));
    String before = DvmHarness.snapshot(h.core.view());
    StatusInfos a =
        h.sessionControl(
                tool,
                "node1",
                1,
                on(PmixKey.PMIX_SESSION_PAUSE),
                on(PmixKey.PMIX_SESSION_TERMINATE))
            .orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM);
    assertThat(DvmHarness.snapshot(h.core.view())).isEqualTo(before);
  }

  @Test
  void c11_nothingAskedIsABadParam() {
    assertThat(h.sessionControl(tool, "node1", 1).orElseThrow().status())
        .isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM);
    Info unknown = new Info("prrte.some.other.rte", PmixDataType.PMIX_BOOL, true);
    assertThat(h.sessionControl(tool, "node1", 1, unknown).orElseThrow().status())
        .isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM);
    // a false operation flag asks nothing either
    assertThat(
            h.sessionControl(tool, "node1", 1, Info.of(PmixKey.PMIX_SESSION_PAUSE, false))
                .orElseThrow()
                .status())
        .isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM);
  }

  @Test
  void c12_instantiateOfUint32MaxIsABadParam() {
    StatusInfos a =
        h.sessionControl(tool, "node1", ALL, on(PmixKey.PMIX_SESSION_INSTANTIATE), nodes("node4"))
            .orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM);
    assertThat(h.core.view().sessions()).isEmpty();
  }

  @Test
  void c13_instantiateOfAnExistingSessionIsExists() {
    c1();
    String before = DvmHarness.snapshot(h.core.view());
    StatusInfos a =
        h.sessionControl(tool, "node1", 4242, on(PmixKey.PMIX_SESSION_INSTANTIATE), nodes("node2"))
            .orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_ERR_EXISTS);
    assertThat(DvmHarness.snapshot(h.core.view())).isEqualTo(before);
  }

  @Test
  void c14_appsWithoutANodeListAreABadParam() {
    StatusInfos a =
        h.sessionControl(tool, "node1", 5, on(PmixKey.PMIX_SESSION_INSTANTIATE), apps(sleep(1)))
            .orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM);
    assertThat(h.core.view().sessions()).isEmpty();
    assertThat(h.decisions(DvmDecision.LaunchJob.class)).isEmpty();
  }

  @Test
  void c15_jobInfoWithoutAppsOrAppsOutsideAnInstantiationAreABadParam() {
    StatusInfos noApp =
        h.sessionControl(
                tool,
                "node1",
                5,
                on(PmixKey.PMIX_SESSION_INSTANTIATE),
                nodes("node4"),
                job(Info.of(PmixKey.PMIX_MAPBY, "node")))
            .orElseThrow();
    assertThat(noApp.status()).isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM);
    h.sessionControl(tool, "node1", 6, on(PmixKey.PMIX_SESSION_INSTANTIATE), nodes("node4"));
    StatusInfos appWithPause =
        h.sessionControl(tool, "node1", 6, on(PmixKey.PMIX_SESSION_PAUSE), apps(sleep(1)))
            .orElseThrow();
    assertThat(appWithPause.status()).isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM);
    assertThat(h.core.view().session(5)).isEmpty();
    assertThat(h.core.view().session(6).orElseThrow().has(DvmView.SessionFlag.PAUSED)).isFalse();
  }
}
