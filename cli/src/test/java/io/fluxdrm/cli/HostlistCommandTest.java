package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code fluxdrm hostlist}: the runs of flux-core's {@code flux hostlist} recorded in the spec, and
 * every option as flux-hostlist.py applies it (sources, then -i/-m/-X or append, -x, -S, -u, -L,
 * -n, then -F, -c, -e or the encoded list).
 */
class HostlistCommandTest {

  /** One run: args, stdin → stdout (exact; "\n" is one empty line), status, stderr substring. */
  record Case(String name, String args, String stdin, int status, String out, String err) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Case ok(String name, String args, String out) {
    return new Case(name, args, "", 0, out, "");
  }

  static Case okIn(String name, String args, String stdin, String out) {
    return new Case(name, args, stdin, 0, out, "");
  }

  static Case fail(String name, String args, String err) {
    return new Case(name, args, "", 1, "", err);
  }

  /** A usage error: argparse makes flux hostlist exit 2. */
  static Case usage(String name, String args, String err) {
    return new Case(name, args, "", 2, "", err);
  }

  static Stream<Case> referenceRuns() {
    return Stream.of(
        ok(
            "expand_mixedList_spaceSeparated",
            "hostlist -e node[0-3],foo7",
            "node0 node1 node2 node3 foo7"),
        ok("append_duplicate_kept", "hostlist n[1-3],n2", "n[1-3,2]"),
        ok("union_duplicate_dropped", "hostlist -u n[1-3],n2", "n[1-3]"),
        ok("sort_unordered_sorted", "hostlist -S n3,n1,n2", "n[1-3]"),
        ok("exclude_host_removed", "hostlist -x n2 n[1-4]", "n[1,3-4]"),
        ok("count_twoPrefixes_total", "hostlist -c n[1-4],m[0-9]", "14"),
        ok("intersect_twoLists_common", "hostlist -i n[1-3] n[2-5]", "n[2-3]"),
        ok("minus_twoLists_firstOnly", "hostlist -m n[1-3] n[3-5]", "n[1-2]"),
        ok("nth_index_oneHost", "hostlist -n 2 n[1-4]", "n3"),
        ok("encode_mixedPadding_kept", "hostlist n01,n02,n3", "n[01-02,3]"),
        ok("encode_paddedAndPlain_oneBracket", "hostlist n[01-03],n[9-11]", "n[01-03,9-11]"));
  }

