package io.fluxdrm.rset;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * Laws of R algebra on random sets, checked against a naive model: rank to type to a {@link
 * TreeSet} of ids. Each try draws a seed and builds its sets from it; jqwik prints the seed of a
 * failing try (and of every run), and the failing seed alone reproduces the sets.
 */
class ResourceSetPropertiesTest {

  private static final String[] TYPES = {"core", "gpu"};

  /** rank -> type -> ids; a rank present holds at least one id. */
  record Model(TreeMap<Integer, TreeMap<String, TreeSet<Integer>>> ranks) {

    /** Triples as text, for readable comparisons: "rank/type/id". */
    TreeSet<String> triples() {
      TreeSet<String> out = new TreeSet<>();
      ranks.forEach(
          (r, types) ->
              types.forEach((t, ids) -> ids.forEach(id -> out.add(r + "/" + t + "/" + id))));
      return out;
    }
  }

  /** A random model: up to 14 of ranks 0-39, fragmented cores 0-15, maybe gpus 0-3. */
  static Model randomModel(SplittableRandom rng, boolean gpus) {
    TreeMap<Integer, TreeMap<String, TreeSet<Integer>>> m = new TreeMap<>();
    int n = rng.nextInt(15);
    for (int i = 0; i < n; i++) {
      int rank = rng.nextInt(40);
      TreeMap<String, TreeSet<Integer>> types = new TreeMap<>();
      TreeSet<Integer> cores = new TreeSet<>();
      for (int c = 0; c < 16; c++) {
        if (rng.nextInt(3) > 0) {
          cores.add(c);
        }
      }
      if (!cores.isEmpty()) {
        types.put("core", cores);
      }
      if (gpus && rng.nextBoolean()) {
        TreeSet<Integer> g = new TreeSet<>();
        for (int c = 0; c < 4; c++) {
          if (rng.nextBoolean()) {
            g.add(c);
          }
        }
        if (!g.isEmpty()) {
          types.put("gpu", g);
        }
      }
      if (!types.isEmpty()) {
        m.put(rank, types);
      }
    }
    return new Model(m);
  }

  /** The R of a model, entries in a shuffled order, with hosts n<rank> when asked. */
  static ResourceSet toR(Model m, boolean hosts, SplittableRandom rng) {
    List<String> entries = new ArrayList<>();
    m.ranks()
        .forEach(
            (r, types) -> {
              StringBuilder e = new StringBuilder().append(r).append(':');
              List<String> parts = new ArrayList<>();
              types.forEach(
                  (t, ids) -> {
                    IdSet.Builder b = IdSet.builder();
                    ids.forEach(b::add);
                    parts.add(t + "=" + b.build());
                  });
              entries.add(e.append(String.join("+", parts)).toString());
            });
    for (int i = entries.size() - 1; i > 0; i--) {
      int j = rng.nextInt(i + 1);
      String t = entries.get(i);
      entries.set(i, entries.get(j));
      entries.set(j, t);
    }
    String hostlist = null;
    if (hosts) {
      List<String> names = new ArrayList<>();
      m.ranks().keySet().forEach(r -> names.add("n" + r));
      hostlist = Hostlist.of(names).toString();
    }
    return RText.rl(String.join(" ", entries), hostlist);
  }

  private static Model modelOf(ResourceSet r) {
    TreeMap<Integer, TreeMap<String, TreeSet<Integer>>> m = new TreeMap<>();
    r.ranks()
        .forEach(
            (Integer rank) -> {
              for (String t : TYPES) {
                IdSet ids = r.resources(rank, t);
                if (!ids.isEmpty()) {
                  TreeSet<Integer> s = new TreeSet<>();
                  ids.forEach(s::add);
                  m.computeIfAbsent(rank, x -> new TreeMap<>()).put(t, s);
                }
              }
            });
    return new Model(m);
  }

  private static TreeSet<String> triples(ResourceSet r) {
    return modelOf(r).triples();
  }

  private static Model union(Model a, Model b) {
    Model out = copy(a);
    b.ranks()
        .forEach(
            (r, types) ->
                types.forEach(
                    (t, ids) ->
                        out.ranks()
                            .computeIfAbsent(r, x -> new TreeMap<>())
                            .computeIfAbsent(t, x -> new TreeSet<>())
                            .addAll(ids)));
    return out;
  }

  private static Model diff(Model a, Model b) {
    Model out = copy(a);
    b.ranks()
        .forEach(
            (r, types) -> {
              TreeMap<String, TreeSet<Integer>> mine = out.ranks().get(r);
              if (mine != null) {
                types.forEach(
                    (t, ids) -> {
                      if (mine.containsKey(t)) {
                        mine.get(t).removeAll(ids);
                      }
                    });
                mine.values().removeIf(TreeSet::isEmpty);
                if (mine.isEmpty()) {
                  out.ranks().remove(r);
                }
              }
            });
    return out;
  }

  private static Model intersect(Model a, Model b) {
    TreeMap<Integer, TreeMap<String, TreeSet<Integer>>> m = new TreeMap<>();
    a.ranks()
        .forEach(
            (r, types) -> {
              TreeMap<String, TreeSet<Integer>> theirs = b.ranks().get(r);
              if (theirs == null) {
                return;
              }
              types.forEach(
                  (t, ids) -> {
                    if (theirs.containsKey(t)) {
                      TreeSet<Integer> s = new TreeSet<>(ids);
                      s.retainAll(theirs.get(t));
                      if (!s.isEmpty()) {
                        m.computeIfAbsent(r, x -> new TreeMap<>()).put(t, s);
                      }
                    }
                  });
            });
    return new Model(m);
  }

