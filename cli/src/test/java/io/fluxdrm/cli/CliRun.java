package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** One run of the command line in process: its exit status, stdout and stderr. */
record CliRun(int status, String out, String err) {

  private static final ObjectMapper JSON = new ObjectMapper();

  static CliRun run(InputStream in, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        Main.run(
            args,
            in,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new CliRun(
        status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  static CliRun run(String stdin, String... args) {
    return run(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), args);
  }

  /** Splits a command line on single spaces; the tables use no argument containing a space. */
  static String[] words(String line) {
    return line.isEmpty() ? new String[0] : line.split(" ", -1);
  }

  /**
   * Asserts stdout equals {@code expected} line by line: lines that are JSON objects compare as
   * JSON values (flux-core prints other spacing and key order), the others as exact text.
   */
  void assertOut(String expected) {
    List<String> want = lines(expected);
    List<String> got = lines(out);
    assertThat(got).as("stdout lines of %s", this).hasSameSizeAs(want);
    for (int i = 0; i < want.size(); i++) {
      if (want.get(i).startsWith("{")) {
        assertThat(json(got.get(i)))
            .as("stdout line %d of %s", i, this)
            .isEqualTo(json(want.get(i)));
      } else {
        assertThat(got.get(i)).as("stdout line %d of %s", i, this).isEqualTo(want.get(i));
      }
    }
  }

  /** Asserts the run failed as a command should: status 1, one line on stderr, no stack trace. */
  void assertOneLineError(String substring) {
    assertOneLineError(substring, 1);
  }

  void assertOneLineError(String substring, int expectedStatus) {
    assertThat(status).as("status of %s", this).isEqualTo(expectedStatus);
    assertThat(err).as("stderr of %s", this).contains(substring).endsWith("\n");
    assertThat(lines(err)).as("stderr of %s", this).hasSize(1);
    assertNoTrace();
  }

  /**
   * The stderr line of a usage error from its message line {@code fluxdrm CMD: what}: the help to
   * read follows, unless the message already names where to look (docs/cli.md, "Exit status").
   */
  static String usageLine(String line) {
    if (line.contains("(see '")) {
      return line;
    }
    String command = line.substring(0, line.indexOf(": "));
    return line + " (see '" + command + " --help')";
  }

  void assertNoTrace() {
    assertThat(err).doesNotContain("at io.fluxdrm").doesNotContain("Exception");
    assertThat(out).doesNotContain("at io.fluxdrm").doesNotContain("Exception");
  }

  static List<String> lines(String s) {
    List<String> l = new ArrayList<>(List.of(s.split("\n", -1)));
    if (!l.isEmpty() && l.get(l.size() - 1).isEmpty()) {
      l.remove(l.size() - 1);
    }
    return l;
  }

  static JsonNode json(String s) {
    try {
      return JSON.readTree(s);
    } catch (JsonProcessingException e) {
      throw new AssertionError("not JSON: " + s, e);
    }
  }
}
