package io.fluxdrm.showcase.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.bridge.dvm.FluxScheduler;
import io.fluxdrm.dvm.core.DvmView;
import io.fluxdrm.dvm.service.DvmService;
import io.fluxdrm.jobmanager.JmFixture;
import io.fluxdrm.rset.ResourceSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Issue 14's invariant "the scheduler's, job manager's and DVM's views of each job's nodes agree",
 * for the Flux job that hosts a DVM whose scheduler is the bridge. The scheduler's view is
 * sched-simple's allocation of the job, the job manager's the job's R and what it is releasing, the
 * DVM's its nodes (daemons starting, up, or failed) and the daemons told to stop that have not
 * left. The only transitional state allowed once the loop is idle: nodes the DVM still releases (a
 * granted RELEASE or take-back the job manager is releasing, or a rolled-back grow's node not given
 * back yet), held in the scheduler until their daemons are gone. So:
 *
 * <ol>
 *   <li>the scheduler and the job manager agree on the job's R (the chain's own check);
 *   <li>the DVM runs daemons only on nodes of the job's R (never on a node free in the scheduler,
 *       nor on another job's), leaving ones included;
 *   <li>every node of the job's R not being released is a node of the DVM, or one it still
 *       releases;
 *   <li>each session the bridge instantiated has in the DVM exactly the nodes the bridge holds for
 *       it, but those the DVM still releases, and the bridge waits for departures only on nodes
 *       being released.
 * </ol>
 */
final class ThreeWayInvariant {
  private ThreeWayInvariant() {}

  /** The hosts of {@code r}. */
  static Set<String> hosts(ResourceSet r) {
    Set<String> out = new TreeSet<>();
    for (java.util.PrimitiveIterator.OfInt it = r.ranks().iterator(); it.hasNext(); ) {
      out.add(r.host(it.nextInt()));
    }
    return out;
  }

  /** Fails, saying which rule and which nodes, on any disagreement. */
  static void check(JmFixture f, long job, DvmService dvm, FluxScheduler bridge) {
    boolean pool = f.sched != null;
    if (pool) {
      f.checkAgree(job);
    }
    Set<String> jm = hosts(f.jm.jobR(job).orElse(ResourceSet.empty()));
    Set<String> releasing = hosts(f.jm.releasing(job).orElse(ResourceSet.empty()));
    // a scripted scheduler keeps no pool: it holds what the job manager was granted
    Set<String> sched = pool ? hosts(f.schedView(job)) : jm;
    Set<String> dvmNodes = new TreeSet<>();
    for (DvmView.NodeView n : dvm.view().nodes()) {
      dvmNodes.add(n.host());
    }
    Set<String> leaving = new TreeSet<>(dvm.departing());
    String views =
        "scheduler "
            + sched
            + ", job manager "
            + jm
            + " (releasing "
            + releasing
            + "), DVM "
            + dvmNodes
            + " (leaving "
            + leaving
            + ")";
    Set<String> running = new TreeSet<>(dvmNodes);
    running.addAll(leaving);
    assertThat(jm).as("2: the DVM runs only on the job's nodes: " + views).containsAll(running);
    assertThat(sched)
        .as("2: nothing the DVM runs on is free in the scheduler: " + views)
        .containsAll(running);
    Set<String> kept = new TreeSet<>(jm);
    kept.removeAll(releasing);
    assertThat(running).as("3: every node the job keeps is the DVM's: " + views).containsAll(kept);
    for (Map.Entry<Long, Set<String>> e : bridge.sessionHosts().entrySet()) {
      Set<String> inDvm =
          dvm.view()
              .session(e.getKey())
              .map(s -> (Set<String>) new TreeSet<>(s.hosts()))
              .orElse(Set.of());
      // a node the DVM detached and still releases (a rolled-back grow) is the bridge's until gone
      Set<String> expected = new TreeSet<>(e.getValue());
      expected.removeAll(leaving);
      assertThat(inDvm)
          .as("4: session %d in the DVM vs the bridge: %s", e.getKey(), views)
          .isEqualTo(expected);
    }
    assertThat(releasing)
        .as("4: the bridge waits for departures only on nodes being released: " + views)
        .containsAll(bridge.departing());
  }
}
