package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.fixture.FluxPeer;
import io.fluxdrm.rset.ResourceSet;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fluxdrm sched --flux-uri} in place of flux-core's sched-simple in a real flux-core
 * instance (issue 15, scope 2): the steps of docs/operations.md, with flux-core's own sched-simple
 * as the oracle where it answers the same question, and after every step flux's view (each job's R,
 * {@code flux resource list}) checked against fluxdrm's ({@code sched.resource-status}).
 */
@Tag(FluxPeer.TAG)
@Timeout(600)
class FluxSchedLiveIT {
  /** 4 nodes of 4 cores and 2 GPUs: small enough to fill, with GPUs that the host lacks. */
  private static final String[] FAKE4 = {"-r", "0-3", "-c", "0-3", "-g", "0-1", "-H", "fake[0-3]"};

  @TempDir Path dir;

  @BeforeEach
  void available() {
    FluxPeer.assumeAvailable();
  }

  /** Job shapes submitted one at a time on an empty pool, as {@code flux submit} options. */
  private static final List<List<String>> SHAPES =
      List.of(
          List.of("-N2", "-n2", "-c2"),
          List.of("-n3", "-c1"),
          List.of("-n1", "-c2", "-g1"),
          List.of("-N1", "-n2", "-g1"),
          List.of("-N1", "-n1", "--exclusive"),
          List.of("-N2", "--exclusive", "-n2"),
          List.of("-n1", "--requires=host:fake2"),
          List.of("-n2", "-c2", "--requires=-host:fake[0-2]"),
          List.of("-N4", "-n16"));

  /** Shapes that the 4-node pool can never satisfy. */
  private static final List<List<String>> UNSATISFIABLE =
      List.of(
          List.of("-N5"),
          List.of("-n1", "-c5"),
          List.of("-n1", "-g3"),
          List.of("-n17"),
          List.of("-N2", "-n2", "--requires=host:fake1"));

  private static Map<String, String> run(FluxLive f, boolean fluxdrm) throws Exception {
    Map<String, String> out = new LinkedHashMap<>();
    for (List<String> shape : SHAPES) {
      List<String> a = new ArrayList<>(shape);
      a.add(FluxLive.QUICK);
      a.add("true");
      String id = f.submit(a.toArray(String[]::new));
      assertThat(f.waitInactive(id)).as("%s", shape).isEqualTo("COMPLETED");
      ResourceSet r = f.r(id);
      out.put(String.join(" ", shape), r.summary() + " " + r.nodelist());
      if (fluxdrm) {
        f.assertViewsAgree();
      }
    }
    for (List<String> shape : UNSATISFIABLE) {
      List<String> a = new ArrayList<>(shape);
      a.add("true");
      String id = f.submit(a.toArray(String[]::new));
      assertThat(f.waitInactive(id)).as("%s", shape).isEqualTo("FAILED");
      out.put(String.join(" ", shape), "exception: " + f.exceptionNote(id));
    }
    return out;
  }

  @Test
  void mixedShapes_sameRAndSameDenialsAsSchedSimple() throws Exception {
    // four brokers named as the fake R's nodes: flux submit checks --requires=host: against them
    FluxPeer.Options four = FluxPeer.Options.defaults().size(4).hosts("fake[0-3]");
    try (FluxLive f = FluxLive.start(dir, four)) {
      f.removeSchedSimple();
      f.fakeR(FAKE4);
      f.loadSchedSimple();
      Map<String, String> flux = run(f, false);
      f.removeSchedSimple();
      f.startFluxdrm();
      Map<String, String> ours = run(f, true);
      // every R and every denial note word for word (D394: fluxdrm words them as 0.88 does)
      assertThat(ours).isEqualTo(flux);
      assertThat(ours.get("-N1 -n1 --exclusive")).startsWith("rank0/core[0-3],gpu[0-1]");
      f.assertViewsAgree();
      assertThat(f.schedStatus().get("allocated").isEmpty()).isTrue();
      String log = f.sched.stderr();
      assertThat(log).doesNotContain("Exception").doesNotContain("\tat ");
    }
  }

