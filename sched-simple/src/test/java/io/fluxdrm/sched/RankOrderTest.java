package io.fluxdrm.sched;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.statistics.Statistics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The index of up ranks against the {@code TreeSet<Long>} it replaced: the same keys visited in the
 * same order, from any start, for each {@link AllocMode}, in both its forms (the bitset table and
 * the skip list); and at the pool's limits.
 */
class RankOrderTest {

  private static final long F = AllocMode.FIELD;

  /** The keys a visit from {@code from} comes through, with the cursor's positions checked. */
  private static List<Long> visit(RankOrder order, long from) {
    List<Long> keys = new ArrayList<>();
    for (RankOrder.Cursor it = order.visit(from); it.next(); ) {
      assertThat(it.pos()).isEqualTo(AllocMode.positionOfKey(it.key()));
      keys.add(it.key());
    }
    return keys;
  }

  /** The positions a visit from {@code from} comes through. */
  private static List<Integer> positions(RankOrder order, long from) {
    List<Integer> out = new ArrayList<>();
    for (RankOrder.Cursor it = order.visit(from); it.next(); ) {
      out.add(it.pos());
    }
    return out;
  }

  /** Ranks 0-4 with (cores, GPUs) free: (2,1) (4,0) (2,0) (0,1) (4,0), of at most 4 and 1. */
  private static RankOrder five(AllocMode mode, boolean skipList) {
    RankOrder order = skipList ? new RankOrder.SkipList(5) : new RankOrder.Buckets(mode, 5, 4, 1);
    long[][] free = {{2, 1}, {4, 0}, {2, 0}, {0, 1}, {4, 0}};
    for (int p = 0; p < free.length; p++) {
      assertThat(order.add(mode.key(free[p][0], free[p][1], p))).isTrue();
    }
    return order;
  }

  @ParameterizedTest(name = "skip list {0}")
  @ValueSource(booleans = {false, true})
  void visit_eachMode_comesInKeyOrder(boolean skipList) {
    assertThat(positions(five(AllocMode.WORST_FIT, skipList), 0)).containsExactly(1, 4, 0, 2, 3);
    assertThat(positions(five(AllocMode.BEST_FIT, skipList), 0)).containsExactly(3, 2, 0, 1, 4);
    assertThat(positions(five(AllocMode.FIRST_FIT, skipList), 0)).containsExactly(0, 1, 2, 3, 4);
  }

  @ParameterizedTest(name = "skip list {0}")
  @ValueSource(booleans = {false, true})
  void visit_bestFitStart_skipsRanksWithTooFewCores(boolean skipList) {
    RankOrder order = five(AllocMode.BEST_FIT, skipList);
    assertThat(positions(order, AllocMode.BEST_FIT.startKey(1))).containsExactly(2, 0, 1, 4);
    assertThat(positions(order, AllocMode.BEST_FIT.startKey(3))).containsExactly(1, 4);
    assertThat(positions(order, AllocMode.BEST_FIT.startKey(5))).isEmpty();
    assertThat(positions(order, AllocMode.BEST_FIT.startKey(F + 1))).isEmpty();
    assertThat(positions(order, AllocMode.BEST_FIT.startKey(-1))).hasSize(5);
  }

