package io.fluxdrm.dvm.core;

import static io.fluxdrm.dvm.core.DvmHarness.app;
import static io.fluxdrm.dvm.core.DvmHarness.sleep;
import static io.fluxdrm.dvm.core.DvmHarness.tool;
import static io.fluxdrm.dvm.core.SessionControlBasicsTest.apps;
import static io.fluxdrm.dvm.core.SessionControlBasicsTest.nodes;
import static io.fluxdrm.dvm.core.SessionControlBasicsTest.on;
import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.AllocInheritance;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.testkit.InvariantsExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.statistics.Statistics;

/**
 * Seeded random sequences of session-control, allocation and spawn requests from several requestors
 * (two tools of one user, a tool of another user, processes of running jobs, the scheduler), with a
 * scheduler attaching, answering and leaving, daemons failing, processes exiting and timers firing:
 * after every step the invariants of {@link DvmInvariants} hold (no node in two sessions, the pool
 * and the sessions partition the nodes, every job in one live session, no job alive in a reclaimed
 * session, no node over its slots, every request answered exactly once). jqwik reports the failing
 * seed; the step that broke is in the message.
 */
class DvmPropertyTest {
  static final String[] HOSTS = {"node2", "node3", "node4", "node5", "node6"};
  static final long[] IDS = {1, 2, 3, 42, 0xFFFF_FFFFL};

  @Property(tries = 150)
  void randomSequences_keepTheInvariants(@ForAll long seed) {
    run(seed, DvmHarness.fourNodes());
  }

  /**
   * The same sequences in elastic mode (PRRTE's elastic-DVM spec): the elastic invariants hold too.
   */
  @Property(tries = 150)
  void randomSequences_keepTheInvariantsInElasticMode(@ForAll long seed) {
    run(seed, DvmHarness.fourNodes().withElastic(true));
  }

