package io.fluxdrm.rset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HostlistTest {

  private static List<String> hosts(String spaced) {
    return spaced == null || spaced.isBlank()
        ? List.of()
        : Arrays.asList(spaced.trim().split(" +"));
  }

  @ParameterizedTest(name = "parse \"{0}\" encodes \"{1}\" ({2} hosts)")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          ''                      | ''                     | 0
          foo                     | foo                    | 1
          'a1,a2,a3,b5'           | 'a[1-3],b5'            | 4
          'n[1-3],n2'             | 'n[1-3,2]'             | 4
          'n01,n02,n3'            | 'n[01-02,3]'           | 3
          'n[01-03],n[9-11]'      | 'n[01-03,9-11]'        | 6
          'n[00-2]'               | 'n[00-02]'             | 3
          'n[005,4,11-13]'        | 'n[005,4,11-13]'       | 5
          'n9,n10'                | 'n[9-10]'              | 2
          'n09,n10'               | 'n[09-10]'             | 2
          'n9,n010'               | 'n[9,010]'             | 2
          'n[98-100]'             | 'n[98-100]'            | 3
          'n[1-2],n[3-4]'         | 'n[1-4]'               | 4
          'n1,m1,n2'              | 'n1,m1,n2'             | 3
          'x,1,2'                 | 'x,[1-2]'              | 3
          '1,2,3,7'               | '[1-3,7]'              | 4
          '14636'                 | '14636'                | 1
          'n1,n1'                 | 'n[1,1]'               | 2
          'foo,foo'               | 'foo,foo'              | 2
          'n[1]'                  | n1                     | 1
          'n[01]'                 | n01                    | 1
          'n[1-1]'                | n1                     | 1
          'n[3-3,5]'              | 'n[3,5]'               | 2
          'foo12,foo4,foo1,foo2'  | 'foo[12,4,1-2]'        | 4
          'n1a,n2a'               | 'n1a,n2a'              | 2
          'foo[1-2]-eth0'         | 'foo1-eth0,foo2-eth0'  | 2
          'p[00-1]s'              | 'p00s,p01s'            | 2
          'rack1-n[1-2]'          | 'rack1-n[1-2]'         | 2
          'n1-2'                  | 'n1-2'                 | 1
          'n1 n2	n3'              | 'n[1-3]'               | 3
          ',n1,,n2,'              | 'n[1-2]'               | 2
          '  n1  '                | n1                     | 1
          'n[1,1,2,1]'            | 'n[1,1-2,1]'           | 4
          'n[0-1048575]'          | 'n[0-1048575]'         | 1048576
          'é[1-2]'                | 'é[1-2]'               | 2
          """)
  void parse_valid_encodesAsFluxCore(String in, String encoded, long count) {
    Hostlist h = Hostlist.parse(in);
    assertThat(h).hasToString(encoded);
    assertThat(h.count()).isEqualTo(count);
    assertThat(h.isEmpty()).isEqualTo(count == 0);
    assertThat(Hostlist.parse(encoded)).hasToString(encoded);
  }

  @ParameterizedTest(name = "expand \"{0}\" = {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          ''                 | ''
          'node[0-3],foo7'   | node0 node1 node2 node3 foo7
          'n[00-2]'          | n00 n01 n02
          'n[005,4,11-12]'   | n005 n4 n11 n12
          '[1-3,5]'          | 1 2 3 5
          'foo[1,1,2,1]'     | foo1 foo1 foo2 foo1
          'f00[7-8,10]'      | f007 f008 f0010
          'foo[0-1]-eth2'    | foo0-eth2 foo1-eth2
          """)
  void expand_valid_hostsInOrder(String in, String expected) {
    assertThat(Hostlist.parse(in).expand()).isEqualTo(hosts(expected));
  }

  @ParameterizedTest(name = "parse \"{0}\" rejected: {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          '[]'                 | has "", not a number or a range (expected: n or lo-hi)
          'foo[]'              | has "", not a number or a range
          'foo[1,,2]'          | has "", not a number or a range
          'foo['               | has an unclosed '[' (expected: balanced brackets)
          'foo[1,3'            | has an unclosed '['
          'a,foo[1 ,3'         | has an unclosed '['
          'foo[[1,3]'          | has nested or repeated brackets (expected: one bracket per element)
          'foo[1]x[2]'         | has nested or repeated brackets
          'foo[1]]'            | has nested or repeated brackets
          'foo]'               | has an unmatched ']'
          'foo]bar[1]'         | has an unmatched ']'
          'foo[x-y]'           | has "x-y", not a number or a range
          'foo[0-1,2--5]'      | has "2--5", not a number or a range
          'foo[-1]'            | has "-1", not a number or a range
          'foo[1-]'            | has "1-", not a number or a range
          'foo[+1]'            | has "+1", not a number or a range
          'foo[ 1]'            | has " 1", not a number or a range
          'foo[1 2]'           | has "1 2", not a number or a range
          'foo[3-1]'           | has the reversed range "3-1" (expected: lo <= hi)
          'foo[0-1048576]'     | range "0-1048576" names 1048577 hosts (expected: at most 1048576)
          'foo[5-1048581]'     | range "5-1048581" names 1048577 hosts
          """)
  void parse_invalid_rejectedWithReason(String in, String why) {
    assertThatThrownBy(() -> Hostlist.parse(in))
        .isInstanceOf(RsetException.class)
        .hasMessageStartingWith("hostlist \"" + in + "\": ")
        .hasMessageContaining(why)
        .hasMessageNotContaining("\n")
        .satisfies(e -> assertThat(e.getMessage()).doesNotEndWith("."));
  }

  @ParameterizedTest(name = "parse \"{0}\" says \"{1}\"")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          'foo['           | hostlist "foo[": "foo[" has an unclosed '[' (expected: balanced brackets)
          'a,foo]'         | hostlist "a,foo]": "foo]" has an unmatched ']'
          'n[2-1]'         | hostlist "n[2-1]": "n[2-1]" has the reversed range "2-1" (expected: lo <= hi)
          'n[0-1048576]'   | hostlist "n[0-1048576]": range "0-1048576" names 1048577 hosts (expected: at most 1048576)
          """)
  void parse_invalid_exactMessage(String in, String message) {
    assertThatThrownBy(() -> Hostlist.parse(in)).hasMessage(message);
  }

  @ParameterizedTest(name = "parse \"{0}\" has reason {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          'n[0-1048576]'   | RANGE
          'n[2-1]'         | INVALID
          'foo]'           | INVALID
          """)
  void parse_invalid_classifiedLikeErrno(String in, RsetException.Reason reason) {
    assertThatThrownBy(() -> Hostlist.parse(in))
        .isInstanceOfSatisfying(RsetException.class, e -> assertThat(e.reason()).isEqualTo(reason));
  }

  @Test
  void parse_paddedFirstId_widthPerRangeAsFluxCoreNotRfc29() {
    // decision D19: RFC 29 says 005,4,11-13 means 005,004,011,012,013; flux-core pads each range
    // by its own first number, and fluxdrm follows flux-core
    assertThat(Hostlist.parse("n[005,4,11-13]").expand())
        .containsExactly("n005", "n4", "n11", "n12", "n13")
        .doesNotContain("n004", "n011");
  }

  @Test
  void parse_null_rejected() {
    assertThatThrownBy(() -> Hostlist.parse(null))
        .isInstanceOf(RsetException.class)
        .hasMessage("hostlist is missing (expected: an RFC 29 hostlist string)");
  }

  @Test
  void parse_tooManyRangesInOneBracket_rejected() {
    StringBuilder ok = new StringBuilder("n[");
    for (int i = 0; i < Hostlist.MAX_RANGES; i++) {
      ok.append(i == 0 ? "" : ",").append(2 * i);
    }
    assertThat(Hostlist.parse(ok + "]").count()).isEqualTo(Hostlist.MAX_RANGES);
    String tooMany = ok + "," + (2 * Hostlist.MAX_RANGES) + "]";
    assertThatThrownBy(() -> Hostlist.parse(tooMany))
        .isInstanceOfSatisfying(
            RsetException.class, e -> assertThat(e.reason()).isEqualTo(RsetException.Reason.RANGE))
        .hasMessageEndingWith("more than 10240 ranges in one bracket")
        .hasMessageContaining("...");
  }

  @Test
  void parse_suffixedBombBeyondExpansionLimit_rejected() {
    String in = "n[0-1048575]x,n[0-1048575]x,n[0-1048575]x,n[0-1048575]x,n[0-1]x";
    assertThatThrownBy(() -> Hostlist.parse(in))
        .isInstanceOfSatisfying(
            RsetException.class, e -> assertThat(e.reason()).isEqualTo(RsetException.Reason.RANGE))
        .hasMessageContaining("suffixed ranges expand to more than 4194304 hosts");
  }

  @ParameterizedTest(name = "of({0}) rejected: {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          'a,b'   | host name "a,b" contains ',' (expected: no separators or brackets)
          'n[1]'  | host name "n[1]" contains '['
          'a b'   | host name "a b" contains ' '
          """)
  void of_hostWithSeparator_rejected(String host, String why) {
    assertThatThrownBy(() -> Hostlist.of("ok", host))
        .isInstanceOf(RsetException.class)
        .hasMessageContaining(why);
  }

  @Test
  void of_names_likeAppendingEachHost() {
    assertThat(Hostlist.of("n1", "", "n2", "x", "n3")).hasToString("n[1-2],x,n3");
    assertThat(Hostlist.of(List.of("n01", "n02"))).isEqualTo(Hostlist.parse("n[01-02]"));
    assertThat(Hostlist.of()).isEqualTo(Hostlist.empty());
  }

  @ParameterizedTest(name = "\"{0}\"[{1}] = {2}")
  @CsvSource({
    "'foo[1-2,4,5],bar', 0, foo1",
    "'foo[1-2,4,5],bar', 2, foo4",
    "'foo[1-2,4,5],bar', 4, bar",
    "'n[007-009]', 2, n009",
    "'n[0-1048575],m[0-1048575]', 1048576, m0",
    "'n[0-1048575],m[0-1048575]', 2097151, m1048575"
  })
  void get_index_host(String list, long index, String host) {
    Hostlist h = Hostlist.parse(list);
    assertThat(h.get(index)).isEqualTo(host);
    assertThat(h.indexOf(host)).isEqualTo(index);
  }

  @ParameterizedTest(name = "\"{0}\"[{1}] out of bounds")
  @CsvSource({"'', 0", "'n[1-3]', 3", "'n[1-3]', -1"})
  void get_outOfBounds_noSuchElement(String list, long index) {
    assertThatThrownBy(() -> Hostlist.parse(list).get(index))
        .isInstanceOf(NoSuchElementException.class)
        .hasMessageStartingWith("hostlist index " + index + " is out of range");
  }

  @ParameterizedTest(name = "find \"{1}\" in \"{0}\" = {2}")
  @CsvSource({
    "'n0', n, -1",
    "'n0,n', n, 1",
    "'n,n0', n, 0",
    "'n', n0, -1",
    "'n[1-5]-ib', n4-ib, 3",
    "'n[1-5]', n4-ib, -1",
    "'[0-9]', 7, 7",
    "'[0-5]x', 0, -1",
    "'h[0-9]', h07, -1",
    "'h[00-09]', h07, 7",
    "'h[00-09]', h7, -1",
    "'h[8-12]', h10, 2",
    "'h[8-12]', h010, -1",
    "'h[98-100]', h100, 2",
    "'r1n[1-3]', r1n2, 1",
    "'r1n[1-3]', r12, -1",
    "'f00[7-8]', f008, 1",
    "'f00[7-8,10]', f0010, 2",
    "'n[1-3],n2', n2, 1",
    "'a,n[1-3]', a, 0",
    "'n[0-1048575]', n1048575, 1048575",
    "'n[0-1048575]', n1048576, -1",
    "'n[0-1048575]', n01, -1"
  })
  void indexOf_host_firstOccurrence(String list, String host, long index) {
    Hostlist h = Hostlist.parse(list);
    assertThat(h.indexOf(host)).isEqualTo(index);
    assertThat(h.contains(host)).isEqualTo(index >= 0);
  }

  @ParameterizedTest(name = "\"{0}\" + \"{1}\" = \"{2}\"")
  @CsvSource({
    "'', '', ''",
    "'n[1-3]', '', 'n[1-3]'",
    "'', 'n[1-3]', 'n[1-3]'",
    "'n[1-3]', 'n[4-5]', 'n[1-5]'",
    "'n[1-3]', 'n2', 'n[1-3,2]'",
    "'foo12', 'foo[4,1-2]', 'foo[12,4,1-2]'",
    "'foo[12,4,1-2]', 'bar[26-30]', 'foo[12,4,1-2],bar[26-30]'",
    "'n01', 'n2', 'n[01,2]'",
    "'x', 'x', 'x,x'"
  })
  void append_lists_duplicatesKeptAndRunsJoined(String a, String b, String expected) {
    Hostlist x = Hostlist.parse(a);
    Hostlist y = Hostlist.parse(b);
    Hostlist joined = x.append(y);
    assertThat(joined).hasToString(expected);
    assertThat(joined.count()).isEqualTo(x.count() + y.count());
  }

  @ParameterizedTest(name = "\"{0}\" at {1} = \"{2}\"")
  @CsvSource({
    "'n[1-4]', '', ''",
    "'n[1-4]', 2, n3",
    "'n[1-4]', '0,2-3', 'n[1,3-4]'",
    "'a,b,n[1-3]', 1-3, 'b,n[1-2]'",
    "'n[1-3],n[01-03]', 2-3, 'n[3,01]'",
    "'n[0-1048575],m[0-1048575]', '1048575-1048576', 'n1048575,m0'"
  })
  void select_positions_hostsInListOrder(String list, String positions, String expected) {
    assertThat(Hostlist.parse(list).select(IdSet.parse(positions))).hasToString(expected);
  }

  @Test
  void select_beyondEnd_rejected() {
    assertThatThrownBy(() -> Hostlist.parse("n[1-4]").select(IdSet.parse("2,4")))
        .isInstanceOfSatisfying(
            RsetException.class,
            e -> assertThat(e.reason()).isEqualTo(RsetException.Reason.NOT_FOUND))
        .hasMessage("hostlist index 4 is out of range (expected: 0 to 3)");
  }

  @ParameterizedTest(name = "sort \"{0}\" = \"{1}\", uniq = \"{2}\"")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          ''                          | ''                          | ''
          'n3,n1,n2'                  | 'n[1-3]'                    | 'n[1-3]'
          'b2,a1,b1'                  | 'a1,b[1-2]'                 | 'a1,b[1-2]'
          'zz,a,m'                    | 'a,m,zz'                    | 'a,m,zz'
          'n,n1,n'                    | 'n,n,n1'                    | 'n,n1'
          'n[3-5],n[1-7]'             | 'n[1-3,3-4,4-5,5-7]'        | 'n[1-7]'
          'n[1-3],n[1-3]'             | 'n[1,1-2,2-3,3]'            | 'n[1-3]'
          'n2,n2,n2'                  | 'n[2,2,2]'                  | 'n2'
          'n10,n9,n11'                | 'n[9-11]'                   | 'n[9-11]'
          'n[01-03],n[1-3]'           | 'n[1-3,01-03]'              | 'n[1-3,01-03]'
          'n[5-6],n3,n4'              | 'n[3-6]'                    | 'n[3-6]'
          'n5,ab1,n1'                 | 'ab1,n[1,5]'                | 'ab1,n[1,5]'
          'n1,nn1,n2'                 | 'n[1-2],nn1'                | 'n[1-2],nn1'
          '2,10,1'                    | '[1-2,10]'                  | '[1-2,10]'
          'n[0-1048575],n[0-1048575]' | ''                          | 'n[0-1048575]'
          """)
  void sortUniq_table_asLibhostlist(String in, String sorted, String uniq) {
    Hostlist h = Hostlist.parse(in);
    if (!sorted.isEmpty() || in.isEmpty()) {
      assertThat(h.sort()).hasToString(sorted);
    }
    assertThat(h.uniq()).hasToString(uniq);
  }

  @ParameterizedTest(name = "\"{0}\" delete \"{1}\" = \"{2}\"")
  @CsvSource({
    "'n[2-5]', n6, 'n[2-5]'",
    "'n[2-5]', n3, 'n[2,4-5]'",
    "'n[2-5],x', x, 'n[2-5]'",
    "'n[2-5],x', 'n[1-2]', 'n[3-5],x'",
    "'n[0-7]', 'n[1,0,2-7]', ''",
    "'n[2-4]-ib', n3-ib, 'n2-ib,n4-ib'",
    "'n[1-3],n2', n2, 'n[1,3,2]'",
    "'n[1-3],n2', 'n2,n2', 'n[1,3]'",
    "'n[1-3],n2', 'n2,n2,n2', 'n[1,3]'",
    "'x,x,x', 'x', 'x,x'",
    "'n1,n3,n2', n3, 'n[1,2]'",
    "'n[9-10]', n9, n10",
    "'n[01-03]', n2, 'n[01-03]'"
  })
  void delete_hosts_firstOccurrenceEachWithoutRejoining(String list, String del, String expected) {
    assertThat(Hostlist.parse(list).delete(Hostlist.parse(del))).hasToString(expected);
  }

  @ParameterizedTest(name = "\"{0}\" deleteAll \"{1}\" = \"{2}\"")
  @CsvSource({
    "'n[1-4]', n2, 'n[1,3-4]'",
    "'n[1-3],n2', n2, 'n[1,3]'",
    "'x,n1,x,x', x, n1",
    "'n1,n3,n2,n3', n3, 'n[1,2]'",
    "'n[1-4]', 'n[0-9]', ''",
    "'n[1-4]', 'm[1-4]', 'n[1-4]'"
  })
  void deleteAll_hosts_everyOccurrenceGone(String list, String del, String expected) {
    assertThat(Hostlist.parse(list).deleteAll(Hostlist.parse(del))).hasToString(expected);
  }

  @ParameterizedTest(name = "\"{0}\" intersect \"{1}\" = \"{2}\", minus = \"{3}\"")
  @CsvSource({
    "'n[1-3]', 'n[2-5]', 'n[2-3]', 'n1'",
    "'n[1-3]', 'n[3-5]', 'n3', 'n[1-2]'",
    "'n[3,1-2],n1', 'n[1-3]', 'n[1-3]', ''",
    "'n[1-3],n1', 'n[2-5]', 'n[2-3]', 'n[1,1]'",
    "'a,b,c', 'c,a', 'a,c', 'b'",
    "'n[01-03]', 'n[1-3]', '', 'n[01-03]'",
    "'n[1-3]', '', '', 'n[1-3]'",
    "'', 'n[1-3]', '', ''"
  })
  void intersectMinus_table_asFluxHostlist(String a, String b, String intersect, String minus) {
    Hostlist x = Hostlist.parse(a);
    Hostlist y = Hostlist.parse(b);
    assertThat(x.intersect(y)).hasToString(intersect);
    assertThat(x.minus(y)).hasToString(minus);
  }

  @Test
  void bracketBombs_countedIndexedComparedWithoutExpansion() {
    String bomb = "n[0-1048575],m[0-1048575],o[0-1048575],p[0-1048575],q[0-1048575]";
    Hostlist h = Hostlist.parse(bomb);
    assertThat(h.count()).isEqualTo(5L << 20);
    assertThat(h).hasToString(bomb);
    assertThat(h.get(h.count() - 1)).isEqualTo("q1048575");
    assertThat(h.indexOf("p17")).isEqualTo((3L << 20) + 17);
    assertThat(h.contains("r0")).isFalse();
    assertThat(h).isEqualTo(Hostlist.parse(bomb)).hasSameHashCodeAs(Hostlist.parse(bomb));
    assertThat(h).isNotEqualTo(Hostlist.parse(bomb.replace("q[0-1048575]", "q[0-1048574]")));
    assertThat(h.append(h).count()).isEqualTo(10L << 20);
    assertThat(h.uniq())
        .isEqualTo(
            Hostlist.parse(
                "m[0-1048575],n[0-1048575],o[0-1048575]," + "p[0-1048575],q[0-1048575]"));
    assertThat(h.select(IdSet.range(1048570, 1048580))).hasToString("n[1048570-1048575],m[0-4]");
    String wide = "n[" + "0-1048575,".repeat(9) + "0-1048575]";
    assertThat(Hostlist.parse(wide).count()).isEqualTo(10L << 20);
  }

  @Test
  void bracketBombs_expansionBeyondLimit_rejected() {
    Hostlist h = Hostlist.parse("n[0-1048575],m[0-1048575],o[0-1048575],p[0-1048575],q0");
    assertThat(h.count()).isGreaterThan(Hostlist.EXPANSION_LIMIT);
    String tooLarge = "hostlist of 4194305 hosts is too large to ";
    assertThatThrownBy(h::expand)
        .isInstanceOfSatisfying(
            RsetException.class, e -> assertThat(e.reason()).isEqualTo(RsetException.Reason.RANGE))
        .hasMessage(tooLarge + "expand (expected: at most 4194304)");
    Hostlist one = Hostlist.parse("n1");
    assertThatThrownBy(() -> h.intersect(one)).hasMessageStartingWith(tooLarge + "intersect");
    assertThatThrownBy(() -> h.minus(one)).hasMessageStartingWith(tooLarge + "subtract from");
    assertThatThrownBy(() -> h.delete(one)).hasMessageStartingWith(tooLarge + "delete from");
    assertThatThrownBy(() -> h.deleteAll(one)).hasMessageStartingWith(tooLarge + "delete from");
    assertThatThrownBy(() -> one.delete(h)).hasMessageStartingWith(tooLarge + "delete (");
  }

  @ParameterizedTest(name = "\"{0}\" equals \"{1}\": {2}")
  @CsvSource({
    "'n[1-3]', 'n1,n2,n3', true",
    "'n[1-2],n[3-4]', 'n[1-4]', true",
    "'n[01-02]', 'n[1-2]', false",
    "'n[1-2]', 'n[2,1]', false",
    "'n[1-3]', 'n[1-3],n3', false",
    "'n[100-101]', 'n[0100-0101]', false"
  })
  void equals_sameHostsInSameRuns_equal(String a, String b, boolean equal) {
    Hostlist x = Hostlist.parse(a);
    Hostlist y = Hostlist.parse(b);
    assertThat(x.equals(y)).isEqualTo(equal);
    assertThat(y.equals(x)).isEqualTo(equal);
    if (equal) {
      assertThat(x.hashCode()).isEqualTo(y.hashCode());
    }
    assertThat(x).isNotEqualTo(a);
  }

  @Test
  void equals_runTrimmedToWiderNumbers_equalsParsedHost() {
    // "n[9-10]" minus n9 leaves the run 10..10 written at width 1, which pads nothing
    Hostlist trimmed = Hostlist.parse("n[9-10]").delete(Hostlist.parse("n9"));
    assertThat(trimmed).isEqualTo(Hostlist.parse("n10")).hasSameHashCodeAs(Hostlist.parse("n10"));
    assertThat(Hostlist.parse("n[8-10]").select(IdSet.of(2))).isEqualTo(Hostlist.parse("n10"));
  }

  @Test
  void divergence_sortMixedPadding_keepsEveryHost() {
    // decision D21: flux-core prints m[7-8,8-9,9-10,10-11,11-12,12,07-15] here, other hosts
    Hostlist h = Hostlist.parse("m[7-15],m[8-12],m07");
    Hostlist sorted = h.sort();
    assertThat(sorted).hasToString("m[7-8,8-9,9-10,10-11,11-12,12-15,07]");
    assertThat(sorted.expand()).containsExactlyInAnyOrderElementsOf(h.expand());
  }

  @ParameterizedTest(name = "\"{0}\" rejected although flux-core reads it")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          'n[1-]'                      | has "1-", not a number or a range
          'n[+1]'                      | has "+1", not a number or a range
          'n[ 1]'                      | has " 1", not a number or a range
          'n[1-2]-[3]'                 | has nested or repeated brackets
          'n[1234567890123456789]'     | has "1234567890123456789", not a number or a range
          """)
  void divergence_lenientFluxCoreInput_rejected(String in, String why) {
    // decision D21
    assertThatThrownBy(() -> Hostlist.parse(in))
        .isInstanceOf(RsetException.class)
        .hasMessageContaining(why);
  }

  @Test
  void divergence_nineteenDigitNumber_keptAsPlainName() {
    // decision D21: flux-core would compress these two into one run
    Hostlist h = Hostlist.parse("n1234567890123456789,n1234567890123456790,n123456789012345678901");
    assertThat(h.count()).isEqualTo(3);
    assertThat(h).hasToString("n1234567890123456789,n1234567890123456790,n123456789012345678901");
    assertThat(h.indexOf("n123456789012345678901")).isEqualTo(2);
  }
}
