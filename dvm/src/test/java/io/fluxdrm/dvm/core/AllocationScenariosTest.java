package io.fluxdrm.dvm.core;

import static io.fluxdrm.dvm.core.DvmSteps.check;
import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixDataType;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixRegex;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.pmix.request.SpawnAllocation;
import io.fluxdrm.testkit.StepTable;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.zip.DeflaterOutputStream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Scenarios B1 to B25 of docs/scenarios.md (allocation requests, PRRTE §7.4.3 Flow-of-Control and
 * PRRTE PR #1904, the error table of PRRTE node-reservation spec), except the elastic-only B11, B14
 * and B15, and A7 in the DVM. The DVM starts on n1 (master, 2 slots) and n4 (allocated, no daemon);
 * other nodes join when named. One step table per scenario ({@link DvmSteps}), each a test named by
 * its id; the client {@code t} is the tool {@code tool-a}, {@code sched} the scheduler.
 */
class AllocationScenariosTest {

  static DvmConfig config() {
    return DvmConfig.of(
            List.of(new DvmConfig.NodeSpec("n1", 2), new DvmConfig.NodeSpec("n4", 2, false)),
            "prte-dvm",
            1000)
        .withElastic(true);
  }

  static final Client T = DvmHarness.tool("tool-a", 1000);

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

  static Info spawnAlloc(Info... request) {
    return new Info(SpawnAllocation.KEY, PmixDataType.PMIX_DATA_ARRAY, List.of(request));
  }

  static Info directive(AllocDirective d) {
    return new Info(SpawnAllocation.DIRECTIVE_KEY, PmixDataType.PMIX_ALLOC_DIRECTIVE, d.code());
  }

  /** A PMIX_REGEX2 node list as libpmix encodes {@code n2:2,n3:2}: raw or compressed. */
  static Info regex2(String encoding) throws Exception {
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
    return new Info(PmixKey.PMIX_ALLOC_NODE_LIST, PmixDataType.PMIX_REGEX2, r);
  }

  /**
   * B1's reservation: n2:2,n3:2 for {@code t}, label r1, its ALLOC_ID as {@code $id}; then the
   * checks of {@code state}.
   */
  static String b1(String state) {
    return "alloc t NEW nodes=n2:2,n3:2 alloc_req_id=r1 | SUCCESS alloc_req_id=r1 alloc_id>id | "
        + state
        + "\n";
  }

  static final String B1 = b1("");

  /** A running job (np 1 on the pool) as {@code $V}: its rank 0 is the client {@code app:$V:0}. */
  static String running(String v) {
    return "spawn tool:launcher:1000 sleep:1 | answered nspace>%s |\n".formatted(v);
  }

  /** Allocation requests the DVM forwarded to its scheduler. */
  static long asked(DvmSteps s) {
    return s.h.decisions(DvmDecision.ToScheduler.class).stream()
        .filter(d -> d.call() instanceof DvmDecision.Allocate)
        .count();
  }

  /** The DVM's first call to its scheduler. */
  static DvmDecision.ToScheduler firstCall(DvmSteps s) {
    return s.h.decisions(DvmDecision.ToScheduler.class).get(0);
  }

  /**
   * The checks every scenario here may use: {@code mark} (remember the events sent, the requests
   * forwarded and the view), {@code notifies N} (N events sent), {@code notifiesSinceMark N} (N
   * since the mark), {@code asked N} (N allocation requests forwarded since the mark, or at all
   * without one), {@code sameAsMark} (the view as at the mark), {@code stopped H...} (the daemons
   * stopped, in order), {@code handedBack} (the first reclaimed session was handed back), {@code
   * sessionCount N}, {@code firstSessionHosts H...}, {@code schedulerAnswers STATUS} (the scheduler
   * answers its first call with STATUS, which goes back unchanged).
   */
  static final List<DvmSteps.Named> COMMON =
      List.of(
          check(
              "mark",
              s -> {
                s.named.put("mark.notifies", s.h.decisions(DvmDecision.Notify.class).size());
                s.named.put("mark.asked", asked(s));
                s.named.put("mark.view", DvmHarness.snapshot(s.h.core.view()));
              }),
          check(
              "notifies",
              s ->
                  assertThat(s.h.decisions(DvmDecision.Notify.class))
                      .hasSize(Integer.parseInt(s.args.get(0)))),
          check(
              "notifiesSinceMark",
              s ->
                  assertThat(s.h.decisions(DvmDecision.Notify.class))
                      .hasSize(
                          (int) s.named.get("mark.notifies") + Integer.parseInt(s.args.get(0)))),
          check(
              "asked",
              s ->
                  assertThat(asked(s))
                      .isEqualTo(
                          (long) s.named.getOrDefault("mark.asked", 0L)
                              + Long.parseLong(s.args.get(0)))),
          check(
              "sameAsMark",
              s ->
                  assertThat(DvmHarness.snapshot(s.h.core.view()))
                      .isEqualTo(s.named.get("mark.view"))),
          check(
              "handedBack",
              s ->
                  assertThat(s.h.decisions(DvmDecision.SessionReclaimed.class).get(0).handedBack())
                      .isTrue()),
          check(
              "sessionCount",
              s -> assertThat(s.h.core.view().sessions()).hasSize(Integer.parseInt(s.args.get(0)))),
          check(
              "firstSessionHosts",
              s ->
                  assertThat(s.h.core.view().sessions().get(0).hosts())
                      .containsExactlyElementsOf(s.args)),
          check(
              "schedulerAnswers",
              s -> {
                StatusInfos no = StatusInfos.of(PmixStatus.valueOf("PMIX_" + s.args.get(0)));
                s.named.put("schedulerAnswer", no);
                s.named.put("answeredWith", s.schedulerAnswers(firstCall(s), no));
              }));

  static StepTable.Scenario scenario(
      String id, String title, String table, DvmSteps.Named... checks) {
    return DvmSteps.scenario(
        id,
        title,
        AllocationScenariosTest::config,
        s -> {
          s.clients.put("t", T);
          s.clients.put("sched", DvmHarness.schedulerClient());
          s.clients.put(
              "sched2", new Client(new PmixProc("sched-2", 0), 1000, 1000, Client.Kind.SCHEDULER));
          s.named.put("raw", regex2("raw"));
          s.named.put("compress", regex2("compress"));
          s.named.put(
              "pmixRegex",
              new Info(
                  PmixKey.PMIX_ALLOC_NODE_LIST,
                  PmixDataType.PMIX_REGEX2,
                  PmixRegex.regex2("pmix", "pmix[n[1:2-3]]".getBytes(StandardCharsets.UTF_8))));
          s.named.put(
              "onN2",
              List.of(new App("/bin/hostname", List.of("hostname"), 1, List.of(host("n2")))));
          s.named.put(
              "onN2N3",
              List.of(new App("/bin/hostname", List.of("hostname"), 2, List.of(host("n2,n3")))));
          s.named.put("newN5", spawnAlloc(directive(AllocDirective.NEW), nodes("n5")));
          s.named.put("newN5x2", spawnAlloc(directive(AllocDirective.NEW), nodes("n5:2")));
          s.named.put("noDirective", spawnAlloc(nodes("n5")));
        },
        table,
        COMMON,
        checks);
  }

  @TestFactory
  Stream<DynamicTest> scenarios() {
    return StepTable.tests(
        List.of(
            scenario(
                "B1",
                "newReservesTheNodesForTheToolAndTellsOnlyItWhenTheDaemonsAreUp",
                """
                register t >mine
                register tool:other:1000
                set autoDaemons false
                %s
                started n2 | | check notifies 0
                started n3 | | check readyToTheOwnerOnly
                """
                    .formatted(b1("check notifies 0; check reservation").strip()),
                check(
                    "reservation",
                    s -> {
                      DvmView.SessionView v = s.h.core.view().sessions().get(0);
                      assertThat(v.allocId())
                          .isEqualTo(s.var("id"))
                          .isEqualTo(Long.toUnsignedString(v.id()));
                      assertThat(v.hosts()).containsExactly("n2", "n3");
                      assertThat(v.owner()).contains("tool-a");
                      assertThat(v.reqId()).contains("r1");
                    }),
                check(
                    "readyToTheOwnerOnly",
                    s -> {
                      DvmDecision.Notify n = s.h.decisions(DvmDecision.Notify.class).get(0);
                      assertThat(s.h.decisions(DvmDecision.Notify.class)).hasSize(1);
                      assertThat(n.event().status()).isEqualTo(PmixStatus.PMIX_DVM_IS_READY.code());
                      assertThat(n.event().target()).contains(T.proc());
                      assertThat(n.handlers()).containsExactly(Long.parseLong(s.var("mine")));
                      assertThat(n.event().infos())
                          .containsExactly(allocId(s.var("id")), reqId("r1"));
                    })),
            // A7 in the DVM: PMIX_REGEX2 node lists as libpmix encodes them are read as the string
            scenario(
                "A7",
                "aRegex2NodeListReservesTheNodesItEncodes",
                """
                alloc t NEW @raw | SUCCESS | check firstSessionHosts n2 n3
                """),
            scenario(
                "A7",
                "aCompressedRegex2NodeListReservesTheNodesItEncodes",
                """
                alloc t NEW @compress | SUCCESS | check firstSessionHosts n2 n3
                """),
            scenario(
                "A7",
                "aRegexNodeListOfAFormNotSupportedIsABadParamNamingTheForm",
                """
                alloc t NEW @pmixRegex | ERR_BAD_PARAM | sessions: -
                """),
            scenario(
                "B2",
                "aPlainJobCannotUseAReservedNode",
                B1
                    + """
                    spawn tool:prun:2000 @onN2 | ERR_OUT_OF_RESOURCE | launches: -
                    """),
            scenario(
                "B3",
                "aSpawnTargetingTheReservationRunsOnItsNodesForTheOwnerOrTheSameUser",
                B1
                    + """
                    spawn t sleep:2 spawn_target=$id | SUCCESS nspace>a | check onlyOn $a n2
                    exit $a 0
                    spawn tool:tool-b-same-user:1000 sleep:2 spawn_target=$id | SUCCESS nspace>b | check onlyOn $b n2
                    exit $b 0
                    """,
                check(
                    "onlyOn",
                    s ->
                        assertThat(
                                s.h
                                    .decisions(
                                        DvmDecision.LaunchJob.class,
                                        l -> l.nspace().equals(s.args.get(0)))
                                    .get(0)
                                    .procs())
                            .extracting(DvmDecision.Placement::host)
                            .containsOnly(s.args.get(1)))),
            scenario(
                "B4",
                "aSpawnTargetingAnUnknownAllocationIsNotFoundAndTheDvmSurvives",
                """
                spawn t sleep:1 spawn_target=no-such-allocation | ERR_NOT_FOUND
                spawn t sleep:1                                 | SUCCESS
                """),
            scenario(
                "B5",
                "anApplicationNamingAnOwnerIsRefusedAndNothingIsReserved",
                running("j")
                    + """
                    alloc app:$j:0 NEW alloc_target=x nodes=n2 | ERR_NO_PERMISSIONS | sessions: -; node n2 absent
                    """),
            scenario(
                "B6",
                "extendNamingNoAllocationIsABadParam",
                """
                alloc t EXTEND nodes=n2 | ERR_BAD_PARAM
                """),
            scenario(
                "B7",
                "extendOfUnknownAllocIdIsNotFound",
                """
                alloc t EXTEND alloc_id=bogus nodes=n2 | ERR_NOT_FOUND
                """),
            scenario(
                "B8",
                "extendOfAnotherJobsReservationIsRefused",
                running("j1")
                    + running("j2")
                    + """
                    alloc app:$j1:0 NEW nodes=n2                  | answered alloc_id>id |
                    alloc app:$j2:0 EXTEND alloc_id=$id nodes=n3 | ERR_NO_PERMISSIONS   | unchanged
                    """),
            scenario(
                "B8",
                "underAScheduler_refusedBeforeTheSchedulerIsAsked",
                running("j1")
                    + running("j2")
                    + """
                    attach sched
                    sc sched n1 7 inst alloc_id=s7 nodes=n2 requestor=app:$j1:0 | | session 7 present
                    check mark
                    # D477: the scheduler would grant what the DVM then refuses to apply
                    alloc app:$j2:0 EXTEND alloc_id=s7 nodes=n3 | ERR_NO_PERMISSIONS | check asked 0; unchanged
                    # an EXTEND of an allocation the DVM does not hold is still the scheduler's to answer
                    alloc app:$j2:0 EXTEND alloc_id=elsewhere nodes=n3 | | check asked 1
                    """),
            scenario(
                "B5",
                "underAScheduler_refusedBeforeTheSchedulerIsAsked",
                running("j")
                    + """
                    attach sched
                    # D477: the scheduler would grant what the DVM then refuses to apply
                    alloc app:$j:0 NEW alloc_target=x nodes=n2 | ERR_NO_PERMISSIONS | check asked 0; unchanged
                    """),
            scenario(
                "B9",
                "aSharedNewPutsTheNodesInThePoolWithoutAReservationId",
                """
                alloc t NEW alloc_share nodes=n2:2 | SUCCESS !alloc_id | pool has n2; sessions: -
                """),
            scenario(
                "B10",
                "releaseByIdTearsTheReservationDownShrinksItsDaemonsButNeverTheMasters",
                """
                register t
                alloc t NEW nodes=n1,n2 | answered alloc_id>id |
                check mark
                alloc t RELEASE alloc_id=$id | SUCCESS | sessions: -; stopped n2; pool has n1; pool lacks n2; daemon n1 UP; check notifiesSinceMark 0
                """),
            scenario(
                "B12",
                "releaseOfAnUnknownNodeIsNotFound",
                """
                alloc t RELEASE nodes=unknown-node | ERR_NOT_FOUND
                """),
            scenario(
                "B13",
                "releaseOfNothingIsNotFound",
                """
                alloc t RELEASE | ERR_NOT_FOUND
                """),
            scenario(
                "B16",
                "aCountWithoutASchedulerIsRefusedRatherThanAnEmptyReservation",
                """
                alloc t NEW alloc_num_nodes=2 | ERR_NOT_SUPPORTED | sessions: -
                """),
            scenario(
                "B17",
                "withASchedulerAttachedTheRequestIsForwardedWithTheRequestor",
                """
                attach sched
                alloc t NEW alloc_num_nodes=2 | pending | check forwarded; check waitingForTheScheduler
                check grant
                """,
                check(
                    "forwarded",
                    s -> {
                      DvmDecision.Allocate up = (DvmDecision.Allocate) firstCall(s).call();
                      assertThat(up.directive()).isEqualTo(AllocDirective.NEW);
                      assertThat(up.requester()).isEqualTo(T.proc());
                      assertThat(up.infos())
                          .containsExactly(
                              Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, 2L),
                              Info.of(PmixKey.PMIX_REQUESTOR, T.proc()));
                    }),
                check(
                    "waitingForTheScheduler",
                    s ->
                        assertThat(s.h.core.view().pendingRequests())
                            .singleElement()
                            .satisfies(
                                p -> assertThat(p.waiting()).isEqualTo(DvmView.Waiting.SCHEDULER))),
                check(
                    "grant",
                    s -> {
                      StatusInfos answer =
                          new StatusInfos(
                              PmixStatus.PMIX_SUCCESS, List.of(allocId("s1"), nodes("n5:2,n6:2")));
                      assertThat(s.schedulerAnswers(firstCall(s), answer)).isEqualTo(answer);
                    })),
            scenario(
                "B18",
                "theSchedulersGrantBecomesASessionOnlyThroughItsSessionControl",
                """
                attach sched
                register t >ref
                alloc t NEW nodes=n5
                # PRRTE §7.4.3 Flow-of-Control: the scheduler informs the DVM of the grant through
                # session control first
                sc sched n1 42 inst alloc_id=s42 nodes=n5 requestor=t | SUCCESS
                check grant | | check session42; session 42 hosts n5; daemon n5 UP; check readyToRef
                """,
                check(
                    "grant",
                    s -> {
                      StatusInfos grant =
                          new StatusInfos(PmixStatus.PMIX_SUCCESS, List.of(allocId("s42")));
                      assertThat(s.schedulerAnswers(firstCall(s), grant)).isEqualTo(grant);
                    }),
                check(
                    "session42",
                    s -> {
                      DvmView.SessionView v = s.h.core.view().session(42).orElseThrow();
                      assertThat(v.allocId()).isEqualTo("s42");
                      assertThat(v.owner()).contains("tool-a");
                    }),
                check(
                    "readyToRef",
                    s ->
                        assertThat(s.h.decisions(DvmDecision.Notify.class))
                            .singleElement()
                            .satisfies(
                                n -> {
                                  assertThat(n.event().status())
                                      .isEqualTo(PmixStatus.PMIX_DVM_IS_READY.code());
                                  assertThat(n.handlers())
                                      .containsExactly(Long.parseLong(s.var("ref")));
                                }))),
            scenario(
                "B19",
                "aSchedulersRefusalGoesBackUnchangedAndChangesNothing",
                """
                attach sched
                check mark
                alloc t NEW nodes=n5
                check schedulerAnswers ERR_NOT_SUPPORTED | | check sameAnswer; check sameAsMark; check notifies 0
                """,
                check(
                    "sameAnswer",
                    s ->
                        assertThat(s.named.get("answeredWith"))
                            .isEqualTo(s.named.get("schedulerAnswer")))),
            scenario(
                "B20",
                "whenTheOwnerToolEndsDefaultInheritanceUnreservesTheNodes",
                B1
                    + """
                    gone t | | sessions: -; pool has n2 n3
                    spawn tool:prun:2000 @onN2N3 | SUCCESS
                    """),
            scenario(
                "B21",
                "inheritanceNoneHandsTheNodesBackWhenTheOwnerEnds",
                """
                alloc t NEW nodes=n2,n3 alloc_inheritance=NONE
                gone t | | sessions: -; stopped n2 n3; node n2 absent; check handedBack
                """),
            scenario(
                "B22",
                "inheritanceChildKeepsTheReservationUntilTheLastDescendantEnds",
                running("j")
                    + """
                    alloc app:$j:0 NEW nodes=n2 alloc_inheritance=CHILD   | answered alloc_id>id |
                    spawn app:$j:0 sleep:1 spawn_target=$id nohup         | answered nspace>c   |
                    exit $j 0 | | check jobExists $c; check sessionCount 1
                    exit $c 0 | | sessions: -; stopped n2
                    """,
                check(
                    "jobExists", s -> assertThat(s.h.core.view().job(s.args.get(0))).isPresent())),
            scenario(
                "B22",
                "aGrandchildOutlivingItsParentKeepsTheReservationToo",
                running("j")
                    + """
                    alloc app:$j:0 NEW nodes=n2:3 alloc_inheritance=CHILD | answered alloc_id>id |
                    spawn app:$j:0 sleep:1 spawn_target=$id nohup         | answered nspace>c   |
                    spawn app:$c:0 sleep:1 nohup                          | answered nspace>g   | check parentOf $g $c
                    exit $j 0
                    exit $c 0 | | check sessionCount 1
                    exit $g 0 | | sessions: -
                    """,
                check(
                    "parentOf",
                    s ->
                        assertThat(s.h.core.view().job(s.args.get(0)).orElseThrow().parent())
                            .contains(s.args.get(1)))),
            scenario(
                "B17",
                "aSecondSchedulerReplacesTheFirstWhoseCallsAreAnsweredUnreach",
                """
                attach sched
                alloc t NEW nodes=n5
                attach sched2 | ERR_UNREACH | check schedulerIs sched2
                """,
                check(
                    "schedulerIs",
                    s ->
                        assertThat(s.h.core.view().scheduler()).contains(s.client(s.args.get(0))))),
            scenario(
                "B23",
                "aTimeoutWarningGoesOnlyToTheRecordedRequester",
                """
                attach sched
                register t >ref
                register tool:other:1000
                sc sched n1 7 inst alloc_id=s7 alloc_req_id=r7 nodes=n5 requestor=t
                check mark
                check timeoutWarning | | check notifiesSinceMark 1; check warnedTheRequester; unchanged
                """,
                check(
                    "timeoutWarning",
                    s ->
                        s.h.event(
                            new DvmEvent.SchedulerEvent(
                                PmixStatus.PMIX_ALLOC_TIMEOUT_WARNING.code(),
                                List.of(
                                    allocId("s7"), Info.of(PmixKey.PMIX_TIME_REMAINING, 30L))))),
                check(
                    "warnedTheRequester",
                    s -> {
                      List<DvmDecision.Notify> ns = s.h.decisions(DvmDecision.Notify.class);
                      DvmDecision.Notify n = ns.get(ns.size() - 1);
                      assertThat(n.handlers()).containsExactly(Long.parseLong(s.var("ref")));
                      assertThat(n.event().infos())
                          .containsExactly(
                              allocId("s7"),
                              reqId("r7"),
                              Info.of(PmixKey.PMIX_TIME_REMAINING, 30L));
                    })),
            scenario(
                "B24",
                "activateStartsDaemonsOnHeldIdleNodesWithoutTheScheduler",
                """
                attach sched
                register t >ref
                alloc t ACTIVATE host=+e   | ERR_BAD_PARAM
                alloc t ACTIVATE host=n4:4 | ERR_BAD_PARAM | check starts n4 0
                alloc t ACTIVATE host=+all | SUCCESS       | check starts n4 1; daemon n4 UP; check noSchedulerCall; check onlyEventToRef
                """,
                check(
                    "starts",
                    s ->
                        assertThat(
                                s.h.decisions(
                                    DvmDecision.StartDaemon.class,
                                    d -> d.host().equals(s.args.get(0))))
                            .hasSize(Integer.parseInt(s.args.get(1)))),
                check(
                    "noSchedulerCall",
                    s -> assertThat(s.h.decisions(DvmDecision.ToScheduler.class)).isEmpty()),
                check(
                    "onlyEventToRef",
                    s ->
                        assertThat(s.h.decisions(DvmDecision.Notify.class))
                            .singleElement()
                            .satisfies(
                                n ->
                                    assertThat(n.handlers())
                                        .containsExactly(Long.parseLong(s.var("ref")))))),
            scenario(
                "B24",
                "activateNamesNodesByHostfileTooReadByTheService",
                """
                alloc t ACTIVATE hostfile=hosts.txt | | check readsHostsTxt
                check hostsTxtRead | SUCCESS | daemon n4 UP
                """,
                check(
                    "readsHostsTxt",
                    s ->
                        assertThat(s.h.decisions(DvmDecision.ReadFile.class))
                            .containsExactly(new DvmDecision.ReadFile(s.lastRequest, "hosts.txt"))),
                check(
                    "hostsTxtRead",
                    s ->
                        s.h.event(
                            new DvmEvent.FileRead(
                                s.lastRequest,
                                "hosts.txt",
                                Optional.of("# idle\nn4 slots=2\n"),
                                "")))),
            scenario(
                "B25",
                "aSpawnWhoseAllocationIsRefusedFailsWithJobAllocFailedAndLaunchesNothing",
                """
                attach sched
                spawn t sleep:1 @newN5 | pending
                check schedulerAnswers ERR_OUT_OF_RESOURCE | ERR_JOB_ALLOC_FAILED | launches: -; check noJobs
                """,
                check("noJobs", s -> assertThat(s.h.core.view().jobs()).isEmpty())),
            scenario(
                "B25",
                "aSpawnAllocationWithoutItsDirectiveIsABadParam",
                """
                spawn t sleep:1 @noDirective | ERR_BAD_PARAM | sessions: -; node n5 absent
                """),
            scenario(
                "B25",
                "aGrantedSpawnAllocationIsServedFirstThenLaunchedIntoIt",
                """
                spawn t sleep:2 @newN5x2 | SUCCESS nspace>ns | check servedInto $ns n5
                """,
                check(
                    "servedInto",
                    s -> {
                      DvmView.JobView j = s.h.core.view().job(s.args.get(0)).orElseThrow();
                      assertThat(s.h.core.view().session(j.sessionId()).orElseThrow().hosts())
                          .containsExactly(s.args.get(1));
                      assertThat(j.procsPerNode()).containsOnlyKeys(s.args.get(1));
                    })),
            scenario(
                "B25",
                "aLaunchFailingAfterTheGrantHandsTheAllocationBack",
                """
                check failingLaunch prte-dvm@1
                spawn t sleep:1 @newN5 | ERR_JOB_FAILED_TO_LAUNCH | sessions: -; check handedBackOnce; node n5 absent
                """,
                check("failingLaunch", s -> s.h.failingLaunches.add(s.args.get(0))),
                check(
                    "handedBackOnce",
                    s ->
                        assertThat(s.h.decisions(DvmDecision.SessionReclaimed.class))
                            .singleElement()
                            .satisfies(r -> assertThat(r.handedBack()).isTrue())))));
  }
}
