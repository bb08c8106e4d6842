package io.fluxdrm.dvm.core;

import static io.fluxdrm.dvm.core.DvmHarness.sleep;
import static io.fluxdrm.dvm.core.DvmHarness.tool;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.testkit.InvariantsExtension;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.statistics.Statistics;

/**
 * Seeded random schedules of overlapping grows, shrinks, job submissions, daemon reports (up,
 * failed to start, departed, crashed, stop not sent) and jobs reaching LAUNCH_APPS, in elastic
 * mode: the invariants of {@link DvmInvariants} (the elastic ones included) hold after every step;
 * once the world is drained nothing is stuck (no campaign, fence 0, nothing held, every request
 * answered); no job is launched twice and every surviving job was launched exactly once; every
 * accepted DVM-changing request got exactly one terminal event, no other request any (issue 14).
 * jqwik prints the failing seed.
 */
class ElasticPropertyTest {
  static final String[] HOSTS = {"node2", "node3", "node4", "node5", "node6"};

  @Property(tries = 10_000)
  void randomSchedules_neverDeadlockAdmitOnceAndAnswerOnce(@ForAll long seed) {
    Schedule s = new Schedule(seed);
    s.run();
    Statistics.label("held a job").collect(s.held);
    Statistics.label("rolled back a grow")
        .collect(
            !s.h
                .decisions(
                    DvmDecision.Notify.class,
                    n -> n.event().status() == PmixStatus.PMIX_ERR_DVM_MOD.code())
                .isEmpty());
    Statistics.label("parked a release").collect(s.parked);
    Statistics.label("a stop not sent").collect(s.unsent);
  }

  /**
   * Schedules that once ended with a spawn never answered: a grow rolled back while one of its
   * daemons was still starting, whose stop could not be sent (D415), left that node in the pool
   * with its daemon starting and no campaign; a spawn waited for it; then a release shrank the node
   * and, once it had left, nothing tried the waiting spawn again (its session had lost its last
   * starting daemon). Now a session that loses its last starting daemon tries its waiting jobs
   * again (parked at the map boundary while the release's campaign is open, §7.1).
   */
  @Example
  void aSpawnWaitingForADaemonThatLeavesBeforeItStarted_isMappedOntoTheRest() {
    for (long seed : new long[] {2616275009L}) {
      new Schedule(seed).run();
    }
  }

  static final class Schedule {
    final Random rnd;
    final InvariantsExtension inv = new InvariantsExtension();
    final DvmHarness h;
    final Client t = tool("tool-a", 1000);
    final Set<String> leaving = new LinkedHashSet<>();
    final Map<String, Long> reqOf = new HashMap<>();
    final Set<String> changing = new HashSet<>();
    int nextReq;
    boolean held;
    boolean parked;
    boolean unsent;

    Schedule(long seed) {
      rnd = new Random(seed);
      h =
          new DvmHarness(
              DvmConfig.of(List.of(new DvmConfig.NodeSpec("node1", 2)), "dvm", 1000)
                  .withElastic(true),
              inv);
      h.autoDaemons = false;
      h.autoLaunchApps = false;
      h.registerAll(t);
    }

    void run() {
      int steps = 8 + rnd.nextInt(12);
      for (int i = 0; i < steps; i++) {
        step(rnd.nextInt(8));
      }
      for (int round = 0; round < 100 && !quiet(); round++) {
        drain();
      }
      check();
    }

    String host() {
      return HOSTS[rnd.nextInt(HOSTS.length)];
    }

    void request(AllocDirective d, Info... infos) {
      String rid = "r" + nextReq++;
      List<Info> l = new ArrayList<>(List.of(infos));
      l.add(Info.of(PmixKey.PMIX_ALLOC_REQ_ID, rid));
      long id = h.nextRequestId();
      reqOf.put(rid, id);
      after(h.event(new DvmEvent.AllocationRequest(id, t, "node1", d, l)));
    }

    void event(DvmEvent e) {
      after(h.event(e));
    }

    /** Notes departures asked for and the requests whose campaign is open. */
    void after(List<DvmDecision> ds) {
      for (DvmDecision d : ds) {
        if (d instanceof DvmDecision.StopDaemon s) {
          leaving.add(s.host());
        }
      }
      DvmView.ElasticView e = h.core.view().elastic();
      for (DvmView.CampaignView c : e.campaigns()) {
        changing.addAll(c.reqIds());
      }
      held |= !e.heldAtMap().isEmpty() || !e.heldAtLaunch().isEmpty();
      parked |= e.deferredReleases() > 0;
    }

