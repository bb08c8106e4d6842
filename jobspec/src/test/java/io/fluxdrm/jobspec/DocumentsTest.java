package io.fluxdrm.jobspec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.fluxdrm.schemas.Violation;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Bad input of every kind gets one clear, located error and never a stack trace or a hang. */
class DocumentsTest {

  static String nested(String open, String close, int levels) {
    return open.repeat(levels) + close.repeat(levels);
  }

  static String yamlNested(int levels) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < levels; i++) {
      sb.append("  ".repeat(i)).append("a:\n");
    }
    return sb.append("  ".repeat(levels)).append("b: 1\n").toString();
  }

  static String billionLaughs() {
    StringBuilder sb = new StringBuilder("l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for (int i = 1; i < 10; i++) {
      sb.append("l").append(i).append(": &l").append(i).append(" [");
      for (int j = 0; j < 9; j++) {
        sb.append(j == 0 ? "" : ", ").append("*l").append(i - 1);
      }
      sb.append("]\n");
    }
    return sb.toString();
  }

  static Stream<Arguments> badInput() {
    String deepPointer = "/0".repeat(Documents.MAX_DEPTH);
    String deepYamlPointer = "/a".repeat(Documents.MAX_DEPTH);
    return Stream.of(
        Arguments.of(
            "non-UTF-8 byte",
            bytes("version: 1\nname: caf", new byte[] {(byte) 0xe9, '\n'}),
            "/: byte 20 is not valid UTF-8 (expected: a UTF-8 document)"),
        Arguments.of(
            "truncated UTF-8 sequence",
            bytes("{\"a\": \"", new byte[] {(byte) 0xe2, (byte) 0x82}),
            "/: byte 7 is not valid UTF-8 (expected: a UTF-8 document)"),
        Arguments.of(
            "yaml alias",
            utf8("a: &x [1, 2]\nb: *x\n"),
            "/b: yaml alias *x (expected: no aliases; write the value out)"),
        Arguments.of(
            "yaml alias bomb",
            utf8(billionLaughs()),
            "/l1/0: yaml alias *l0 (expected: no aliases; write the value out)"),
        Arguments.of(
            "json 50 levels",
            utf8(nested("[", "]", 50)),
            deepPointer + ": nested more than 32 levels deep (expected: at most 32)"),
        Arguments.of(
            "yaml 50 levels",
            utf8(yamlNested(50)),
            deepYamlPointer + ": nested more than 32 levels deep (expected: at most 32)"),
        Arguments.of(
            "10 MB document",
            utf8("a: \"" + "x".repeat(10 * 1024 * 1024) + "\"\n"),
            "/: document larger than 4194304 bytes (expected: at most 4194304)"),
        Arguments.of(
            "yaml duplicate key",
            utf8("version: 1\nversion: 2\n"),
            "/version: duplicate key (expected: each key once)"),
        Arguments.of(
            "json duplicate key",
            utf8("{\"attributes\": {\"system\": {\"duration\": 1, \"duration\": 2}}}"),
            "/attributes/system/duration: duplicate key (expected: each key once)"),
        Arguments.of(
            "integer beyond 64 bits",
            utf8("count: 123456789012345678901234567890\n"),
            "/count: integer 123456789012345678901234... out of range (expected: a 64-bit integer)"),
        Arguments.of(
            "json number overflowing a double",
            utf8("{\"duration\": 1e400}"),
            "/duration: number 1e400 out of range (expected: a finite number)"),
        Arguments.of(
            "yaml infinity",
            utf8("duration: .inf\n"),
            "/duration: yaml syntax error at line 1 column 15: malformed numeric value '.inf'"),
        Arguments.of(
            "two yaml documents",
            utf8("version: 1\n---\nversion: 2\n"),
            "/: more than one document (expected: exactly one)"),
        Arguments.of("empty document", utf8("  \n"), "/: empty document (expected: a mapping)"),
        Arguments.of(
            "yaml syntax error",
            utf8("a: b: c\n"),
            "/a: yaml syntax error at line 1 column 5: mapping values are not allowed here"),
        Arguments.of(
            "json syntax error",
            utf8("{\"a\": }"),
            "/a: json syntax error at line 1 column 7: unexpected character ('}' (code 125)): expected a value"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badInput")
  void read_badInput_oneClearLocatedError(String what, byte[] content, String expected) {
    assertThatThrownBy(() -> Documents.read(content))
        .isInstanceOfSatisfying(
            JobspecException.class,
            e ->
                assertThat(e.violations())
                    .extracting(Violation::toString)
                    .containsExactly(expected));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badInput")
  void check_badInput_invalidReportNoException(String what, byte[] content, String expected) {
    Report r = JobspecValidator.check("in.yaml", content, Level.V1);
    assertThat(r.valid()).isFalse();
    assertThat(r.lines()).containsExactly("in.yaml: " + expected);
    assertThat(r.toJson().get("errnum").asInt()).isEqualTo(22);
  }

  @Test
  void read_endlessStream_readsAtMostTheLimitPlusOne() throws IOException {
    CountingStream in = new CountingStream(100L * 1024 * 1024);
    assertThatThrownBy(() -> Documents.read(in)).isInstanceOf(JobspecException.class);
    assertThat(in.consumed).isEqualTo(Documents.MAX_BYTES + 1L);
  }

  @Test
  void read_jsonWithByteOrderMark_accepted() {
    byte[] content = bytes("\uFEFF{\"a\": 1}", new byte[0]);
    assertThat(Documents.read(content).get("a").asInt()).isEqualTo(1);
  }

  @Test
  void read_yamlAnchorWithoutAlias_accepted() {
    JsonNode n = Documents.read(utf8("a: &x [1, 2]\nb: 3\n"));
    assertThat(n.toString()).isEqualTo("{\"a\":[1,2],\"b\":3}");
  }

  @Test
  void read_yamlEmptyValue_nullButQuotedEmptyStringKept() {
    assertThat(Documents.read(utf8("a:\nb: ''\n")).toString()).isEqualTo("{\"a\":null,\"b\":\"\"}");
  }

  @Test
  void read_yamlAndJsonOfSameDocument_sameTree() {
    JsonNode y = Documents.read(utf8("version: 1\nlist: [a, 2, 3.5, true, null]\n"));
    JsonNode j = Documents.read(utf8("{\"version\": 1, \"list\": [\"a\", 2, 3.5, true, null]}"));
    assertThat(y).isEqualTo(j);
  }

  @Test
  void read_largestAllowedDocument_accepted() {
    byte[] content = new byte[Documents.MAX_BYTES];
    Arrays.fill(content, (byte) ' ');
    byte[] doc = utf8("{\"a\": 1}");
    System.arraycopy(doc, 0, content, 0, doc.length);
    assertThat(Documents.read(content).get("a").asInt()).isEqualTo(1);
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] bytes(String prefix, byte[] tail) {
    byte[] head = utf8(prefix);
    byte[] out = Arrays.copyOf(head, head.length + tail.length);
    System.arraycopy(tail, 0, out, head.length, tail.length);
    return out;
  }

  /** An endless source of spaces that counts what was taken from it. */
  private static final class CountingStream extends InputStream {
    private final long size;
    long consumed;

    CountingStream(long size) {
      this.size = size;
    }

    @Override
    public int read() {
      if (consumed >= size) {
        return -1;
      }
      consumed++;
      return ' ';
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (consumed >= size) {
        return -1;
      }
      int n = (int) Math.min(len, size - consumed);
      Arrays.fill(b, off, off + n, (byte) ' ');
      consumed += n;
      return n;
    }
  }
}
