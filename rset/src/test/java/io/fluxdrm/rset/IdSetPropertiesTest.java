package io.fluxdrm.rset;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.NavigableSet;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Laws of RFC 22 idsets, checked against a naive {@link TreeSet} model. jqwik prints the seed of a
 * failing run; rerun it with {@code @Property(seed = "...")}.
 */
class IdSetPropertiesTest {

  /** Three sets over one window of 400 ids, which lies at 0, in the middle or at the top. */
  record Sets(TreeSet<Integer> a, TreeSet<Integer> b, TreeSet<Integer> c) {}

  private static Arbitrary<List<int[]>> runs() {
    return Combinators.combine(
            Arbitraries.integers().between(0, 380), Arbitraries.integers().between(0, 12))
        .as((start, len) -> new int[] {start, len})
        .list()
        .ofMaxSize(12);
  }

  private static TreeSet<Integer> model(int base, List<int[]> runs) {
    TreeSet<Integer> t = new TreeSet<>();
    for (int[] r : runs) {
      for (int k = 0; k <= r[1]; k++) {
        t.add(base + r[0] + k);
      }
    }
    return t;
  }

  @Provide
  Arbitrary<Sets> sets() {
    Arbitrary<Integer> base = Arbitraries.of(0, 1_000_000, IdSet.MAX_ID - 392);
    return Combinators.combine(base, runs(), runs(), runs())
        .as((b, x, y, z) -> new Sets(model(b, x), model(b, y), model(b, z)));
  }

  private static IdSet of(NavigableSet<Integer> ids) {
    // added in descending order to exercise the builder's sort
    IdSet.Builder b = IdSet.builder();
    ids.descendingSet().forEach(b::add);
    return b.build();
  }

  private static List<Integer> members(IdSet s) {
    List<Integer> out = new ArrayList<>();
    s.forEach(out::add);
    return out;
  }

  @Property(tries = 300)
  void encode_everyStyle_parsesBack(@ForAll("sets") Sets s) {
    IdSet a = of(s.a());
    for (IdSet.Style style : IdSet.Style.values()) {
      assertThat(IdSet.parse(a.encode(style))).as(style.name()).isEqualTo(a);
    }
    assertThat(IdSet.parse(a.toString())).isEqualTo(a);
  }

  @Property(tries = 300)
  void unionIntersection_commutativeAndAssociative(@ForAll("sets") Sets s) {
    IdSet a = of(s.a());
    IdSet b = of(s.b());
    IdSet c = of(s.c());
    assertThat(a.union(b)).isEqualTo(b.union(a));
    assertThat(a.intersection(b)).isEqualTo(b.intersection(a));
    assertThat(a.union(b).union(c)).isEqualTo(a.union(b.union(c)));
    assertThat(a.intersection(b).intersection(c)).isEqualTo(a.intersection(b.intersection(c)));
  }

  @Property(tries = 300)
  void difference_disjointAndBounded(@ForAll("sets") Sets s) {
    IdSet a = of(s.a());
    IdSet b = of(s.b());
    assertThat(a.difference(b).intersects(b)).isFalse();
    assertThat(a.difference(b).intersection(b).isEmpty()).isTrue();
    assertThat(a.union(b).difference(b).isSubsetOf(a)).isTrue();
    assertThat(a.intersection(b).isSubsetOf(a)).isTrue();
    assertThat(a.difference(b).union(a.intersection(b))).isEqualTo(a);
  }

  @Property(tries = 300)
  void algebra_matchesTreeSetModel(@ForAll("sets") Sets s) {
    IdSet a = of(s.a());
    IdSet b = of(s.b());
    TreeSet<Integer> union = new TreeSet<>(s.a());
    union.addAll(s.b());
    TreeSet<Integer> inter = new TreeSet<>(s.a());
    inter.retainAll(s.b());
    TreeSet<Integer> diff = new TreeSet<>(s.a());
    diff.removeAll(s.b());
    assertThat(members(a.union(b))).isEqualTo(List.copyOf(union));
    assertThat(members(a.intersection(b))).isEqualTo(List.copyOf(inter));
    assertThat(members(a.difference(b))).isEqualTo(List.copyOf(diff));
    assertThat(a.intersects(b)).isEqualTo(!inter.isEmpty());
    assertThat(a.isSubsetOf(b)).isEqualTo(s.b().containsAll(s.a()));
    assertThat(a.equals(b)).isEqualTo(s.a().equals(s.b()));
  }

  @Property(tries = 300)
  void queries_matchTreeSetModel(@ForAll("sets") Sets s) {
    TreeSet<Integer> m = s.a();
    IdSet a = of(m);
    List<Integer> list = List.copyOf(m);
    assertThat(members(a)).isEqualTo(list);
    assertThat(a.stream().boxed().toList()).isEqualTo(list);
    assertThat(a.count()).isEqualTo(m.size());
    assertThat(a.first()).isEqualTo(m.isEmpty() ? -1 : m.first());
    assertThat(a.last()).isEqualTo(m.isEmpty() ? -1 : m.last());
    for (int i = 0; i < list.size(); i++) {
      assertThat(a.nth(i)).isEqualTo(list.get(i));
      assertThat(a.indexOf(list.get(i))).isEqualTo(i);
      assertThat(members(a.first(i))).isEqualTo(list.subList(0, i));
    }
    for (int id : s.b()) {
      assertThat(a.contains(id)).isEqualTo(m.contains(id));
      Integer higher = m.higher(id);
      assertThat(a.next(id)).isEqualTo(higher == null ? -1 : higher);
      assertThat(a.indexOf(id)).isEqualTo(m.contains(id) ? list.indexOf(id) : -1);
    }
  }
}
