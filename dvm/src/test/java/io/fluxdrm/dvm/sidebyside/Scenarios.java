package io.fluxdrm.dvm.sidebyside;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.SchedulerUpcalls;
import io.fluxdrm.pmix.port.SpawnResult;
import io.fluxdrm.pmix.port.StatusInfos;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * The scenarios of docs/scenarios.md sections B, C and D, in the order they run: the scenarios of
 * one group share one DVM (a scenario that grows it releases what it grew, or a later one does).
 * Each says what it did and what came back, as an {@link Outcome}.
 */
public final class Scenarios {
  private Scenarios() {}

  static final World.Group L = World.Group.SCHEDULERLESS;
  static final World.Group S = World.Group.SCHEDULER;
  static final World.Group F = World.Group.FRESH;

  /** Every scenario of B, C and D, each once, in the order of their groups' runs. */
  public static List<Scenario> all() {
    List<Scenario> s = new ArrayList<>();
    // the schedulerless elastic DVM: head and node1 with daemons
    run(s, "D1", "baseline: daemons at start", L, w -> new Outcome().daemons(w.daemons()));
    run(s, "B1", "NEW node2:2,node3:2, REQ_ID r1", L, Scenarios::b1);
    run(s, "B2", "after B1: spawn on node2, no target", L, Scenarios::b2);
    run(s, "B3", "after B1: spawn with SPAWN_TARGET=B1's id", L, Scenarios::b3);
    run(s, "B4", "spawn with SPAWN_TARGET=no-such-allocation", L, Scenarios::b4);
    run(
        s,
        "B6",
        "EXTEND NODE_LIST, no ALLOC_ID nor REQ_ID",
        L,
        w -> alloc(w, "EXTEND node4", AllocDirective.EXTEND, nodes("node4")));
    run(
        s,
        "B7",
        "EXTEND ALLOC_ID=bogus",
        L,
        w ->
            alloc(
                w,
                "EXTEND id=bogus",
                AllocDirective.EXTEND,
                List.of(Info.of(PmixKey.PMIX_ALLOC_ID, "bogus"), nodeList("node4"))));
    run(
        s,
        "B12",
        "RELEASE NODE_LIST=unknown-node",
        L,
        w -> alloc(w, "RELEASE unknown-node", AllocDirective.RELEASE, nodes("unknown-node")));
    run(
        s,
        "B13",
        "RELEASE with no infos",
        L,
        w -> alloc(w, "RELEASE {}", AllocDirective.RELEASE, List.of()));
    run(s, "B16", "NEW NUM_NODES=2, no scheduler", L, Scenarios::b16);
    run(s, "B9", "NEW SHARE=true node4:2", L, Scenarios::b9);
    run(s, "B11", "after B9: RELEASE NODE_LIST=node4 (a daemon)", L, Scenarios::b11);
    run(s, "D2", "grow node5:2 (NEW, REQ_ID d2)", L, Scenarios::d2);
    run(s, "D3", "after D2: shrink node5", L, Scenarios::d3);
    run(s, "D5", "after D3: grow node5 again, then shrink it", L, Scenarios::d5);
    run(s, "D9", "after D5: grow node8 (SHARE): node5 not relaunched", L, Scenarios::d9);
    // session control, no scheduler
    run(s, "C9", "PAUSE of unknown session 9999", L, w -> sc(w, 9999, pause()));
    run(
        s,
        "C10",
        "PAUSE and TERMINATE together",
        L,
        w ->
            sc(
                w,
                1,
                List.of(
                    Info.of(PmixKey.PMIX_SESSION_PAUSE, true),
                    Info.of(PmixKey.PMIX_SESSION_TERMINATE, true))));
    run(s, "C11", "no directive", L, w -> sc(w, 1, List.of()));
    run(
        s,
        "C12",
        "INSTANTIATE session UINT32_MAX",
        L,
        w -> sc(w, 0xFFFF_FFFFL, instantiate("node4:2")));
    run(s, "C14", "INSTANTIATE with APP, no node list", L, w -> sc(w, 5, List.of(inst(), app())));
    run(
        s,
        "C15",
        "INSTANTIATE with JOB, no APP",
        L,
        w ->
            sc(
                w,
                5,
                List.of(
                    inst(),
                    nodeList("node4:2"),
                    Info.of(
                        PmixKey.PMIX_SESSION_JOB, List.of(Info.of(PmixKey.PMIX_MAPBY, "node"))))));
    run(
        s,
        "C16",
        "INSTANTIATE with RESOURCES{NUM_NODES}",
        L,
        w ->
            sc(
                w,
                5,
                List.of(
                    inst(),
                    nodeList("node4:2"),
                    Info.of(
                        PmixKey.PMIX_SESSION_RESOURCES,
                        List.of(Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, 1L))))));
    run(
        s,
        "C17",
        "INSTANTIATE with PROVISION_NODES",
        L,
        w ->
            sc(
                w,
                5,
                List.of(
                    inst(),
                    nodeList("node4:2"),
                    Info.of(PmixKey.PMIX_SESSION_PROVISION_NODES, "node4"))));
    run(
        s,
        "C18",
        "PAUSE with COMPLETE",
        L,
        w ->
            sc(
                w,
                9999,
                List.of(
                    Info.of(PmixKey.PMIX_SESSION_PAUSE, true),
                    Info.of(PmixKey.PMIX_SESSION_COMPLETE, true))));
    run(
        s,
        "C28",
        "INSTANTIATE with ALLOC_TIME=1::2",
        L,
        w -> {
          List<Info> d = new ArrayList<>(instantiate("node4:2"));
          d.add(Info.of(PmixKey.PMIX_ALLOC_TIME, "1::2"));
          return sc(w, 5, d);
        });
    run(s, "C7", "INSTANTIATE 4243 node4:2, no apps", L, Scenarios::c7);
    run(s, "C13", "after C7: INSTANTIATE 4243 again", L, w -> sc(w, 4243, instantiate("node4:2")));
    run(
        s,
        "C19",
        "after C7: SIGNAL=0",
        L,
        w -> sc(w, 4243, List.of(Info.of(PmixKey.PMIX_SESSION_SIGNAL, 0))));
    run(
        s,
        "C26",
        "after C7: EXTEND with nothing to extend",
        L,
        w -> sc(w, 4243, List.of(Info.of(PmixKey.PMIX_SESSION_EXTEND, true))));
    run(
        s,
        "C20",
        "after C7: PREEMPT NSPACE=job-not-here",
        L,
        w ->
            sc(
                w,
                4243,
                List.of(
                    Info.of(PmixKey.PMIX_SESSION_PREEMPT, true),
                    Info.of(PmixKey.PMIX_NSPACE, "job-not-here"))));
    run(s, "C22", "after C7: PAUSE twice, then RESUME", L, Scenarios::c22);
    run(s, "C30", "after C7: PAUSE UINT32_MAX (one owned session)", L, Scenarios::c30);
    run(s, "C8", "after C7: TERMINATE 4243", L, Scenarios::c8);
    run(s, "C1", "INSTANTIATE 4242 node6:2,node7:2 with sleep ×2", L, Scenarios::c1);
    run(
        s,
        "C2",
        "after C1: prun avoids the session's nodes",
        L,
        w -> new Outcome().daemons(w.daemons()));
    run(s, "C3", "after C1: PAUSE 4242 (through the master)", L, w -> sc(w, 4242, pause()));
    run(
        s,
        "C4",
        "after C3: RESUME 4242 (through the master)",
        L,
        w -> sc(w, 4242, List.of(Info.of(PmixKey.PMIX_SESSION_RESUME, true))));
    run(
        s,
        "C5",
        "after C4: SIGNAL=15",
        L,
        w -> sc(w, 4242, List.of(Info.of(PmixKey.PMIX_SESSION_SIGNAL, 15))));
    run(s, "C6", "after C5's jobs ended: PAUSE 4242", L, Scenarios::c6);
    run(s, "B15", "NEW node1:2 (has a daemon already)", L, Scenarios::b15);
    run(s, "D10", "redundant grow: NEW SHARE=true head", L, Scenarios::d10);
    // last of its group: on PRRTE, prun fails after it (see the table)
    run(s, "B10", "RELEASE ALLOC_ID=B1's by its owner", L, Scenarios::b10);

