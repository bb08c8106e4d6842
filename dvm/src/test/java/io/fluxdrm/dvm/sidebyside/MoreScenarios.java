package io.fluxdrm.dvm.sidebyside;

import static io.fluxdrm.dvm.sidebyside.Scenarios.inst;
import static io.fluxdrm.dvm.sidebyside.Scenarios.instantiate;
import static io.fluxdrm.dvm.sidebyside.Scenarios.nodeList;
import static io.fluxdrm.dvm.sidebyside.Scenarios.pause;
import static io.fluxdrm.dvm.sidebyside.Scenarios.trueApp;
import static io.fluxdrm.dvm.sidebyside.Scenarios.value;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.AllocInheritance;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.SpawnResult;
import io.fluxdrm.pmix.port.StatusInfos;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * The scenarios of the second pass (D462): requests that overlap a grow or a shrink (sent before
 * the earlier one's answer), sessions with jobs and timers, and the worlds of radix 2 and of
 * elastic mode off. Each observes only what the port and {@code prun} show.
 */
final class MoreScenarios {
  private MoreScenarios() {}

  static Info req(String id) {
    return Info.of(PmixKey.PMIX_ALLOC_REQ_ID, id);
  }

  static CompletionStage<StatusInfos> grow(World w, String hosts, String req) {
    return w.tool().allocationRequest(AllocDirective.NEW, List.of(nodeList(hosts), req(req)));
  }

  static CompletionStage<StatusInfos> share(World w, String hosts, String req) {
    return w.tool()
        .allocationRequest(
            AllocDirective.NEW,
            List.of(Info.of(PmixKey.PMIX_ALLOC_SHARE, true), nodeList(hosts), req(req)));
  }

  static CompletionStage<StatusInfos> shrink(World w, String hosts, String req) {
    return w.tool().allocationRequest(AllocDirective.RELEASE, List.of(nodeList(hosts), req(req)));
  }

  static CompletionStage<StatusInfos> control(World w, long id, String key, Object v) {
    return w.tool().sessionControl(id, List.of(Info.of(key, v)));
  }

  static List<App> sleep(int np, int secs) {
    return List.of(
        new App("/bin/sleep", List.of("/bin/sleep", Integer.toString(secs)), np, List.of()));
  }

  static int ok(StatusInfos a) {
    return a.succeeded() ? 1 : 0;
  }

  /**
   * A SHARE grow whose second-phase event is not compared (PRRTE sends none for a SHARE grow, B9):
   * the scenario is about what follows it.
   */
  static Outcome shareGrow(World w, Outcome o, String hosts, String req) {
    StatusInfos a = w.await(share(w, hosts, req));
    w.events(0);
    return o.answer("NEW share " + hosts + " (its event not compared, B9)", a);
  }

  /** PAUSEs the session until it is NOT_FOUND (the world's bound): whether it was reclaimed. */
  static Outcome untilGone(World w, Outcome o, long id) {
    StatusInfos[] last = new StatusInfos[1];
    boolean gone =
        w.eventually(
            () -> {
              last[0] = w.await(w.tool().sessionControl(id, pause()));
              return last[0].status() == PmixStatus.PMIX_ERR_NOT_FOUND;
            });
    return o.answer("S PAUSE" + (gone ? " (until NOT_FOUND)" : " (never NOT_FOUND)"), last[0]);
  }

  // --- B

  static Outcome b14(World w) {
    CompletionStage<StatusInfos> g = grow(w, "node10:2", "b14g");
    CompletionStage<StatusInfos> r = shrink(w, "node10", "b14s");
    StatusInfos ga = w.await(g);
    StatusInfos ra = w.await(r);
    return new Outcome()
        .answer("NEW node10:2", ga)
        .answer("RELEASE node10 (sent with the NEW)", ra)
        .events(w.events(ok(ga) + ok(ra)))
        .daemons(w.daemons());
  }

  static Outcome b24(World w) {
    Outcome o = new Outcome();
    for (String h : List.of("+all", "+e", "node1:4")) {
      StatusInfos a =
          w.await(
              w.tool()
                  .allocationRequest(
                      AllocDirective.ACTIVATE, List.of(Info.of(PmixKey.PMIX_HOST, h))));
      o.answer("ACTIVATE " + h, a);
    }
    return o.events(w.events(0));
  }

  static Outcome b20(World w) {
    // tool 2's events are collected: the prun waits for node27's daemon (D492)
    DvmPort t2 = w.newTool(true);
    Outcome o = new Outcome();
    StatusInfos a =
        w.await(
            t2.allocationRequest(AllocDirective.NEW, List.of(nodeList("node27:2"), req("b20"))));
    o.answer("tool 2: NEW node27:2", a).events(w.events(ok(a))).daemons(w.daemons());
    w.await(t2.disconnect());
    boolean back = w.eventually(() -> w.daemons().contains("node27"));
    return o.step("tool 2 finalized: node27 " + (back ? "joins the pool" : "never joins the pool"))
        .daemons(w.daemons());
  }

  /**
   * B21: a reservation with {@code PMIX_ALLOC_INHERITANCE=NONE} whose owner (tool 2) ends is handed
   * back: its node's daemon is shrunk out, not put into the pool. Seen from outside: node30 does
   * not join the pool (a bounded wait for an absence, where B20 sees the join), and a later NEW of
   * node30 starts a daemon there again (the reference's PMIX_DVM_IS_READY, which it sends for no
   * NEW that starts none, B15). PRRTE's outcome varies between runs (D465).
   */
  static Outcome b21(World w) {
    DvmPort t2 = w.newTool();
    Outcome o = new Outcome();
    // no prun here: while node30's daemon was starting, PRRTE's prun hung in 3 runs of 4 (D465)
    reserve(w, t2, o, "node30:2", "b21", AllocInheritance.NONE);
    w.await(t2.disconnect());
    w.elapse(Duration.ofSeconds(5));
    o.step("tool 2 finalized").daemons(w.daemons());
    return regrow(w, o, "node30:2", "b21b");
  }

  /**
   * B22: with {@code PMIX_ALLOC_INHERITANCE=CHILD} the reservation outlives its owner (tool 2)
   * while a job tool 2 spawned into it runs (a NEW of node31 by tool 1 is refused meanwhile), and
   * is handed back once that job ended: node31's daemon is shrunk out, and a later NEW starts one
   * again.
   */
  static Outcome b22(World w) {
    DvmPort t2 = w.newTool();
    Outcome o = new Outcome();
    StatusInfos a = reserve(w, t2, o, "node31:2", "b22", AllocInheritance.CHILD);
    Optional<String> id = value(a, PmixKey.PMIX_ALLOC_ID);
    if (id.isEmpty()) {
      return o.step("no ALLOC_ID");
    }
    o.spawn(
        "tool 2: spawn 1×sleep 8 target=b22's id",
        w.await(t2.spawn(sleep(1, 8), List.of(Info.of(PmixKey.PMIX_SPAWN_TARGET, id.get())))));
    w.await(t2.disconnect());
    o.step("tool 2 finalized, its job running");
    StatusInfos busy =
        w.await(w.tool().allocationRequest(AllocDirective.NEW, List.of(nodeList("node31:2"))));
    o.answer("NEW node31:2", busy).events(w.events(ok(busy)));
    // the job's sleep ends within these 12 s, and a hand-back's shrink with it
    w.elapse(Duration.ofSeconds(12));
    o.step("its job ended").daemons(w.daemons());
    return regrow(w, o, "node31:2", "b22b");
  }

  /** Tool 2's NEW of {@code hosts} with an inheritance, its answer recorded in {@code o}. */
  private static StatusInfos reserve(
      World w, DvmPort t2, Outcome o, String hosts, String reqId, AllocInheritance inheritance) {
    StatusInfos a =
        w.await(
            t2.allocationRequest(
                AllocDirective.NEW,
                List.of(
                    nodeList(hosts),
                    req(reqId),
                    Info.of(PmixKey.PMIX_ALLOC_INHERITANCE, inheritance))));
    o.answer("tool 2: NEW " + hosts + " INHERITANCE=" + inheritance.name(), a);
    return a;
  }

  /**
   * A NEW of {@code hosts} by tool 1, and the events it brings: a grow if the node had no daemon.
   */
  private static Outcome regrow(World w, Outcome o, String hosts, String reqId) {
    StatusInfos a = w.await(grow(w, hosts, reqId));
    return o.answer("NEW " + hosts, a).events(w.events(ok(a))).daemons(w.daemons());
  }

  // --- C

  static Outcome c33(World w) {
    DvmPort t2 = w.newTool();
    Outcome o = new Outcome();
    o.answer(
        "tool 2: S INSTANTIATE 4250 node28:2",
        w.await(t2.sessionControl(4250, instantiate("node28:2"))));
    o.answer(
        "tool 2: S INSTANTIATE 4251 node29:2 SEP=false",
        w.await(
            t2.sessionControl(
                4251,
                List.of(inst(), nodeList("node29:2"), Info.of(PmixKey.PMIX_SESSION_SEP, false)))));
    w.await(t2.disconnect());
    o.step("tool 2 finalized");
    untilGone(w, o, 4251);
    return o.answer("S PAUSE 4250", w.await(w.tool().sessionControl(4250, pause())));
  }

  static Outcome c21(World w) {
    Outcome o = new Outcome();
    StatusInfos a = w.await(w.tool().sessionControl(4244, instantiate("node20:2")));
    o.answer("S INSTANTIATE 4244 node20:2", a).events(w.events(ok(a)));
    Optional<String> id = value(a, PmixKey.PMIX_ALLOC_ID);
    if (id.isEmpty()) {
      return o.step("no ALLOC_ID");
    }
    SpawnResult r =
        w.await(
            w.tool().spawn(sleep(2, 240), List.of(Info.of(PmixKey.PMIX_SPAWN_TARGET, id.get()))));
    o.spawn("spawn 2×sleep target=4244", r);
    o.answer("S PREEMPT", w.await(control(w, 4244, PmixKey.PMIX_SESSION_PREEMPT, true)));
    return o.answer("S RESTORE", w.await(control(w, 4244, PmixKey.PMIX_SESSION_RESTORE, true)));
  }

  static Outcome c23(World w) {
    Outcome o = new Outcome();
    o.answer("S PAUSE", w.await(w.tool().sessionControl(4244, pause())));
    o.answer("S TERMINATE", w.await(control(w, 4244, PmixKey.PMIX_SESSION_TERMINATE, true)));
    return untilGone(w, o, 4244).events(w.events(0)).daemons(w.daemons());
  }

  static List<Info> timed(String hosts, String time) {
    List<Info> d = new ArrayList<>(instantiate(hosts));
    d.add(Info.of(PmixKey.PMIX_ALLOC_TIME, time));
    return d;
  }

  static Outcome c24(World w) {
    Outcome o = new Outcome();
    StatusInfos a = w.await(w.tool().sessionControl(4245, timed("node21:2", "5")));
    o.answer("S INSTANTIATE 4245 ALLOC_TIME=5", a).events(w.events(ok(a)));
    return untilGone(w, o, 4245).events(w.events(0)).daemons(w.daemons());
  }

  static Outcome c25(World w) {
    Outcome o = new Outcome();
    StatusInfos a = w.await(w.tool().sessionControl(4246, timed("node22:2", "5")));
    o.answer("S INSTANTIATE 4246 ALLOC_TIME=5", a).events(w.events(ok(a)));
    o.answer("S EXTEND ALLOC_TIME=60", w.await(extendTime(w, 4246, "60")));
    w.elapse(Duration.ofSeconds(8));
    o.answer("8 s later: S PAUSE", w.await(w.tool().sessionControl(4246, pause())));
    o.answer("S EXTEND ALLOC_TIME=0", w.await(extendTime(w, 4246, "0")));
    o.answer("S TERMINATE", w.await(control(w, 4246, PmixKey.PMIX_SESSION_TERMINATE, true)));
    return o.events(w.events(0));
  }

  static CompletionStage<StatusInfos> extendTime(World w, long id, String time) {
    return w.tool()
        .sessionControl(
            id,
            List.of(
                Info.of(PmixKey.PMIX_SESSION_EXTEND, true),
                Info.of(PmixKey.PMIX_ALLOC_TIME, time)));
  }

  static Outcome c27(World w) {
    Outcome o = new Outcome();
    StatusInfos a = w.await(w.tool().sessionControl(4247, instantiate("node23:2")));
    o.answer("S INSTANTIATE 4247 node23:2", a).events(w.events(ok(a)));
    StatusInfos x =
        w.await(
            w.tool()
                .sessionControl(
                    4247,
                    List.of(Info.of(PmixKey.PMIX_SESSION_EXTEND, true), nodeList("node24:2"))));
    o.answer("S EXTEND node24:2", x).events(w.events(ok(x))).daemons(w.daemons());
    o.answer("S TERMINATE", w.await(control(w, 4247, PmixKey.PMIX_SESSION_TERMINATE, true)));
    return o.events(w.events(0)).daemons(w.daemons());
  }

  static Outcome c34(World w) {
    Outcome o = new Outcome();
    StatusInfos a =
        w.await(
            w.tool()
                .sessionControl(
                    4248,
                    List.of(
                        inst(),
                        nodeList("node25:2"),
                        Info.of(PmixKey.PMIX_ALLOC_INHERITANCE, AllocInheritance.NONE))));
    o.answer("S INSTANTIATE 4248 INHERITANCE=NONE", a).events(w.events(ok(a)));
    o.answer("S TERMINATE", w.await(control(w, 4248, PmixKey.PMIX_SESSION_TERMINATE, true)));
    // only whether node25 came back: after this TERMINATE PRRTE lost node25's daemon in some runs
    // and prun failed, in others not (D462)
    boolean back = w.daemons().contains("node25");
    return o.events(w.events(0)).step(back ? "node25 back in the pool" : "node25 not in the pool");
  }

  static Outcome c35(World w) {
    Outcome o = new Outcome();
    List<Info> d = new ArrayList<>(instantiate("node26:2"));
    d.add(Info.of(PmixKey.PMIX_GRPID, 4321));
    d.add(Info.of(PmixKey.PMIX_USERID, 4321));
    StatusInfos a = w.await(w.tool().sessionControl(4249, d));
    o.answer("S INSTANTIATE 4249 GRPID=USERID=4321", a).events(w.events(ok(a)));
    o.answer("S PAUSE by the tool (uid 0)", w.await(w.tool().sessionControl(4249, pause())));
    o.answer("S TERMINATE", w.await(control(w, 4249, PmixKey.PMIX_SESSION_TERMINATE, true)));
    return o.events(w.events(0));
  }

  // --- D

  static Outcome d4(World w) {
    Outcome o = shareGrow(w, new Outcome(), "node19:2", "d4g");
    List<App> job =
        List.of(
            new App(
                "/bin/sleep",
                List.of("/bin/sleep", "20"),
                2,
                List.of(Info.of(PmixKey.PMIX_HOST, w.master() + ",node19"))));
    SpawnResult r = w.await(w.tool().spawn(job, List.of(Info.of(PmixKey.PMIX_MAPBY, "node"))));
    o.spawn("spawn 2×sleep 20 host=head,node19 map-by node", r);
    StatusInfos s = w.await(shrink(w, "node19", "d4"));
    return o.answer("RELEASE node19", s).events(w.events(ok(s))).daemons(w.daemons());
  }

  static Outcome d6(World w) {
    Outcome o = shareGrow(w, new Outcome(), "node16:2,node17:2", "d6a");
    StatusInfos s = w.await(shrink(w, "node17", "d6s"));
    o.answer("RELEASE node17", s).events(w.events(ok(s)));
    shareGrow(w, o, "node18:2", "d6b");
    o.daemons(w.daemons());
    StatusInfos c = w.await(shrink(w, "node16,node18", "d6c"));
    return o.answer("RELEASE node16,node18", c).events(w.events(ok(c)));
  }

  static Outcome d7(World w) {
    Outcome o = shareGrow(w, new Outcome(), "node2:2,node3:2", "d7a");
    StatusInfos s = w.await(shrink(w, "node3", "d7s"));
    o.answer("RELEASE node3", s).events(w.events(ok(s)));
    shareGrow(w, o, "node4:2", "d7b");
    o.daemons(w.daemons());
    shareGrow(w, o, "node3:2", "d7c");
    o.daemons(w.daemons());
    SpawnResult r =
        w.await(w.tool().spawn(trueApp(List.of(Info.of(PmixKey.PMIX_HOST, "node3"))), List.of()));
    return o.spawn("spawn host=node3", r);
  }

  static Outcome d11(World w) {
    StringBuilder hosts = new StringBuilder();
    for (int i = 5; i <= 12; i++) {
      hosts.append(hosts.length() == 0 ? "" : ",").append("node").append(i).append(":2");
    }
    StatusInfos g = w.await(grow(w, hosts.toString(), "d11g"));
    Outcome o = new Outcome().answer("NEW node5..node12", g).events(w.events(ok(g)));
    StatusInfos s = w.await(shrink(w, "node12", "d11s"));
    return o.answer("RELEASE node12", s).events(w.events(ok(s))).daemons(w.daemons());
  }

  static Outcome d13(World w) {
    CompletionStage<StatusInfos> g = grow(w, "node13:2", "d13");
    CompletionStage<SpawnResult> j = w.tool().spawn(trueApp(List.of()), List.of());
    StatusInfos ga = w.await(g);
    return new Outcome()
        .answer("NEW node13:2", ga)
        .spawn("spawn /bin/true (sent with the NEW)", w.await(j))
        .events(w.events(ok(ga)));
  }

  static Outcome d14(World w) {
    Outcome o = shareGrow(w, new Outcome(), "node14:2", "d14g");
    CompletionStage<StatusInfos> s = shrink(w, "node14", "d14s");
    CompletionStage<SpawnResult> j =
        w.tool()
            .spawn(
                List.of(new App("/bin/true", List.of("/bin/true"), 3, List.of())),
                List.of(Info.of(PmixKey.PMIX_MAPBY, "node")));
    StatusInfos sa = w.await(s);
    return o.answer("RELEASE node14", sa)
        .spawn("spawn 3×/bin/true map-by node (sent with the RELEASE)", w.await(j))
        .events(w.events(ok(sa)))
        .daemons(w.daemons());
  }

  static Outcome d15(World w) {
    Outcome o = shareGrow(w, new Outcome(), "node15:2", "d15g");
    CompletionStage<StatusInfos> s = shrink(w, "node15", "d15s");
    CompletionStage<SpawnResult> j =
        w.tool().spawn(trueApp(List.of(Info.of(PmixKey.PMIX_HOST, w.master()))), List.of());
    StatusInfos sa = w.await(s);
    return o.answer("RELEASE node15", sa)
        .spawn("spawn /bin/true host=head (sent with the RELEASE)", w.await(j))
        .events(w.events(ok(sa)))
        .daemons(w.daemons());
  }

  static Outcome d19(World w) {
    Outcome o = new Outcome();
    StatusInfos a = w.await(grow(w, "node11:2", "d19a"));
    o.answer("NEW node11:2", a).events(w.events(ok(a)));
    CompletionStage<StatusInfos> g = grow(w, "node12:2", "d19g");
    CompletionStage<StatusInfos> s = shrink(w, "node11", "d19s");
    CompletionStage<SpawnResult> j = w.tool().spawn(trueApp(List.of()), List.of());
    StatusInfos ga = w.await(g);
    StatusInfos sa = w.await(s);
    o.answer("NEW node12:2", ga)
        .answer("RELEASE node11 (sent with it)", sa)
        .spawn("spawn /bin/true (sent with them)", w.await(j));
    return o.eventsInAnyOrder(w.events(ok(ga) + ok(sa)));
  }

  static Outcome d21(World w) {
    // not SHARE: in elastic mode both DVMs send the event of such a grow (D2)
    StatusInfos a = w.await(grow(w, "node2:2", "d21"));
    Outcome o = new Outcome().answer("NEW node2:2", a).events(w.events(0));
    Optional<String> id = value(a, PmixKey.PMIX_ALLOC_ID);
    if (id.isEmpty()) {
      return o.step("no ALLOC_ID");
    }
    SpawnResult r =
        w.await(
            w.tool()
                .spawn(trueApp(List.of()), List.of(Info.of(PmixKey.PMIX_SPAWN_TARGET, id.get()))));
    return o.spawn("spawn target=its ALLOC_ID", r);
  }

  static Outcome d23(World w) {
    Outcome o = new Outcome();
    StatusInfos g = w.await(grow(w, "node9:2", "d23g"));
    o.answer("NEW node9:2", g).events(w.events(ok(g)));
    StatusInfos x =
        w.await(
            w.tool()
                .allocationRequest(
                    AllocDirective.RELEASE, List.of(nodeList("unknown-node"), req("d23x"))));
    o.answer("RELEASE unknown-node", x).events(w.events(ok(x)));
    StatusInfos s = w.await(shrink(w, "node9", "d23s"));
    return o.answer("RELEASE node9", s).events(w.events(ok(s)));
  }
}
