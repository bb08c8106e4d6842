package io.fluxdrm.shell;

import static io.fluxdrm.shell.ShellFixture.ranks;
import static io.fluxdrm.shell.ShellFixture.spec;
import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.protocol.ReallocResponseType;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * Random sequences of grows, shrinks, denials and task exits against the fake job manager: after
 * every step the shell's R equals the initial R ∪ grants − released, equals the job manager's R,
 * and nothing was released whose tasks had not all exited. jqwik reports the failing seed.
 */
class ShellPluginPropertyTest {

  @Property(tries = 60)
  void sequence_randomGrowShrinkExit_rIsInitialPlusGrantsMinusReleased(@ForAll long seed) {
    Random rnd = new Random(seed);
    ShellFixture f = new ShellFixture("0-1");
    ResourceSet expected = ranks("0-1");
    IdSet exited = IdSet.empty();
    int seen = 0;
    for (int step = 0; step < 40; step++) {
      String where = "seed " + seed + " step " + step;
      IdSet held = f.plugin.r().ranks();
      IdSet releasing = f.plugin.releasing().ranks();
      IdSet free = IdSet.range(0, 7).difference(held);
      IdSet keep = held.difference(releasing);
      switch (rnd.nextInt(4)) {
        case 0 -> {
          if (free.isEmpty()) {
            continue;
          }
          ResourceSet add = ranks(pick(rnd, free).toString());
          CompletableFuture<Answer> g = f.plugin.realloc(spec(add.nnodes()), null, null);
          f.settle();
          f.jm.grant(add);
          f.settle();
          assertThat(g.join()).as(where).isInstanceOf(Answer.Success.class);
          expected = expected.union(add);
        }
        case 1 -> {
          if (keep.count() < 2) {
            continue;
          }
          IdSet sub = pick(rnd, keep);
          if (sub.equals(keep)) {
            sub = IdSet.of(sub.first());
          }
          ResourceSet subR = ranks(sub.toString());
          CompletableFuture<Answer> g = f.plugin.realloc(null, spec((int) sub.count()), subR);
          f.settle();
          f.jm.shrink(subR);
          f.settle();
          assertThat(g.join().type()).as(where).isEqualTo(ReallocResponseType.SUCCESS);
        }
        case 2 -> {
          if (releasing.isEmpty()) {
            continue;
          }
          IdSet ex = pick(rnd, releasing);
          exited = exited.union(ex);
          f.plugin.tasksExited(ex);
          f.settle();
        }
        default -> {
          CompletableFuture<Answer> g = f.plugin.realloc(spec(3), null, null);
          f.settle();
          f.jm.answer(rnd.nextBoolean() ? 1 : 2, "no");
          f.settle();
          assertThat(g.join().type()).as(where).isNotEqualTo(ReallocResponseType.SUCCESS);
        }
      }
      for (; seen < f.jm.released.size(); seen++) {
        ResourceSet r = f.jm.released.get(seen);
        assertThat(r.ranks().isSubsetOf(exited))
            .as(where + ": released " + r.summary() + " only after its tasks exited")
            .isTrue();
        expected = expected.diff(r);
        exited = exited.difference(r.ranks());
      }
      assertThat(f.plugin.r()).as(where).isEqualTo(expected);
      assertThat(f.plugin.r()).as(where).isEqualTo(f.jm.r);
      assertThat(f.plugin.releasing()).as(where).isEqualTo(f.jm.releasing);
      assertThat(f.plugin.hosts().keySet())
          .as(where)
          .containsExactlyElementsOf(f.plugin.r().ranks().stream().boxed().toList());
    }
  }

  /** A non-empty random subset of {@code from} (not empty). */
  private static IdSet pick(Random rnd, IdSet from) {
    List<Integer> ids = new ArrayList<>(from.stream().boxed().toList());
    IdSet.Builder b = IdSet.builder();
    int n = 1 + rnd.nextInt(ids.size());
    java.util.Collections.shuffle(ids, rnd);
    for (int i = 0; i < n; i++) {
      b.add(ids.get(i));
    }
    return b.build();
  }
}
