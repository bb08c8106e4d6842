package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input of every kind, in options and on stdin: each run ends with status 1 (2 for an option
 * value that is not of its form, a usage error), exactly one line on stderr that says where and
 * why, no stack trace and nothing on stdout. Huge ranges are answered without expanding them
 * ({@code @Timeout} is only a guard against a hang).
 */
class CliBadInputTest {

  /** 100 MB, as the acceptance list asks. */
  static final long HUGE = 100L << 20;

  static final long SEED = 20_260_501L;

  record Case(String name, String args, Supplier<InputStream> stdin, String err, int status) {
    Case(String name, String args, Supplier<InputStream> stdin, String err) {
      this(name, args, stdin, err, 1);
    }

    @Override
    public String toString() {
      return name;
    }
  }

  static Case opt(String name, String args, String err) {
    return new Case(name, args, () -> InputStream.nullInputStream(), err);
  }

  /** An option value not of its form: a usage error, status 2 (docs/cli.md, "Exit status"). */
  static Case usage(String name, String args, String err) {
    return new Case(name, args, () -> InputStream.nullInputStream(), err, 2);
  }

  static Case usageIn(String name, String args, String stdin, String err) {
    return new Case(
        name, args, () -> new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), err, 2);
  }

  static Case in(String name, String args, String stdin, String err) {
    return new Case(
        name, args, () -> new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), err);
  }

  static Case bytes(String name, String args, byte[] stdin, String err) {
    return new Case(name, args, () -> new ByteArrayInputStream(stdin), err);
  }

  static String rlite(String execution) {
    return "{\"version\":1,\"execution\":{" + execution + "}}";
  }

  static final String OK_LITE = "\"R_lite\":[{\"rank\":\"0-1\",\"children\":{\"core\":\"0-3\"}}]";
  static final String R01 = rlite(OK_LITE + ",\"nodelist\":[\"n[0-1]\"]");

  static Stream<Case> options() {
    return Stream.of(
        usage("encode_ranksDescending_rejected", "R encode -r 3,2 -H a,b", "--ranks"),
        usage("encode_ranksLeadingZero_rejected", "R encode -r 01 -H a", "--ranks"),
        usage("encode_ranksDegenerateRange_rejected", "R encode -r 1-1 -H a", "--ranks"),
        usage("encode_ranksBeyondLimit_rejected", "R encode -r 0-2147483648 -H a", "--ranks"),
        usage("encode_ranksHuge_rejectedWithoutExpansion", "R encode -r 0-2147483647", "ranks"),
        usage("encode_coresDuplicate_rejected", "R encode -c 0,0 -H a", "--cores"),
        usage("encode_coresOpenRange_rejected", "R encode -c 0- -H a", "--cores"),
        usage("encode_gpusReversed_rejected", "R encode -g 5-3 -H a", "--gpus"),
        usage("encode_hostsUnbalanced_rejected", "R encode -H n[1-2", "invalid hostlist"),
        usage("encode_hostsReversed_rejected", "R encode -H n[3-1]", "invalid hostlist"),
        usage("encode_hostsHugeRange_rejected", "R encode -H n[0-1048576]", "invalid hostlist"),
        opt(
            "encode_propertyRanksHuge_absentRanks",
            "R encode -H a -p p:0-2147483647",
            "ranks 1-2147483647 not found"),
        usageIn("decode_includeMalformed_rejected", "R decode -i 0,,x", R01, "--include"),
        usageIn("decode_excludeBrackets_rejected", "R decode -x [0-1", R01, "--exclude"),
        in("rerank_hugeHostlist_tooMany", "R rerank n[0-1048575]", R01, "greater than node count"),
        in(
            "setProperty_hugeRanks_absent",
            "R set-property p:0-2147483647",
            R01,
            "ranks 2-2147483647 not found"),
        opt("hostlist_unbalanced_rejected", "hostlist n[1", "n[1"),
        opt("hostlist_badRange_rejected", "hostlist n[a-b]", "n[a-b]"),
        opt("hostlist_lenientNumber_rejected", "hostlist n[1-]", "n[1-]"),
        usage("hostlist_nthMalformed_rejected", "hostlist -n 1,1 a,b", "--nth"),
        opt("hostlist_nthHuge_outOfRange", "hostlist -n 0-2147483647 n[0-1048575]", "out of range"),
        usage("hostlist_findMalformed_rejected", "hostlist -F ]a a", "--find"),
        usage("hostlist_excludeMalformed_rejected", "hostlist -x a[ a", "--exclude"),
        opt("hostlist_rangeBeyondLimit_rejected", "hostlist -e n[0-2147483647]", "hosts"));
  }

  static Stream<Case> documents() {
    return Stream.of(
        in(
            "decode_versionString_rejected",
            "R decode",
            "{\"version\":\"1\",\"execution\":{" + OK_LITE + "}}",
            "version"),
        in(
            "decode_versionReal_rejected",
            "R decode",
            "{\"version\":1.0,\"execution\":{" + OK_LITE + "}}",
            "version"),
        in(
            "decode_versionUnknown_rejected",
            "R decode",
            "{\"version\":3,\"execution\":{" + OK_LITE + "}}",
            "version"),
        in(
            "decode_executionArray_rejected",
            "R decode",
            "{\"version\":1,\"execution\":[]}",
            "execution"),
        in("decode_rliteMissing_rejected", "R decode", rlite("\"starttime\":0"), "R_lite"),
        in(
            "decode_rankInteger_rejected",
            "R decode",
            rlite("\"R_lite\":[{\"rank\":0,\"children\":{\"core\":\"0\"}}]"),
            "rank"),
        in(
            "decode_rankMalformed_rejected",
            "R decode",
            rlite("\"R_lite\":[{\"rank\":\"1,0\",\"children\":{\"core\":\"0\"}}]"),
            "rank"),
        in(
            "decode_childInteger_rejected",
            "R decode",
            rlite("\"R_lite\":[{\"rank\":\"0\",\"children\":{\"core\":0}}]"),
            "core"),
        in(
            "decode_childMalformed_rejected",
            "R decode",
            rlite("\"R_lite\":[{\"rank\":\"0\",\"children\":{\"core\":\"x\"}}]"),
            "core"),
        in(
            "decode_startString_rejected",
            "R decode",
            rlite(OK_LITE + ",\"starttime\":\"0\""),
            "starttime"),
        in(
            "decode_expirationNull_rejected",
            "R decode",
            rlite(OK_LITE + ",\"expiration\":null"),
            "expiration"),
        in("decode_nslotsReal_rejected", "R decode", rlite(OK_LITE + ",\"nslots\":1.5"), "nslots"),
        in(
            "decode_duplicateRankOverlappingCores_rejected",
            "R decode",
            rlite(
                "\"R_lite\":[{\"rank\":\"0-1\",\"children\":{\"core\":\"0-1\"}},{\"rank\":\"1\",\"children\":{\"core\":\"1\"}}]"),
            "1"),
        in(
            "decode_duplicateIds_rejected",
            "R decode",
            rlite("\"R_lite\":[{\"rank\":\"0,0\",\"children\":{\"core\":\"0\"}}]"),
            "0,0"),
        in(
            "decode_nodelistTooShort_rejected",
            "R decode",
            rlite(OK_LITE + ",\"nodelist\":[\"a\"]"),
            "nodelist"),
        in(
            "decode_nodelistTooLong_rejected",
            "R decode",
            rlite(OK_LITE + ",\"nodelist\":[\"a,b,c\"]"),
            "nodelist"),
        in(
            "decode_nodelistMalformed_rejected",
            "R decode",
            rlite(OK_LITE + ",\"nodelist\":[\"a[\"]"),
            "nodelist"),
        in(
            "decode_propertiesAbsentRank_rejected",
            "R decode",
            rlite(OK_LITE + ",\"properties\":{\"a\":\"5\"}"),
            "rank 5 not found in target resource list"),
        in(
            "decode_propertiesArray_rejected",
            "R decode",
            rlite(OK_LITE + ",\"properties\":[]"),
            "properties"),
        in(
            "decode_propertyValueInteger_rejected",
            "R decode",
            rlite(OK_LITE + ",\"properties\":{\"a\":1}"),
            "properties"),
        in(
            "decode_propertyNameCaret_rejected",
            "R decode",
            rlite(OK_LITE + ",\"properties\":{\"a^\":\"0\"}"),
            "a^"),
        in(
            "decode_truncated_rejected",
            "R decode",
            "{\"version\":1,\"execution\":{\"R_lite\":[",
            "failed to read an R object"),
        in(
            "decode_truncatedString_rejected",
            "R decode",
            "{\"version\":1,\"exec",
            "failed to read an R object"),
        in("append_secondInvalid_rejected", "R append", R01 + "{\"version\":1}", "document 2"),
        in(
            "diff_secondVersion_rejected",
            "R diff",
            R01 + "{\"version\":0,\"execution\":{" + OK_LITE + "}}",
            "version"),
        in("verify_secondNotR_rejected", "R verify", R01 + "[]", "document 2"),
        bytes(
            "decode_nonUtf8InString_rejected",
            "R decode",
            withByte(R01, "n[0-1]", (byte) 0xff),
            "UTF-8"),
        bytes(
            "decode_nonUtf8First_rejected",
            "R decode",
            new byte[] {(byte) 0xc3, (byte) 0x28},
            "failed to read an R object"),
        bytes(
            "hostlist_nonUtf8Line_rejected",
            "hostlist",
            new byte[] {'a', '\n', (byte) 0xff, '\n'},
            "stdin line 2"),
        in(
            "decode_nested100k_rejected",
            "R decode",
            "[".repeat(100_000) + "]".repeat(100_000),
            "failed to read an R object"),
        in(
            "decode_nestedInsideR_rejected",
            "R decode",
            rlite(OK_LITE + ",\"x\":" + "[".repeat(5000) + "]".repeat(5000)),
            "failed to read an R object"),
        in("hostlist_badStdinLine_rejected", "hostlist -", "a\nb[\n", "stdin line 2"),
        in(
            "hostlist_stdinLineTooLong_rejected",
            "hostlist",
            "a".repeat((1 << 20) + 1),
            "longer than"));
  }

  static byte[] withByte(String text, String at, byte b) {
    byte[] s = text.getBytes(StandardCharsets.UTF_8);
    int i = text.indexOf(at);
    byte[] out = Arrays.copyOf(s, s.length);
    out[i + 1] = b;
    return out;
  }

  /** 100 MB streams, generated as they are read. */
  static Stream<Case> hugeStreams() {
    System.out.println("CliBadInputTest random garbage seed = " + SEED);
    return Stream.of(
        new Case(
            "decode_100MbRandomGarbage_rejected", "R decode", () -> randomBytes(SEED), "stdin"),
        new Case(
            "decode_100MbOpenBrackets_rejected",
            "R decode",
            () -> repeated('['),
            "failed to read an R object"),
        new Case(
            "append_100MbOpenBraces_rejected",
            "R append",
            () -> repeated('{'),
            "failed to read an R object"),
        new Case(
            "hostlist_100MbRandomGarbage_rejected",
            "hostlist",
            () -> randomBytes(SEED),
            "stdin line"),
        new Case(
            "hostlist_100MbOpenBrackets_rejected",
            "hostlist",
            () -> repeated('['),
            "stdin line 1"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource({"options", "documents", "hugeStreams"})
  @Timeout(20)
  void run_badInput_oneLineErrorAndFailureStatus(Case c) {
    CliRun run = CliRun.run(c.stdin().get(), CliRun.words(c.args()));
    run.assertOneLineError(c.err(), c.status());
    assertThat(run.out()).as("stdout of %s", c).isEmpty();
  }

  static InputStream repeated(char c) {
    return new GeneratedStream(HUGE, (buf, n) -> Arrays.fill(buf, 0, n, (byte) c));
  }

  static InputStream randomBytes(long seed) {
    SplittableRandom rng = new SplittableRandom(seed);
    return new GeneratedStream(
        HUGE,
        (buf, n) -> {
          for (int i = 0; i < n; i++) {
            buf[i] = (byte) rng.nextInt(256);
          }
        });
  }

  /** A stream of {@code size} bytes that a filler writes chunk by chunk: no 100 MB array. */
  static final class GeneratedStream extends InputStream {
    interface Filler {
      void fill(byte[] buf, int n);
    }

    private final Filler filler;
    private final byte[] chunk = new byte[1 << 16];
    private long left;
    private int pos;
    private int end;

    GeneratedStream(long size, Filler filler) {
      this.left = size;
      this.filler = filler;
    }

    @Override
    public int read() {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (len == 0) {
        return 0;
      }
      if (pos == end) {
        if (left == 0) {
          return -1;
        }
        end = (int) Math.min(chunk.length, left);
        filler.fill(chunk, end);
        left -= end;
        pos = 0;
      }
      int n = Math.min(len, end - pos);
      System.arraycopy(chunk, pos, b, off, n);
      pos += n;
      return n;
    }
  }
}
