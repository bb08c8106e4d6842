package io.fluxdrm.rset;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Laws of RFC 29 hostlists, checked against a naive model: the list of expanded host names. jqwik
 * prints the seed of a failing run; rerun it with {@code @Property(seed = "...")}.
 */
class HostlistPropertiesTest {

  /** A hostlist string and the hosts it names, in order. */
  record Written(String text, List<String> hosts) {}

  /** Prefixes with the one zero-padding width each uses, so that their numbers sort plainly. */
  private static final String[] PREFIXES = {"n", "m", "rack1-n", ""};

  private static final int[] WIDTHS = {1, 3, 2, 1};

  private static String number(int v, int width) {
    return String.format("%0" + width + "d", v);
  }

  private static Arbitrary<Written> element() {
    Arbitrary<Written> run =
        Combinators.combine(
                Arbitraries.integers().between(0, PREFIXES.length - 1),
                Arbitraries.integers().between(0, 30),
                Arbitraries.integers().between(0, 5))
            .as(
                (p, lo, len) -> {
                  List<String> hosts = new ArrayList<>();
                  for (int v = lo; v <= lo + len; v++) {
                    hosts.add(PREFIXES[p] + number(v, WIDTHS[p]));
                  }
                  String nums =
                      number(lo, WIDTHS[p]) + (len > 0 ? "-" + number(lo + len, WIDTHS[p]) : "");
                  return new Written(PREFIXES[p] + "[" + nums + "]", hosts);
                });
    Arbitrary<Written> single =
        Arbitraries.of("login", "a", "n", "rack1-n1-ib").map(h -> new Written(h, List.of(h)));
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(6, run), net.jqwik.api.Tuple.of(1, single));
  }

  @Provide
  Arbitrary<Written> lists() {
    return Combinators.combine(
            element().list().ofMaxSize(8), Arbitraries.of(",", " ", "\t", ",,").list().ofSize(8))
        .as(
            (elements, seps) -> {
              StringBuilder sb = new StringBuilder();
              List<String> hosts = new ArrayList<>();
              for (int i = 0; i < elements.size(); i++) {
                if (i > 0) {
                  sb.append(seps.get(i));
                }
                sb.append(elements.get(i).text());
                hosts.addAll(elements.get(i).hosts());
              }
              return new Written(sb.toString(), hosts);
            });
  }

  /** libhostlist's order: prefix (bytes), names without a number first, then the number. */
  private static final Comparator<String> BY_PREFIX_THEN_NUMBER =
      Comparator.<String, String>comparing(HostlistPropertiesTest::prefix)
          .thenComparing(h -> prefix(h).length() < h.length())
          .thenComparingLong(
              h ->
                  prefix(h).length() < h.length()
                      ? Long.parseLong(h.substring(prefix(h).length()))
                      : 0);

  private static String prefix(String host) {
    int p = host.length();
    while (p > 0 && Character.isDigit(host.charAt(p - 1))) {
      p--;
    }
    return host.substring(0, p);
  }

  @Property(tries = 300)
  void parse_expandsToModel_andEncodingRoundTrips(@ForAll("lists") Written w) {
    Hostlist h = Hostlist.parse(w.text());
    assertThat(h.expand()).isEqualTo(w.hosts());
    assertThat(h.count()).isEqualTo(h.expand().size());
    Hostlist again = Hostlist.parse(h.toString());
    assertThat(again.expand()).isEqualTo(h.expand());
    assertThat(again).isEqualTo(h);
    assertThat(again.toString()).isEqualTo(h.toString());
    assertThat(Hostlist.of(w.hosts())).isEqualTo(h);
  }

  @Property(tries = 300)
  void getIndexOf_matchModel(@ForAll("lists") Written w) {
    Hostlist h = Hostlist.parse(w.text());
    List<String> m = w.hosts();
    for (int i = 0; i < m.size(); i++) {
      assertThat(h.get(i)).isEqualTo(m.get(i));
      assertThat(h.indexOf(m.get(i))).isEqualTo(m.indexOf(m.get(i)));
    }
    assertThat(h.indexOf("absent7")).isEqualTo(-1);
  }

  @Property(tries = 300)
  void sortUniq_matchModel(@ForAll("lists") Written w) {
    Hostlist h = Hostlist.parse(w.text());
    List<String> sorted = new ArrayList<>(w.hosts());
    sorted.sort(BY_PREFIX_THEN_NUMBER);
    assertThat(h.sort().expand()).isEqualTo(sorted);
    assertThat(h.uniq().expand()).isEqualTo(sorted.stream().distinct().toList());
    assertThat(h.uniq().uniq()).isEqualTo(h.uniq());
    assertThat(h.sort().count()).isEqualTo(h.count());
  }

  @Property(tries = 300)
  void appendSelect_matchModel(@ForAll("lists") Written a, @ForAll("lists") Written b) {
    Hostlist x = Hostlist.parse(a.text());
    Hostlist y = Hostlist.parse(b.text());
    List<String> both = new ArrayList<>(a.hosts());
    both.addAll(b.hosts());
    assertThat(x.append(y).expand()).isEqualTo(both);
    IdSet.Builder even = IdSet.builder();
    List<String> evens = new ArrayList<>();
    for (int i = 0; i < both.size(); i += 2) {
      even.add(i);
      evens.add(both.get(i));
    }
    assertThat(x.append(y).select(even.build()).expand()).isEqualTo(evens);
  }

  @Property(tries = 300)
  void deleteIntersectMinus_matchModel(@ForAll("lists") Written a, @ForAll("lists") Written b) {
    Hostlist x = Hostlist.parse(a.text());
    Hostlist y = Hostlist.parse(b.text());
    Set<String> inB = new HashSet<>(b.hosts());

    List<String> deleted = new ArrayList<>(a.hosts());
    for (String host : b.hosts()) {
      deleted.remove(host); // first occurrence, as hostlist_delete
    }
    assertThat(x.delete(y).expand()).isEqualTo(deleted);

    List<String> deletedAll = new ArrayList<>(a.hosts());
    deletedAll.removeIf(inB::contains);
    assertThat(x.deleteAll(y).expand()).isEqualTo(deletedAll);
    assertThat(x.minus(y).expand()).isEqualTo(deletedAll);

    List<String> common = new ArrayList<>(a.hosts());
    common.retainAll(inB);
    common.sort(BY_PREFIX_THEN_NUMBER);
    assertThat(x.intersect(y).expand()).isEqualTo(common.stream().distinct().toList());

    Map<String, Integer> counts = new HashMap<>();
    a.hosts().forEach(hst -> counts.merge(hst, 1, Integer::sum));
    assertThat(x.delete(y).count())
        .isEqualTo(
            x.count()
                - b.hosts().stream()
                    .filter(hst -> counts.merge(hst, -1, Integer::sum) >= 0)
                    .count());
  }
}
