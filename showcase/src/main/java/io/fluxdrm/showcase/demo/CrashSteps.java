package io.fluxdrm.showcase.demo;

import static io.fluxdrm.showcase.demo.DemoRun.nodes;

import io.fluxdrm.bridge.alloc.PmixAllocator;
import io.fluxdrm.bridge.dvm.DvmJobScheduler;
import io.fluxdrm.dvm.wire.HubDvmPort;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.pmix.request.AllocationAnswer;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.shell.ShellPlugin;
import io.fluxdrm.showcase.demo.DemoRun.FluxJob;
import java.util.List;

/**
 * The crash steps of a {@link Demo} with {@link Demo.Config#crashes} (decision D541), processes
 * only: the scheduler killed and started again, the DVM killed during a grow.
 */
final class CrashSteps {
  private final DemoRun st;

  CrashSteps(DemoRun st) {
    this.st = st;
  }

  // ---- crashes (processes only) -----------------------------------------------------------------

  /** SIGKILL the scheduler, start it and the job manager again: every allocation survives. */
  FluxJob[] schedulerRestart(FluxJob a, FluxJob b, DvmJobScheduler bridge) {
    ProcessWorld pw = (ProcessWorld) st.world;
    ResourceSet before = allocated();
    pw.restartScheduler();
    FluxJob a2 = reattach(a);
    FluxJob b2 = reattach(b);
    Waits.onLoop(
        st.world.reactor(),
        () -> {
          bridge.rebind(a2.pmix());
          return null;
        });
    ResourceSet[] now = {ResourceSet.empty()};
    boolean same =
        Waits.until(
            () -> {
              now[0] = allocated();
              return now[0].diff(before).isEmpty() && before.diff(now[0]).isEmpty();
            });
    st.step(
        "sched-restart",
        "sched",
        0,
        "SIGKILL the scheduler, start it again",
        same ? "no allocation lost" : "allocations differ",
        "no allocation lost",
        "allocated "
            + before.summary()
            + (same ? " before and after" : ", now " + now[0].summary()));
    return new FluxJob[] {a2, b2};
  }

  /** What the scheduler has allocated now: its pool but what it has free. */
  private ResourceSet allocated() {
    return st.world.pool().diff(Waits.await("free", st.world.free()));
  }

  /** A job's shell plugin and facade again, on new connections to the (restarted) hub. */
  private FluxJob reattach(FluxJob j) {
    ResourceSet r = Waits.onLoop(st.world.reactor(), () -> j.plugin().r());
    int uid = j.job().userid();
    ShellPlugin plugin = ShellPlugin.create(j.id(), uid, r);
    PmixAllocator pmix = PmixAllocator.create(plugin);
    FluxHandle shell = st.world.schedHub(uid);
    st.world.recordShell(plugin);
    Waits.await(j.label() + " shell", plugin.start(shell));
    Waits.await(j.label() + " facade", pmix.start(shell));
    return new FluxJob(
        new World.Job(j.id(), uid, r), j.label(), plugin, pmix, st.world.schedHub(uid));
  }

  /** SIGKILL the DVM while a grow is open: the bridge hands the grant back (D377). */
  void dvmCrash(FluxJob a, HubDvmPort app, DvmJobScheduler bridge, FluxHandle schedSide) {
    ProcessWorld pw = (ProcessWorld) st.world;
    st.events.clear();
    StatusInfos g =
        Waits.await("dvm-grow", app.allocationRequest(AllocDirective.EXTEND, nodes(1, "dvm-grow")));
    List<String> hosts = DvmSide.hostsOf(AllocationAnswer.parse(g.infos()).nodeList().orElse(""));
    boolean open = st.events.isEmpty();
    pw.killDvm();
    st.step(
        "dvm-grow",
        "A",
        a.id(),
        "PMIx EXTEND +1 node(s), SIGKILL the DVM mid-grow",
        g.status().name() + (open ? "" : " (grow already over)"),
        PmixStatus.PMIX_SUCCESS.name(),
        st.granted(g.infos()));
    // the bridge sees its connection to the DVM close, as fluxdrm bridge --dvm does (D377)
    boolean lost = Waits.until(schedSide::isClosed);
    if (lost) {
      Waits.await(
          "dvm lost",
          st.world.reactor().submit(() -> bridge.flux().dvmLost().toCompletableFuture()));
    }
    boolean back =
        lost
            && Waits.until(
                st.world.reactor(),
                () -> a.plugin().r().nodelist().expand().stream().noneMatch(hosts::contains));
    st.step(
        "dvm-lost",
        "bridge",
        a.id(),
        "DVM gone: the bridge hands its grants back",
        back ? "rolled back" : lost ? "not handed back" : "connection still open",
        "rolled back",
        Hostlist.of(hosts) + " gone from the job's R (sched.free final:false)");
  }
}