    // the DVM with an attached scheduler
    run(s, "B17", "scheduler attached: NEW goes to allocate", S, Scenarios::b17);
    run(s, "B19", "scheduler answers OUT_OF_RESOURCE", S, Scenarios::b19);
    run(s, "C31", "scheduler attached: tool's PAUSE 7", S, Scenarios::c31);
    run(s, "B18", "scheduler answers ALLOC_ID=s42, node5:2", S, Scenarios::b18);
    run(s, "C32", "scheduler's session 4260 (head, 2×/bin/true) ends", S, Scenarios::c32);

    // a fresh schedulerless DVM (D462): overlapping requests, sessions with jobs and timers
    run(s, "D23", "grow, phase-1 rejection, shrink: one event each", F, MoreScenarios::d23);
    run(s, "B14", "RELEASE node10 sent with NEW node10:2", F, MoreScenarios::b14);
    run(s, "D19", "grow node12 and shrink node11 overlap, a job beside", F, MoreScenarios::d19);
    run(s, "D13", "job spawned during a grow", F, MoreScenarios::d13);
    run(s, "D14", "job mapped by node spawned during a shrink", F, MoreScenarios::d14);
    run(s, "D15", "job on the master spawned during a shrink", F, MoreScenarios::d15);
    run(s, "D6", "grow 2, shrink 1, grow 1, ppr:1:node job", F, MoreScenarios::d6);
    run(s, "C21", "session 4244 with a job: PREEMPT, RESTORE", F, MoreScenarios::c21);
    run(s, "C23", "after C21: PAUSE, TERMINATE, reclaimed", F, MoreScenarios::c23);
    run(s, "C24", "INSTANTIATE with ALLOC_TIME=5", F, MoreScenarios::c24);
    run(s, "C25", "ALLOC_TIME=5, EXTEND ALLOC_TIME=60, then 0", F, MoreScenarios::c25);
    run(s, "C27", "EXTEND a session with NODE_LIST", F, MoreScenarios::c27);
    run(s, "C35", "GRPID and USERID=4321 on INSTANTIATE", F, MoreScenarios::c35);
    run(s, "B24", "ACTIVATE +all, +e, node1:4", F, MoreScenarios::b24);
    run(s, "B20", "owner tool 2 of node27 exits, default inheritance", F, MoreScenarios::b20);
    run(s, "C33", "tool 2 instantiates 4250, 4251 (SEP=false), exits", F, MoreScenarios::c33);
    // each in a DVM of its own: after C33 PRRTE accepted no new tool (D465)
    run(
        s,
        "B21",
        "inheritance NONE, owner tool 2 of node30 ends",
        World.Group.FRESH4,
        MoreScenarios::b21);
    run(
        s,
        "B22",
        "inheritance CHILD, owner tool 2 of node31 ends with a job",
        World.Group.FRESH5,
        MoreScenarios::b22);
    // alone in a DVM of its own: PRRTE may not recover from it (D462)
    run(
        s,
        "D4",
        "shrink node19 under a live job spanning it",
        World.Group.FRESH2,
        MoreScenarios::d4);
    // alone too: PRRTE lost its node's daemon after it in one run (D462)
    run(s, "C34", "INHERITANCE=NONE then TERMINATE", World.Group.FRESH3, MoreScenarios::c34);
    // a routing tree of radix 2 (PRRTE; the reference has none)
    run(
        s,
        "D7",
        "D6 at radix 2, re-grow node3, job on node3",
        World.Group.RADIX2,
        MoreScenarios::d7);
    run(s, "D11", "radix 2: grow 8 nodes, shrink the last", World.Group.RADIX2, MoreScenarios::d11);
    // elastic mode off
    run(
        s,
        "D21",
        "elastic mode off: grow node2, job there",
        World.Group.ELASTIC_OFF,
        MoreScenarios::d21);

