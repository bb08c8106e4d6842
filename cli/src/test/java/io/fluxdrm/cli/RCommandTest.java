package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code fluxdrm R}: every run of flux-core 0.88's {@code flux R} recorded in the spec, and the
 * behaviours of flux-R.c and librlist, each as args + stdin → stdout, status, stderr.
 */
class RCommandTest {

  /**
   * One run. {@code out} holds the expected stdout lines (JSON lines compare as values); {@code
   * err} a substring stderr must contain, or "" for an empty stderr.
   */
  record Case(String name, String args, String stdin, int status, String out, String err) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Case ok(String name, String args, String stdin, String out) {
    return new Case(name, args, stdin, 0, out, "");
  }

  static Case warn(String name, String args, String stdin, String out, String err) {
    return new Case(name, args, stdin, 0, out, err);
  }

  static Case fail(String name, String args, String stdin, String err) {
    return new Case(name, args, stdin, 1, "", err);
  }

  /**
   * A usage error (an option value not of its form, options that exclude each other): status 2,
   * where flux-core's {@code flux R} exits 1 (docs/cli.md, "Differences from flux-core").
   */
  static Case usage(String name, String args, String stdin, String err) {
    return new Case(name, args, stdin, 2, "", err);
  }

  /** R as {@code flux R encode -r RANKS -c CORES [-g GPUS] -H HOSTS} prints it. */
  static String r(String ranks, String cores, String hosts) {
    return "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \""
        + ranks
        + "\", \"children\": {\"core\": \""
        + cores
        + "\"}}], \"starttime\": 0.0, \"expiration\": 0.0, \"nodelist\": [\""
        + hosts
        + "\"]}}\n";
  }

  static String rg(String ranks, String cores, String gpus, String hosts) {
    return r(ranks, cores, hosts).replace("{\"core\"", "{\"gpu\": \"" + gpus + "\", \"core\"");
  }

  static final String N03 = r("0-3", "0-7", "node[0-3]");
  static final String N03GP =
      "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"0-3\", \"children\":"
          + " {\"gpu\": \"0-1\", \"core\": \"0-7\"}}], \"starttime\": 0.0, \"expiration\": 0.0,"
          + " \"nodelist\": [\"node[0-3]\"], \"properties\": {\"batch\": \"0-1\", \"debug\":"
          + " \"3\"}}}\n";
  static final String EMPTY =
      "{\"version\": 1, \"execution\": {\"R_lite\": [], \"starttime\": 0.0, \"expiration\": 0.0,"
          + " \"nodelist\": [\"\"]}}";
  static final String NO_NODELIST =
      "{\"version\":1,\"execution\":{\"R_lite\":[{\"rank\":\"0-1\",\"children\":{\"core\":\"0-3\"}}],\"starttime\":0,\"expiration\":0}}\n";
  static final String TIMED =
      "{\"version\":1,\"execution\":{\"R_lite\":[{\"rank\":\"0-3\",\"children\":{\"core\":\"0-7\"}}],"
          + "\"starttime\":5,\"expiration\":10,\"nslots\":3,\"nodelist\":[\"n[0-3]\"]},"
          + "\"scheduling\":{\"x\":1}}\n";
  static final String TIMED_OUT =
      "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"0-3\", \"children\": {\"core\":"
          + " \"0-7\"}}], \"nslots\": 3, \"starttime\": 5.0, \"expiration\": 10.0, \"nodelist\":"
          + " [\"n[0-3]\"]}, \"scheduling\": {\"x\": 1}}";
  static final String EMPTY_TARGET =
      "{\"version\":1,\"execution\":{\"R_lite\":[{\"rank\":\"0\",\"children\":{\"core\":\"\"}},"
          + "{\"rank\":\"1\",\"children\":{\"core\":\"0\"}}],\"nodelist\":[\"a,b\"]}}\n";