  private void run(long seed, DvmConfig config) {
    Random rnd = new Random(seed);
    InvariantsExtension inv = new InvariantsExtension();
    DvmHarness h = new DvmHarness(config, inv);
    List<Client> tools = List.of(tool("tool-a", 1000), tool("tool-b", 1000), tool("tool-c", 2000));
    Client sched = DvmHarness.schedulerClient();
    for (int step = 0; step < 60; step++) {
      if (rnd.nextInt(10) == 0) {
        h.failingHosts.clear();
        h.failingHosts.add(HOSTS[rnd.nextInt(HOSTS.length)]);
      }
      Client who = pickClient(rnd, h, tools, sched);
      String via = "node" + (1 + rnd.nextInt(4));
      long id = IDS[rnd.nextInt(IDS.length)];
      switch (rnd.nextInt(16)) {
        case 0, 1 -> {
          List<Info> d = new ArrayList<>();
          d.add(on(PmixKey.PMIX_SESSION_INSTANTIATE));
          d.add(nodes(someHosts(rnd)));
          if (rnd.nextBoolean()) {
            d.add(apps(sleep(1 + rnd.nextInt(3))));
          }
          if (rnd.nextInt(4) == 0) {
            d.add(Info.of(PmixKey.PMIX_ALLOC_TIME, Integer.toString(rnd.nextInt(3))));
          }
          if (rnd.nextInt(4) == 0) {
            d.add(Info.of(PmixKey.PMIX_SESSION_SEP, rnd.nextBoolean()));
          }
          if (rnd.nextInt(4) == 0) {
            d.add(
                Info.of(PmixKey.PMIX_ALLOC_INHERITANCE, AllocInheritance.values()[rnd.nextInt(4)]));
          }
          sc(h, who, via, id, d);
        }
        case 2 -> sc(h, who, via, id, List.of(on(pick(rnd, OPS))));
        case 3 ->
            sc(h, who, via, id, List.of(Info.of(PmixKey.PMIX_SESSION_SIGNAL, rnd.nextInt(20) - 2)));
        case 4 ->
            sc(
                h,
                who,
                via,
                id,
                List.of(
                    on(PmixKey.PMIX_SESSION_EXTEND),
                    rnd.nextBoolean()
                        ? nodes(someHosts(rnd))
                        : Info.of(PmixKey.PMIX_ALLOC_TIME, Integer.toString(rnd.nextInt(3)))));
        case 5 -> h.alloc(who, AllocDirective.NEW, nodes(someHosts(rnd)));
        case 6 -> {
          List<DvmView.SessionView> ss = h.core.view().sessions();
          if (!ss.isEmpty()) {
            String a = ss.get(rnd.nextInt(ss.size())).allocId();
            h.alloc(
                who,
                rnd.nextBoolean() ? AllocDirective.RELEASE : AllocDirective.EXTEND,
                Info.of(PmixKey.PMIX_ALLOC_ID, a),
                nodes(someHosts(rnd)));
          }
        }
        case 7 -> {
          List<Info> ji = new ArrayList<>();
          List<DvmView.SessionView> ss = h.core.view().sessions();
          if (!ss.isEmpty() && rnd.nextBoolean()) {
            ji.add(Info.of(PmixKey.PMIX_SPAWN_TARGET, ss.get(rnd.nextInt(ss.size())).allocId()));
          }
          if (rnd.nextBoolean()) {
            ji.add(Info.of(PmixKey.PMIX_NOHUP, true));
          }
          h.spawn(who, List.of(sleep(1 + rnd.nextInt(2))), ji.toArray(Info[]::new));
        }
        case 8, 9 -> {
          List<DvmView.JobView> js = h.core.view().jobs();
          if (!js.isEmpty()) {
            h.exitAll(js.get(rnd.nextInt(js.size())).nspace(), rnd.nextInt(3));
          }
        }
        case 10 -> h.fireAll();
        case 11 -> {
          if (h.core.view().scheduler().isPresent()) {
            h.event(new DvmEvent.SchedulerDetached());
          } else {
            h.event(new DvmEvent.SchedulerAttached(sched));
          }
        }
        case 12 -> {
          List<DvmDecision.ToScheduler> calls = h.decisions(DvmDecision.ToScheduler.class);
          if (!calls.isEmpty()) {
            DvmDecision.ToScheduler c = calls.get(rnd.nextInt(calls.size()));
            PmixStatus st =
                rnd.nextBoolean() ? PmixStatus.PMIX_SUCCESS : PmixStatus.PMIX_ERR_NOT_SUPPORTED;
            h.event(new DvmEvent.SchedulerAnswered(c.callId(), StatusInfos.of(st)));
          }
        }
        case 13 -> h.event(new DvmEvent.ClientGone(tools.get(rnd.nextInt(tools.size())).proc()));
        case 14 -> {
          List<DvmView.NodeView> ns = h.core.view().nodes();
          DvmView.NodeView n = ns.get(rnd.nextInt(ns.size()));
          if (!n.host().equals("node1")) {
            h.event(new DvmEvent.DaemonFailed(n.host(), "injected"));
          }
        }
        default -> h.alloc(who, AllocDirective.ACTIVATE, Info.of(PmixKey.PMIX_HOST, "+all"));
      }
    }
    // at the end, with the scheduler gone, every request is answered or visibly in flight
    h.event(new DvmEvent.SchedulerDetached());
    assertThat(h.core.view().pendingRequests())
        .allMatch(p -> p.waiting() != DvmView.Waiting.SCHEDULER);
    assertThat(inv.checks()).isGreaterThan(30);
    long created = h.decisions(DvmDecision.SessionCreated.class).size();
    long launched = h.decisions(DvmDecision.LaunchJob.class).size();
    long ok = h.answers.values().stream().filter(StatusInfos::succeeded).count();
    Statistics.label("sessions created").collect(created == 0 ? "0" : created < 4 ? "1-3" : "4+");
    Statistics.label("jobs launched").collect(launched == 0 ? "0" : launched < 4 ? "1-3" : "4+");
    Statistics.label("successful answers").collect(ok < 5 ? "<5" : ok < 15 ? "5-14" : "15+");
  }

  static final String[] OPS = {
    PmixKey.PMIX_SESSION_PAUSE,
    PmixKey.PMIX_SESSION_RESUME,
    PmixKey.PMIX_SESSION_PREEMPT,
    PmixKey.PMIX_SESSION_RESTORE,
    PmixKey.PMIX_SESSION_TERMINATE,
    PmixKey.PMIX_SESSION_COMPLETE
  };

  static <T> T pick(Random rnd, T[] a) {
    return a[rnd.nextInt(a.length)];
  }

  static String someHosts(Random rnd) {
    List<String> l = new ArrayList<>();
    for (String h : HOSTS) {
      if (rnd.nextInt(3) == 0) {
        l.add(h + (rnd.nextBoolean() ? ":2" : ""));
      }
    }
    if (l.isEmpty()) {
      l.add(pick(rnd, HOSTS));
    }
    return String.join(",", l);
  }

  static Client pickClient(Random rnd, DvmHarness h, List<Client> tools, Client sched) {
    int k = rnd.nextInt(6);
    if (k == 5 && h.core.view().scheduler().isPresent()) {
      return sched;
    }
    if (k == 4) {
      List<DvmView.JobView> js = h.core.view().jobs();
      if (!js.isEmpty()) {
        return app(js.get(rnd.nextInt(js.size())).nspace(), 0);
      }
    }
    return tools.get(rnd.nextInt(tools.size()));
  }

  static void sc(DvmHarness h, Client who, String via, long id, List<Info> d) {
    h.sessionControl(who, via, id, d.toArray(Info[]::new));
  }
}
