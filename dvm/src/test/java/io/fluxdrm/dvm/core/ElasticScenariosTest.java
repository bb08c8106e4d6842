package io.fluxdrm.dvm.core;

import static io.fluxdrm.dvm.core.DvmHarness.info;
import static io.fluxdrm.dvm.core.DvmHarness.sleep;
import static io.fluxdrm.dvm.core.DvmHarness.tool;
import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.testkit.InvariantsExtension;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * PRRTE's elastic-DVM spec in the core: scenarios D1–D24, B11, B14, B15 of docs/scenarios.md and
 * the guarantees of PRRTE elastic-DVM spec, guarantees, one test each (id in the name), the elastic
 * invariants checked after every step (fence = sum of the open campaigns' contributions, one hold
 * per held job, no job mapped onto a starting daemon, nothing held once no campaign is open,
 * launches only onto daemons that are up). The DVM starts on node1 (master, 2 slots). What the core
 * does not model (radix trees, modex) is named in the test that stands for the scenario; the shrink
 * xcast failing at its creation (D20) is a {@link DvmEvent.StopNotSent} per daemon (decision D415).
 */
class ElasticScenariosTest {
  @RegisterExtension final InvariantsExtension inv = new InvariantsExtension();

  static final int READY = PmixStatus.PMIX_DVM_IS_READY.code();
  static final int DVM_MOD = PmixStatus.PMIX_ERR_DVM_MOD.code();

  static DvmConfig config(boolean elastic) {
    return DvmConfig.of(List.of(new DvmConfig.NodeSpec("node1", 2)), "prte-dvm", 1000)
        .withElastic(elastic);
  }

  DvmHarness h = new DvmHarness(config(true), inv);
  final Client t = tool("tool-a", 1000);

  @BeforeEach
  void register() {
    h.registerAll(t);
  }