  static Stream<Case> options() {
    return Stream.of(
        // sources
        ok("append_severalSources_inOrder", "hostlist b a b", "b,a,b"),
        okIn("stdin_default_linesAppended", "hostlist", "a\nb[1-2]\n\nc\n", "a,b[1-2],c"),
        okIn("stdin_word_read", "hostlist stdin x", "n[1-2]\n", "n[1-2],x"),
        okIn("stdin_dash_read", "hostlist x - y", "n1 n2\n", "x,n[1-2],y"),
        okIn("stdin_trailingBlanks_stripped", "hostlist -e", "a \t\nb\n", "a b"),
        okIn("stdin_crAndCrLf_universalNewlines", "hostlist", "a\r\nb\rc\n", "a,b,c"),
        okIn("stdin_twice_secondEmpty", "hostlist - -", "a\n", "a"),
        ok("stdin_empty_printsNothing", "hostlist", ""),
        ok("jobidLikeName_literalHost", "hostlist -f 123", "123"),
        // -e / -d
        ok("expand_delimiter_used", "hostlist -e -d , n[1-3]", "n1,n2,n3"),
        ok("expand_longDelimiter_used", "hostlist --expand --delimiter=:: n[1-2]", "n1::n2"),
        ok("expand_backslashN_newlines", "hostlist -e -d \\n n[1-3]", "n1\nn2\nn3"),
        ok("expand_empty_printsNothing", "hostlist -e ", ""),
        ok("delimiterWithoutExpand_ignored", "hostlist -d , n[1-3]", "n[1-3]"),
        // -c
        ok("count_empty_zero", "hostlist -c ", "0"),
        ok("count_duplicates_counted", "hostlist -c a,a,a", "3"),
        ok("count_hugeRange_noExpansion", "hostlist -c n[0-1048575] m[0-1048575]", "2097152"),
        // -n
        ok("nth_idset_hosts", "hostlist -n 0,2-3 n[1-5]", "n[1,3-4]"),
        ok("nth_fromEnd_lastHost", "hostlist -n -1 n[1-5]", "n5"),
        ok("nth_fromEndRange_inputOrder", "hostlist -n -1-2 n[1-5]", "n[4-5]"),
        ok("nth_minusZero_firstHost", "hostlist -n -0 n[1-3]", "n1"),
        ok("nth_afterLimit_indexOfLimited", "hostlist -L -3 -n 0 n[1-5]", "n3"),
        fail("nth_beyondEnd_error", "hostlist -n 9 n[1-5]", "9"),
        fail("nth_fromEndBeyond_error", "hostlist -n -9 n[1-5]", "-9"),
        usage("nth_badIdset_usage", "hostlist -n x n[1-5]", "--nth"),
        // -F
        ok("find_hosts_indices", "hostlist -F n[2,4] n[1-5]", "1 3"),
        ok("find_duplicateHost_firstIndex", "hostlist -F a b,a,a", "1"),
        fail("find_missingHost_error", "hostlist -F n9 n[1-5]", "n9"),
        usage("find_badHostlist_usage", "hostlist -F n[ n[1-5]", "--find"),
        // -L
        ok("limit_positive_first", "hostlist -L 2 n[1-5]", "n[1-2]"),
        ok("limit_negative_last", "hostlist -L -2 n[1-5]", "n[4-5]"),
        ok("limit_zero_noLimit", "hostlist -L 0 n[1-5]", "n[1-5]"),
        ok("limit_beyondCount_all", "hostlist -L 9 n[1-5]", "n[1-5]"),
        ok("limit_negativeBeyondCount_all", "hostlist -L -9 n[1-5]", "n[1-5]"),
        ok("limit_empty_printsNothing", "hostlist -L -2 ", ""),
        usage("limit_notInteger_usageError", "hostlist -L x n1", "--limit"),
        // -S
        ok("sort_paddedAndNumeric_sorted", "hostlist -S n10,n9,m1,n1", "m1,n[1,9-10]"),
        ok("sort_keepsDuplicates", "hostlist -S b,a,b", "a,b,b"),
        ok("sortUnion_uniqueSorted", "hostlist -S -u b,a,b", "a,b"),
        // -x
        ok("exclude_everyOccurrence_removed", "hostlist -x n2 n[1-3],n2", "n[1,3]"),
        ok("exclude_indices_fallback", "hostlist -x 0,2 n[1-5]", "n[2,4-5]"),
        ok("exclude_indexRange_fallback", "hostlist -x 1-3 n[1-5]", "n[1,5]"),
        ok("exclude_indicesStringOrder_nothingRemoved", "hostlist -x 2,10 n[0-11]", "n[0-11]"),
        ok("exclude_unknownHost_unchanged", "hostlist -x z n[1-5]", "n[1-5]"),
        ok("exclude_hostsBeforeSort", "hostlist -S -x n1 n3,n1,n2", "n[2-3]"),
        ok("exclude_minus_runsNotJoined", "hostlist -x n3 n1,n3,n2", "n[1,2]"),
        usage("exclude_badHostlist_error", "hostlist -x n[ n1", "--exclude"),
        // -u
        ok("union_sources_unique", "hostlist -u n[1-3] n[2-5]", "n[1-5]"),
        ok("union_unsorted_sorted", "hostlist -u n3,n1,n2,n1", "n[1-3]"),
        // -i
        ok("intersect_duplicates_uniqueSorted", "hostlist -i n[3,1,2,2] n[1-3]", "n[1-3]"),
        ok("intersect_three_common", "hostlist -i n[1-5] n[2-6] n[0-3]", "n[2-3]"),
        ok("intersect_oneSource_unchanged", "hostlist -i n3,n1,n1", "n[3,1,1]"),
        ok("intersect_disjoint_printsNothing", "hostlist -i a b", ""),
        // -m
        ok("minus_firstOccurrenceOnly", "hostlist -m n[1-3],n2 n2", "n[1,3,2]"),
        ok("minus_runsNotJoined", "hostlist -m n1,n3,n2 n3", "n[1,2]"),
        ok("minus_three_folded", "hostlist -m n[1-9] n[1-2] n[8-9]", "n[3-7]"),
        // -X
        ok("xor_twoLists_symmetricDifference", "hostlist -X n[1-3] n[2-5]", "n[1,4-5]"),
        ok("xor_same_printsNothing", "hostlist -X n[1-3] n[1-3]", ""),
        // -q
        new Case("quiet_nonEmpty_exit0Silent", "hostlist -q a", "", 0, "", ""),
        new Case("quiet_empty_exit1Silent", "hostlist -q ", "", 1, "", ""),
        new Case("quiet_countEmpty_exit1Silent", "hostlist -q -c ", "", 1, "", ""),
        // errors
        fail("parse_badHostlist_error", "hostlist n[", "Invalid jobid or hostlist n["),
        fail("parse_reversedRange_error", "hostlist n[3-1]", "n[3-1]"),
        fail("parse_tooLargeRange_error", "hostlist n[0-1048576]", "1048577"),
        fail("stdin_badLine_error", "hostlist -", "stdin line"),
        usage("options_expandAndCount_exclusive", "hostlist -e -c a", "--expand and --count"),
        usage("options_intersectAndMinus_exclusive", "hostlist -i -m a b", "only one of"),
        usage("options_minusAndXor_exclusive", "hostlist -m -X a b", "only one of"),
        usage("options_unknown_usageError", "hostlist --frob a", "--frob"),
        fail("source_local_needsInstance", "hostlist local", "Flux instance"),
        fail("source_instance_needsInstance", "hostlist instance", "Flux instance"),
        fail("source_avail_needsInstance", "hostlist avail", "Flux instance"),
        fail("source_available_needsInstance", "hostlist a available", "Flux instance"),
        fail("localOption_defaultLocal_needsInstance", "hostlist -l", "Flux instance"),
        fail(
            "expand_beyondLimit_error",
            "hostlist -e n[0-1048575] m[0-1048575] o[0-1048575] p[0-1048575] q0",
            "too large"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource({"referenceRuns", "options"})
  @Timeout(20)
  void hostlist_case_expectedOutputStatusAndStderr(Case c) {
    String stdin = c.name().equals("stdin_badLine_error") ? "ok\nn[\n" : c.stdin();
    CliRun run = CliRun.run(stdin, CliRun.words(c.args()));
    assertThat(run.status()).as("status of %s: %s", c, run).isEqualTo(c.status());
    assertThat(run.out()).as("stdout of %s", c).isEqualTo(c.out().isEmpty() ? "" : c.out() + "\n");
    if (c.err().isEmpty()) {
      assertThat(run.err()).as("stderr of %s", c).isEmpty();
    } else {
      run.assertOneLineError(c.err(), c.status());
    }
    run.assertNoTrace();
  }
}