  private static Model copy(Model a) {
    TreeMap<Integer, TreeMap<String, TreeSet<Integer>>> m = new TreeMap<>();
    a.ranks()
        .forEach(
            (r, types) -> {
              TreeMap<String, TreeSet<Integer>> t = new TreeMap<>();
              types.forEach((k, v) -> t.put(k, new TreeSet<>(v)));
              m.put(r, t);
            });
    return new Model(m);
  }

  @Property(tries = 300)
  void parseOfToString_randomR_equal(@ForAll long seed) {
    SplittableRandom rng = new SplittableRandom(seed);
    Model m = randomModel(rng, true);
    ResourceSet r = toR(m, rng.nextBoolean(), rng);
    assertThat(ResourceSet.parse(r.toString())).isEqualTo(r);
    assertThat(modelOf(r)).isEqualTo(m);
    assertThat(r.nnodes()).isEqualTo(m.ranks().size());
  }

  @Property(tries = 300)
  void toJsonBytes_randomR_isTheTreeWrittenCompact(@ForAll long seed) throws Exception {
    SplittableRandom rng = new SplittableRandom(seed);
    ResourceSet r = toR(randomModel(rng, true), rng.nextBoolean(), rng);
    if (rng.nextBoolean()) {
      r = r.withNslots(rng.nextLong(0, 100_000));
    }
    if (rng.nextBoolean()) {
      r =
          r.withTimes(
              rng.nextDouble() * 2e9, rng.nextBoolean() ? 0 : rng.nextInt(1, 2_000_000_000));
    }
    assertThat(new String(r.toJsonBytes(), StandardCharsets.UTF_8))
        .isEqualTo(new ObjectMapper().writeValueAsString(r.toJson()))
        .isEqualTo(r.toString());
  }

  @Property(tries = 300)
  void algebra_randomSets_agreesWithModel(@ForAll long seed) {
    SplittableRandom rng = new SplittableRandom(seed);
    boolean hosts = rng.nextBoolean();
    Model ma = randomModel(rng, true);
    Model mb = randomModel(rng, true);
    Model mc = randomModel(rng, true);
    ResourceSet a = toR(ma, hosts, rng);
    ResourceSet b = toR(mb, hosts, rng);
    ResourceSet c = toR(mc, hosts, rng);

    assertThat(triples(a.union(b))).isEqualTo(union(ma, mb).triples());
    assertThat(triples(a.diff(b))).isEqualTo(diff(ma, mb).triples());
    assertThat(triples(a.intersect(b))).isEqualTo(intersect(ma, mb).triples());

    // union commutative and associative as sets of (rank, type, id)
    assertThat(triples(a.union(b))).isEqualTo(triples(b.union(a)));
    assertThat(triples(a.union(b).union(c))).isEqualTo(triples(a.union(b.union(c))));
    // intersection too
    assertThat(triples(a.intersect(b))).isEqualTo(triples(b.intersect(a)));

    // a - b shares nothing with b
    TreeSet<String> d = triples(a.diff(b));
    d.retainAll(triples(b));
    assertThat(d).isEmpty();

    // (a ∪ b) - b ⊆ a
    assertThat(triples(a)).containsAll(triples(a.union(b).diff(b)));

    // a ∩ b ⊆ a and ⊆ b
    assertThat(triples(a)).containsAll(triples(a.intersect(b)));
    assertThat(triples(b)).containsAll(triples(a.intersect(b)));

    // every result is a valid R that reads back as itself (hosts as the inputs had them)
    for (ResourceSet x : List.of(a.union(b), a.diff(b), a.intersect(b))) {
      assertThat(ResourceSet.parse(x.toString())).isEqualTo(x);
      assertThat(x.hasNodelist()).isEqualTo(hosts || x.isEmpty());
    }
  }

  @Property(tries = 300)
  void appendThenDiff_disjointSets_restoresLeft(@ForAll long seed) {
    SplittableRandom rng = new SplittableRandom(seed);
    boolean hosts = rng.nextBoolean();
    Model ma = randomModel(rng, true);
    Model mb = diff(randomModel(rng, true), ma);
    ResourceSet a = toR(ma, hosts, rng);
    ResourceSet b = toR(mb, hosts, rng);

    ResourceSet appended = a.append(b);
    assertThat(triples(appended)).isEqualTo(union(ma, mb).triples());
    assertThat(triples(appended.diff(b))).isEqualTo(ma.triples());
    assertThat(triples(appended.diff(a))).isEqualTo(mb.triples());
    // the resources, host names and properties of a come back; only times and nslots differ
    assertThat(appended.diff(b).summary().isEmpty()).isEqualTo(ma.ranks().isEmpty());
    for (Map.Entry<Integer, TreeMap<String, TreeSet<Integer>>> e : ma.ranks().entrySet()) {
      assertThat(appended.diff(b).host(e.getKey())).isEqualTo(a.host(e.getKey()));
    }
  }
}
