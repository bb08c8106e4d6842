package io.fluxdrm.showcase.replay;

import static io.fluxdrm.jobmanager.JmFixture.ALICE;
import static io.fluxdrm.jobmanager.JmFixture.BOB;
import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.bridge.translate.PmixAnswer;
import io.fluxdrm.jobmanager.JmFixture;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random sequences of PMIx requests of three jobs through their facades and the real chain (NEW,
 * RELEASE by reservation or by node, REQ_CANCEL, tasks exiting), from printed seeds ({@code
 * -Dchain.seed=N} replays one). A model built from the PMIx answers alone (granted node lists,
 * released reservations and node lists) predicts each job's nodes and reservations: after every
 * step the job manager's R, the shell's R and the facade's reservations match it, and {@link
 * ChainFixture#check()} holds (conservation, agreement, D8 eventlogs: R = initial R ∪ grants −
 * releases).
 */
@Timeout(60)
class PmixAllocatorPropertyTest {
  @TempDir Path tmp;

  static Stream<Long> seeds() {
    String fixed = System.getProperty("chain.seed");
    if (fixed != null) {
      return Stream.of(Long.parseLong(fixed));
    }
    return LongStream.range(0, 10).map(i -> 0xC4A10000L + i * 104729).boxed();
  }

  /** What the answers say a job holds. */
  private static final class Model {
    final TreeSet<String> held = new TreeSet<>();
    final TreeSet<String> releasing = new TreeSet<>();
    final Map<String, TreeSet<String>> reservations = new LinkedHashMap<>();
    final Map<String, CompletableFuture<PmixAnswer>> pending = new LinkedHashMap<>();
  }

  private static TreeSet<String> hostsOf(String nodeList) {
    TreeSet<String> out = new TreeSet<>();
    for (String h : nodeList.split(",")) {
      out.add(h.substring(0, h.indexOf(':')));
    }
    return out;
  }