  @Test
  void cancelPending_updateDuration_queueStopStart() throws Exception {
    try (FluxLive f = FluxLive.start(dir, FluxPeer.Options.defaults())) {
      f.removeSchedSimple();
      f.fakeR(FAKE4);
      f.startFluxdrm();
      // a job holding the whole pool, then two that must wait behind it
      String big = f.submit("-N4", "--exclusive", "-t", "10m", FluxLive.LONG, "true");
      f.waitEvent(big, "start");
      String p1 = f.submit("-N1", FluxLive.QUICK, "true");
      String p2 = f.submit("-n1", FluxLive.QUICK, "true");
      f.waitEvent(p1, "priority");
      f.waitEvent(p2, "priority");
      assertThat(f.jobs("sched")).containsExactlyInAnyOrder(p1, p2);
      f.assertViewsAgree();
      f.peer.ok("cancel", p1, p2);
      assertThat(f.waitInactive(p1)).isEqualTo("CANCELED");
      assertThat(f.waitInactive(p2)).isEqualTo("CANCELED");
      f.assertViewsAgree();

      // flux update of a running job's duration: the job manager asks sched.expiration first
      double before = f.r(big).expiration();
      f.peer.ok("update", big, "duration=20m");
      f.sched.awaitLog("expiration \\S+: ");
      double after = f.r(big).expiration();
      assertThat(after - before).isBetween(599.0, 601.0);
      f.peer.ok("cancel", big);
      assertThat(f.waitInactive(big)).isEqualTo("CANCELED");
      f.assertViewsAgree();

      // queue stopped: no alloc reaches the scheduler until it is started again
      f.peer.ok("queue", "stop");
      String q = f.submit("-n1", FluxLive.QUICK, "true");
      f.waitEvent(q, "priority");
      assertThat(f.jobs("sched")).containsExactly(q);
      f.peer.ok("queue", "start");
      assertThat(f.waitInactive(q)).isEqualTo("COMPLETED");
      f.assertViewsAgree();
      assertThat(f.schedStatus().get("allocated").isEmpty()).isTrue();
    }
  }

  @Test
  void drainUndrain_multiBroker_drainedRanksNeverAllocated() throws Exception {
    try (FluxLive f = FluxLive.start(dir, FluxPeer.Options.defaults().size(3))) {
      f.removeSchedSimple();
      f.startFluxdrm();
      f.peer.ok("resource", "drain", "1", "fluxdrm live test");
      f.sched.awaitLog("resource\\.acquire: up \\S* down 1 ");
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        ids.add(f.submit("-N2", FluxLive.QUICK, "true"));
      }
      for (String id : ids) {
        assertThat(f.waitInactive(id)).isEqualTo("COMPLETED");
        assertThat(f.r(id).ranks().toString()).isEqualTo("0,2");
      }
      String all = f.submit("-N3", FluxLive.QUICK, "true");
      f.waitEvent(all, "priority");
      f.assertViewsAgree();
      assertThat(f.jobs("sched")).containsExactly(all);
      f.peer.ok("resource", "undrain", "1");
      assertThat(f.waitInactive(all)).isEqualTo("COMPLETED");
      assertThat(f.r(all).ranks().toString()).isEqualTo("0-2");
      f.assertViewsAgree();
    }
  }

  @Test
  void restart_takesBackRunningJobs_thenKilled_schedSimpleTakesOver() throws Exception {
    try (FluxLive f = FluxLive.start(dir, FluxPeer.Options.defaults())) {
      f.removeSchedSimple();
      f.fakeR(FAKE4);
      f.startFluxdrm();
      List<String> running = new ArrayList<>();
      for (String shape : List.of("-N1", "-n2", "-n3 -c1", "-n1 -g2")) {
        List<String> a = new ArrayList<>(List.of(shape.split(" ")));
        a.addAll(List.of(FluxLive.LONG, "true"));
        String id = f.submit(a.toArray(String[]::new));
        f.waitEvent(id, "start");
        running.add(id);
      }
      Map<String, ResourceSet> before = new LinkedHashMap<>();
      for (String id : running) {
        before.put(id, f.r(id));
      }
      f.assertViewsAgree();

      // restart: the new process takes every running allocation back from the hello
      assertThat(f.sched.terminate()).isEqualTo(SchedTcpIT.EXIT_SIGTERM);
      f.startFluxdrm();
      for (String id : running) {
        f.sched.awaitLog("hello " + id + ": ");
      }
      f.assertViewsAgree();
      // the only node with 3 free cores is rank 3 (rank 0 is held whole, worst fit would pick it
      // first had the restarted scheduler forgotten that)
      String rest = f.submit("-N1", "-n1", "-c3", FluxLive.QUICK, "true");
      assertThat(f.waitInactive(rest)).isEqualTo("COMPLETED");
      assertThat(f.r(rest).summary()).isEqualTo("rank3/core[1-3]");
      for (String id : running) {
        assertThat(f.r(rest).intersect(before.get(id)).isEmpty()).as(id).isTrue();
      }
      f.assertViewsAgree();

      // killed: the job manager sees the scheduler go, sched-simple takes over from its hello
      f.sched.close();
      f.loadSchedSimple();
      String after = f.submit("-n1", FluxLive.QUICK, "true");
      assertThat(f.waitInactive(after)).isEqualTo("COMPLETED");
      for (String id : running) {
        assertThat(f.r(after).intersect(before.get(id)).isEmpty()).as(id).isTrue();
      }
      List<String> cancel = new ArrayList<>(List.of("cancel"));
      cancel.addAll(running);
      f.peer.ok(cancel.toArray(String[]::new));
      for (String id : running) {
        assertThat(f.waitInactive(id)).isEqualTo("CANCELED");
      }
      String whole = f.submit("-N4", "--exclusive", FluxLive.QUICK, "true");
      assertThat(f.waitInactive(whole)).isEqualTo("COMPLETED");
    }
  }
}