    void step(int what) {
      switch (what) {
        case 0, 1 -> {
          String hosts = rnd.nextBoolean() ? host() : host() + "," + host();
          if (hosts.contains(",") && hosts.split(",")[0].equals(hosts.split(",")[1])) {
            hosts = hosts.split(",")[0];
          }
          request(
              AllocDirective.NEW,
              Info.of(PmixKey.PMIX_ALLOC_SHARE, true),
              Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, hosts));
        }
        case 2 -> request(AllocDirective.RELEASE, Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, host()));
        case 3 -> after(spawn());
        case 4 -> reportStarting(rnd.nextInt(4) == 0);
        case 5 -> reportLeaving(rnd.nextInt(4));
        case 6 -> {
          List<String> up = new ArrayList<>();
          for (DvmView.NodeView n : h.core.view().nodes()) {
            if (n.daemon() == DaemonState.UP && !n.host().equals("node1")) {
              up.add(n.host());
            }
          }
          if (!up.isEmpty()) {
            event(new DvmEvent.DaemonFailed(up.get(rnd.nextInt(up.size())), "crashed"));
          }
        }
        default -> {
          if (!h.mapped.isEmpty()) {
            event(new DvmEvent.LaunchApps(h.mapped.remove(rnd.nextInt(h.mapped.size()))));
          } else {
            List<DvmView.JobView> js = h.core.view().jobs();
            if (!js.isEmpty()) {
              String j = js.get(rnd.nextInt(js.size())).nspace();
              Map<Long, DvmHarness.Proc> ps = h.procs.getOrDefault(j, Map.of());
              for (Long r : new ArrayList<>(ps.keySet())) {
                ps.remove(r);
                event(new DvmEvent.ProcExited(j, r, 0, 0));
              }
            }
          }
        }
      }
    }

    List<DvmDecision> spawn() {
      return h.event(
          new DvmEvent.Spawn(
              h.nextRequestId(), t, "node1", List.of(sleep(1 + rnd.nextInt(2))), List.of()));
    }

    void reportStarting(boolean fail) {
      for (DvmView.NodeView n : h.core.view().nodes()) {
        if (n.daemon() == DaemonState.STARTING) {
          event(
              fail
                  ? new DvmEvent.DaemonFailed(n.host(), "failed to start")
                  : new DvmEvent.DaemonStarted(n.host()));
          return;
        }
      }
    }

    /** The oldest stop asked for: the daemon left (0, 3), crashed (1), or was never told (2). */
    void reportLeaving(int how) {
      if (leaving.isEmpty()) {
        return;
      }
      String host = leaving.iterator().next();
      leaving.remove(host);
      switch (how) {
        case 1 -> event(new DvmEvent.DaemonFailed(host, "crashed"));
        case 2 -> {
          unsent = true;
          event(new DvmEvent.StopNotSent(host, PmixStatus.PMIX_ERR_UNREACH, "xcast failed"));
        }
        default -> event(new DvmEvent.DaemonLeft(host));
      }
    }

    boolean quiet() {
      boolean starting =
          h.core.view().nodes().stream().anyMatch(n -> n.daemon() == DaemonState.STARTING);
      return !starting && leaving.isEmpty() && h.mapped.isEmpty();
    }

    void drain() {
      reportStarting(rnd.nextInt(4) == 0);
      reportLeaving(rnd.nextInt(3));
      while (!h.mapped.isEmpty()) {
        event(new DvmEvent.LaunchApps(h.mapped.remove(0)));
      }
    }

    void check() {
      DvmView v = h.core.view();
      List<String> p = new ArrayList<>();
      if (!quiet()) {
        p.add("the world never drained");
      }
      DvmView.ElasticView e = v.elastic();
      if (!e.campaigns().isEmpty() || e.fence() != 0) {
        p.add("deadlock: campaigns " + e.campaigns() + ", fence " + e.fence());
      }
      if (!v.pendingRequests().isEmpty()) {
        p.add("requests still in flight: " + v.pendingRequests());
      }
      Map<String, Integer> launches = new HashMap<>();
      for (DvmDecision.LaunchJob l : h.decisions(DvmDecision.LaunchJob.class)) {
        launches.merge(l.nspace(), 1, Integer::sum);
      }
      launches.forEach(
          (j, n) -> {
            if (n > 1) {
              p.add("job " + j + " launched " + n + " times");
            }
          });
      for (DvmView.JobView j : v.jobs()) {
        if (launches.getOrDefault(j.nspace(), 0) != 1) {
          p.add("surviving job " + j.nspace() + " launched " + launches.get(j.nspace()) + " times");
        }
      }
      Map<String, Integer> events = new HashMap<>();
      for (DvmDecision.Notify n : h.decisions(DvmDecision.Notify.class)) {
        for (Info i : n.event().infos()) {
          if (i.key().equals(PmixKey.PMIX_ALLOC_REQ_ID)) {
            events.merge(i.stringValue(), 1, Integer::sum);
          }
        }
      }
      for (Map.Entry<String, Long> r : reqOf.entrySet()) {
        StatusInfos a = h.answers.get(r.getValue());
        int n = events.getOrDefault(r.getKey(), 0);
        boolean accepted = a != null && a.status() == PmixStatus.PMIX_SUCCESS;
        int expected = accepted && changing.contains(r.getKey()) ? 1 : 0;
        if (n != expected) {
          p.add(
              "request "
                  + r.getKey()
                  + " ("
                  + (a == null ? "unanswered" : a.status())
                  + ", changing "
                  + changing.contains(r.getKey())
                  + ") got "
                  + n
                  + " terminal events");
        }
      }
      if (!p.isEmpty()) {
        throw new AssertionError(String.join("; ", p));
      }
    }
  }
}