  /** Runs of flux-core's {@code flux R}, with flux-core's verbatim output. */
  static Stream<Case> referenceRuns() {
    return Stream.of(
        ok("encode_ranksCoresHosts_oneEntry", "R encode -r 0-3 -c 0-7 -H node[0-3]", "", N03),
        ok(
            "encode_gpusAndProperties_allKept",
            "R encode -r 0-3 -c 0-7 -g 0-1 -H node[0-3] -p batch:0-1 -p debug:3",
            "",
            N03GP),
        ok(
            "encode_hostsOnly_oneRankPerHostCore0",
            "R encode -H foo[1-2]",
            "",
            r("0-1", "0", "foo[1-2]")),
        ok("decode_short_summary", "R decode --short", N03, "rank[0-3]/core[0-7]"),
        ok("decode_nodelist_hostlist", "R decode --nodelist", N03, "node[0-3]"),
        ok("decode_ranks_idset", "R decode --ranks", N03, "0-3"),
        ok("decode_countCore_total", "R decode --count=core", N03, "32"),
        ok("decode_countRanks_zero", "R decode --count=ranks", N03, "0"),
        ok("decode_countNode_nnodes", "R decode --count=node", N03, "4"),
        ok(
            "decode_countGpu_total",
            "R decode --count=gpu",
            rg("0-3", "0-7", "0-1", "node[0-3]"),
            "8"),
        ok("decode_exclude_ranksGone", "R decode -x 1-2", N03, r("0,3", "0-7", "node[0,3]")),
        ok("decode_includeShort_oneRank", "R decode -i 1 --short", N03, "rank1/core[0-7]"),
        ok(
            "decode_propertyShort_onlyMatching",
            "R decode -p batch --short",
            N03GP,
            "rank[0-1]/core[0-7],gpu[0-1]"),
        ok(
            "append_disjointRanks_joined",
            "R append",
            r("0-1", "0-7", "node[0-1]") + r("2-3", "0-7", "node[2-3]"),
            N03),
        ok(
            "append_disjointCoresSameRanks_joined",
            "R append",
            r("0-1", "0-3", "node[0-1]") + r("0-1", "4-7", "node[0-1]"),
            r("0-1", "0-7", "node[0-1]")),
        fail(
            "append_overlap_rejected",
            "R append",
            r("0-1", "0-3", "node[0-1]") + r("1-2", "0-7", "node[1-2]"),
            "R objects 'rank[0-1]/core[0-3]' and 'rank[1-2]/core[0-7]' overlap"),
        ok(
            "diff_partOfRank_restKept",
            "R diff",
            N03 + r("1", "0-3", "node1"),
            "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"0,2-3\", \"children\":"
                + " {\"core\": \"0-7\"}}, {\"rank\": \"1\", \"children\": {\"core\": \"4-7\"}}],"
                + " \"starttime\": 0.0, \"expiration\": 0.0, \"nodelist\": [\"node[0-3]\"]}}"),
        ok(
            "diff_wholeRank_rankAndHostGone",
            "R diff",
            N03 + r("1", "0-7", "node1"),
            r("0,2-3", "0-7", "node[0,2-3]")),
        ok(
            "diff_otherHostname_byRankOnly",
            "R diff",
            N03 + r("1", "0-3", "other1"),
            "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"0,2-3\", \"children\":"
                + " {\"core\": \"0-7\"}}, {\"rank\": \"1\", \"children\": {\"core\": \"4-7\"}}],"
                + " \"starttime\": 0.0, \"expiration\": 0.0, \"nodelist\": [\"node[0-3]\"]}}"),
        ok(
            "diff_threeDocuments_foldedLeft",
            "R diff",
            N03 + r("1", "0-3", "node1") + r("2", "0-7", "node2"),
            "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"0,3\", \"children\":"
                + " {\"core\": \"0-7\"}}, {\"rank\": \"1\", \"children\": {\"core\": \"4-7\"}}],"
                + " \"starttime\": 0.0, \"expiration\": 0.0, \"nodelist\": [\"node[0-1,3]\"]}}"),
        ok(
            "intersect_overlap_commonRanksAndCores",
            "R intersect",
            N03 + r("2-5", "4-11", "node[2-5]"),
            r("2-3", "4-7", "node[2-3]")),
        ok(
            "intersect_threeDocuments_foldedLeft",
            "R intersect",
            N03 + r("0-1", "0-3", "node[0-1]") + r("1-2", "2-5", "node[1-2]"),
            r("1", "2-3", "node1")),
        ok(
            "decode_twoDocuments_union",
            "R decode",
            N03 + r("2-5", "4-11", "node[2-5]"),
            "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"0-1\", \"children\":"
                + " {\"core\": \"0-7\"}}, {\"rank\": \"2-3\", \"children\": {\"core\": \"0-11\"}},"
                + " {\"rank\": \"4-5\", \"children\": {\"core\": \"4-11\"}}], \"starttime\": 0.0,"
                + " \"expiration\": 0.0, \"nodelist\": [\"node[0-5]\"]}}"),
        ok(
            "remap_ranksFrom4_from0",
            "R remap",
            r("4-7", "0-3", "node[4-7]"),
            r("0-3", "0-3", "node[4-7]")),
        ok(
            "rerank_reversedHosts_nodelistReordered",
            "R rerank node[3,2,1,0]",
            r("0-3", "0-3", "node[0-3]"),
            r("0-3", "0-3", "node[3,2,1,0]")),
        fail(
            "verify_secondHasMoreRanks_singleRankOnly",
            "R verify",
            r("0-1", "0-7", "node[0-1]") + r("0-1", "0-3", "node[0-1]"),
            "Verification supported on single rank only"),
        fail(
            "verify_secondHasTwoRanksMore_singleRankOnly",
            "R verify",
            r("0-1", "0-3", "node[0-1]") + r("0-1", "0-7", "node[0-1]"),
            "Verification supported on single rank only"),
        fail(
            "verify_missingCores_exit1",
            "R verify",
            r("0", "0-7", "node0") + r("0", "0-3", "node0"),
            "rank 0 (node0) missing resources: core[4-7]"),
        new Case(
            "verify_extraCores_warningExit0",
            "R verify",
            r("0", "0-3", "node0") + r("0", "0-7", "node0"),
            0,
            "",
            "rank 0 (node0) has extra resources: core[4-7]"),
        ok(
            "setProperty_twoProperties_added",
            "R set-property foo:0-1 bar:3",
            N03,
            "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"0-3\", \"children\":"
                + " {\"core\": \"0-7\"}}], \"starttime\": 0.0, \"expiration\": 0.0, \"nodelist\":"
                + " [\"node[0-3]\"], \"properties\": {\"foo\": \"0-1\", \"bar\": \"3\"}}}"),
        ok(
            "decode_noNodelist_keptWithout",
            "R decode",
            NO_NODELIST,
            "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"0-1\", \"children\":"
                + " {\"core\": \"0-3\"}}], \"starttime\": 0.0, \"expiration\": 0.0}}"),
        fail("decode_nodelistWithoutNodelist_error", "R decode --nodelist", NO_NODELIST, "no"),
        ok(
            "decode_identicalEntriesAndHostArray_mergedAndCompressed",
            "R decode",
            "{\"version\":1,\"execution\":{\"R_lite\":[{\"rank\":\"0\",\"children\":{\"core\":\"0-3\"}},"
                + "{\"rank\":\"1\",\"children\":{\"core\":\"0-3\"}}],\"starttime\":10,\"expiration\":100,"
                + "\"nodelist\":[\"a\",\"b\"]}}\n",
            "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"0-1\", \"children\":"
                + " {\"core\": \"0-3\"}}], \"starttime\": 10.0, \"expiration\": 100.0, \"nodelist\":"
                + " [\"a,b\"]}}"),
        fail(
            "decode_version2_invalidVersion",
            "R decode",
            "{\"version\":2,\"execution\":{\"R_lite\":[]}}\n",
            "version"),
        fail(
            "decode_nodelistShort_countMismatch",
            "R decode",
            "{\"version\":1,\"execution\":{\"R_lite\":[{\"rank\":\"0-1\",\"children\":{\"core\":\"0-3\"}}],"
                + "\"starttime\":0,\"expiration\":0,\"nodelist\":[\"a\"]}}\n",
            "failed to decode R on stdin"));
  }