  private static TreeSet<String> hostsOf(ResourceSet r) {
    TreeSet<String> out = new TreeSet<>();
    for (int rank : r.ranks()) {
      out.add(r.host(rank));
    }
    return out;
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void randomRequests_answersPredictRAndReservations(long seed) throws Exception {
    System.out.println("PmixAllocatorPropertyTest seed = " + seed);
    SplittableRandom rng = new SplittableRandom(seed);
    Path dir = Files.createDirectory(tmp.resolve("s" + Long.toHexString(seed)));
    ChainFixture c = new ChainFixture(JmFixture.started(dir, 8, 2));
    List<ChainFixture.Job> jobs = new ArrayList<>();
    Map<Long, Model> model = new HashMap<>();
    for (int uid : new int[] {ALICE, BOB, ALICE}) {
      ChainFixture.Job j = c.submit(1, uid);
      jobs.add(j);
      Model m = new Model();
      m.held.addAll(hostsOf(j.plugin.r()));
      model.put(j.id, m);
    }
    int label = 0;
    for (int step = 0; step < 50; step++) {
      ChainFixture.Job j = jobs.get(rng.nextInt(jobs.size()));
      Model m = model.get(j.id);
      int op = rng.nextInt(10);
      String what;
      if (op < 4) {
        String id = "r" + label++;
        long n = 1 + rng.nextInt(2);
        what = "NEW " + n + " as " + id;
        m.pending.put(
            id,
            j.pmix.allocationRequest(
                AllocDirective.NEW, List.of(ChainFixture.nodes(n), ChainFixture.reqId(id))));
      } else if (op < 6 && !m.reservations.isEmpty()) {
        List<String> ids = new ArrayList<>(m.reservations.keySet());
        String res = ids.get(rng.nextInt(ids.size()));
        TreeSet<String> left = new TreeSet<>(m.held);
        left.removeAll(m.releasing);
        left.removeAll(m.reservations.get(res));
        if (left.isEmpty()) {
          // a job gives its last node back by ending (refused, BAD_PARAM;
          // PmixAllocatorBadInputTest)
          continue;
        }
        what = "RELEASE id " + res;
        m.pending.put(
            "rel" + label,
            j.pmix.allocationRequest(
                AllocDirective.RELEASE,
                List.of(ChainFixture.allocId(res), ChainFixture.reqId("rel" + label++))));
      } else if (op < 7) {
        TreeSet<String> free = new TreeSet<>(m.held);
        free.removeAll(m.releasing);
        if (free.size() < 2) {
          continue;
        }
        List<String> l = new ArrayList<>(free);
        String host = l.get(rng.nextInt(l.size()));
        what = "RELEASE node " + host;
        m.pending.put(
            "rel" + label,
            j.pmix.allocationRequest(
                AllocDirective.RELEASE,
                List.of(
                    Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, host),
                    ChainFixture.reqId("rel" + label++))));
      } else if (op < 8 && !m.pending.isEmpty()) {
        List<String> ids = new ArrayList<>(m.pending.keySet());
        String id = ids.get(rng.nextInt(ids.size()));
        what = "REQ_CANCEL " + id;
        j.pmix.allocationRequest(AllocDirective.REQ_CANCEL, List.of(ChainFixture.reqId(id)));
      } else if (!m.releasing.isEmpty()) {
        what = "tasks exit on " + m.releasing;
        ResourceSet r = j.plugin.r();
        IdSet ranks = r.hostsToRanks(Hostlist.parse(String.join(",", m.releasing)));
        c.tasksExited(j, ranks);
        m.held.removeAll(m.releasing);
        m.releasing.clear();
      } else {
        continue;
      }
      c.f.settle();
      for (ChainFixture.Job k : jobs) {
        absorb(model.get(k.id));
      }
      String at = "seed " + seed + " step " + step + " job " + j.id + ": " + what;
      for (ChainFixture.Job k : jobs) {
        Model mk = model.get(k.id);
        assertThat(hostsOf(c.f.jm.jobR(k.id).orElseThrow())).as(at).isEqualTo(mk.held);
        assertThat(hostsOf(k.plugin.releasing())).as(at).isEqualTo(mk.releasing);
        Map<String, TreeSet<String>> facade = new LinkedHashMap<>();
        k.pmix.reservations().forEach((id, r) -> facade.put(id, hostsOf(r)));
        assertThat(facade).as(at).isEqualTo(mk.reservations);
      }
      c.check();
    }
    // every request still waiting is cancelled and answered
    for (ChainFixture.Job k : jobs) {
      for (String id : new ArrayList<>(model.get(k.id).pending.keySet())) {
        k.pmix.allocationRequest(AllocDirective.REQ_CANCEL, List.of(ChainFixture.reqId(id)));
      }
    }
    c.f.settle();
    for (ChainFixture.Job k : jobs) {
      absorb(model.get(k.id));
      assertThat(model.get(k.id).pending).isEmpty();
      assertThat(k.pmix.pendingRequests()).isZero();
    }
    assertThat(c.f.sched.core().pendingReallocs()).isZero();
    c.check();
  }

  /** Applies every answered request of {@code m} to it, as the answer says. */
  private static void absorb(Model m) {
    for (var it = m.pending.entrySet().iterator(); it.hasNext(); ) {
      var en = it.next();
      if (!en.getValue().isDone()) {
        continue;
      }
      it.remove();
      PmixAnswer a = en.getValue().join();
      if (a.status() != PmixStatus.PMIX_SUCCESS) {
        assertThat(a.status())
            .as(en.getKey() + ": " + a.message())
            .isIn(PmixStatus.PMIX_ERR_JOB_CANCELED, PmixStatus.PMIX_ERR_OUT_OF_RESOURCE);
        continue;
      }
      String nl = ChainFixture.optional(a, PmixKey.PMIX_ALLOC_NODE_LIST);
      String id = ChainFixture.optional(a, PmixKey.PMIX_ALLOC_ID);
      TreeSet<String> hosts;
      if (en.getKey().startsWith("rel")) {
        hosts = nl != null ? hostsOf(nl) : new TreeSet<>(m.reservations.get(id));
        m.releasing.addAll(hosts);
        for (var r = m.reservations.entrySet().iterator(); r.hasNext(); ) {
          var res = r.next();
          res.getValue().removeAll(hosts);
          if (res.getValue().isEmpty()) {
            r.remove();
          }
        }
      } else {
        hosts = hostsOf(nl);
        m.held.addAll(hosts);
        m.reservations.computeIfAbsent(id, k -> new TreeSet<>()).addAll(hosts);
      }
    }
  }
}