    String app = "needs an application process as requester: the port's requester here is a tool";
    cannot(
        s,
        "B5",
        "app process: NEW with ALLOC_TARGET",
        L,
        app + "; run with applications below, in \"Applications through PRRTE\"");
    cannot(
        s,
        "B8",
        "app process J2: EXTEND J1's allocation",
        L,
        app + "; run with applications below, in \"Applications through PRRTE\"");
    cannot(
        s,
        "B23",
        "scheduler's ALLOC_TIMEOUT_WARNING re-emitted",
        S,
        "the port gives the scheduler no call to raise an event toward the DVM");
    cannot(
        s,
        "B25",
        "spawn with PMIX_SPAWN_ALLOC",
        L,
        "PMIX_SPAWN_ALLOC has only a provisional key string (D357), unknown to libpmix");
    cannot(
        s,
        "C29",
        "op by a tool of another uid",
        L,
        "every process here runs as root (fakessh needs root): there is no second uid");
    cannot(
        s,
        "D8",
        "fence job over a grown node",
        L,
        "the fence is seen only inside the job (its ranks' results and exit): the port answers a"
            + " spawn at launch and reports no job's end, and the reference DVM's simulated mode"
            + " runs no program and serves no PMIx client");
    cannot(
        s,
        "D12",
        "job ends during a grow (--no-wait client)",
        L,
        "about prterun, whose DVM lives as long as its one job (the late daemon must exit with"
            + " it): these worlds are persistent DVMs driven through the port, which has no"
            + " prterun and no way to end a DVM with a job");
    String fail = "needs a daemon that fails or dies on demand: fakessh cannot inject that";
    cannot(s, "D16", "grow target daemon fails to start", L, fail);
    cannot(s, "D17", "unrelated daemon dies during a grow", L, fail);
    cannot(s, "D18", "two overlapping grows, one fails", L, fail);
    cannot(s, "D20", "shrink xcast fails", L, "no way to make PRRTE's xcast fail from outside");
    cannot(
        s,
        "D22",
        "PMIx without the two event codes",
        L,
        "needs a libpmix built without PMIX_DVM_IS_READY/PMIX_ERR_DVM_MOD");
    cannot(s, "D24", "RELEASE during a grow that fails", L, fail);
    return List.copyOf(s);
  }

  private static void run(
      List<Scenario> s, String id, String title, World.Group g, Function<World, Outcome> body) {
    s.add(new Scenario(id, title, g, Optional.of(body), Optional.empty()));
  }

  private static void cannot(List<Scenario> s, String id, String title, World.Group g, String why) {
    s.add(new Scenario(id, title, g, Optional.empty(), Optional.of(why)));
  }

  // --- helpers

  static Info nodeList(String hosts) {
    return Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, hosts);
  }

  static List<Info> nodes(String hosts) {
    return List.of(nodeList(hosts));
  }

  static Info inst() {
    return Info.of(PmixKey.PMIX_SESSION_INSTANTIATE, true);
  }

  static List<Info> pause() {
    return List.of(Info.of(PmixKey.PMIX_SESSION_PAUSE, true));
  }

  static List<Info> instantiate(String hosts) {
    return List.of(inst(), nodeList(hosts));
  }

  static Info app() {
    return Info.of(
        PmixKey.PMIX_SESSION_APP,
        List.of(new App("/bin/sleep", List.of("/bin/sleep", "240"), 2, List.of())));
  }

  static Outcome alloc(World w, String call, AllocDirective d, List<Info> infos) {
    return new Outcome().answer(call, w.await(w.tool().allocationRequest(d, infos)));
  }

  static Outcome sc(World w, long id, List<Info> directives) {
    return new Outcome().answer("S", w.await(w.tool().sessionControl(id, directives)));
  }

  static Optional<String> value(StatusInfos a, String key) {
    return a.infos().stream()
        .filter(i -> i.key().equals(key))
        .map(i -> i.stringValue())
        .findFirst();
  }

  static List<App> trueApp(List<Info> appInfos) {
    return List.of(new App("/bin/true", List.of("/bin/true"), 1, appInfos));
  }

  // --- B

  static Outcome b1(World w) {
    StatusInfos a =
        w.await(
            w.tool()
                .allocationRequest(
                    AllocDirective.NEW,
                    List.of(
                        nodeList("node2:2,node3:2"), Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "r1"))));
    value(a, PmixKey.PMIX_ALLOC_ID).ifPresent(v -> w.memo().put("B1", v));
    return new Outcome()
        .answer("NEW", a)
        .events(w.events(a.succeeded() ? 1 : 0))
        .daemons(w.daemons());
  }

  static Outcome b2(World w) {
    SpawnResult r =
        w.await(w.tool().spawn(trueApp(List.of(Info.of(PmixKey.PMIX_HOST, "node2"))), List.of()));
    return new Outcome().spawn("spawn host=node2", r);
  }

  static Outcome b3(World w) {
    String id = w.memo().get("B1");
    if (id == null) {
      return new Outcome().step("B1 gave no ALLOC_ID");
    }
    SpawnResult r =
        w.await(
            w.tool().spawn(trueApp(List.of()), List.of(Info.of(PmixKey.PMIX_SPAWN_TARGET, id))));
    return new Outcome().spawn("spawn target=B1", r);
  }

  static Outcome b4(World w) {
    SpawnResult r =
        w.await(
            w.tool()
                .spawn(
                    trueApp(List.of()),
                    List.of(Info.of(PmixKey.PMIX_SPAWN_TARGET, "no-such-allocation"))));
    return new Outcome().spawn("spawn target=no-such-allocation", r);
  }

  static Outcome b10(World w) {
    String id = w.memo().get("B1");
    if (id == null) {
      return new Outcome().step("B1 gave no ALLOC_ID");
    }
    StatusInfos a =
        w.await(
            w.tool()
                .allocationRequest(
                    AllocDirective.RELEASE, List.of(Info.of(PmixKey.PMIX_ALLOC_ID, id))));
    return new Outcome().answer("RELEASE id", a).events(w.events(0)).daemons(w.daemons());
  }

  static Outcome b16(World w) {
    StatusInfos a =
        w.await(
            w.tool()
                .allocationRequest(
                    AllocDirective.NEW, List.of(Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, 2L))));
    Outcome o = new Outcome().answer("NEW count=2", a).events(w.events(0));
    Optional<String> id = value(a, PmixKey.PMIX_ALLOC_ID);
    if (id.isPresent()) {
      StatusInfos r =
          w.await(
              w.tool()
                  .allocationRequest(
                      AllocDirective.RELEASE, List.of(Info.of(PmixKey.PMIX_ALLOC_ID, id.get()))));
      o.answer("RELEASE id", r);
    }
    return o.daemons(w.daemons());
  }

  static Outcome b9(World w) {
    StatusInfos a =
        w.await(
            w.tool()
                .allocationRequest(
                    AllocDirective.NEW,
                    List.of(
                        Info.of(PmixKey.PMIX_ALLOC_SHARE, true),
                        nodeList("node4:2"),
                        Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "b9"))));
    return new Outcome()
        .answer("NEW share", a)
        .events(w.events(a.succeeded() ? 1 : 0))
        .daemons(w.daemons());
  }

  static Outcome b11(World w) {
    StatusInfos a =
        w.await(
            w.tool()
                .allocationRequest(
                    AllocDirective.RELEASE,
                    List.of(nodeList("node4"), Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "b11"))));
    return new Outcome()
        .answer("RELEASE node4", a)
        .events(w.events(a.succeeded() ? 1 : 0))
        .daemons(w.daemons());
  }

  static Outcome b15(World w) {
    StatusInfos a =
        w.await(
            w.tool()
                .allocationRequest(
                    AllocDirective.NEW,
                    List.of(nodeList("node1:2"), Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "b15"))));
    return new Outcome().answer("NEW node1:2", a).events(w.events(a.succeeded() ? 1 : 0));
  }

  // --- D

  static Outcome d2(World w) {
    StatusInfos a =
        w.await(
            w.tool()
                .allocationRequest(
                    AllocDirective.NEW,
                    List.of(nodeList("node5:2"), Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "d2"))));
    return new Outcome()
        .answer("NEW node5:2", a)
        .events(w.events(a.succeeded() ? 1 : 0))
        .daemons(w.daemons());
  }

  static Outcome d3(World w) {
    StatusInfos a =
        w.await(
            w.tool()
                .allocationRequest(
                    AllocDirective.RELEASE,
                    List.of(nodeList("node5"), Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "d3"))));
    return new Outcome()
        .answer("RELEASE node5", a)
        .events(w.events(a.succeeded() ? 1 : 0))
        .daemons(w.daemons());
  }

  static Outcome d10(World w) {
    StatusInfos a =
        w.await(
            w.tool()
                .allocationRequest(
                    AllocDirective.NEW,
                    List.of(
                        Info.of(PmixKey.PMIX_ALLOC_SHARE, true),
                        nodeList(w.master() + ":2"),
                        Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "d10"))));
    return new Outcome().answer("NEW share head:2", a).events(w.events(a.succeeded() ? 1 : 0));
  }

  static Outcome d5(World w) {
    List<Info> grow = List.of(nodeList("node5:2"), Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "d5g"));
    StatusInfos a = w.await(w.tool().allocationRequest(AllocDirective.NEW, grow));
    Outcome o = new Outcome().answer("NEW node5:2", a).events(w.events(a.succeeded() ? 1 : 0));
    List<Info> shrink = List.of(nodeList("node5"), Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "d5s"));
    StatusInfos r = w.await(w.tool().allocationRequest(AllocDirective.RELEASE, shrink));
    return o.answer("RELEASE node5", r)
        .events(w.events(r.succeeded() ? 1 : 0))
        .daemons(w.daemons());
  }

  static Outcome d9(World w) {
    StatusInfos a =
        w.await(
            w.tool()
                .allocationRequest(
                    AllocDirective.NEW,
                    List.of(
                        Info.of(PmixKey.PMIX_ALLOC_SHARE, true),
                        nodeList("node8:2"),
                        Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "d9"))));
    Outcome o = new Outcome().answer("NEW share node8:2", a).events(w.events(0));
    o.daemons(w.daemons());
    StatusInfos r =
        w.await(
            w.tool()
                .allocationRequest(
                    AllocDirective.RELEASE,
                    List.of(nodeList("node8"), Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "d9s"))));
    return o.answer("RELEASE node8", r)
        .events(w.events(r.succeeded() ? 1 : 0))
        .daemons(w.daemons());
  }

  // --- C

  static Outcome c22(World w) {
    Outcome o = new Outcome();
    o.answer("S PAUSE", w.await(w.tool().sessionControl(4243, pause())));
    o.answer("S PAUSE", w.await(w.tool().sessionControl(4243, pause())));
    return o.answer(
        "S RESUME",
        w.await(
            w.tool().sessionControl(4243, List.of(Info.of(PmixKey.PMIX_SESSION_RESUME, true)))));
  }

  static Outcome c30(World w) {
    Outcome o = new Outcome();
    o.answer("S PAUSE all", w.await(w.tool().sessionControl(0xFFFF_FFFFL, pause())));
    return o.answer(
        "S RESUME 4243",
        w.await(
            w.tool().sessionControl(4243, List.of(Info.of(PmixKey.PMIX_SESSION_RESUME, true)))));
  }

  static Outcome c7(World w) {
    StatusInfos a = w.await(w.tool().sessionControl(4243, instantiate("node4:2")));
    return new Outcome().answer("S INSTANTIATE", a).events(w.events(0)).daemons(w.daemons());
  }

  static Outcome c8(World w) {
    StatusInfos a =
        w.await(
            w.tool().sessionControl(4243, List.of(Info.of(PmixKey.PMIX_SESSION_TERMINATE, true))));
    return new Outcome().answer("S TERMINATE", a).events(w.events(0)).daemons(w.daemons());
  }

  static Outcome c1(World w) {
    StatusInfos a =
        w.await(
            w.tool()
                .sessionControl(
                    4242,
                    List.of(
                        inst(),
                        Info.of(PmixKey.PMIX_SESSION_CTRL_ID, "c1"),
                        nodeList("node6:2,node7:2"),
                        app(),
                        Info.of(
                            PmixKey.PMIX_SESSION_JOB,
                            List.of(Info.of(PmixKey.PMIX_MAPBY, "node"))))));
    return new Outcome().answer("S INSTANTIATE", a).events(w.events(0)).daemons(w.daemons());
  }

  static Outcome c6(World w) {
    StatusInfos[] last = new StatusInfos[1];
    boolean gone =
        w.eventually(
            () -> {
              last[0] = w.await(w.tool().sessionControl(4242, pause()));
              return last[0].status() == PmixStatus.PMIX_ERR_NOT_FOUND;
            });
    return new Outcome()
        .answer("S PAUSE" + (gone ? "" : " (never NOT_FOUND)"), last[0])
        .daemons(w.daemons());
  }

  // --- with a scheduler

  /** A script that records each upcall and answers allocations with {@code answer}. */
  static final class Recording implements SchedulerUpcalls {
    final List<String> seen = new CopyOnWriteArrayList<>();
    final PmixProc tool;
    final Function<List<Info>, StatusInfos> answer;

    Recording(PmixProc tool, Function<List<Info>, StatusInfos> answer) {
      this.tool = tool;
      this.answer = answer;
    }

    String who(PmixProc p) {
      return p.equals(tool) ? "tool" : "another process";
    }

    /** The names for an upcall's infos: its requester, when it is the tool, as {@code tool}. */
    Outcome.Names names() {
      return new Outcome.Names(tool, "tool");
    }

    @Override
    public CompletionStage<StatusInfos> allocate(
        PmixProc requester, AllocDirective directive, List<Info> infos) {
      seen.add(
          "upcall allocate "
              + directive
              + " by "
              + who(requester)
              + " "
              + Outcome.keys(infos, names()));
      return CompletableFuture.completedFuture(answer.apply(infos));
    }

    @Override
    public CompletionStage<StatusInfos> sessionControl(
        PmixProc requester, long sessionId, List<Info> directives) {
      seen.add(
          "upcall session control "
              + sessionId
              + " by "
              + who(requester)
              + " "
              + Outcome.keys(directives, names()));
      return CompletableFuture.completedFuture(StatusInfos.of(PmixStatus.PMIX_ERR_EXISTS));
    }
  }

  static Outcome withScript(World w, Recording r, String call, CompletionStage<StatusInfos> ask) {
    Outcome o = new Outcome();
    StatusInfos a = w.await(ask);
    r.seen.forEach(o::step);
    return o.answer(call, a);
  }

  static Outcome b17(World w) {
    Recording r =
        new Recording(w.toolProc(), i -> StatusInfos.of(PmixStatus.PMIX_ERR_NOT_SUPPORTED));
    w.script(r);
    return withScript(
        w,
        r,
        "NEW",
        w.tool()
            .allocationRequest(
                AllocDirective.NEW,
                List.of(nodeList("node4:2"), Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "b17"))));
  }

  static Outcome b19(World w) {
    Recording r =
        new Recording(w.toolProc(), i -> StatusInfos.of(PmixStatus.PMIX_ERR_OUT_OF_RESOURCE));
    w.script(r);
    return withScript(
            w,
            r,
            "NEW",
            w.tool()
                .allocationRequest(
                    AllocDirective.NEW, List.of(Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, 9L))))
        .events(w.events(0))
        .daemons(w.daemons());
  }

  static Outcome c31(World w) {
    Recording r =
        new Recording(w.toolProc(), i -> StatusInfos.of(PmixStatus.PMIX_ERR_NOT_SUPPORTED));
    w.script(r);
    return withScript(w, r, "S PAUSE 7", w.tool().sessionControl(7, pause()));
  }

  static Outcome c32(World w) {
    Recording r =
        new Recording(w.toolProc(), i -> StatusInfos.of(PmixStatus.PMIX_ERR_NOT_SUPPORTED));
    w.script(r);
    List<Info> d =
        List.of(
            inst(),
            nodeList(w.master() + ":2"),
            Info.of(
                PmixKey.PMIX_SESSION_APP,
                List.of(new App("/bin/true", List.of("/bin/true"), 2, List.of()))));
    StatusInfos a = w.await(w.schedulerPort().sessionControl(4260, d));
    Outcome o = new Outcome().answer("scheduler: S INSTANTIATE 4260 with its job", a);
    boolean done =
        w.eventually(
            () -> r.seen.stream().anyMatch(x -> x.contains(PmixKey.PMIX_SESSION_COMPLETE)));
    if (done) {
      // a second COMPLETE would come at once: a bounded wait for its absence (D451)
      w.elapse(java.time.Duration.ofSeconds(3));
    }
    r.seen.forEach(o::step);
    return done ? o : o.step("no upcall with SESSION_COMPLETE within 30 s");
  }

  static Outcome b18(World w) {
    Recording r =
        new Recording(
            w.toolProc(),
            i ->
                new StatusInfos(
                    PmixStatus.PMIX_SUCCESS,
                    List.of(Info.of(PmixKey.PMIX_ALLOC_ID, "s42"), nodeList("node5:2"))));
    w.script(r);
    Outcome o = new Outcome();
    StatusInfos a =
        w.await(
            w.tool()
                .allocationRequest(
                    AllocDirective.NEW,
                    List.of(nodeList("node5:2"), Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "b18"))));
    r.seen.forEach(o::step);
    o.answer("NEW", a);
    o.step(
        "ALLOC_ID "
            + value(a, PmixKey.PMIX_ALLOC_ID)
                .map(v -> v.equals("s42") ? "s42" : "other")
                .orElse("none"));
    return o.events(w.events(a.succeeded() ? 1 : 0)).daemons(w.daemons());
  }
}