  /** The behaviours of flux-R.c and librlist (research digest, sections 1-5). */
  static Stream<Case> edgeCases() {
    return Stream.of(
        // encode
        ok("encode_nothing_rank0Core0", "R encode -H foo", "", r("0", "0", "foo")),
        ok("encode_emptyHosts_emptyR", "R encode -H ", "", EMPTY),
        ok("encode_emptyRanks_emptRWithoutHostCheck", "R encode -r  -H foo", "", EMPTY),
        ok("encode_emptyCoresEmptyGpus_core0", "R encode -c  -H foo", "", r("0", "0", "foo")),
        ok(
            "encode_gpusOnly_noCore",
            "R encode -g 0 -H foo",
            "",
            "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"0\", \"children\": {\"gpu\":"
                + " \"0\"}}], \"starttime\": 0.0, \"expiration\": 0.0, \"nodelist\": [\"foo\"]}}"),
        ok(
            "encode_ranksWithHostsInOrder_ithRankIthHost",
            "R encode -r 0-3 -H foo[3,2,1,0]",
            "",
            r("0-3", "0", "foo[3,2,1,0]")),
        ok(
            "encode_longOptions_sameAsShort",
            "R encode --ranks=0-3 --cores=0-7 --hosts=node[0-3]",
            "",
            N03),
        ok(
            "encode_propertyWithoutRanks_allRanks",
            "R encode -r 0-3 -H n[0-3] -p a",
            "",
            r("0-3", "0", "n[0-3]").replace("]\"]}}", "]\"], \"properties\": {\"a\": \"0-3\"}}}")),
        ok(
            "encode_propertyRepeated_laterRanksFirstPlace",
            "R encode -r 0-3 -H n[0-3] -p a:1 -p b:2 -p a:3",
            "",
            r("0-3", "0", "n[0-3]")
                .replace("]\"]}}", "]\"], \"properties\": {\"a\": \"3\", \"b\": \"2\"}}}")),
        ok(
            "encode_propertyEmptyRanks_noProperties",
            "R encode -H foo -p a:",
            "",
            r("0", "0", "foo")),
        ok(
            "encode_propertyEmptyName_kept",
            "R encode -H foo -p :0",
            "",
            r("0", "0", "foo").replace("\"]}}", "\"], \"properties\": {\"\": \"0\"}}}")),
        fail(
            "encode_propertyRanksAbsent_rejected",
            "R encode -r 0-3 -H n[0-3] -p xx:3-5",
            "",
            "failed to assign properties: ranks 4-5 not found in target resource list"),
        usage(
            "encode_propertyRanksTwoColons_invalidIdset",
            "R encode -H foo -p a:b:c",
            "",
            "invalid idset 'b:c' specified for property \"a\""),
        fail(
            "encode_propertyCaret_invalidCharacter",
            "R encode -H foo -p x^:0",
            "",
            "invalid character '^' in property \"x^\""),
        usage(
            "encode_hostCountMismatch_rejected",
            "R encode -r 0-3 -H n[0-2]",
            "",
            "hostname count in 'n[0-2]' does not match nranks (4)"),
        usage("encode_badRanks_rejected", "R encode -r x -H a", "", "--ranks"),
        usage("encode_badCores_rejected", "R encode -c 3-1 -H a", "", "--cores"),
        usage("encode_badHosts_rejected", "R encode -H a[", "", "invalid hostlist 'a['"),
        usage(
            "encode_localWithCores_rejected",
            "R encode -l -c 1",
            "",
            "do not specify --cores or --gpus with --local or --xml"),
        usage("encode_badGpus_rejectedUnlikeFluxCore", "R encode -g x -H foo", "", "--gpus"),
        fail("encode_xml_unsupported", "R encode -f topo.xml", "", "hwloc"),
        // decode: stdin conventions
        ok(
            "decode_concatenatedWithoutSpace_union",
            "R decode -s",
            r("0-1", "0-3", "n[0-1]").strip() + r("2", "0-3", "n2").strip(),
            "rank[0-2]/core[0-3]"),
        warn(
            "decode_trailingGarbage_ignoredWithWarning",
            "R decode -s",
            N03 + "xyz\n",
            "rank[0-3]/core[0-7]",
            "warning: ignoring the rest of stdin after document 1"),
        warn(
            "decode_trailingTruncatedDocument_ignoredWithWarning",
            "R decode -s",
            N03 + "{",
            "rank[0-3]/core[0-7]",
            "warning"),
        warn(
            "decode_trailingScalar_ignoredWithWarning",
            "R decode -s",
            N03 + "5\n",
            "rank[0-3]/core[0-7]",
            "found 5"),
        fail("decode_noDocument_error", "R decode", "", "failed to read an R object from stdin"),
        fail(
            "decode_whitespaceOnly_error",
            "R decode",
            " \n\t\n",
            "failed to read an R object from stdin"),
        fail("decode_garbageFirst_error", "R decode", "garbage\n", "failed to read an R object"),
        fail("decode_topLevelArray_error", "R decode", "[1]\n", "failed to decode R on stdin"),
        fail("decode_emptyObject_versionMissing", "R decode", "{}\n", "/version"),
        fail(
            "decode_secondDocumentInvalid_error",
            "R decode",
            N03 + "{\"version\":1}\n",
            "document 2"),
        ok(
            "decode_rLiteObject_emptyR",
            "R decode",
            "{\"version\":1,\"execution\":{\"R_lite\":{}}}",
            EMPTY),
        ok(
            "decode_rLiteObjectCountCore_zero",
            "R decode -c core",
            "{\"version\":1,\"execution\":{\"R_lite\":{}}}",
            "0"),
        ok(
            "decode_negativeStartZeroNslots_normalized",
            "R decode",
            "{\"version\":1,\"execution\":{\"R_lite\":[{\"rank\":\"0\",\"children\":{\"core\":\"0\"}}],"
                + "\"starttime\":-5,\"nslots\":0}}",
            "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"0\", \"children\": {\"core\":"
                + " \"0\"}}], \"starttime\": 0.0, \"expiration\": 0.0}}"),
        ok(
            "decode_schedulingNull_kept",
            "R decode",
            "{\"version\":1,\"scheduling\":null,\"execution\":{\"R_lite\":[{\"rank\":\"0\",\"children\":{\"core\":\"0\"}}]}}",
            "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"0\", \"children\": {\"core\":"
                + " \"0\"}}], \"starttime\": 0.0, \"expiration\": 0.0}, \"scheduling\": null}"),
        ok("decode_oneDocument_timesNslotsSchedulingKept", "R decode", TIMED, TIMED_OUT),
        ok(
            "decode_include_timesNslotsDropped",
            "R decode -i 0-1",
            TIMED,
            "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"0-1\", \"children\":"
                + " {\"core\": \"0-7\"}}], \"starttime\": 0.0, \"expiration\": 0.0, \"nodelist\":"
                + " [\"n[0-1]\"]}, \"scheduling\": {\"x\": 1}}"),
        ok(
            "decode_emptyProperties_timesDropped",
            "R decode -p ,",
            TIMED,
            "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"0-3\", \"children\":"
                + " {\"core\": \"0-7\"}}], \"starttime\": 0.0, \"expiration\": 0.0, \"nodelist\":"
                + " [\"n[0-3]\"]}, \"scheduling\": {\"x\": 1}}"),
        ok(
            "decode_exclude_timesKept",
            "R decode -x 0-1",
            TIMED,
            TIMED_OUT.replace("\"0-3\"", "\"2-3\"").replace("n[0-3]", "n[2-3]")),
        ok(
            "decode_twoDocuments_timesDropped",
            "R decode",
            TIMED + TIMED,
            "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"0-3\", \"children\":"
                + " {\"core\": \"0-7\"}}], \"starttime\": 0.0, \"expiration\": 0.0, \"nodelist\":"
                + " [\"n[0-3]\"]}, \"scheduling\": {\"x\": 1}}"),
        // decode: option order
        ok(
            "decode_outputsAnyOrder_shortNodelistRanksCount",
            "R decode -c node -r -n -s",
            N03,
            "rank[0-3]/core[0-7]\nnode[0-3]\n0-3\n4"),
        ok(
            "decode_filtersAnyOrder_propertiesIncludeExclude",
            "R decode -x 1 -i 0-2 -p batch -r",
            N03GP,
            "0"),
        ok("decode_includeAbsentRanks_empty", "R decode -i 9,20 -s", N03, "\n"),
        ok("decode_excludeAll_emptyLines", "R decode -x 0-3 -s -n -r", N03, "\n\n\n"),
        ok(
            "decode_longInclude_window",
            "R decode --include 5-7 --short",
            r("0-1023", "0", "n[0-1023]"),
            "rank[5-7]/core0"),
        ok(
            "decode_excludeMiddle_twoRuns",
            "R decode --exclude 5-7 -s",
            r("1-10", "0", "n[1-10]"),
            "rank[1-4,8-10]/core0"),
        ok(
            "decode_negatedProperty_others",
            "R decode -p ^debug -s",
            N03GP,
            "rank[0-2]/core[0-7],gpu[0-1]"),
        ok("decode_hostnameAsProperty_thatHost", "R decode -p node2 -r", N03, "2"),
        usage(
            "decode_propertyBang_invalidConstraint",
            "R decode -p !a",
            N03,
            "Invalid property constraint"),
        usage("decode_includeBad_invalidRanks", "R decode -i x", N03, "--include"),
        usage("decode_excludeBad_invalidRanks", "R decode -x 2-1", N03, "--exclude"),
        new Case(
            "decode_shortThenNodelistWithoutNodelist_shortPrintedThenError",
            "R decode -n -s",
            NO_NODELIST,
            1,
            "rank[0-1]/core[0-3]",
            "host"),
        // decode: --count quirks
        ok("decode_countUnknownType_zero", "R decode -c cores", N03, "0"),
        ok(
            "decode_countTwoIdenticalDocuments_double",
            "R decode -c core",
            r("0", "0", "a") + r("0", "0", "a"),
            "2"),
        ok(
            "decode_countTwoOverlappingDocuments_overcounted",
            "R decode -c core",
            r("0-1", "0-3", "n[0-1]") + r("1-2", "2-5", "n[1-2]"),
            "18"),
        ok(
            "decode_countAfterExclude_notLowered",
            "R decode -x 0 -c core",
            r("0-3", "0", "n[0-3]"),
            "4"),
        ok(
            "decode_countAfterInclude_true",
            "R decode -i 0 -c core",
            r("0", "0", "a") + r("0", "0", "a"),
            "1"),
        ok(
            "decode_countGpuTwoDocuments_true",
            "R decode -c gpu",
            rg("0", "0", "0-1", "a") + rg("0", "0", "0-1", "a"),
            "2"),
        ok(
            "decode_otherChild_keptAndCounted",
            "R decode -s -c foo",
            "{\"version\":1,\"execution\":{\"R_lite\":[{\"rank\":\"0\",\"children\":{\"foo\":\"3-5\"}}]}}",
            "rank0/foo[3-5]\n3"),
        ok(
            "decode_emptyGpuChild_notGroupedWithPlainRank",
            "R decode -s",
            "{\"version\":1,\"execution\":{\"R_lite\":[{\"rank\":\"0\",\"children\":{\"core\":\"0\",\"gpu\":\"\"}},"
                + "{\"rank\":\"1\",\"children\":{\"core\":\"0\"}}]}}",
            "rank0/core0 rank1/core0"),
        // targets without resources
        ok(
            "decode_emptyTarget_omittedFromRliteKeptInNodelist",
            "R decode",
            EMPTY_TARGET,
            "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"1\", \"children\": {\"core\":"
                + " \"0\"}}], \"starttime\": 0.0, \"expiration\": 0.0, \"nodelist\": [\"a,b\"]}}"),
        ok("decode_emptyTargetCountNode_counted", "R decode -c node", EMPTY_TARGET, "2"),
        fail(
            "decode_emptyTargetAndSecondDocument_unionFails",
            "R decode",
            EMPTY_TARGET + N03,
            "union"),
        fail("append_emptyTarget_fails", "R append", EMPTY_TARGET + r("5", "0", "c"), "append"),
        fail("diff_emptyTarget_fails", "R diff", EMPTY_TARGET + r("1", "0", "b"), "diff"),
        // append
        ok(
            "append_oneDocument_timesReset",
            "R append",
            TIMED,
            "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"0-3\", \"children\":"
                + " {\"core\": \"0-7\"}}], \"starttime\": 0.0, \"expiration\": 0.0, \"nodelist\":"
                + " [\"n[0-3]\"]}, \"scheduling\": {\"x\": 1}}"),
        ok(
            "append_sharedRankDisjointCores_merged",
            "R append",
            r("0-1", "0-1", "n[0-1]") + r("1-2", "2-3", "n[1-2]"),
            "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"0\", \"children\":"
                + " {\"core\": \"0-1\"}}, {\"rank\": \"1\", \"children\": {\"core\": \"0-3\"}},"
                + " {\"rank\": \"2\", \"children\": {\"core\": \"2-3\"}}], \"starttime\": 0.0,"
                + " \"expiration\": 0.0, \"nodelist\": [\"n[0-2]\"]}}"),
        fail(
            "append_gpuOverlap_rejected",
            "R append",
            rg("0-1", "0-1", "0", "n[0-1]") + rg("1", "2-3", "0", "n1"),
            "R objects 'rank[0-1]/core[0-1],gpu0' and 'rank1/core[2-3],gpu0' overlap"),
        fail(
            "append_sameRankOtherHostOverlap_rejected",
            "R append",
            r("0-1", "0-1", "n[0-1]") + r("1", "0-1", "m1"),
            "rank 1"),
        // diff / intersect
        ok(
            "diff_sameCoreAllRanks_otherCoreLeft",
            "R diff",
            r("0-1", "0-1", "n[0-1]") + r("0-1", "0", "n[0-1]"),
            r("0-1", "1", "n[0-1]")),
        ok(
            "diff_scheduling_keptFromFirst",
            "R diff",
            "{\"version\":1,\"scheduling\":42,\"execution\":{\"R_lite\":[{\"rank\":\"0-1\",\"children\":{\"core\":\"0-1\"}}]}}"
                + "{\"version\":1,\"execution\":{\"R_lite\":[{\"rank\":\"0-1\",\"children\":{\"core\":\"0\"}}]}}",
            "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"0-1\", \"children\": {\"core\":"
                + " \"1\"}}], \"starttime\": 0.0, \"expiration\": 0.0}, \"scheduling\": 42}"),
        fail("diff_oneDocument_needsTwo", "R diff", N03, "diff requires at least 2 resource sets"),
        fail(
            "intersect_oneDocument_needsTwo",
            "R intersect",
            N03,
            "intersect requires at least 2 resource sets"),
        ok(
            "intersect_disjoint_emptyR",
            "R intersect",
            r("0-3", "0-1", "n[0-3]") + r("4-5", "0", "n[4-5]"),
            EMPTY),
        ok("intersect_properties_dropped", "R intersect", N03GP + N03, N03),
        ok(
            "intersect_sameRankOtherHost_skipped",
            "R intersect",
            r("0-1", "0-3", "n[0-1]") + r("0-1", "0-1", "n0,m1"),
            r("0", "0-1", "n0")),
        // remap / rerank
        ok(
            "remap_sparseRanks_dense",
            "R remap",
            r("5,99,1000", "0", "n[5,99,1000]"),
            r("0-2", "0", "n[5,99,1000]")),
        ok(
            "remap_otherChild_renumbered",
            "R remap",
            "{\"version\":1,\"execution\":{\"R_lite\":[{\"rank\":\"0\",\"children\":{\"foo\":\"3-5\"}}]}}",
            "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"0\", \"children\": {\"foo\":"
                + " \"0-2\"}}], \"starttime\": 0.0, \"expiration\": 0.0}}"),
        ok("remap_gpus_keepIds", "R remap", rg("3", "4-5", "1,3", "a"), rg("0", "0-1", "1,3", "a")),
        ok("remap_oneDocument_timesKept", "R remap", TIMED, TIMED_OUT),
        ok(
            "rerank_properties_followHosts",
            "R rerank foo[3,2,1,0]",
            r("0-3", "0", "foo[0-3]").replace("]\"]}}", "]\"], \"properties\": {\"a\": \"1\"}}}"),
            r("0-3", "0", "foo[3,2,1,0]")
                .replace("]\"]}}", "]\"], \"properties\": {\"a\": \"2\"}}}")),
        usage(
            "rerank_noHostlist_mustProvide",
            "R rerank",
            N03,
            "Must provide a hostlist for re-ranking"),
        usage(
            "rerank_twoArguments_mustProvide",
            "R rerank a b",
            N03,
            "Must provide a hostlist for re-ranking"),
        fail(
            "rerank_tooManyHosts_rejected",
            "R rerank node[0-4]",
            N03,
            "Number of hosts (5) is greater than node count (4)"),
        fail(
            "rerank_tooFewHosts_rejected",
            "R rerank node[0-2]",
            N03,
            "Number of hosts (3) is less than node count (4)"),
        fail(
            "rerank_unknownHost_rejected",
            "R rerank node[0-2],m",
            N03,
            "Host m not found in resources"),
        usage("rerank_badHostlist_rejected", "R rerank node[", N03, "invalid hostlist 'node['"),
        fail("rerank_noNodelist_rejected", "R rerank a,b", NO_NODELIST, "nodelist"),
        // verify
        ok(
            "verify_sameRank_exit0Silent",
            "R verify",
            r("1-10", "0-3", "foo[1-10]") + r("1", "0-3", "foo1"),
            ""),
        fail(
            "verify_rankNotExpected_exit1",
            "R verify",
            r("1-10", "0-3", "foo[1-10]") + r("0", "0-3", "foo0"),
            "rank 0 not found in expected ranks"),
        fail(
            "verify_otherHostname_exit1",
            "R verify",
            r("1", "0-3", "foo1") + r("1", "0-3", "foo12"),
            "rank 1 got hostname 'foo12', expected 'foo1'"),
        fail(
            "verify_missingCore_exit1",
            "R verify",
            r("1", "0-3", "foo1") + r("1", "0-2", "foo1"),
            "rank 1 (foo1) missing resources: core3"),
        new Case(
            "verify_extraCoresAndGpu_warningExit0",
            "R verify",
            r("1", "0-3", "foo1") + rg("1", "0-7", "1", "foo1"),
            0,
            "",
            "rank 1 (foo1) has extra resources: core[4-7],gpu1"),
        fail(
            "verify_oneDocument_needsTwo",
            "R verify",
            N03,
            "verify requires exactly 2 R objects on stdin"),
        fail(
            "verify_threeDocuments_needsTwo",
            "R verify",
            N03 + N03 + N03,
            "verify requires exactly 2 R objects on stdin"),
        fail(
            "verify_emptySecond_singleRankOnly",
            "R verify",
            N03 + EMPTY,
            "Verification supported on single rank only"),
        // set-property
        ok("setProperty_noArguments_roundTrip", "R set-property", TIMED, TIMED_OUT),
        ok(
            "setProperty_noRanks_allRanks",
            "R set-property a",
            N03,
            N03.replace("]\"]}}", "]\"], \"properties\": {\"a\": \"0-3\"}}}")),
        ok(
            "setProperty_duplicateName_laterRanks",
            "R set-property a:1-2 b:0 a:3",
            N03,
            N03.replace("]\"]}}", "]\"], \"properties\": {\"a\": \"3\", \"b\": \"0\"}}}")),
        ok(
            "setProperty_existingProperty_ranksAdded",
            "R set-property batch:3",
            N03GP,
            N03GP.replace("\"batch\": \"0-1\"", "\"batch\": \"0-1,3\"")),
        ok(
            "setProperty_thenShort_unchanged",
            "R decode --short",
            N03.replace("]\"]}}", "]\"], \"properties\": {\"foo\": \"0-1\"}}}"),
            "rank[0-3]/core[0-7]"),
        fail(
            "setProperty_absentRank_rejected",
            "R set-property a:9",
            N03,
            "failed to assign properties: rank 9 not found in target resource list"),
        fail(
            "setProperty_absentRanks_rejected",
            "R set-property a:3-5",
            N03,
            "ranks 4-5 not found in target resource list"),
        usage(
            "setProperty_badIdset_rejected",
            "R set-property a:x",
            N03,
            "invalid idset 'x' specified for property \"a\""),
        fail(
            "setProperty_badName_rejected",
            "R set-property a|b:1",
            N03,
            "invalid character '|' in property \"a|b\""),
        // usage
        usage("r_noSubcommand_usageError", "R", "", "subcommand"),
        usage("r_unknownSubcommand_usageError", "R frob", "", "frob"),
        usage("decode_unknownOption_usageError", "R decode --bogus", N03, "--bogus"),
        usage("decode_countWithoutType_usageError", "R decode -c", N03, "--count"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource({"referenceRuns", "edgeCases"})
  void run_case_expectedOutputStatusAndStderr(Case c) {
    CliRun run = CliRun.run(c.stdin(), CliRun.words(c.args()));
    assertThat(run.status()).as("status of %s: %s", c, run).isEqualTo(c.status());
    run.assertOut(c.out());
    if (c.err().isEmpty()) {
      assertThat(run.err()).as("stderr of %s", c).isEmpty();
    } else {
      assertThat(run.err()).as("stderr of %s", c).contains(c.err());
      assertThat(CliRun.lines(run.err())).as("stderr of %s", c).hasSize(1);
    }
    run.assertNoTrace();
  }

  /** The cases that use this machine's name, computed as gethostname() does. */
  static Stream<Case> localHostCases() {
    String h = hostname();
    return Stream.of(
        ok("encode_noOptions_rank0Core0LocalHost", "R encode", "", r("0", "0", h)),
        ok(
            "encode_ranksWithoutHosts_localHostRepeated",
            "R encode -r 0-1 -c 0-3",
            "",
            r("0-1", "0-3", h + "," + h)),
        ok(
            "encode_rankWithoutHosts_coresKept",
            "R encode -r 0 -c 0-1023",
            "",
            r("0", "0-1023", h)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("localHostCases")
  void encode_withoutHosts_localHostName(Case c) {
    run_case_expectedOutputStatusAndStderr(c);
  }

  static String hostname() {
    try {
      Path p = Path.of("/proc/sys/kernel/hostname");
      if (Files.isReadable(p)) {
        String h = Files.readString(p, StandardCharsets.UTF_8).strip();
        if (!h.isEmpty()) {
          return h;
        }
      }
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
