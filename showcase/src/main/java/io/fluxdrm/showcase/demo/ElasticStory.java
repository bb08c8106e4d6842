package io.fluxdrm.showcase.demo;

import static io.fluxdrm.showcase.demo.Demo.UID_A;
import static io.fluxdrm.showcase.demo.Demo.UID_B;
import static io.fluxdrm.showcase.demo.DemoRun.nodes;

import io.fluxdrm.bridge.dvm.DvmJobScheduler;
import io.fluxdrm.bridge.translate.PmixAnswer;
import io.fluxdrm.dvm.wire.HubDvmPort;
import io.fluxdrm.dvm.wire.SchedulerEndpoint;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Event;
import io.fluxdrm.pmix.port.SpawnResult;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.pmix.request.AllocationAnswer;
import io.fluxdrm.pmix.request.InfoWriter;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.showcase.demo.DemoRun.FluxJob;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The story of a {@link Demo} in order (decision D541): the jobs start, the DVM attaches with the
 * bridge as its scheduler, A's application grows, spawns into the grant, has a grow rolled back and
 * releases its grown nodes while B's grow waits, a request larger than the pool is denied, the
 * bridge runs a session, both jobs end and the pool is whole again. The jobs' steps are {@link
 * JobSteps}', the session's {@link SessionSteps}', the crashes {@link CrashSteps}'; what they share
 * is a {@link DemoRun}.
 */
final class ElasticStory {
  private final DemoRun st;
  private final JobSteps jobs;
  private final SessionSteps sessions;
  private final CrashSteps crashes;

  ElasticStory(DemoRun st) {
    this.st = st;
    this.jobs = new JobSteps(st);
    this.sessions = new SessionSteps(st);
    this.crashes = new CrashSteps(st);
  }

  // ---- the story --------------------------------------------------------------------------------