  static Info nodes(String list) {
    return Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, list);
  }

  static Info reqId(String id) {
    return Info.of(PmixKey.PMIX_ALLOC_REQ_ID, id);
  }

  static Info share() {
    return Info.of(PmixKey.PMIX_ALLOC_SHARE, true);
  }

  static Info mapByNode() {
    return Info.of(PmixKey.PMIX_MAPBY, "node");
  }

  StatusInfos grow(String list, String rid) {
    return h.alloc(t, AllocDirective.NEW, share(), nodes(list), reqId(rid)).orElseThrow();
  }

  Optional<StatusInfos> shrink(String list, String rid) {
    return h.alloc(t, AllocDirective.RELEASE, nodes(list), reqId(rid));
  }

  List<DvmDecision.Notify> events(int code) {
    return h.decisions(DvmDecision.Notify.class, n -> n.event().status() == code);
  }

  List<DvmDecision.Notify> eventsFor(String rid) {
    return h.decisions(
        DvmDecision.Notify.class,
        n ->
            n.event().infos().stream()
                .anyMatch(i -> i.key().equals(PmixKey.PMIX_ALLOC_REQ_ID) && i.value().equals(rid)));
  }

  DaemonState daemon(String host) {
    return h.core.view().node(host).map(DvmView.NodeView::daemon).orElse(DaemonState.NONE);
  }

  DvmView.ElasticView el() {
    return h.core.view().elastic();
  }

  /**
   * Spawns a sleep of {@code np} processes; returns its namespace. The spawn is never refused: it
   * is answered at once with success and that namespace, or held (its request still in flight).
   */
  String spawn(int np, Info... jobInfos) {
    int jobs = h.core.view().jobs().size();
    long rid = h.nextRequestId();
    h.event(new DvmEvent.Spawn(rid, t, "node1", List.of(sleep(np)), List.of(jobInfos)));
    assertThat(h.core.view().jobs()).hasSize(jobs + 1);
    String j = lastJob();
    StatusInfos a = h.answers.get(rid);
    if (a != null) {
      assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
      assertThat(info(a, PmixKey.PMIX_NSPACE)).map(Info::stringValue).contains(j);
    } else {
      assertThat(h.core.view().pendingRequests())
          .extracting(DvmView.PendingRequest::requestId)
          .contains(rid);
    }
    return j;
  }

  String lastJob() {
    List<DvmView.JobView> js = h.core.view().jobs();
    return js.get(js.size() - 1).nspace();
  }

  List<String> hostsOf(String nspace) {
    return h.decisions(DvmDecision.LaunchJob.class, l -> l.nspace().equals(nspace)).stream()
        .reduce((a, b) -> b)
        .orElseThrow()
        .procs()
        .stream()
        .map(DvmDecision.Placement::host)
        .toList();
  }

  // ---------------------------------------------------------------- D: elastic DVM

  @Test
  void d1_baselineJobRunsOnTheMaster() {
    String j = spawn(1);
    assertThat(hostsOf(j)).containsExactly("node1");
    assertThat(el().fence()).isZero();
  }

  @Test
  void d2_growStartsDaemonsAndTellsTheRequesterReadyOnce() {
    assertThat(grow("node2:2,node3:2", "r1").status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(daemon("node2")).isEqualTo(DaemonState.UP);
    assertThat(daemon("node3")).isEqualTo(DaemonState.UP);
    assertThat(events(READY))
        .singleElement()
        .satisfies(
            n -> {
              assertThat(n.event().target()).contains(t.proc());
              assertThat(
                      info(
                          new StatusInfos(PmixStatus.PMIX_SUCCESS, n.event().infos()),
                          PmixKey.PMIX_ALLOC_REQ_ID))
                  .map(Info::stringValue)
                  .contains("r1");
            });
  }

  @Test
  void d3_shrinkRemovesTheDaemonAfterItLeftAndTheDvmStillRuns() {
    grow("node2:2,node3:2", "g");
    h.autoDaemons = false;
    assertThat(shrink("node3", "s").orElseThrow().status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(eventsFor("s")).isEmpty();
    h.event(new DvmEvent.DaemonLeft("node3"));
    assertThat(eventsFor("s"))
        .singleElement()
        .satisfies(n -> assertThat(n.event().status()).isEqualTo(READY));
    assertThat(h.core.view().node("node3")).isEmpty();
    assertThat(daemon("node2")).isEqualTo(DaemonState.UP);
    assertThat(daemon("node1")).isEqualTo(DaemonState.UP);
    h.autoDaemons = true;
    assertThat(hostsOf(spawn(1))).containsExactly("node1");
  }

  @Test
  void d4_shrinkingANodeWithAProcessOfASpanningJobCompletesAndTheJobEnds() {
    grow("node2:2,node3:2", "g");
    String j = spawn(3, mapByNode());
    assertThat(hostsOf(j)).containsExactlyInAnyOrder("node1", "node2", "node3");
    assertThat(shrink("node3", "s").orElseThrow().status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(eventsFor("s"))
        .singleElement()
        .satisfies(n -> assertThat(n.event().status()).isEqualTo(READY));
    assertThat(h.core.view().job(j).orElseThrow().liveProcs()).isEqualTo(2);
    h.procs.get(j).entrySet().removeIf(e -> e.getValue().host.equals("node3"));
    h.exitAll(j, 0);
    assertThat(h.core.view().job(j)).isEmpty();
  }

  @Test
  void d5_growShrinkAndRegrowOfTheSameAndAnotherNodeComplete() {
    grow("node2,node3", "g1");
    shrink("node3", "s1");
    grow("node3,node5", "g2");
    assertThat(eventsFor("g1")).hasSize(1);
    assertThat(eventsFor("s1")).hasSize(1);
    assertThat(eventsFor("g2"))
        .singleElement()
        .satisfies(n -> assertThat(n.event().status()).isEqualTo(READY));
    assertThat(List.of(daemon("node2"), daemon("node3"), daemon("node5")))
        .containsOnly(DaemonState.UP);
  }

  @Test
  void d6_afterGrowShrinkGrowASpanningJobRunsOnEveryMember() {
    grow("node2,node3", "g1");
    shrink("node3", "s1");
    grow("node4", "g2");
    String j = spawn(3, mapByNode());
    assertThat(hostsOf(j)).containsExactlyInAnyOrder("node1", "node2", "node4");
  }

  /** D7 at radix 2: the core has no routing tree (decision D509), the rest of D7 is shown. */
  @Test
  void d7_regrowOfAShrunkNodeServesItsOwnJobWithoutARoutingTreeDecisionD509() {
    grow("node2,node3", "g1");
    shrink("node3", "s1");
    grow("node4", "g2");
    grow("node3:2", "g3");
    assertThat(eventsFor("g3"))
        .singleElement()
        .satisfies(n -> assertThat(n.event().status()).isEqualTo(READY));
    assertThat(hostsOf(spawn(4, mapByNode())))
        .containsExactlyInAnyOrder("node1", "node2", "node3", "node4");
    // node3 serves a job of its own
    App onNode3 =
        new App(
            "/bin/sleep", List.of("sleep", "1"), 1, List.of(Info.of(PmixKey.PMIX_HOST, "node3")));
    StatusInfos own = h.spawn(t, List.of(onNode3)).orElseThrow();
    assertThat(own.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(hostsOf(info(own, PmixKey.PMIX_NSPACE).orElseThrow().stringValue()))
        .containsExactly("node3");
  }

  /**
   * D8 asks for a fence/modex job spanning a grown-in node: all ranks complete collect and barrier.
   * The reference DVM serves no PMIx collectives to its jobs' processes, so that part cannot be
   * observed here (decision D506); what the DVM owes such a job is shown instead: every rank placed
   * and launched, the grown-in node's included, onto daemons that are up.
   */
  @Test
  void d8_aJobSpanningAGrownInNodeIsLaunchedWithEveryRankOnAnUpDaemonDecisionD506() {
    grow("node2,node3", "g1");
    shrink("node3", "s1");
    grow("node4", "g2");
    String j = spawn(3, mapByNode());
    assertThat(h.decisions(DvmDecision.LaunchJob.class, l -> l.nspace().equals(j)))
        .singleElement()
        .satisfies(
            l -> {
              assertThat(l.procs())
                  .extracting(DvmDecision.Placement::rank)
                  .containsExactly(0L, 1L, 2L);
              assertThat(l.procs())
                  .extracting(DvmDecision.Placement::host)
                  .containsExactlyInAnyOrder("node1", "node2", "node4");
              assertThat(l.procs())
                  .allSatisfy(p -> assertThat(daemon(p.host())).isEqualTo(DaemonState.UP));
            });
    assertThat(h.core.view().job(j).orElseThrow().state()).isEqualTo(DvmView.JobState.RUNNING);
    assertThat(h.procs.get(j)).hasSize(3);
  }

  @Test
  void d9_growAfterShrinkStartsOnlyTheNamedNode() {
    grow("node2,node3", "g1");
    shrink("node2", "s1");
    int before = h.decisions(DvmDecision.StartDaemon.class).size();
    grow("node4", "g2");
    assertThat(
            h.decisions(DvmDecision.StartDaemon.class)
                .subList(before, h.decisions(DvmDecision.StartDaemon.class).size()))
        .extracting(DvmDecision.StartDaemon::host)
        .containsExactly("node4");
    assertThat(h.core.view().node("node2")).isEmpty();
  }

  @Test
  void d10_redundantGrowGetsNoSecondPhaseEventDecisionD403() {
    grow("node2", "g1");
    assertThat(grow("node2", "g2").status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    // B15/D10: the spec's "no event when nothing changes" (D12) over PRRTE's immediate event
    assertThat(eventsFor("g2")).isEmpty();
    assertThat(el().campaigns()).isEmpty();
  }

  /** D11 at radix 2, shrink of the deepest: no routing tree in the core (decision D509). */
  @Test
  void d11_growOfEightNodesThenShrinkOfTheLastBothCompleteWithoutARoutingTreeDecisionD509() {
    grow("node[2-9]", "g");
    assertThat(eventsFor("g"))
        .singleElement()
        .satisfies(n -> assertThat(n.event().status()).isEqualTo(READY));
    shrink("node9", "s");
    assertThat(eventsFor("s"))
        .singleElement()
        .satisfies(n -> assertThat(n.event().status()).isEqualTo(READY));
    assertThat(daemon("node1")).isEqualTo(DaemonState.UP);
  }

  /**
   * D12 is prterun's: the job ends while its grow is in flight, prterun exits and the late daemon
   * with it. The reference DVM is a persistent DVM that does not end with a job (decision D507):
   * the job retires without waiting for the grow (no hang), the DVM stays, and the late daemon
   * joins and completes the grow with its one terminal event.
   */
  @Test
  void d12_aJobEndingWhileAGrowIsInFlightRetiresAndTheLateDaemonJoinsDecisionD507() {
    String j = spawn(1);
    h.autoDaemons = false;
    grow("node2", "g");
    h.exitAll(j, 0);
    assertThat(h.core.view().job(j)).isEmpty();
    assertThat(daemon("node2")).isEqualTo(DaemonState.STARTING);
    assertThat(eventsFor("g")).isEmpty();
    h.event(new DvmEvent.DaemonStarted("node2"));
    assertThat(eventsFor("g"))
        .singleElement()
        .satisfies(n -> assertThat(n.event().status()).isEqualTo(READY));
    assertThat(daemon("node2")).isEqualTo(DaemonState.UP);
    assertThat(el().campaigns()).isEmpty();
  }

  @Test
  void d13_aJobReachingMapDuringAGrowIsHeldThenAdmittedOntoTheNewNodes() {
    h.autoDaemons = false;
    grow("node2:2", "g");
    String j = spawn(4);
    assertThat(el().heldAtMap()).containsExactly(j);
    assertThat(h.core.view().job(j).orElseThrow().state())
        .isEqualTo(DvmView.JobState.WAITING_FOR_DAEMONS);
    h.event(new DvmEvent.DaemonStarted("node2"));
    assertThat(el().heldAtMap()).isEmpty();
    assertThat(hostsOf(j)).contains("node1", "node2");
  }

  /** node2, node3 in the pool; a 2-rank job by node mapped on node1, node2, not launched. */
  String mappedBeforeShrink() {
    grow("node2:1,node3:1", "g");
    h.autoLaunchApps = false;
    h.spawn(t, List.of(sleep(2)), mapByNode());
    String j = lastJob();
    assertThat(h.core.view().job(j).orElseThrow().state()).isEqualTo(DvmView.JobState.MAPPED);
    h.mapped.clear();
    return j;
  }

  @Test
  void d14_aJobMappedOntoADepartingNodeIsHeldAtLaunchThenRemappedOntoSurvivors() {
    String j = mappedBeforeShrink();
    assertThat(h.core.view().job(j).orElseThrow().procsPerNode())
        .containsOnlyKeys("node1", "node2");
    h.autoDaemons = false;
    shrink("node2", "s");
    h.event(new DvmEvent.LaunchApps(j));
    assertThat(el().heldAtLaunch()).containsExactly(j);
    assertThat(h.decisions(DvmDecision.LaunchJob.class, l -> l.nspace().equals(j))).isEmpty();
    h.event(new DvmEvent.DaemonLeft("node2"));
    assertThat(el().heldAtLaunch()).isEmpty();
    assertThat(h.mapped).containsExactly(j);
    h.event(new DvmEvent.LaunchApps(j));
    assertThat(hostsOf(j)).containsExactlyInAnyOrder("node1", "node3");
  }

  @Test
  void d15_aJobMappedAwayFromTheDepartingNodeLaunchesOnItsMapAfterTheShrink() {
    String j = mappedBeforeShrink();
    h.autoDaemons = false;
    shrink("node3", "s");
    h.event(new DvmEvent.LaunchApps(j));
    assertThat(el().heldAtLaunch()).containsExactly(j);
    h.event(new DvmEvent.DaemonLeft("node3"));
    assertThat(h.mapped).isEmpty();
    assertThat(hostsOf(j)).containsExactlyInAnyOrder("node1", "node2");
  }

  @Test
  void d16_aGrowWhoseDaemonFailsIsRolledBackAndItsHeldJobsNeverLaunch() {
    h.autoDaemons = false;
    StatusInfos a = h.alloc(t, AllocDirective.NEW, nodes("node2,node3"), reqId("g")).orElseThrow();
    String alloc = info(a, PmixKey.PMIX_ALLOC_ID).orElseThrow().stringValue();
    long rid = h.nextRequestId();
    h.event(new DvmEvent.Spawn(rid, t, "node1", List.of(sleep(1)), List.of()));
    String j = lastJob();
    assertThat(el().heldAtMap()).containsExactly(j);
    h.event(new DvmEvent.DaemonStarted("node2"));
    h.event(new DvmEvent.DaemonFailed("node3", "no such host"));
    assertThat(eventsFor("g"))
        .singleElement()
        .satisfies(
            n -> {
              assertThat(n.event().status()).isEqualTo(DVM_MOD);
              StatusInfos e = new StatusInfos(PmixStatus.PMIX_SUCCESS, n.event().infos());
              assertThat(info(e, PmixKey.PMIX_ALLOC_ID)).map(Info::stringValue).contains(alloc);
              assertThat(info(e, PmixKey.PMIX_JOB_TERM_STATUS)).isPresent();
            });
    assertThat(h.decisions(DvmDecision.StopDaemon.class))
        .extracting(DvmDecision.StopDaemon::host)
        .containsExactly("node2");
    assertThat(h.core.view().node("node2")).isEmpty();
    assertThat(h.core.view().node("node3")).isEmpty();
    assertThat(h.core.view().session(Long.parseLong(alloc)).orElseThrow().hosts()).isEmpty();
    assertThat(h.core.view().job(j)).isEmpty();
    assertThat(h.answers.get(rid).status()).isNotEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(daemon("node1")).isEqualTo(DaemonState.UP);
    h.event(new DvmEvent.DaemonLeft("node2"));
    assertThat(el().fence()).isZero();
  }

  @Test
  void d17_anUnrelatedDaemonDyingDuringAGrowChangesNothingForTheGrow() {
    grow("node2", "g0");
    h.autoDaemons = false;
    grow("node3", "g");
    String j = spawn(1);
    h.event(new DvmEvent.DaemonFailed("node2", "crashed"));
    assertThat(el().heldAtMap()).containsExactly(j);
    assertThat(eventsFor("g")).isEmpty();
    h.event(new DvmEvent.DaemonStarted("node3"));
    assertThat(eventsFor("g"))
        .singleElement()
        .satisfies(n -> assertThat(n.event().status()).isEqualTo(READY));
    assertThat(h.core.view().job(j).orElseThrow().state())
        .isNotEqualTo(DvmView.JobState.WAITING_FOR_DAEMONS);
  }

  @Test
  void d18_ofTwoOverlappingGrowsTheFailedOneIsRolledBackAndTheOtherCompletes() {
    h.autoDaemons = false;
    grow("node2", "g1");
    grow("node3", "g2");
    String j = spawn(1);
    assertThat(el().fence()).isEqualTo(2);
    h.event(new DvmEvent.DaemonFailed("node2", "no such host"));
    assertThat(eventsFor("g1"))
        .singleElement()
        .satisfies(n -> assertThat(n.event().status()).isEqualTo(DVM_MOD));
    assertThat(h.core.view().job(j)).isEmpty();
    h.event(new DvmEvent.DaemonStarted("node3"));
    assertThat(eventsFor("g2"))
        .singleElement()
        .satisfies(n -> assertThat(n.event().status()).isEqualTo(READY));
    assertThat(el().fence()).isZero();
  }

  @Test
  void d19_growAndShrinkOverlapAndAGrowFailureLeavesLaunchHeldJobsParked() {
    String j = mappedBeforeShrink();
    h.autoDaemons = false;
    shrink("node3", "s");
    h.event(new DvmEvent.LaunchApps(j));
    assertThat(el().heldAtLaunch()).containsExactly(j);
    h.autoLaunchApps = true;
    grow("node4", "g");
    String k = spawn(1);
    assertThat(el().heldAtMap()).containsExactly(k);
    h.event(new DvmEvent.DaemonFailed("node4", "no such host"));
    assertThat(h.core.view().job(k)).isEmpty();
    assertThat(el().heldAtLaunch()).containsExactly(j);
    h.event(new DvmEvent.DaemonLeft("node3"));
    assertThat(el().heldAtLaunch()).isEmpty();
    assertThat(hostsOf(j)).containsExactlyInAnyOrder("node1", "node2");
  }

  @Test
  void d19_aPreMapJobWaitsForBothCampaignsAndAnOpenGrowHoldsNothingAtLaunch() {
    String j = mappedBeforeShrink();
    h.autoDaemons = false;
    grow("node4", "g");
    // only a grow is open: a job reaching LAUNCH_APPS is not held there
    h.event(new DvmEvent.LaunchApps(j));
    assertThat(el().heldAtLaunch()).isEmpty();
    assertThat(hostsOf(j)).containsExactlyInAnyOrder("node1", "node2");
    shrink("node3", "s");
    h.autoLaunchApps = true;
    String k = spawn(1);
    assertThat(el().heldAtMap()).containsExactly(k);
    h.event(new DvmEvent.DaemonStarted("node4"));
    assertThat(el().heldAtMap()).containsExactly(k); // the shrink is still open
    h.event(new DvmEvent.DaemonLeft("node3"));
    assertThat(el().heldAtMap()).isEmpty();
    assertThat(h.core.view().job(k).orElseThrow().state()).isEqualTo(DvmView.JobState.RUNNING);
  }

  @Test
  void d20_aShrinkWhoseStopCannotBeSentEndsInDvmModReleasesTheHeldJobsAndKeepsTheNode() {
    String j = mappedBeforeShrink();
    h.autoDaemons = false;
    // phase one is the acceptance: the stop is decided with it, its sending fails after (D415)
    assertThat(shrink("node2", "s").orElseThrow().status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(el().fence()).isEqualTo(1);
    h.event(new DvmEvent.LaunchApps(j));
    h.autoLaunchApps = true;
    String k = spawn(1);
    assertThat(el().heldAtLaunch()).containsExactly(j);
    assertThat(el().heldAtMap()).containsExactly(k);
    assertThat(h.core.view().node("node2")).isEmpty();
    h.event(new DvmEvent.StopNotSent("node2", PmixStatus.PMIX_ERR_UNREACH, "xcast failed"));
    assertThat(eventsFor("s"))
        .singleElement()
        .satisfies(
            n -> {
              assertThat(n.event().status()).isEqualTo(DVM_MOD);
              assertThat(n.event().target()).contains(t.proc());
              StatusInfos e = new StatusInfos(PmixStatus.PMIX_SUCCESS, n.event().infos());
              assertThat(info(e, PmixKey.PMIX_JOB_TERM_STATUS))
                  .map(Info::value)
                  .contains(PmixStatus.PMIX_ERR_UNREACH.code());
            });
    assertThat(el().fence()).isZero();
    assertThat(el().campaigns()).isEmpty();
    assertThat(h.decisions(DvmDecision.ShrinkComplete.class)).isEmpty();
    // the daemon never got the command: node2 is still a member, back in the pool, daemon up
    assertThat(daemon("node2")).isEqualTo(DaemonState.UP);
    assertThat(h.core.view().pool()).contains("node2");
    // the job held at launch launches on its map, node2 included; the job held at map is mapped
    assertThat(hostsOf(j)).containsExactlyInAnyOrder("node1", "node2");
    assertThat(h.core.view().job(k).orElseThrow().state()).isEqualTo(DvmView.JobState.RUNNING);
    // nothing is wedged: a late report of the daemon changes nothing, and a new shrink completes
    h.event(new DvmEvent.StopNotSent("node2", PmixStatus.PMIX_ERR_UNREACH, "xcast failed"));
    assertThat(daemon("node2")).isEqualTo(DaemonState.UP);
    h.autoDaemons = true;
    shrink("node3", "s2");
    assertThat(eventsFor("s2"))
        .singleElement()
        .satisfies(n -> assertThat(n.event().status()).isEqualTo(READY));
    assertThat(eventsFor("s")).hasSize(1);
  }

  @Test
  void d20_aShrinkWithOneStopUnsentEndsInDvmModOnceTheOtherTargetHasLeft() {
    grow("node2,node3", "g");
    h.autoDaemons = false;
    StatusInfos a = h.alloc(t, AllocDirective.NEW, nodes("node4"), reqId("n")).orElseThrow();
    h.event(new DvmEvent.DaemonStarted("node4"));
    long alloc = Long.parseLong(info(a, PmixKey.PMIX_ALLOC_ID).orElseThrow().stringValue());
    h.unsendableStops.add("node4");
    shrink("node3,node4", "s");
    // node4's stop was refused at once: it is back in its reservation, the shrink waits for node3
    assertThat(h.core.view().session(alloc).orElseThrow().hosts()).containsExactly("node4");
    assertThat(daemon("node4")).isEqualTo(DaemonState.UP);
    assertThat(el().campaigns())
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.targets().values()).containsExactly("node3");
              assertThat(c.contribution()).isEqualTo(1);
            });
    String j = spawn(1);
    assertThat(el().heldAtMap()).containsExactly(j);
    assertThat(eventsFor("s")).isEmpty();
    h.event(new DvmEvent.DaemonLeft("node3"));
    // the hook runs on what did leave, then the one terminal event says the change failed
    assertThat(h.decisions(DvmDecision.ShrinkComplete.class))
        .singleElement()
        .satisfies(c -> assertThat(c.hosts()).containsExactly("node3"));
    assertThat(eventsFor("s"))
        .singleElement()
        .satisfies(n -> assertThat(n.event().status()).isEqualTo(DVM_MOD));
    assertThat(el().fence()).isZero();
    assertThat(el().heldAtMap()).isEmpty();
    assertThat(h.core.view().job(j).orElseThrow().state()).isEqualTo(DvmView.JobState.RUNNING);
  }

  @Test
  void d22_aRequesterWithoutTheTwoEventCodesGetsNoEventAndEverythingElseIsTheSame() {
    Client u = tool("tool-b", 1000);
    h.event(new DvmEvent.RegisterEvents(h.nextRequestId(), u, "node1", List.of(-1)));
    StatusInfos a =
        h.alloc(u, AllocDirective.NEW, share(), nodes("node2"), reqId("g")).orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(eventsFor("g")).isEmpty();
    assertThat(daemon("node2")).isEqualTo(DaemonState.UP);
    assertThat(el().fence()).isZero();
  }

  @Test
  void d23_exactlyOneTerminalEventPerAcceptedChangeAndNoneForARejection() {
    grow("node2", "a");
    h.alloc(t, AllocDirective.RELEASE, nodes("nowhere"), reqId("b"));
    h.alloc(t, AllocDirective.NEW, nodes("node1"), reqId("c"));
    shrink("node2", "d");
    assertThat(eventsFor("a")).hasSize(1);
    assertThat(eventsFor("b")).isEmpty();
    assertThat(eventsFor("d")).hasSize(1);
    assertThat(h.decisions(DvmDecision.Notify.class)).hasSize(2);
  }

  @Test
  void d24_aReleaseParkedBehindAGrowThatFailsIsReplayedNotStrandedDecisionD402() {
    grow("node2", "g0");
    h.autoDaemons = false;
    grow("node3", "g");
    long rid = h.nextRequestId();
    h.event(
        new DvmEvent.AllocationRequest(
            rid, t, "node1", AllocDirective.RELEASE, List.of(nodes("node2"), reqId("s"))));
    assertThat(h.answers).doesNotContainKey(rid);
    assertThat(el().deferredReleases()).isEqualTo(1);
    h.event(new DvmEvent.DaemonFailed("node3", "no such host"));
    assertThat(el().deferredReleases()).isZero();
    // the parked release itself is answered now: replayed, accepted, not stranded
    assertThat(h.answers.get(rid).status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(el().campaigns()).singleElement().satisfies(c -> assertThat(c.grow()).isFalse());
    h.event(new DvmEvent.DaemonLeft("node2"));
    assertThat(eventsFor("s"))
        .singleElement()
        .satisfies(n -> assertThat(n.event().status()).isEqualTo(READY));
  }

  // ---------------------------------------------------------------- B: elastic-only

  @Test
  void b11_releaseOfANodeListIsAShrinkCampaignReadyAfterDeparture() {
    grow("node2,node3", "g");
    String j = spawn(1);
    h.autoDaemons = false;
    assertThat(shrink("node3", "s").orElseThrow().status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(el().campaigns()).singleElement().satisfies(c -> assertThat(c.grow()).isFalse());
    assertThat(el().fence()).isEqualTo(1);
    h.event(new DvmEvent.DaemonLeft("node3"));
    assertThat(eventsFor("s"))
        .singleElement()
        .satisfies(n -> assertThat(n.event().status()).isEqualTo(READY));
    assertThat(h.core.view().node("node3")).isEmpty();
    assertThat(daemon("node1")).isEqualTo(DaemonState.UP);
    assertThat(h.core.view().job(j).orElseThrow().state()).isEqualTo(DvmView.JobState.RUNNING);
    h.autoDaemons = true;
    assertThat(hostsOf(spawn(1))).doesNotContain("node3");
  }

  @Test
  void b14_aReleaseDuringAGrowIsParkedAndReplayedAfterIt() {
    grow("node2", "g0");
    h.autoDaemons = false;
    grow("node3", "g");
    long rid = h.nextRequestId();
    h.event(
        new DvmEvent.AllocationRequest(
            rid, t, "node1", AllocDirective.RELEASE, List.of(nodes("node2"), reqId("s"))));
    assertThat(h.answers).doesNotContainKey(rid);
    assertThat(h.core.view().pendingRequests())
        .singleElement()
        .satisfies(p -> assertThat(p.requestId()).isEqualTo(rid));
    h.event(new DvmEvent.DaemonStarted("node3"));
    assertThat(h.answers.get(rid).status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(el().campaigns()).singleElement().satisfies(c -> assertThat(c.grow()).isFalse());
    h.event(new DvmEvent.DaemonLeft("node2"));
    assertThat(eventsFor("s"))
        .singleElement()
        .satisfies(n -> assertThat(n.event().status()).isEqualTo(READY));
    assertThat(h.core.view().node("node2")).isEmpty();
  }

  @Test
  void b15_aNewOverNodesThatAlreadyHaveDaemonsGetsNoEventDecisionD403() {
    grow("node2", "g");
    StatusInfos a = h.alloc(t, AllocDirective.NEW, nodes("node2"), reqId("n")).orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(eventsFor("n")).isEmpty();
  }

  // ---------------------------------------------------------------- PRRTE elastic-DVM spec,
  // guarantees

  @Test
  void g7_1_aJobSubmittedDuringASizeChangeIsHeldNotFailedThenAdmitted() {
    h.autoDaemons = false;
    grow("node2", "g");
    String j = spawn(1);
    assertThat(h.core.view().job(j)).isPresent();
    h.event(new DvmEvent.DaemonStarted("node2"));
    assertThat(h.core.view().job(j).orElseThrow().state()).isEqualTo(DvmView.JobState.RUNNING);
  }

  @Test
  void g7_2_noJobIsMappedOntoAStartingOrDepartingDaemon() {
    h.autoDaemons = false;
    grow("node2:2", "g");
    String j = spawn(1);
    assertThat(h.core.view().job(j).orElseThrow().procsPerNode()).isEmpty();
    h.event(new DvmEvent.DaemonStarted("node2"));
    shrink("node2", "s");
    String k = spawn(1);
    assertThat(h.core.view().job(k).orElseThrow().procsPerNode()).isEmpty();
    h.event(new DvmEvent.DaemonLeft("node2"));
    assertThat(hostsOf(k)).doesNotContain("node2");
  }

  @Test
  void g7_3_launchDataNeverGoesToADepartingDaemon() {
    String j = mappedBeforeShrink();
    h.autoDaemons = false;
    shrink("node2", "s");
    h.event(new DvmEvent.LaunchApps(j));
    h.event(new DvmEvent.DaemonLeft("node2"));
    h.event(new DvmEvent.LaunchApps(j));
    assertThat(h.decisions(DvmDecision.LaunchJob.class, l -> l.nspace().equals(j)))
        .singleElement()
        .satisfies(l -> assertThat(l.procs()).noneMatch(p -> p.host().equals("node2")));
  }

  @Test
  void g7_4_aDaemonFailureAffectsOnlyJobsWaitingOnItsCampaign() {
    grow("node2", "g0");
    h.autoDaemons = false;
    grow("node3", "g");
    String j = spawn(1);
    h.event(new DvmEvent.DaemonFailed("node2", "crashed"));
    assertThat(el().heldAtMap()).containsExactly(j);
    h.event(new DvmEvent.DaemonFailed("node3", "crashed"));
    assertThat(h.core.view().job(j)).isEmpty();
  }

  @Test
  void g7_5_aFailedGrowIsRolledBackAloneAndPreExistingDaemonsStay() {
    grow("node2", "g0");
    h.autoDaemons = false;
    grow("node3,node4", "g1");
    grow("node5", "g2");
    h.event(new DvmEvent.DaemonStarted("node3"));
    h.event(new DvmEvent.DaemonFailed("node4", "no such host"));
    assertThat(h.core.view().node("node3")).isEmpty();
    assertThat(daemon("node2")).isEqualTo(DaemonState.UP);
    assertThat(daemon("node5")).isEqualTo(DaemonState.STARTING);
    assertThat(el().campaigns())
        .singleElement()
        .satisfies(c -> assertThat(c.targets()).containsValue("node5"));
  }

  @Test
  void g7_6_shrinkCompletionCountsEachDepartureOnceCrashOrExit() {
    grow("node2,node3", "g");
    h.autoDaemons = false;
    shrink("node2,node3", "s");
    assertThat(el().fence()).isEqualTo(2);
    h.event(new DvmEvent.DaemonFailed("node2", "crashed"));
    h.event(new DvmEvent.DaemonLeft("node2"));
    // the contribution stays until the whole shrink completes (collective completion, PRRTE's
    // elastic-DVM spec)
    assertThat(el().campaigns()).singleElement().satisfies(c -> assertThat(c.pending()).hasSize(1));
    assertThat(eventsFor("s")).isEmpty();
    h.event(new DvmEvent.DaemonLeft("node3"));
    assertThat(eventsFor("s")).hasSize(1);
    assertThat(h.decisions(DvmDecision.ShrinkComplete.class))
        .singleElement()
        .satisfies(c -> assertThat(c.hosts()).containsExactlyInAnyOrder("node2", "node3"));
  }

  @Test
  void g7_7_concurrentCampaignsAdmitAParkedJobOnceAfterAllOfThem() {
    grow("node2", "g0");
    h.autoDaemons = false;
    grow("node3", "g1");
    shrink("node2", "s");
    grow("node4", "g2");
    String j = spawn(1);
    h.event(new DvmEvent.DaemonStarted("node3"));
    h.event(new DvmEvent.DaemonLeft("node2"));
    assertThat(el().heldAtMap()).containsExactly(j);
    h.event(new DvmEvent.DaemonStarted("node4"));
    assertThat(h.decisions(DvmDecision.LaunchJob.class, l -> l.nspace().equals(j))).hasSize(1);
  }

  @Test
  void g7_8_twoPhaseAnswerAcceptanceThenOneEventToTheRequesterOnly() {
    Client u = tool("tool-b", 1000);
    h.registerAll(u);
    h.autoDaemons = false;
    StatusInfos a = grow("node2", "g");
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(eventsFor("g")).isEmpty();
    h.event(new DvmEvent.DaemonStarted("node2"));
    assertThat(eventsFor("g"))
        .singleElement()
        .satisfies(n -> assertThat(n.event().target()).contains(t.proc()));
  }

  @Test
  void g7_9_admissionAddsNoInterfaceAndHeldJobsShowWaitingForDaemons() {
    h.autoDaemons = false;
    grow("node2", "g");
    String j = spawn(1);
    assertThat(h.core.view().job(j).orElseThrow().state())
        .isEqualTo(DvmView.JobState.WAITING_FOR_DAEMONS);
    assertThat(h.core.view().pendingRequests())
        .extracting(DvmView.PendingRequest::waiting)
        .containsExactly(DvmView.Waiting.DAEMONS);
    assertThat(el().heldAtMap()).containsExactly(j);
  }
}
