package io.fluxdrm.dvm.core;

import static io.fluxdrm.dvm.core.DvmHarness.sleep;
import static io.fluxdrm.dvm.core.DvmHarness.tool;
import static io.fluxdrm.dvm.core.SessionControlBasicsTest.apps;
import static io.fluxdrm.dvm.core.SessionControlBasicsTest.job;
import static io.fluxdrm.dvm.core.SessionControlBasicsTest.nodes;
import static io.fluxdrm.dvm.core.SessionControlBasicsTest.on;
import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.AllocInheritance;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.testkit.InvariantsExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * A refused request has no partial effect (PRRTE node-reservation spec guarantee 3): random mixes
 * of valid and invalid directives, on existing and unknown sessions, from entitled and unentitled
 * requestors; whenever the answer is an error, the view is what it was and nothing but the answer
 * was decided. (The UINT32_MAX form is left out: it reports the last failure after acting on the
 * sessions that succeeded, PRRTE §7.4.4.2 Operations.)
 */
class NoPartialEffectPropertyTest {

  @Property(tries = 200)
  void aRefusedRequestChangesNothing(@ForAll long seed) {
    Random rnd = new Random(seed);
    InvariantsExtension inv = new InvariantsExtension();
    DvmHarness h = new DvmHarness(DvmHarness.fourNodes(), inv);
    Client owner = tool("owner", 1000);
    Client intruder = tool("intruder", 2000);
    StatusInfos s =
        h.sessionControl(
                owner,
                "node1",
                42,
                on(PmixKey.PMIX_SESSION_INSTANTIATE),
                nodes("node3:2"),
                apps(sleep(1)))
            .orElseThrow();
    String job = DvmHarness.info(s, PmixKey.PMIX_NSPACE).orElseThrow().stringValue();
    h.sessionControl(owner, "node1", 43, on(PmixKey.PMIX_SESSION_INSTANTIATE), nodes("node4"));
    List<Function<Random, Info>> pool = pool(job);
    int refusals = 0;
    for (int step = 0; step < 25; step++) {
      List<Info> d = new ArrayList<>();
      int n = rnd.nextInt(5);
      for (int i = 0; i < n; i++) {
        d.add(pool.get(rnd.nextInt(pool.size())).apply(rnd));
      }
      long id = new long[] {42, 43, 44, 9999}[rnd.nextInt(4)];
      Client who = rnd.nextInt(4) == 0 ? intruder : owner;
      String before = DvmHarness.snapshot(h.core.view());
      int from = h.log.size();
      long rid = h.nextRequestId();
      boolean alloc = rnd.nextInt(4) == 0;
      if (alloc) {
        AllocDirective dir = AllocDirective.values()[rnd.nextInt(AllocDirective.values().length)];
        h.event(new DvmEvent.AllocationRequest(rid, who, "node2", dir, d));
      } else {
        h.event(new DvmEvent.SessionControl(rid, who, "node2", id, d));
      }
      StatusInfos a = h.answers.get(rid);
      List<DvmDecision> decided = h.log.subList(from, h.log.size());
      if (a != null && !a.succeeded() && decided.size() == 1) {
        refusals++;
        assertThat(DvmHarness.snapshot(h.core.view()))
            .as("seed %d step %d: %s %s", seed, step, a, d)
            .isEqualTo(before);
      } else if (a != null && !a.succeeded()) {
        // an error after deferral (a launch that failed) may decide more; never before the answer
        assertThat(decided.get(decided.size() - 1)).isInstanceOf(DvmDecision.Answer.class);
      }
    }
    assertThat(refusals).isPositive();
  }

  static List<Function<Random, Info>> pool(String job) {
    List<Function<Random, Info>> p = new ArrayList<>();
    for (String k :
        List.of(
            PmixKey.PMIX_SESSION_INSTANTIATE,
            PmixKey.PMIX_SESSION_PAUSE,
            PmixKey.PMIX_SESSION_RESUME,
            PmixKey.PMIX_SESSION_TERMINATE,
            PmixKey.PMIX_SESSION_PREEMPT,
            PmixKey.PMIX_SESSION_RESTORE,
            PmixKey.PMIX_SESSION_EXTEND,
            PmixKey.PMIX_SESSION_COMPLETE,
            PmixKey.PMIX_SESSION_SEP)) {
      p.add(r -> Info.of(k, r.nextInt(4) != 0));
    }
    p.add(
        r -> Info.of(PmixKey.PMIX_SESSION_SIGNAL, new int[] {-1, 0, 9, 15, 19, 99}[r.nextInt(6)]));
    p.add(
        r ->
            nodes(
                new String[] {"node2", "node3", "node4:2", "node9:1", "n[", "a:0"}[r.nextInt(6)]));
    p.add(
        r ->
            Info.of(
                PmixKey.PMIX_ALLOC_TIME, new String[] {"5", "0", "1::2", "", "1:0"}[r.nextInt(5)]));
    p.add(r -> Info.of(PmixKey.PMIX_TIMEOUT, r.nextInt(3) - 1));
    p.add(r -> Info.of(PmixKey.PMIX_NSPACE, r.nextBoolean() ? job : "nope"));
    p.add(r -> apps(sleep(1 + r.nextInt(5))));
    p.add(r -> job(Info.of(PmixKey.PMIX_MAPBY, "node")));
    p.add(r -> Info.of(PmixKey.PMIX_SESSION_PROVISION_IMAGE, "img"));
    p.add(
        r ->
            Info.of(
                PmixKey.PMIX_SESSION_RESOURCES,
                List.of(
                    r.nextBoolean() ? nodes("node2") : Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, 1L))));
    p.add(r -> Info.of(PmixKey.PMIX_USERID, r.nextBoolean() ? 1000L : 3000L));
    p.add(r -> Info.of(PmixKey.PMIX_ALLOC_ID, r.nextBoolean() ? "42" : "fresh"));
    p.add(r -> Info.of(PmixKey.PMIX_ALLOC_INHERITANCE, AllocInheritance.values()[r.nextInt(4)]));
    p.add(r -> Info.of(PmixKey.PMIX_HOST, r.nextBoolean() ? "+all" : "node3:4"));
    return p;
  }
}
