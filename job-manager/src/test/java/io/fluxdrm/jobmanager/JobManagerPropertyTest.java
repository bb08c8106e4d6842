package io.fluxdrm.jobmanager;

import static io.fluxdrm.jobmanager.JmFixture.ALICE;
import static io.fluxdrm.jobmanager.JmFixture.nodes;
import static io.fluxdrm.jobmanager.JmFixture.sameResources;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rset.ResourceSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random sequences of grows, shrinks, releases, cancels and disconnects of three jobs against the
 * real scheduler, from printed seeds ({@code -Djobmanager.seed=N} replays one): after every step
 * each job's R equals its initial R ∪ the granted {@code R_delta_add}s − the released {@code
 * R_delta_sub}s, as computed from the answers alone; the scheduler agrees; a job manager recovered
 * from the eventlogs agrees too.
 */
@Timeout(60)
class JobManagerPropertyTest {
  @TempDir Path tmp;

  static Stream<Long> seeds() {
    String fixed = System.getProperty("jobmanager.seed");
    if (fixed != null) {
      return Stream.of(Long.parseLong(fixed));
    }
    return LongStream.range(0, 12).map(i -> 0x5EED0000L + i * 7919).boxed();
  }

  /** What the answers say a job holds. */
  private static final class Model {
    ResourceSet r;
    ResourceSet releasing = ResourceSet.empty();

    Model(ResourceSet r) {
      this.r = r;
    }
  }

  private record Req(long job, FluxHandle shell, CompletableFuture<Message> f) {}

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void randomRequests_jobR_isInitialUnionGrantsMinusReleases(long seed) throws Exception {
    System.out.println("JobManagerPropertyTest seed = " + seed);
    SplittableRandom rng = new SplittableRandom(seed);
    Path dir = Files.createDirectory(tmp.resolve("s" + Long.toHexString(seed)));
    JmFixture f = JmFixture.started(dir, 8, 2);
    Map<Long, Model> model = new HashMap<>();
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      long id = f.submitNodes(1, ALICE);
      ids.add(id);
      model.put(id, new Model(f.jm.jobR(id).orElseThrow()));
    }
    List<Req> open = new ArrayList<>();
    for (int step = 0; step < 60; step++) {
      long id = ids.get(rng.nextInt(ids.size()));
      Model m = model.get(id);
      int op = rng.nextInt(10);
      String what;
      if (op < 4) {
        FluxHandle shell = f.shell(ALICE);
        open.add(
            new Req(
                id, shell, JmFixture.realloc(shell, id, nodes(1 + rng.nextInt(3)), null, null)));
        what = "grow";
      } else if (op < 6 && m.r.diff(m.releasing).nnodes() >= 2) {
        FluxHandle shell = f.shell(ALICE);
        open.add(new Req(id, shell, JmFixture.realloc(shell, id, null, nodes(1), null)));
        what = "shrink";
      } else if (op < 8 && !m.releasing.isEmpty()) {
        CompletableFuture<Message> rel = JmFixture.release(f.shell(ALICE), id, m.releasing.ranks());
        f.settle();
        assertThat(rel).as("seed %d step %d release", seed, step).isCompleted();
        m.r = m.r.diff(m.releasing);
        m.releasing = ResourceSet.empty();
        what = "release";
      } else if (op == 8 && !open.isEmpty()) {
        Req q = open.get(rng.nextInt(open.size()));
        q.shell().send("job-manager.realloc_cancel", Json.object().put("matchtag", 1));
        what = "cancel";
      } else if (!open.isEmpty()) {
        Req q = open.remove(rng.nextInt(open.size()));
        q.shell().close();
        what = "disconnect";
      } else {
        what = "nothing";
      }
      f.settle();
      for (Iterator<Req> it = open.iterator(); it.hasNext(); ) {
        Req q = it.next();
        if (!q.f().isDone()) {
          continue;
        }
        it.remove();
        ObjectNode a = q.f().join().json();
        if (a.get("type").asInt() == 0) {
          Model qm = model.get(q.job());
          if (a.has("R_delta_add")) {
            qm.r = qm.r.union(ResourceSet.fromJson(a.get("R_delta_add")));
          }
          if (a.has("R_delta_sub")) {
            qm.releasing = qm.releasing.union(ResourceSet.fromJson(a.get("R_delta_sub")));
          }
        }
      }
      for (long j : ids) {
        ResourceSet have = f.jm.jobR(j).orElseThrow();
        assertThat(sameResources(have, model.get(j).r))
            .as(
                "seed %d step %d (%s): job %d has %s, model %s",
                seed, step, what, j, have.summary(), model.get(j).r.summary())
            .isTrue();
        f.checkAgree(j);
      }
    }
    long updates =
        ids.stream().flatMap(j -> f.eventNames(j).stream()).filter(n -> !n.equals("alloc")).count();
    System.out.println(
        "JobManagerPropertyTest seed = " + seed + ": " + updates + " events after alloc");
    assertThat(updates).as("seed %d exercised grows and releases", seed).isGreaterThan(ids.size());
    JobManager recovered = JobManager.recover(dir, f::now);
    for (long j : ids) {
      assertThat(sameResources(recovered.jobR(j).orElseThrow(), f.jm.jobR(j).orElseThrow()))
          .as("seed %d: recovered job %d", seed, j)
          .isTrue();
      assertThat(sameResources(recovered.releasing(j).orElseThrow(), model.get(j).releasing))
          .as("seed %d: recovered releasing of job %d", seed, j)
          .isTrue();
      List<String> names = f.eventNames(j);
      assertThat(names.subList(0, 2)).containsExactly("submit", "alloc");
      assertThat(names.subList(2, names.size()))
          .allMatch(n -> n.equals("resource-update") || n.equals("release"));
    }
  }
}
