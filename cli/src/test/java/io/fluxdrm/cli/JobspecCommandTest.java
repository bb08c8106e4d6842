package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code fluxdrm jobspec validate|counts} and {@code fluxdrm schema list|validate}. */
class JobspecCommandTest {

  static final String V1 =
      """
      version: 1
      resources:
        - type: node
          count: 2
          with:
            - type: slot
              count: 2
              label: task
              with:
                - type: core
                  count: 1
      tasks:
        - command: [hostname]
          slot: task
          count:
            per_slot: 1
      attributes:
        system:
          duration: 60
      """;

  /** A canonical (RFC 14) jobspec that version 1 refuses: a range count. */
  static final String CANONICAL_ONLY =
      V1.replace("count: 2\n    with", "count: {min: 1, max: 2}\n    with");

  static final String NO_DURATION = V1.replace("attributes:\n  system:\n    duration: 60\n", "");

  static final String BOTH_COUNTS =
      V1.replace("      per_slot: 1", "      per_slot: 1\n      total: 4");

  @TempDir static Path dir;

  static Path v1;
  static Path canonical;
  static Path noDuration;
  static Path bothCounts;

  @BeforeAll
  static void files() throws IOException {
    v1 = write("v1.yaml", V1);
    canonical = write("canonical.yaml", CANONICAL_ONLY);
    noDuration = write("no-duration.yaml", NO_DURATION);
    bothCounts = write("both-counts.yaml", BOTH_COUNTS);
  }

  static Path write(String name, String text) throws IOException {
    return Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
  }

  record Case(String name, String[] args, String stdin, int status, String outContains) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("validate_v1File_ok", args("jobspec validate", v1), "", 0, v1 + ": ok"),
        new Case("validate_stdin_ok", args("jobspec validate"), V1, 0, "-: ok"),
        new Case("validate_dashStdin_ok", args("jobspec validate -"), V1, 0, "-: ok"),
        new Case(
            "validate_missingDuration_locatedViolation",
            args("jobspec validate", noDuration),
            "",
            1,
            noDuration + ": /attributes"),
        new Case(
            "validate_bothCounts_ruleStated",
            args("jobspec validate", bothCounts),
            "",
            1,
            "/tasks/0/count"),
        new Case(
            "validate_rangeCountAtV1_refused",
            args("jobspec validate", canonical),
            "",
            1,
            "/resources/0/count"),
        new Case(
            "validate_rangeCountCanonical_ok",
            args("jobspec validate --canonical", canonical),
            "",
            0,
            canonical + ": ok"),
        new Case(
            "validate_oneInvalidAmongValid_exit1",
            args("jobspec validate", v1, bothCounts),
            "",
            1,
            v1 + ": ok"),
        new Case(
            "validate_json_errnumZero",
            args("jobspec validate --json", v1),
            "",
            0,
            "{\"file\":\"" + v1 + "\",\"errnum\":0}"),
        new Case(
            "validate_jsonInvalid_errnum22",
            args("jobspec validate --json", bothCounts),
            "",
            1,
            "\"errnum\":22,\"errstr\":\"/tasks/0/count"),
        new Case(
            "validate_notYaml_syntaxError", args("jobspec validate"), "{ version: [", 1, "-: "),
        new Case(
            "counts_v1_nodesSlotsCores",
            args("jobspec counts", v1),
            "",
            0,
            "\"nnodes\":2,\"nslots\":2,\"slot_size\":1,\"slot_gpus\":0,\"exclusive\":false,\"duration\":60"),
        new Case("schema_list_namesSchemas", args("schema list"), "", 0, "sched.realloc-request"),
        new Case(
            "schemaValidate_reallocCancel_ok",
            args("schema validate sched.realloc_cancel-request -"),
            "{\"matchtag\": 3}",
            0,
            "-: ok"),
        new Case(
            "schemaValidate_reallocCancelWrongType_violation",
            args("schema validate sched.realloc_cancel-request -"),
            "{\"matchtag\": \"3\"}",
            1,
            "-: /matchtag"));
  }

  static String[] args(String words, Object... files) {
    String[] w = words.split(" ");
    String[] out = new String[w.length + files.length];
    System.arraycopy(w, 0, out, 0, w.length);
    for (int i = 0; i < files.length; i++) {
      out[w.length + i] = files[i].toString();
    }
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void jobspec_case_expectedOutputAndStatus(Case c) {
    CliRun run = CliRun.run(c.stdin(), c.args());
    assertThat(run.status()).as("status of %s: %s", c, run).isEqualTo(c.status());
    assertThat(run.out()).as("stdout of %s", c).contains(c.outContains());
    run.assertNoTrace();
  }

  @Test
  void counts_invalidJobspec_oneLineErrorExit1() {
    CliRun run = CliRun.run("version: 1\nresources: 5\n", "jobspec", "counts", "-");
    // the validator's violations, sorted by location: the first in full, then how many more
    run.assertOneLineError("-: /attributes: missing (expected: present) (and 2 more)");
    assertThat(run.out()).isEmpty();
  }

  @Test
  void counts_refusesWhatValidateRefuses_aSlotCountBeyondInt() {
    String big =
        "version: 1\nresources:\n  - type: slot\n    count: 4294967295\n    label: task\n"
            + "    with:\n      - type: core\n        count: 1\ntasks:\n  - command: [\"hostname\"]\n"
            + "    slot: task\n    count:\n      per_slot: 1\nattributes:\n  system:\n"
            + "    duration: 0\n";
    CliRun validate = CliRun.run(big, "jobspec", "validate", "-");
    assertThat(validate.status()).isEqualTo(1);
    assertThat(validate.out()).contains("/resources/0/count: 4294967295 (expected: <= 2147483647)");
    CliRun counts = CliRun.run(big, "jobspec", "counts", "-");
    counts.assertOneLineError("/resources/0/count: 4294967295 (expected: <= 2147483647)");
    assertThat(counts.out()).isEmpty();
  }

  @Test
  void counts_missingFile_oneLineErrorExit1() {
    CliRun run = CliRun.run("", "jobspec", "counts", dir.resolve("absent.yaml").toString());
    run.assertOneLineError("no such file");
  }

  @Test
  void schemaValidate_unknownName_oneLineUsageErrorExit2() {
    CliRun run = CliRun.run("{}", "schema", "validate", "no-such-schema", "-");
    run.assertOneLineError("not found (see 'fluxdrm schema list' for the names)", 2);
  }

  @Test
  void validate_hugeStdin_refusedBeyondLimit() {
    String huge = "a: " + "x".repeat(5 * 1024 * 1024);
    CliRun run = CliRun.run(huge, "jobspec", "validate");
    assertThat(run.status()).isEqualTo(1);
    assertThat(run.out()).startsWith("-: ").doesNotContain("Exception");
  }

  @Test
  void validate_missingFile_anErrorOnStderr_notAVerdictOnStdout() throws Exception {
    java.nio.file.Path ok = dir.resolve("ok.yaml");
    java.nio.file.Files.copy(java.nio.file.Path.of("../docs/examples/job.yaml"), ok);
    java.nio.file.Path absent = dir.resolve("absent.yaml");
    CliRun run = CliRun.run("", "jobspec", "validate", ok.toString(), absent.toString());
    assertThat(run.status()).isEqualTo(1);
    // the readable file's verdict is the result; the unreadable one is an error (D487)
    assertThat(run.out()).isEqualTo(ok + ": ok\n");
    assertThat(run.err()).isEqualTo(absent + ": /: cannot read: no such file\n");
    run.assertNoTrace();
  }
}
