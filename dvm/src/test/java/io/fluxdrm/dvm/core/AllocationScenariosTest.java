package io.fluxdrm.dvm.core;

import static io.fluxdrm.dvm.core.DvmHarness.app;
import static io.fluxdrm.dvm.core.DvmHarness.info;
import static io.fluxdrm.dvm.core.DvmHarness.sleep;
import static io.fluxdrm.dvm.core.DvmHarness.tool;
import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.AllocInheritance;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixDataType;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixRegex;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.testkit.InvariantsExtension;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.DeflaterOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Scenarios B1 to B25 of docs/scenarios.md (allocation requests, PRRTE §7.4.3 Flow-of-Control and
 * PRRTE PR #1904, the error table of PRRTE node-reservation spec), except the elastic-only B11, B14
 * and B15. The DVM starts on n1 (master, 2 slots) and n4 (allocated, no daemon); other nodes join
 * when named.
 */
class AllocationScenariosTest {
  @RegisterExtension final InvariantsExtension inv = new InvariantsExtension();

  static DvmConfig config() {
    return DvmConfig.of(
            List.of(new DvmConfig.NodeSpec("n1", 2), new DvmConfig.NodeSpec("n4", 2, false)),
            "prte-dvm",
            1000)
        .withElastic(true);
  }

  final DvmHarness h = new DvmHarness(config(), inv);
  final Client t = tool("tool-a", 1000);

  static Info nodes(String list) {
    return Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, list);
  }

  static Info reqId(String id) {
    return Info.of(PmixKey.PMIX_ALLOC_REQ_ID, id);
  }

  static Info allocId(String id) {
    return Info.of(PmixKey.PMIX_ALLOC_ID, id);
  }

  static Info host(String hosts) {
    return Info.of(PmixKey.PMIX_HOST, hosts);
  }

  /** B1's reservation: n2:2,n3:2 for {@link #t}, label r1; returns its ALLOC_ID. */
  String b1() {
    StatusInfos a = h.alloc(t, AllocDirective.NEW, nodes("n2:2,n3:2"), reqId("r1")).orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    // phase one: {ALLOC_ID, ALLOC_REQ_ID="r1"}
    assertThat(info(a, PmixKey.PMIX_ALLOC_REQ_ID)).map(Info::stringValue).contains("r1");
    return info(a, PmixKey.PMIX_ALLOC_ID).orElseThrow().stringValue();
  }

  /** A running job (np 1 on the pool) and one of its processes as a client. */
  Client runningApp() {
    StatusInfos s = h.spawn(tool("launcher", 1000), List.of(sleep(1))).orElseThrow();
    return app(info(s, PmixKey.PMIX_NSPACE).orElseThrow().stringValue(), 0);
  }

  @Test
  void b1_newReservesTheNodesForTheToolAndTellsOnlyItWhenTheDaemonsAreUp() {
    long mine = h.registerAll(t);
    h.registerAll(tool("other", 1000));
    h.autoDaemons = false;
    String id = b1();
    assertThat(h.decisions(DvmDecision.Notify.class)).isEmpty();
    DvmView.SessionView s = h.core.view().sessions().get(0);
    assertThat(s.allocId()).isEqualTo(id).isEqualTo(Long.toUnsignedString(s.id()));
    assertThat(s.hosts()).containsExactly("n2", "n3");
    assertThat(s.owner()).contains("tool-a");
    assertThat(s.reqId()).contains("r1");
    h.event(new DvmEvent.DaemonStarted("n2"));
    assertThat(h.decisions(DvmDecision.Notify.class)).isEmpty();
    h.event(new DvmEvent.DaemonStarted("n3"));
    DvmDecision.Notify n = h.decisions(DvmDecision.Notify.class).get(0);
    assertThat(h.decisions(DvmDecision.Notify.class)).hasSize(1);
    assertThat(n.event().status()).isEqualTo(PmixStatus.PMIX_DVM_IS_READY.code());
    assertThat(n.event().target()).contains(t.proc());
    assertThat(n.handlers()).containsExactly(mine);
    assertThat(n.event().infos()).containsExactly(allocId(id), reqId("r1"));
  }

  /** A7 in the DVM: PMIX_REGEX2 node lists as libpmix encodes them are read as the string. */
  @ParameterizedTest
  @ValueSource(strings = {"raw", "compress"})
  void a7_aRegex2NodeListReservesTheNodesItEncodes(String encoding) throws Exception {
    byte[] list = "n2:2,n3:2".getBytes(StandardCharsets.UTF_8);
    PmixRegex r = PmixRegex.raw("n2:2,n3:2");
    if (encoding.equals("compress")) {
      ByteArrayOutputStream z = new ByteArrayOutputStream();
      z.writeBytes(new byte[] {(byte) list.length, 0, 0, 0});
      try (DeflaterOutputStream d = new DeflaterOutputStream(z)) {
        d.write(list);
      }
      r = PmixRegex.regex2("compress", z.toByteArray());
    }
    Info nl = new Info(PmixKey.PMIX_ALLOC_NODE_LIST, PmixDataType.PMIX_REGEX2, r);
    StatusInfos a = h.alloc(t, AllocDirective.NEW, nl).orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(h.core.view().sessions().get(0).hosts()).containsExactly("n2", "n3");
  }

  @Test
  void a7_aRegexNodeListOfAFormNotSupportedIsABadParamNamingTheForm() {
    Info nl =
        new Info(
            PmixKey.PMIX_ALLOC_NODE_LIST,
            PmixDataType.PMIX_REGEX2,
            PmixRegex.regex2("pmix", "pmix[n[1:2-3]]".getBytes(StandardCharsets.UTF_8)));
    StatusInfos a = h.alloc(t, AllocDirective.NEW, nl).orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM);
    assertThat(h.core.view().sessions()).isEmpty();
  }

  @Test
  void b2_aPlainJobCannotUseAReservedNode() {
    b1();
    App onN2 = new App("/bin/hostname", List.of("hostname"), 1, List.of(host("n2")));
    StatusInfos a = h.spawn(tool("prun", 2000), List.of(onN2)).orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_ERR_OUT_OF_RESOURCE);
    assertThat(h.decisions(DvmDecision.LaunchJob.class)).isEmpty();
  }

  @Test
  void b3_aSpawnTargetingTheReservationRunsOnItsNodesForTheOwnerOrTheSameUser() {
    String id = b1();
    Info target = Info.of(PmixKey.PMIX_SPAWN_TARGET, id);
    for (Client c : List.of(t, tool("tool-b-same-user", 1000))) {
      StatusInfos a = h.spawn(c, List.of(sleep(2)), target).orElseThrow();
      assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
      String ns = info(a, PmixKey.PMIX_NSPACE).orElseThrow().stringValue();
      assertThat(
              h.decisions(DvmDecision.LaunchJob.class, l -> l.nspace().equals(ns)).get(0).procs())
          .extracting(DvmDecision.Placement::host)
          .containsOnly("n2");
      h.exitAll(ns, 0);
    }
  }

  @Test
  void b4_aSpawnTargetingAnUnknownAllocationIsNotFoundAndTheDvmSurvives() {
    StatusInfos a =
        h.spawn(t, List.of(sleep(1)), Info.of(PmixKey.PMIX_SPAWN_TARGET, "no-such-allocation"))
            .orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_ERR_NOT_FOUND);
    assertThat(h.spawn(t, List.of(sleep(1))).orElseThrow().status())
        .isEqualTo(PmixStatus.PMIX_SUCCESS);
  }

  @Test
  void b5_anApplicationNamingAnOwnerIsRefusedAndNothingIsReserved() {
    Client j = runningApp();
    StatusInfos a =
        h.alloc(j, AllocDirective.NEW, Info.of(PmixKey.PMIX_ALLOC_TARGET, "x"), nodes("n2"))
            .orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_ERR_NO_PERMISSIONS);
    assertThat(h.core.view().sessions()).isEmpty();
    assertThat(h.core.view().node("n2")).isEmpty();
  }

  @Test
  void b6_extendNamingNoAllocationIsABadParam() {
    assertThat(h.alloc(t, AllocDirective.EXTEND, nodes("n2")).orElseThrow().status())
        .isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM);
  }

  @Test
  void b7_extendOfUnknownAllocIdIsNotFound() {
    assertThat(
            h.alloc(t, AllocDirective.EXTEND, allocId("bogus"), nodes("n2")).orElseThrow().status())
        .isEqualTo(PmixStatus.PMIX_ERR_NOT_FOUND);
  }

  @Test
  void b8_extendOfAnotherJobsReservationIsRefused() {
    Client j1 = runningApp();
    Client j2 = runningApp();
    StatusInfos mine = h.alloc(j1, AllocDirective.NEW, nodes("n2")).orElseThrow();
    String id = info(mine, PmixKey.PMIX_ALLOC_ID).orElseThrow().stringValue();
    String before = DvmHarness.snapshot(h.core.view());
    assertThat(h.alloc(j2, AllocDirective.EXTEND, allocId(id), nodes("n3")).orElseThrow().status())
        .isEqualTo(PmixStatus.PMIX_ERR_NO_PERMISSIONS);
    assertThat(DvmHarness.snapshot(h.core.view())).isEqualTo(before);
  }

  @Test
  void b8_underAScheduler_refusedBeforeTheSchedulerIsAsked() {
    Client j1 = runningApp();
    Client j2 = runningApp();
    Client sched = DvmHarness.schedulerClient();
    h.event(new DvmEvent.SchedulerAttached(sched));
    h.sessionControl(
        sched,
        "n1",
        7,
        Info.of(PmixKey.PMIX_SESSION_INSTANTIATE, true),
        Info.of(PmixKey.PMIX_ALLOC_ID, "s7"),
        nodes("n2"),
        Info.of(PmixKey.PMIX_REQUESTOR, j1.proc()));
    assertThat(h.core.view().session(7)).isPresent();
    java.util.function.Supplier<Long> asked =
        () ->
            h.decisions(DvmDecision.ToScheduler.class).stream()
                .filter(d -> d.call() instanceof DvmDecision.Allocate)
                .count();
    long before0 = asked.get();
    String before = DvmHarness.snapshot(h.core.view());
    // D477: the scheduler would grant what the DVM then refuses to apply
    assertThat(
            h.alloc(j2, AllocDirective.EXTEND, allocId("s7"), nodes("n3")).orElseThrow().status())
        .isEqualTo(PmixStatus.PMIX_ERR_NO_PERMISSIONS);
    assertThat(asked.get()).isEqualTo(before0);
    assertThat(DvmHarness.snapshot(h.core.view())).isEqualTo(before);
    // an EXTEND of an allocation the DVM does not hold is still the scheduler's to answer
    h.alloc(j2, AllocDirective.EXTEND, allocId("elsewhere"), nodes("n3"));
    assertThat(asked.get()).isEqualTo(before0 + 1);
  }

  @Test
  void b5_underAScheduler_refusedBeforeTheSchedulerIsAsked() {
    Client j = runningApp();
    h.event(new DvmEvent.SchedulerAttached(DvmHarness.schedulerClient()));
    java.util.function.Supplier<Long> asked =
        () ->
            h.decisions(DvmDecision.ToScheduler.class).stream()
                .filter(d -> d.call() instanceof DvmDecision.Allocate)
                .count();
    String before = DvmHarness.snapshot(h.core.view());
    // D477: the scheduler would grant what the DVM then refuses to apply
    assertThat(
            h.alloc(j, AllocDirective.NEW, Info.of(PmixKey.PMIX_ALLOC_TARGET, "x"), nodes("n2"))
                .orElseThrow()
                .status())
        .isEqualTo(PmixStatus.PMIX_ERR_NO_PERMISSIONS);
    assertThat(asked.get()).isZero();
    assertThat(DvmHarness.snapshot(h.core.view())).isEqualTo(before);
  }

  @Test
  void b9_aSharedNewPutsTheNodesInThePoolWithoutAReservationId() {
    StatusInfos a =
        h.alloc(t, AllocDirective.NEW, Info.of(PmixKey.PMIX_ALLOC_SHARE, true), nodes("n2:2"))
            .orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(info(a, PmixKey.PMIX_ALLOC_ID)).isEmpty();
    assertThat(h.core.view().pool()).contains("n2");
    assertThat(h.core.view().sessions()).isEmpty();
  }

  @Test
  void b10_releaseByIdTearsTheReservationDownShrinksItsDaemonsButNeverTheMasters() {
    h.registerAll(t);
    String id =
        info(h.alloc(t, AllocDirective.NEW, nodes("n1,n2")).orElseThrow(), PmixKey.PMIX_ALLOC_ID)
            .orElseThrow()
            .stringValue();
    int eventsBefore = h.decisions(DvmDecision.Notify.class).size();
    StatusInfos a = h.alloc(t, AllocDirective.RELEASE, allocId(id)).orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(h.core.view().sessions()).isEmpty();
    assertThat(h.decisions(DvmDecision.StopDaemon.class))
        .extracting(DvmDecision.StopDaemon::host)
        .containsExactly("n2");
    assertThat(h.core.view().pool()).contains("n1").doesNotContain("n2");
    assertThat(h.core.view().node("n1").orElseThrow().daemon()).isEqualTo(DaemonState.UP);
    assertThat(h.decisions(DvmDecision.Notify.class)).hasSize(eventsBefore);
  }

  @Test
  void b12_releaseOfAnUnknownNodeIsNotFound() {
    assertThat(h.alloc(t, AllocDirective.RELEASE, nodes("unknown-node")).orElseThrow().status())
        .isEqualTo(PmixStatus.PMIX_ERR_NOT_FOUND);
  }

  @Test
  void b13_releaseOfNothingIsNotFound() {
    assertThat(h.alloc(t, AllocDirective.RELEASE).orElseThrow().status())
        .isEqualTo(PmixStatus.PMIX_ERR_NOT_FOUND);
  }

  @Test
  void b16_aCountWithoutASchedulerIsRefusedRatherThanAnEmptyReservation() {
    StatusInfos a =
        h.alloc(t, AllocDirective.NEW, Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, 2L)).orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_ERR_NOT_SUPPORTED);
    assertThat(h.core.view().sessions()).isEmpty();
  }

  @Test
  void b17_withASchedulerAttachedTheRequestIsForwardedWithTheRequestor() {
    h.event(new DvmEvent.SchedulerAttached(DvmHarness.schedulerClient()));
    assertThat(h.alloc(t, AllocDirective.NEW, Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, 2L))).isEmpty();
    DvmDecision.ToScheduler call = h.decisions(DvmDecision.ToScheduler.class).get(0);
    DvmDecision.Allocate up = (DvmDecision.Allocate) call.call();
    assertThat(up.directive()).isEqualTo(AllocDirective.NEW);
    assertThat(up.requester()).isEqualTo(t.proc());
    assertThat(up.infos())
        .containsExactly(
            Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, 2L), Info.of(PmixKey.PMIX_REQUESTOR, t.proc()));
    assertThat(h.core.view().pendingRequests())
        .singleElement()
        .satisfies(p -> assertThat(p.waiting()).isEqualTo(DvmView.Waiting.SCHEDULER));
    StatusInfos answer =
        new StatusInfos(PmixStatus.PMIX_SUCCESS, List.of(allocId("s1"), nodes("n5:2,n6:2")));
    h.event(new DvmEvent.SchedulerAnswered(call.callId(), answer));
    assertThat(h.answers.get(call.requestId().getAsLong())).isEqualTo(answer);
  }

  @Test
  void b18_theSchedulersGrantBecomesASessionOnlyThroughItsSessionControl() {
    Client sched = DvmHarness.schedulerClient();
    h.event(new DvmEvent.SchedulerAttached(sched));
    long ref = h.registerAll(t);
    h.alloc(t, AllocDirective.NEW, nodes("n5"));
    DvmDecision.ToScheduler call = h.decisions(DvmDecision.ToScheduler.class).get(0);
    // PRRTE §7.4.3 Flow-of-Control: the scheduler informs the DVM of the grant through session
    // control first
    StatusInfos inst =
        h.sessionControl(
                sched,
                "n1",
                42,
                Info.of(PmixKey.PMIX_SESSION_INSTANTIATE, true),
                allocId("s42"),
                nodes("n5"),
                Info.of(PmixKey.PMIX_REQUESTOR, t.proc()))
            .orElseThrow();
    assertThat(inst.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    StatusInfos grant = new StatusInfos(PmixStatus.PMIX_SUCCESS, List.of(allocId("s42")));
    h.event(new DvmEvent.SchedulerAnswered(call.callId(), grant));
    assertThat(h.answers.get(call.requestId().getAsLong())).isEqualTo(grant);
    DvmView.SessionView s = h.core.view().session(42).orElseThrow();
    assertThat(s.allocId()).isEqualTo("s42");
    assertThat(s.hosts()).containsExactly("n5");
    assertThat(s.owner()).contains("tool-a");
    assertThat(h.core.view().node("n5").orElseThrow().daemon()).isEqualTo(DaemonState.UP);
    assertThat(h.decisions(DvmDecision.Notify.class))
        .singleElement()
        .satisfies(
            n -> {
              assertThat(n.event().status()).isEqualTo(PmixStatus.PMIX_DVM_IS_READY.code());
              assertThat(n.handlers()).containsExactly(ref);
            });
  }

  @Test
  void b19_aSchedulersRefusalGoesBackUnchangedAndChangesNothing() {
    h.event(new DvmEvent.SchedulerAttached(DvmHarness.schedulerClient()));
    String before = DvmHarness.snapshot(h.core.view());
    h.alloc(t, AllocDirective.NEW, nodes("n5"));
    DvmDecision.ToScheduler call = h.decisions(DvmDecision.ToScheduler.class).get(0);
    StatusInfos no = StatusInfos.of(PmixStatus.PMIX_ERR_NOT_SUPPORTED);
    h.event(new DvmEvent.SchedulerAnswered(call.callId(), no));
    assertThat(h.answers.get(call.requestId().getAsLong())).isEqualTo(no);
    assertThat(DvmHarness.snapshot(h.core.view())).isEqualTo(before);
    assertThat(h.decisions(DvmDecision.Notify.class)).isEmpty();
  }

  @Test
  void b20_whenTheOwnerToolEndsDefaultInheritanceUnreservesTheNodes() {
    b1();
    h.event(new DvmEvent.ClientGone(t.proc()));
    assertThat(h.core.view().sessions()).isEmpty();
    assertThat(h.core.view().pool()).contains("n2", "n3");
    App both = new App("/bin/hostname", List.of("hostname"), 2, List.of(host("n2,n3")));
    assertThat(h.spawn(tool("prun", 2000), List.of(both)).orElseThrow().status())
        .isEqualTo(PmixStatus.PMIX_SUCCESS);
  }

  @Test
  void b21_inheritanceNoneHandsTheNodesBackWhenTheOwnerEnds() {
    h.alloc(
        t,
        AllocDirective.NEW,
        nodes("n2,n3"),
        Info.of(PmixKey.PMIX_ALLOC_INHERITANCE, AllocInheritance.NONE));
    h.event(new DvmEvent.ClientGone(t.proc()));
    assertThat(h.core.view().sessions()).isEmpty();
    assertThat(h.decisions(DvmDecision.StopDaemon.class))
        .extracting(DvmDecision.StopDaemon::host)
        .containsExactly("n2", "n3");
    assertThat(h.core.view().node("n2")).isEmpty();
    assertThat(h.decisions(DvmDecision.SessionReclaimed.class).get(0).handedBack()).isTrue();
  }

  @Test
  void b22_inheritanceChildKeepsTheReservationUntilTheLastDescendantEnds() {
    Client j = runningApp();
    String id =
        info(
                h.alloc(
                        j,
                        AllocDirective.NEW,
                        nodes("n2"),
                        Info.of(PmixKey.PMIX_ALLOC_INHERITANCE, AllocInheritance.CHILD))
                    .orElseThrow(),
                PmixKey.PMIX_ALLOC_ID)
            .orElseThrow()
            .stringValue();
    StatusInfos child =
        h.spawn(
                j,
                List.of(sleep(1)),
                Info.of(PmixKey.PMIX_SPAWN_TARGET, id),
                Info.of(PmixKey.PMIX_NOHUP, true))
            .orElseThrow();
    String childNs = info(child, PmixKey.PMIX_NSPACE).orElseThrow().stringValue();
    h.exitAll(j.proc().nspace(), 0);
    assertThat(h.core.view().job(childNs)).isPresent();
    assertThat(h.core.view().sessions()).hasSize(1);
    h.exitAll(childNs, 0);
    assertThat(h.core.view().sessions()).isEmpty();
    assertThat(h.decisions(DvmDecision.StopDaemon.class))
        .extracting(DvmDecision.StopDaemon::host)
        .containsExactly("n2");
  }

  @Test
  void b22_aGrandchildOutlivingItsParentKeepsTheReservationToo() {
    Client j = runningApp();
    String id =
        info(
                h.alloc(
                        j,
                        AllocDirective.NEW,
                        nodes("n2:3"),
                        Info.of(PmixKey.PMIX_ALLOC_INHERITANCE, AllocInheritance.CHILD))
                    .orElseThrow(),
                PmixKey.PMIX_ALLOC_ID)
            .orElseThrow()
            .stringValue();
    Info target = Info.of(PmixKey.PMIX_SPAWN_TARGET, id);
    Info nohup = Info.of(PmixKey.PMIX_NOHUP, true);
    String child =
        info(h.spawn(j, List.of(sleep(1)), target, nohup).orElseThrow(), PmixKey.PMIX_NSPACE)
            .orElseThrow()
            .stringValue();
    String grandchild =
        info(h.spawn(app(child, 0), List.of(sleep(1)), nohup).orElseThrow(), PmixKey.PMIX_NSPACE)
            .orElseThrow()
            .stringValue();
    assertThat(h.core.view().job(grandchild).orElseThrow().parent()).contains(child);
    h.exitAll(j.proc().nspace(), 0);
    h.exitAll(child, 0);
    assertThat(h.core.view().sessions()).hasSize(1);
    h.exitAll(grandchild, 0);
    assertThat(h.core.view().sessions()).isEmpty();
  }

  @Test
  void b17_aSecondSchedulerReplacesTheFirstWhoseCallsAreAnsweredUnreach() {
    h.event(new DvmEvent.SchedulerAttached(DvmHarness.schedulerClient()));
    h.alloc(t, AllocDirective.NEW, nodes("n5"));
    long rid = h.decisions(DvmDecision.ToScheduler.class).get(0).requestId().getAsLong();
    Client other =
        new Client(new io.fluxdrm.pmix.PmixProc("sched-2", 0), 1000, 1000, Client.Kind.SCHEDULER);
    h.event(new DvmEvent.SchedulerAttached(other));
    assertThat(h.answers.get(rid).status()).isEqualTo(PmixStatus.PMIX_ERR_UNREACH);
    assertThat(h.core.view().scheduler()).contains(other);
  }

  @Test
  void b23_aTimeoutWarningGoesOnlyToTheRecordedRequester() {
    Client sched = DvmHarness.schedulerClient();
    h.event(new DvmEvent.SchedulerAttached(sched));
    long ref = h.registerAll(t);
    h.registerAll(tool("other", 1000));
    h.sessionControl(
        sched,
        "n1",
        7,
        Info.of(PmixKey.PMIX_SESSION_INSTANTIATE, true),
        allocId("s7"),
        reqId("r7"),
        nodes("n5"),
        Info.of(PmixKey.PMIX_REQUESTOR, t.proc()));
    int before = h.decisions(DvmDecision.Notify.class).size();
    String snap = DvmHarness.snapshot(h.core.view());
    h.event(
        new DvmEvent.SchedulerEvent(
            PmixStatus.PMIX_ALLOC_TIMEOUT_WARNING.code(),
            List.of(allocId("s7"), Info.of(PmixKey.PMIX_TIME_REMAINING, 30L))));
    List<DvmDecision.Notify> ns = h.decisions(DvmDecision.Notify.class);
    assertThat(ns).hasSize(before + 1);
    DvmDecision.Notify n = ns.get(ns.size() - 1);
    assertThat(n.handlers()).containsExactly(ref);
    assertThat(n.event().infos())
        .containsExactly(allocId("s7"), reqId("r7"), Info.of(PmixKey.PMIX_TIME_REMAINING, 30L));
    assertThat(DvmHarness.snapshot(h.core.view())).isEqualTo(snap);
  }

  @Test
  void b24_activateStartsDaemonsOnHeldIdleNodesWithoutTheScheduler() {
    h.event(new DvmEvent.SchedulerAttached(DvmHarness.schedulerClient()));
    long ref = h.registerAll(t);
    assertThat(h.alloc(t, AllocDirective.ACTIVATE, host("+e")).orElseThrow().status())
        .isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM);
    assertThat(h.alloc(t, AllocDirective.ACTIVATE, host("n4:4")).orElseThrow().status())
        .isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM);
    assertThat(h.decisions(DvmDecision.StartDaemon.class, s -> s.host().equals("n4"))).isEmpty();
    StatusInfos a = h.alloc(t, AllocDirective.ACTIVATE, host("+all")).orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(h.decisions(DvmDecision.StartDaemon.class, s -> s.host().equals("n4"))).hasSize(1);
    assertThat(h.core.view().node("n4").orElseThrow().daemon()).isEqualTo(DaemonState.UP);
    assertThat(h.decisions(DvmDecision.ToScheduler.class)).isEmpty();
    assertThat(h.decisions(DvmDecision.Notify.class))
        .singleElement()
        .satisfies(n -> assertThat(n.handlers()).containsExactly(ref));
  }

  @Test
  void b24_activateNamesNodesByHostfileTooReadByTheService() {
    long rid = h.nextRequestId();
    h.event(
        new DvmEvent.AllocationRequest(
            rid,
            t,
            "n1",
            AllocDirective.ACTIVATE,
            List.of(Info.of(PmixKey.PMIX_HOSTFILE, "hosts.txt"))));
    assertThat(h.decisions(DvmDecision.ReadFile.class))
        .containsExactly(new DvmDecision.ReadFile(rid, "hosts.txt"));
    h.event(
        new DvmEvent.FileRead(rid, "hosts.txt", java.util.Optional.of("# idle\nn4 slots=2\n"), ""));
    assertThat(h.answers.get(rid).status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(h.core.view().node("n4").orElseThrow().daemon()).isEqualTo(DaemonState.UP);
  }

  static Info spawnAlloc(Info... request) {
    return new Info(
        io.fluxdrm.pmix.request.SpawnAllocation.KEY,
        PmixDataType.PMIX_DATA_ARRAY,
        List.of(request));
  }

  static Info directive(AllocDirective d) {
    return new Info(
        io.fluxdrm.pmix.request.SpawnAllocation.DIRECTIVE_KEY,
        PmixDataType.PMIX_ALLOC_DIRECTIVE,
        d.code());
  }

  @Test
  void b25_aSpawnWhoseAllocationIsRefusedFailsWithJobAllocFailedAndLaunchesNothing() {
    Client sched = DvmHarness.schedulerClient();
    h.event(new DvmEvent.SchedulerAttached(sched));
    assertThat(
            h.spawn(t, List.of(sleep(1)), spawnAlloc(directive(AllocDirective.NEW), nodes("n5"))))
        .isEmpty();
    DvmDecision.ToScheduler call = h.decisions(DvmDecision.ToScheduler.class).get(0);
    h.event(
        new DvmEvent.SchedulerAnswered(
            call.callId(), StatusInfos.of(PmixStatus.PMIX_ERR_OUT_OF_RESOURCE)));
    assertThat(h.answers.get(call.requestId().getAsLong()).status())
        .isEqualTo(PmixStatus.PMIX_ERR_JOB_ALLOC_FAILED);
    assertThat(h.decisions(DvmDecision.LaunchJob.class)).isEmpty();
    assertThat(h.core.view().jobs()).isEmpty();
  }

  @Test
  void b25_aSpawnAllocationWithoutItsDirectiveIsABadParam() {
    StatusInfos a = h.spawn(t, List.of(sleep(1)), spawnAlloc(nodes("n5"))).orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM);
    assertThat(h.core.view().sessions()).isEmpty();
    assertThat(h.core.view().node("n5")).isEmpty();
  }

  @Test
  void b25_aGrantedSpawnAllocationIsServedFirstThenLaunchedIntoIt() {
    StatusInfos a =
        h.spawn(t, List.of(sleep(2)), spawnAlloc(directive(AllocDirective.NEW), nodes("n5:2")))
            .orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    String ns = info(a, PmixKey.PMIX_NSPACE).orElseThrow().stringValue();
    DvmView.JobView j = h.core.view().job(ns).orElseThrow();
    assertThat(h.core.view().session(j.sessionId()).orElseThrow().hosts()).containsExactly("n5");
    assertThat(j.procsPerNode()).containsOnlyKeys("n5");
  }

  @Test
  void b25_aLaunchFailingAfterTheGrantHandsTheAllocationBack() {
    h.failingLaunches.add("prte-dvm@1");
    StatusInfos a =
        h.spawn(t, List.of(sleep(1)), spawnAlloc(directive(AllocDirective.NEW), nodes("n5")))
            .orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_ERR_JOB_FAILED_TO_LAUNCH);
    assertThat(h.core.view().sessions()).isEmpty();
    assertThat(h.decisions(DvmDecision.SessionReclaimed.class))
        .singleElement()
        .satisfies(r -> assertThat(r.handedBack()).isTrue());
    assertThat(h.core.view().node("n5")).isEmpty();
  }
}