  void story() {
    int uidA = st.world instanceof ProcessWorld p ? p.uid() : UID_A;
    int uidB = st.world instanceof ProcessWorld p ? p.uid() : UID_B;
    FluxJob a = jobs.submit("a-start", "A", uidA, st.sc.aNodes(), "the DVM's job");
    FluxJob b = jobs.submit("b-start", "B", uidB, st.sc.bNodes(), "");
    st.world.recordFromNow();

    // the DVM on A's nodes, the bridge as its scheduler, A's application as a tool of it
    List<String> aHosts = a.job().r().nodelist().expand();
    List<String> poolHosts = st.world.pool().nodelist().expand();
    String failing = poolHosts.get(poolHosts.size() - 1);
    Waits.await(
        "dvm start",
        st.world.startDvm(
            new World.DvmSpec(
                aHosts, st.sc.slots(), st.sc.startLatencyMs(), st.sc.startLatencyMs(), failing)));
    DvmJobScheduler bridge = new DvmJobScheduler(a.pmix());
    FluxHandle schedSide = st.world.dvmHub(st.ownerUid());
    SchedulerEndpoint endpoint =
        Waits.await("dvm-sched", SchedulerEndpoint.start(schedSide, bridge, Waits.STEP_TIMEOUT));
    boolean attached = st.waitDone(endpoint.attached());
    bridge.attached(endpoint.port());
    st.step(
        "dvm-attach",
        "bridge",
        a.id(),
        "DVM on " + Hostlist.of(aHosts) + ", the bridge its scheduler",
        attached ? "attached" : "not attached",
        "attached",
        st.sc.slots()
            + " slot(s) per node, daemons start and stop in "
            + st.sc.startLatencyMs()
            + " ms");
    HubDvmPort app = new HubDvmPort(st.world.dvmHub(uidA), Waits.STEP_TIMEOUT);
    Waits.await(
        "event registration",
        app.registerEvents(
            List.of(PmixStatus.PMIX_DVM_IS_READY.code(), PmixStatus.PMIX_ERR_DVM_MOD.code()),
            st.events::add));

    // A's application grows: EXTEND → sched.realloc → grant → grow campaign → SUCCESS
    StatusInfos grow =
        Waits.await(
            "a-grow", app.allocationRequest(AllocDirective.EXTEND, nodes(st.sc.grow(), "a-grow")));
    AllocationAnswer granted = AllocationAnswer.parse(grow.infos());
    String growId = granted.allocId().orElse("");
    String growNodes = granted.nodeList().orElse("");
    st.step(
        "a-grow",
        "A",
        a.id(),
        "PMIx EXTEND +" + st.sc.grow() + " node(s) through the DVM",
        grow.status().name(),
        PmixStatus.PMIX_SUCCESS.name(),
        st.granted(grow.infos()));

    // a job spawned into the grown allocation while the daemons start: held, then lands there
    App held =
        new App(
            "fluxdrm-demo-app",
            List.of("fluxdrm-demo-app"),
            st.sc.grow() * st.sc.slots(),
            List.of());
    CompletableFuture<SpawnResult> spawn =
        app.spawn(List.of(held), InfoWriter.create().allocId(growId).infos()).toCompletableFuture();
    // a request on the same connection after the spawn: answered before the DVM's ready event,
    // it shows the DVM had the spawn while the grow was still open
    CompletableFuture<?> barrier =
        app.registerEvents(List.of(PmixStatus.PMIX_DVM_IS_READY.code()), e -> {})
            .toCompletableFuture();
    Waits.await("barrier", barrier);
    boolean readyBefore =
        st.events.stream().anyMatch(e -> e.status() == PmixStatus.PMIX_DVM_IS_READY.code());
    String heldState = st.dvm.heldState(growId);
    st.step(
        "a-held",
        "A",
        a.id(),
        "spawn of " + held.maxprocs() + " proc(s) into " + "PMIX_ALLOC_ID=" + growId,
        spawn.isDone()
            ? spawn.join().status() == PmixStatus.PMIX_SUCCESS
                ? "launched at once"
                : spawn.join().status().name()
            : readyBefore ? "grow already over" : "held",
        "held",
        heldState);

    // phase two follows only an accepted change (D12)
    Event ready = grow.succeeded() ? st.dvm.awaitEvent(e -> true) : null;
    st.step(
        "a-ready",
        "dvm",
        a.id(),
        "grow campaign over " + growNodes,
        ready == null ? "no event" : DvmSide.statusName(ready.status()),
        PmixStatus.PMIX_DVM_IS_READY.name(),
        ready == null ? "" : st.dvm.eventDetail(ready, uidA));

    SpawnResult landed = Waits.await("a-landed", spawn);
    String where = landed.nspace().map(st.dvm::placement).orElse("");
    boolean onGrown = landed.nspace().map(ns -> st.dvm.landedOn(ns, growNodes)).orElse(false);
    st.step(
        "a-landed",
        "A",
        a.id(),
        "held spawn answered",
        landed.status().name()
            + (landed.status() == PmixStatus.PMIX_SUCCESS && !onGrown ? " elsewhere" : ""),
        PmixStatus.PMIX_SUCCESS.name(),
        landed.nspace().orElse("") + " " + where);

    // a NEW whose daemon fails to start: rolled back, the node back to the scheduler
    int beforeFail = jobs.freesSoFar();
    StatusInfos bad =
        Waits.await(
            "a-grow-fail",
            app.allocationRequest(AllocDirective.NEW, nodes(failing, "a-grow-fail")));
    st.step(
        "a-grow-fail",
        "A",
        a.id(),
        "PMIx NEW " + failing + " (its daemon fails to start)",
        bad.status().name(),
        PmixStatus.PMIX_SUCCESS.name(),
        st.granted(bad.infos()));
    Event mod = bad.succeeded() ? st.dvm.awaitEvent(e -> true) : null;
    st.step(
        "a-rollback",
        "dvm",
        a.id(),
        "grow campaign over " + failing,
        mod == null ? "no event" : DvmSide.statusName(mod.status()),
        PmixStatus.PMIX_ERR_DVM_MOD.name(),
        mod == null ? "" : st.dvm.eventDetail(mod, uidA));
    // the bridge hands the grant back once the DVM reports the node released (D424)
    jobs.freed(
        "a-handback",
        "bridge",
        a,
        "the bridge hands the rolled-back grant back",
        mod == null ? List.of() : List.of(failing),
        false,
        beforeFail,
        mod == null ? "nothing to hand back" : "");

    // B's grow waits in the realloc FIFO: the pool is short
    CompletableFuture<PmixAnswer> bGrow =
        jobs.ask(b, AllocDirective.EXTEND, nodes(st.sc.bAsk(), "b-grow"));
    jobs.waiting("b-grow", b, "PMIx EXTEND +" + st.sc.bAsk() + " node(s)", bGrow);

    // A releases its grown nodes: shrink campaign, departure, then sched.free final:false
    List<String> grown = DvmSide.hostsOf(growNodes);
    int before = jobs.freesSoFar();
    StatusInfos rel =
        Waits.await(
            "a-release",
            app.allocationRequest(AllocDirective.RELEASE, nodes(growNodes, "a-release")));
    st.step(
        "a-release",
        "A",
        a.id(),
        "PMIx RELEASE " + Hostlist.of(grown) + " through the DVM",
        rel.status().name(),
        PmixStatus.PMIX_SUCCESS.name(),
        rel.succeeded() ? "granted: the DVM shrinks them (the job there ends)" : "");
    jobs.freed(
        "a-departed",
        "dvm",
        a,
        Hostlist.of(grown) + ": daemons leave, then freed",
        rel.succeeded() ? grown : List.of(),
        false,
        before,
        "",
        true);
    Event shrunk = rel.succeeded() ? st.dvm.awaitEvent(e -> true) : null;
    st.step(
        "a-shrunk",
        "dvm",
        a.id(),
        "shrink campaign over " + Hostlist.of(grown),
        shrunk == null ? "no event" : DvmSide.statusName(shrunk.status()),
        PmixStatus.PMIX_DVM_IS_READY.name(),
        shrunk == null ? "" : st.dvm.eventDetail(shrunk, uidA));

    PmixAnswer bAns = Waits.await("b-granted", bGrow);
    st.step(
        "b-granted",
        "B",
        b.id(),
        "waiting EXTEND answered",
        bAns.status().name(),
        PmixStatus.PMIX_SUCCESS.name(),
        st.granted(bAns.infos()));

    if (st.config.crashes()) {
      FluxJob[] again = crashes.schedulerRestart(a, b, bridge);
      a = again[0];
      b = again[1];
    }

    // a request no pool of this size can satisfy
    StatusInfos deny =
        Waits.await(
            "a-deny", app.allocationRequest(AllocDirective.NEW, nodes(st.sc.deny(), "a-deny")));
    st.step(
        "a-deny",
        "A",
        a.id(),
        "PMIx NEW +" + st.sc.deny() + " node(s) through the DVM",
        deny.status().name(),
        PmixStatus.PMIX_ERR_OUT_OF_RESOURCE.name(),
        deny.status() == PmixStatus.PMIX_ERR_OUT_OF_RESOURCE ? "denied by the scheduler" : "");

    sessions.session(bridge, endpoint, a, aHosts);
    if (st.config.crashes()) {
      crashes.dvmCrash(a, app, bridge, schedSide);
    }

    // both jobs end
    before = jobs.freesSoFar();
    Waits.await("b-end", st.world.finish(b.id()));
    jobs.freed("b-end", "B", b, "job B ends", b.plugin().r().nodelist().expand(), true, before, "");
    app.disconnect();
    endpoint.close();
    st.world.stopDvm();
    before = jobs.freesSoFar();
    Waits.await("a-end", st.world.finish(a.id()));
    jobs.freed("a-end", "A", a, "the DVM stops, job A ends", aHosts, true, before, "");

    ResourceSet free = Waits.await("pool", st.world.free());
    boolean whole = free.diff(st.world.pool()).isEmpty() && st.world.pool().diff(free).isEmpty();
    st.step(
        "pool",
        "pool",
        0,
        "pool after the story",
        whole ? "conserved" : "not conserved",
        "conserved",
        "free "
            + free.summary()
            + (whole ? " = pool" : " (pool " + st.world.pool().summary() + ")"));
  }
}
