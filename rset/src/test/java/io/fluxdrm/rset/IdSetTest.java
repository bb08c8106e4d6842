package io.fluxdrm.rset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PrimitiveIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class IdSetTest {

  /** Members of a set written as space-separated ids ("" for none), as the tables below do. */
  private static List<Integer> ids(String spaced) {
    if (spaced == null || spaced.isBlank()) {
      return List.of();
    }
    return Arrays.stream(spaced.trim().split(" +")).map(Integer::valueOf).toList();
  }

  private static List<Integer> members(IdSet set) {
    List<Integer> out = new ArrayList<>();
    set.forEach(out::add);
    return out;
  }

  @ParameterizedTest(name = "parse \"{0}\" = [{1}]")
  @CsvSource(
      delimiter = '|',
      nullValues = "NULL",
      textBlock =
          """
          ''                  | ''
          '[]'                | ''
          0                   | 0
          '[0]'               | 0
          2                   | 2
          7-9                 | 7 8 9
          '1,7-9'             | 1 7 8 9
          '1-3,7-9,14,16'     | 1 2 3 7 8 9 14 16
          '[1-3,7-9,14,16]'   | 1 2 3 7 8 9 14 16
          '1,2,3'             | 1 2 3
          '0-1,2-3'           | 0 1 2 3
          '1,,2'              | 1 2
          ','                 | ''
          '10,100,1000'       | 10 100 1000
          1048576             | 1048576
          2147483646-2147483647 | 2147483646 2147483647
          """)
  void parse_valid_givesMembers(String in, String expected) {
    IdSet set = IdSet.parse(in);
    assertThat(members(set)).isEqualTo(ids(expected));
    assertThat(set.count()).isEqualTo(ids(expected).size());
    assertThat(set.isEmpty()).isEqualTo(ids(expected).isEmpty());
  }

  @ParameterizedTest(name = "parse \"{0}\" rejected: {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          '3,2'            | is out of order
          '0-3,2-5'        | is out of order
          '5,1-3'          | is out of order
          '2,2'            | repeats an id
          '2,2,2,2'        | repeats an id
          '0-3,3'          | repeats an id
          '01'             | has a leading zero
          '00'             | has a leading zero
          '01,2'           | has a leading zero
          '1-03'           | has a leading zero
          '3-0'            | is a reversed range
          '9-8'            | is a reversed range
          '3-3'            | is a degenerate range
          '0-0'            | is a degenerate range
          '2147483648'     | is too large
          '0-2147483648'   | is too large
          '99999999999'    | is too large
          '4294967295'     | is too large
          '[0'             | brackets are unbalanced
          '[0,2]]'         | brackets are misplaced
          '[[0]]'          | brackets are misplaced
          '[[0,2]'         | brackets are misplaced
          '0]'             | brackets are misplaced
          '0,[2'           | brackets are misplaced
          '0]2'            | brackets are misplaced
          '['              | brackets are unbalanced
          ']'              | brackets are misplaced
          '-5'             | is not an id or a range
          '[-5]'           | is not an id or a range
          '0-'             | is an unfinished range
          '[0-]'           | is an unfinished range
          '4.2'            | is not an id or a range
          'x'              | is not an id or a range
          '1-2x'           | is not an id or a range
          '1--3'           | is not an id or a range
          '1-2-3'          | is not an id or a range
          '+1'             | is not an id or a range
          ' 1'             | is not an id or a range
          '1 ,2'           | is not an id or a range
          '0x10'           | is not an id or a range
          '１'              | is not an id or a range
          """)
  void parse_invalid_rejectedWithReason(String in, String why) {
    assertThatThrownBy(() -> IdSet.parse(in))
        .isInstanceOf(RsetException.class)
        .hasMessageStartingWith("idset \"" + in + "\": ")
        .hasMessageContaining(why)
        .hasMessageNotContaining("\n")
        .satisfies(e -> assertThat(e.getMessage()).doesNotEndWith("."));
  }

  @ParameterizedTest(name = "parse \"{0}\" says \"{1}\"")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          '3,2'        | idset "3,2": "2" is out of order (expected: ascending, no duplicates)
          '1,1'        | idset "1,1": "1" repeats an id (expected: ascending, no duplicates)
          '01'         | idset "01": "01" has a leading zero (expected: none)
          '5-3'        | idset "5-3": "5-3" is a reversed range (expected: lo < hi)
          '3-3'        | idset "3-3": "3-3" is a degenerate range (expected: lo < hi)
          '0-'         | idset "0-": "0-" is an unfinished range (expected: lo-hi)
          '1,x'        | idset "1,x": "x" is not an id or a range (expected: decimal ids and lo-hi ranges)
          '[1'         | idset "[1": brackets are unbalanced (expected: one outer pair)
          '2147483648' | idset "2147483648": "2147483648" is too large (expected: at most 2147483647)
          """)
  void parse_invalid_exactMessage(String in, String message) {
    assertThatThrownBy(() -> IdSet.parse(in)).hasMessage(message);
  }

  @Test
  void parse_null_rejected() {
    assertThatThrownBy(() -> IdSet.parse(null))
        .isInstanceOf(RsetException.class)
        .hasMessage("idset is missing (expected: an RFC 22 idset string)");
  }

  @ParameterizedTest(name = "parse \"{0}\" has reason {1}")
  @CsvSource({"2147483648, RANGE", "3-2, INVALID", "01, INVALID", "x, INVALID"})
  void parse_invalid_classifiedLikeErrno(String in, RsetException.Reason reason) {
    assertThatThrownBy(() -> IdSet.parse(in))
        .isInstanceOfSatisfying(RsetException.class, e -> assertThat(e.reason()).isEqualTo(reason));
  }

  @Test
  void parse_longInput_messageAbbreviated() {
    String in = "0," + "1".repeat(200);
    assertThatThrownBy(() -> IdSet.parse(in))
        .hasMessageStartingWith("idset \"0,1111")
        .hasMessageContaining("...\":")
        .satisfies(e -> assertThat(e.getMessage().length()).isLessThan(250));
  }

  @ParameterizedTest(name = "[{0}] plain \"{1}\", ranges \"{2}\", brackets \"{3}\"")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          ''              | ''               | ''             | ''
          0               | 0                | 0              | 0
          2               | 2                | 2              | 2
          2 3             | 2,3              | 2-3            | [2-3]
          7 8 9           | 7,8,9            | 7-9            | [7-9]
          1 7 8 9 16      | 1,7,8,9,16       | 1,7-9,16       | [1,7-9,16]
          2 3 4 5         | 2,3,4,5          | 2-5            | [2-5]
          1 3             | 1,3              | 1,3            | [1,3]
          0 1 2 4 6 7     | 0,1,2,4,6,7      | 0-2,4,6-7      | [0-2,4,6-7]
          2147483647      | 2147483647       | 2147483647     | 2147483647
          """)
  void encode_threeStyles_asFluxCore(String members, String plain, String ranges, String brackets) {
    IdSet set = IdSet.of(ids(members).stream().mapToInt(Integer::intValue).toArray());
    assertThat(set.encode(IdSet.Style.PLAIN)).isEqualTo(plain);
    assertThat(set.encode(IdSet.Style.RANGES)).isEqualTo(ranges);
    assertThat(set.encode(IdSet.Style.BRACKETS)).isEqualTo(brackets);
    assertThat(set.toString()).isEqualTo(ranges);
    assertThat(IdSet.parse(plain)).isEqualTo(set);
    assertThat(IdSet.parse(ranges)).isEqualTo(set);
    assertThat(IdSet.parse(brackets)).isEqualTo(set);
  }

  @ParameterizedTest(name = "{0} op {1}: union {2}, intersection {3}, {0} - {1} = {4}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          ''          | ''          | ''              | ''       | ''
          0-5         | ''          | 0-5             | ''       | 0-5
          ''          | 0-5         | 0-5             | ''       | ''
          0           | 1           | 0-1             | ''       | 0
          0-1         | 0           | 0-1             | 0        | 1
          0-1         | 2-3         | 0-3             | ''       | 0-1
          0-1         | 1-2         | 0-2             | 1        | 0
          0-9         | 3-4         | 0-9             | 3-4      | 0-2,5-9
          0-9         | 0,9         | 0-9             | 0,9      | 1-8
          1,3,5       | 2,4,6       | 1-6             | ''       | 1,3,5
          1-3,7-9     | 2-8         | 1-9             | 2-3,7-8  | 1,9
          2-8         | 1-3,7-9     | 1-9             | 2-3,7-8  | 4-6
          0-3,10-13   | 4-9         | 0-13            | ''       | 0-3,10-13
          0-3,10-13   | 0-13        | 0-13            | 0-3,10-13 | ''
          5           | 0-4,6-9     | 0-9             | ''       | 5
          0-2147483647 | 1-2147483646 | 0-2147483647  | 1-2147483646 | 0,2147483647
          2147483647  | 2147483646  | 2147483646-2147483647 | '' | 2147483647
          """)
  void algebra_table_asExpected(
      String a, String b, String union, String intersection, String difference) {
    IdSet x = IdSet.parse(a);
    IdSet y = IdSet.parse(b);
    assertThat(x.union(y)).hasToString(union);
    assertThat(y.union(x)).hasToString(union);
    assertThat(x.intersection(y)).hasToString(intersection);
    assertThat(y.intersection(x)).hasToString(intersection);
    assertThat(x.difference(y)).hasToString(difference);
    assertThat(x.intersects(y)).isEqualTo(!intersection.isEmpty());
    assertThat(x.intersection(y).isSubsetOf(x)).isTrue();
    assertThat(x.isSubsetOf(x.union(y))).isTrue();
  }

  @Test
  void algebra_sameInstance_returnsEquivalentSets() {
    IdSet x = IdSet.parse("1-3,9");
    assertThat(x.union(x)).isEqualTo(x);
    assertThat(x.intersection(x)).isEqualTo(x);
    assertThat(x.difference(x)).isEqualTo(IdSet.empty());
    assertThat(x.isSubsetOf(x)).isTrue();
    assertThat(x.isSubsetOf(IdSet.parse("1-3"))).isFalse();
  }

  @ParameterizedTest(name = "{0}: contains {1} = {2}")
  @CsvSource({
    "'', 0, false",
    "'1-3,7', 0, false",
    "'1-3,7', 1, true",
    "'1-3,7', 3, true",
    "'1-3,7', 4, false",
    "'1-3,7', 7, true",
    "'1-3,7', 8, false",
    "'1-3,7', -1, false",
    "'0-2147483647', 2147483647, true",
    "'0-2147483647', 2147483648, false",
    "'0-2147483647', -1, false"
  })
  void contains_table_asExpected(String set, long id, boolean expected) {
    assertThat(IdSet.parse(set).contains(id)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}: count {1}, first {2}, last {3}, ranges {4}")
  @CsvSource({
    "'', 0, -1, -1, 0",
    "'5', 1, 5, 5, 1",
    "'1-3,7', 4, 1, 7, 2",
    "'0,2,4,6', 4, 0, 6, 4",
    "'0-2147483647', 2147483648, 0, 2147483647, 1",
    "'2147483647', 1, 2147483647, 2147483647, 1"
  })
  void countFirstLast_table_asExpected(
      String set, long count, int first, int last, int rangeCount) {
    IdSet s = IdSet.parse(set);
    assertThat(s.count()).isEqualTo(count);
    assertThat(s.first()).isEqualTo(first);
    assertThat(s.last()).isEqualTo(last);
    assertThat(s.rangeCount()).isEqualTo(rangeCount);
  }

  @ParameterizedTest(name = "{0}: next({1}) = {2}")
  @CsvSource({
    "'', 0, -1",
    "'1-3,7', -5, 1",
    "'1-3,7', 0, 1",
    "'1-3,7', 1, 2",
    "'1-3,7', 3, 7",
    "'1-3,7', 5, 7",
    "'1-3,7', 7, -1",
    "'1-3,7', 100, -1",
    "'0-2147483647', 2147483646, 2147483647",
    "'0-2147483647', 2147483647, -1"
  })
  void next_table_asExpected(String set, int id, int expected) {
    assertThat(IdSet.parse(set).next(id)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}: nth({1}) = {2}, indexOf({2}) = {1}")
  @CsvSource({
    "'1-3,7', 0, 1",
    "'1-3,7', 2, 3",
    "'1-3,7', 3, 7",
    "'0,10-19,100', 11, 100",
    "'0-2147483647', 2147483647, 2147483647",
    "'0-9,1000-2147483647', 10, 1000"
  })
  void nthIndexOf_table_inverse(String set, long index, int id) {
    IdSet s = IdSet.parse(set);
    assertThat(s.nth(index)).isEqualTo(id);
    assertThat(s.indexOf(id)).isEqualTo(index);
  }

  @ParameterizedTest(name = "{0}: indexOf({1}) = -1")
  @CsvSource({"'', 0", "'1-3,7', 0", "'1-3,7', 5", "'1-3,7', 8", "'1-3,7', -1", "'1', 4294967296"})
  void indexOf_absent_minusOne(String set, long id) {
    assertThat(IdSet.parse(set).indexOf(id)).isEqualTo(-1);
  }

  @ParameterizedTest(name = "{0}: nth({1}) out of bounds")
  @CsvSource({"'', 0", "'1-3,7', 4", "'1-3,7', -1", "'0-2147483647', 2147483648"})
  void nth_outOfBounds_noSuchElement(String set, long index) {
    assertThatThrownBy(() -> IdSet.parse(set).nth(index))
        .isInstanceOf(NoSuchElementException.class)
        .hasMessageContaining("index " + index);
  }

  @ParameterizedTest(name = "{0}: first({1}) = {2}")
  @CsvSource({
    "'', 3, ''",
    "'1-3,7', 0, ''",
    "'1-3,7', -2, ''",
    "'1-3,7', 1, 1",
    "'1-3,7', 2, 1-2",
    "'1-3,7', 3, 1-3",
    "'1-3,7', 4, '1-3,7'",
    "'1-3,7', 99, '1-3,7'",
    "'0-2147483647', 5, 0-4",
    "'0,2,4,6,8', 3, '0,2,4'"
  })
  void firstN_table_smallestMembers(String set, long n, String expected) {
    assertThat(IdSet.parse(set).first(n)).hasToString(expected);
  }

  @Test
  void iterator_rangesAndSingles_ascendingThenExhausted() {
    PrimitiveIterator.OfInt it = IdSet.parse("0,5-7,2147483646-2147483647").iterator();
    List<Integer> seen = new ArrayList<>();
    while (it.hasNext()) {
      seen.add(it.nextInt());
    }
    assertThat(seen).containsExactly(0, 5, 6, 7, 2147483646, 2147483647);
    assertThatThrownBy(it::nextInt).isInstanceOf(NoSuchElementException.class);
    assertThat(IdSet.empty().iterator().hasNext()).isFalse();
  }

  @Test
  void stream_hugeSet_lazyAndSized() {
    IdSet all = IdSet.parse("0-2147483647");
    assertThat(all.stream().limit(3).toArray()).containsExactly(0, 1, 2);
    assertThat(all.stream().spliterator().getExactSizeIfKnown()).isEqualTo(2147483648L);
    assertThat(IdSet.parse("1-3,9").stream().sum()).isEqualTo(15);
  }

  @Test
  void hugeRange_algebra_neverExpands() {
    // each of these would take minutes and gigabytes if any step allocated per id
    IdSet all = IdSet.parse("0-2147483647");
    IdSet odd = IdSet.parse("1,3,5,2147483647");
    assertThat(all.count()).isEqualTo(2147483648L);
    assertThat(all.union(all)).isEqualTo(all);
    assertThat(all.union(odd)).isEqualTo(all);
    IdSet holes = all.difference(odd);
    assertThat(holes.count()).isEqualTo(2147483648L - 4);
    assertThat(holes).hasToString("0,2,4,6-2147483646");
    assertThat(holes.union(odd)).isEqualTo(all);
    assertThat(all.intersection(odd)).isEqualTo(odd);
    assertThat(all.difference(all)).isEqualTo(IdSet.empty());
    assertThat(all.first(2147483647L).last()).isEqualTo(2147483646);
    assertThat(all.nth(2147483647L)).isEqualTo(2147483647);
    assertThat(IdSet.range(0, IdSet.MAX_ID)).isEqualTo(all);
    assertThat(IdSet.builder().add(0, IdSet.MAX_ID).add(5).build()).isEqualTo(all);
  }

  @ParameterizedTest(name = "\"{0}\" equals \"{1}\": {2}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          ''          | '[]'          | true
          '1-3'       | '1,2,3'       | true
          '1-3'       | '[1-3]'       | true
          '0-1,2-3'   | '0-3'         | true
          '1-3'       | '1-4'         | false
          '1,3'       | '1-3'         | false
          '0'         | ''            | false
          """)
  void equals_differentSpellings_bySetContent(String a, String b, boolean equal) {
    IdSet x = IdSet.parse(a);
    IdSet y = IdSet.parse(b);
    assertThat(x.equals(y)).isEqualTo(equal);
    assertThat(y.equals(x)).isEqualTo(equal);
    if (equal) {
      assertThat(x.hashCode()).isEqualTo(y.hashCode());
    }
    assertThat(x).isNotEqualTo("1-3").isNotEqualTo(null);
  }

  @Test
  void builder_anyOrderWithOverlaps_mergedAndSorted() {
    IdSet s = IdSet.builder().add(9).add(3, 5).add(0).add(4, 7).add(1).add(20, 30).add(8).build();
    assertThat(s).hasToString("0-1,3-9,20-30");
    assertThat(IdSet.of(5, 3, 5, 4, 1)).hasToString("1,3-5");
    assertThat(IdSet.of()).isEqualTo(IdSet.empty());
    assertThat(IdSet.builder().addAll(IdSet.parse("1-3")).addAll(IdSet.parse("0,4")).build())
        .hasToString("0-4");
  }

  @ParameterizedTest(name = "range({0}, {1}) rejected: {2}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          5  | 3  | idset range 5-3 is reversed (expected: lo <= hi)
          -1 | 3  | id -1 is out of range (expected: 0 to 2147483647)
          0  | -2 | id -2 is out of range (expected: 0 to 2147483647)
          """)
  void range_invalidBounds_rejected(int lo, int hi, String message) {
    assertThatThrownBy(() -> IdSet.range(lo, hi))
        .isInstanceOf(RsetException.class)
        .hasMessage(message);
    assertThatThrownBy(() -> IdSet.builder().add(lo, hi))
        .isInstanceOf(RsetException.class)
        .hasMessage(message);
  }

  @Test
  void of_negativeId_rejectedWithRangeReason() {
    assertThatThrownBy(() -> IdSet.of(1, -1))
        .isInstanceOfSatisfying(
            RsetException.class, e -> assertThat(e.reason()).isEqualTo(RsetException.Reason.RANGE));
  }

  @Test
  void rangeAccessors_canonicalRanges_exposed() {
    IdSet s = IdSet.parse("1,2,3,7,9-10");
    assertThat(s.rangeCount()).isEqualTo(3);
    assertThat(List.of(s.rangeLo(0), s.rangeHi(0), s.rangeLo(1), s.rangeHi(1)))
        .containsExactly(1, 3, 7, 7);
    assertThat(List.of(s.rangeLo(2), s.rangeHi(2))).containsExactly(9, 10);
  }
}