  @ParameterizedTest(name = "skip list {0}")
  @ValueSource(booleans = {false, true})
  void addRemoveContains_asASet_onePositionOneKey(boolean skipList) {
    RankOrder order = five(AllocMode.WORST_FIT, skipList);
    long k = AllocMode.WORST_FIT.key(2, 1, 0);
    assertThat(order.add(k)).isFalse();
    assertThat(order.contains(k)).isTrue();
    assertThat(order.contains(AllocMode.WORST_FIT.key(2, 0, 0))).isFalse();
    assertThatThrownBy(() -> order.add(AllocMode.WORST_FIT.key(1, 1, 0)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("position 0 has another key");
    assertThatThrownBy(() -> order.add(AllocMode.WORST_FIT.key(1, 1, 5)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(order.remove(AllocMode.WORST_FIT.key(2, 0, 0))).isFalse();
    assertThat(order.remove(k)).isTrue();
    assertThat(order.remove(k)).isFalse();
    assertThat(order.size()).isEqualTo(4);
    assertThat(order.add(AllocMode.WORST_FIT.key(1, 1, 0))).isTrue();
    assertThat(positions(order, 0)).containsExactly(1, 4, 2, 0, 3);
  }

  @Test
  void add_countsAboveThePool_refusedByTheTable() {
    RankOrder order = new RankOrder.Buckets(AllocMode.BEST_FIT, 5, 4, 1);
    assertThatThrownBy(() -> order.add(AllocMode.BEST_FIT.key(5, 0, 0)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> order.add(AllocMode.BEST_FIT.key(4, 2, 0)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(order.contains(AllocMode.BEST_FIT.key(5, 0, 0))).isFalse();
    assertThat(order.remove(AllocMode.BEST_FIT.key(5, 0, 0))).isFalse();
  }

  @ParameterizedTest(name = "skip list {0}")
  @ValueSource(booleans = {false, true})
  void next_afterAChange_failsTheVisit(boolean skipList) {
    RankOrder order = five(AllocMode.WORST_FIT, skipList);
    RankOrder.Cursor it = order.visit(0);
    assertThat(it.next()).isTrue();
    order.remove(AllocMode.WORST_FIT.key(4, 0, 1));
    assertThatThrownBy(it::next).isInstanceOf(ConcurrentModificationException.class);
    // a new visit sees the change
    assertThat(positions(order, 0)).containsExactly(4, 0, 2, 3);
  }

  @Test
  void of_largeTables_fallBackToTheSkipList() {
    assertThat(RankOrder.of(AllocMode.WORST_FIT, 1_024, 32, 0))
        .isInstanceOf(RankOrder.Buckets.class);
    assertThat(RankOrder.of(AllocMode.WORST_FIT, 16_384, 64, 0))
        .isInstanceOf(RankOrder.Buckets.class);
    assertThat(RankOrder.of(AllocMode.BEST_FIT, 16_384, 128, 8))
        .isInstanceOf(RankOrder.Buckets.class);
    assertThat(RankOrder.of(AllocMode.FIRST_FIT, 1, (int) F, (int) F))
        .isInstanceOf(RankOrder.Buckets.class);
    assertThat(RankOrder.of(AllocMode.WORST_FIT, 1, 70_000, 0))
        .isInstanceOf(RankOrder.SkipList.class);
    assertThat(RankOrder.of(AllocMode.BEST_FIT, 100_000, 128, 8))
        .isInstanceOf(RankOrder.SkipList.class);
    assertThat(RankOrder.of(AllocMode.BEST_FIT, 1, F, F)).isInstanceOf(RankOrder.SkipList.class);
  }

  @ParameterizedTest
  @EnumSource(AllocMode.class)
  void mostCoresAndGpus_keysAtTheTopOfTheirFields(AllocMode mode) {
    RankOrder order = RankOrder.of(mode, 3, F, F);
    order.add(mode.key(F, F, 0));
    order.add(mode.key(0, 0, 1));
    order.add(mode.key(F, 0, 2));
    TreeSet<Long> tree =
        new TreeSet<>(List.of(mode.key(F, F, 0), mode.key(0, 0, 1), mode.key(F, 0, 2)));
    assertThat(visit(order, 0)).containsExactlyElementsOf(tree);
    assertThat(visit(order, mode.startKey(F)))
        .containsExactlyElementsOf(tree.tailSet(mode.startKey(F), true))
        .hasSize(mode == AllocMode.BEST_FIT ? 2 : 3);
  }

  @ParameterizedTest
  @EnumSource(AllocMode.class)
  void noCoresNoGpus_oneBucket(AllocMode mode) {
    RankOrder order = RankOrder.of(mode, 70, 0, 0);
    for (int p = 69; p >= 0; p -= 2) {
      order.add(mode.key(0, 0, p));
    }
    assertThat(positions(order, 0)).hasSize(35).isSorted().startsWith(1, 3);
    assertThat(positions(order, mode.startKey(1))).hasSize(mode == AllocMode.BEST_FIT ? 0 : 35);
  }

  /**
   * The most ranks a pool may have, each with one core or none, as a visit from each mode's start
   * comes through them: by position within a count, ranks with the core first in worst fit, last in
   * best fit; counted, not listed.
   */
  @ParameterizedTest
  @EnumSource(AllocMode.class)
  void mostRanks_visitedInOrder(AllocMode mode) {
    int n = ResourcePool.MAX_PER_RANK;
    for (RankOrder order : List.of(RankOrder.of(mode, n, 1, 0), new RankOrder.SkipList(n))) {
      for (int p = 0; p < n; p++) {
        order.add(mode.key(oneCore(p), 0, p));
      }
      assertThat(order.size()).isEqualTo(n);
      long last = -1;
      int seen = 0;
      int withCore = 0;
      for (RankOrder.Cursor it = order.visit(mode.startKey(1)); it.next(); seen++) {
        assertThat(it.key())
            .isGreaterThan(last)
            .isEqualTo(mode.key(oneCore(it.pos()), 0, it.pos()));
        last = it.key();
        withCore += (int) oneCore(it.pos());
      }
      assertThat(withCore).isEqualTo((n + 2) / 3);
      assertThat(seen).isEqualTo(mode == AllocMode.BEST_FIT ? withCore : n);
      // n - 1 has the core: worst fit ends at the last rank without one
      assertThat(AllocMode.positionOfKey(last))
          .isEqualTo(mode == AllocMode.WORST_FIT ? n - 2 : n - 1);
    }
  }

  /** Ranks at positions 0, 3, 6 ... have a core free. */
  private static long oneCore(int p) {
    return p % 3 == 0 ? 1 : 0;
  }

  /**
   * A pool of 16,384 ranks of 64 cores under each mode: after grants and frees the allocator's
   * visit is the up ranks by the mode's key, as the tree listed them.
   */
  @ParameterizedTest
  @EnumSource(AllocMode.class)
  void pool16kBy64_candidatesAsTheTree(AllocMode mode) {
    int n = 16_384;
    ResourcePool pool =
        ResourcePool.of(
            ResourceSet.of(IdSet.range(0, n - 1), IdSet.range(0, 63), IdSet.empty(), null), mode);
    Random rnd = new Random(16_384);
    for (long job = 1; job <= 600; job++) {
      int rank = rnd.nextInt(n);
      int first = rnd.nextInt(64);
      IdSet cores = IdSet.range(first, first + rnd.nextInt(64 - first));
      pool.claim(job, ResourceSet.of(IdSet.of(rank), cores, IdSet.empty(), null));
    }
    pool.setUp(IdSet.range(100, 199), false);
    pool.release(pool.jobs().get(0), null, true);
    pool.checkInvariants();
    TreeSet<Long> tree = new TreeSet<>();
    for (int p = 0; p < n; p++) {
      if (pool.isUp(p)) {
        tree.add(pool.key(p));
      }
    }
    for (long need : new long[] {0, 1, 17, 64, 65}) {
      List<Long> seen = new ArrayList<>();
      for (RankOrder.Cursor it = pool.candidates(need); it.next(); ) {
        seen.add(it.key());
      }
      assertThat(seen)
          .as("need %d", need)
          .isEqualTo(new ArrayList<>(tree.tailSet(mode.startKey(need), true)));
    }
  }

  /**
   * Random adds, removes and re-keys of positions, each followed by visits from random starts (each
   * mode's start for a request, a key held, one next to it, anywhere), against a {@code TreeSet} of
   * the same keys: the same keys come in the same order, and the sets agree on size and membership.
   * The pool's shape is drawn too: from no ranks to a few hundred, from no cores or GPUs to the
   * most a rank may have, so that both forms of the index are driven.
   */
  @Property(tries = 400)
  void visits_asTheTreeSet(@ForAll long seed, @ForAll AllocMode mode, @ForAll boolean skipList) {
    Random rnd = new Random(seed);
    int size = rnd.nextInt(4) == 0 ? rnd.nextInt(3) : 1 + rnd.nextInt(300);
    long maxCores = rnd.nextInt(8) == 0 ? F : rnd.nextInt(8) == 0 ? 0 : 1 + rnd.nextInt(40);
    long maxGpus = rnd.nextInt(8) == 0 ? F : rnd.nextInt(2) == 0 ? 0 : rnd.nextInt(9);
    RankOrder order =
        skipList ? new RankOrder.SkipList(size) : RankOrder.of(mode, size, maxCores, maxGpus);
    Statistics.label("form").collect(order.getClass().getSimpleName());
    TreeSet<Long> tree = new TreeSet<>();
    long[] keyOf = new long[size];
    Arrays.fill(keyOf, -1);
    int steps = 20 + rnd.nextInt(200);
    for (int step = 0; step < steps; step++) {
      String at = "seed " + seed + " step " + step;
      int p = size == 0 ? 0 : rnd.nextInt(size);
      long key =
          size == 0
              ? mode.key(0, 0, 0)
              : mode.key(
                  (long) (rnd.nextDouble() * (maxCores + 1)),
                  (long) (rnd.nextDouble() * (maxGpus + 1)),
                  p);
      switch (rnd.nextInt(4)) {
        case 0 -> {
          // add a key for a position without one, or re-key it
          if (size > 0) {
            if (keyOf[p] >= 0) {
              assertThat(order.remove(keyOf[p])).as(at).isTrue();
              tree.remove(keyOf[p]);
            }
            assertThat(order.add(key)).as(at).isTrue();
            tree.add(key);
            keyOf[p] = key;
          }
        }
        case 1 -> {
          // remove a position's key, or a key that is not there
          boolean held = size > 0 && keyOf[p] >= 0 && rnd.nextBoolean();
          long k = held ? keyOf[p] : key;
          assertThat(order.remove(k)).as(at).isEqualTo(tree.remove(k));
          if (size > 0 && keyOf[p] == k) {
            keyOf[p] = -1;
          }
        }
        default -> {
          long from =
              switch (rnd.nextInt(6)) {
                case 0 -> mode.startKey(rnd.nextInt((int) Math.min(maxCores, 100) + 3) - 1);
                case 1 -> mode.startKey(rnd.nextBoolean() ? F : F + 1);
                case 2 -> tree.isEmpty() ? 0 : tree.first();
                case 3 -> key + rnd.nextInt(3) - 1;
                case 4 -> rnd.nextLong() >>> rnd.nextInt(64);
                default -> rnd.nextBoolean() ? Long.MAX_VALUE : Long.MIN_VALUE;
              };
          if (rnd.nextInt(4) == 0) {
            // a visit left part way: the next one starts afresh
            RankOrder.Cursor it = order.visit(rnd.nextLong());
            for (int k = rnd.nextInt(4); k > 0 && it.next(); k--) {
              assertThat(tree).as(at).contains(it.key());
            }
          }
          assertThat(visit(order, from))
              .as("%s: visit from %x", at, from)
              .isEqualTo(new ArrayList<>(tree.tailSet(from, true)));
        }
      }
      assertThat(order.size()).as(at).isEqualTo(tree.size());
      assertThat(order.contains(key)).as(at).isEqualTo(tree.contains(key));
    }
    assertThat(visit(order, 0)).isEqualTo(new ArrayList<>(tree));
  }
}
