package io.fluxdrm.jobspec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fluxdrm.schemas.SchemaException;
import io.fluxdrm.testkit.JobspecBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobspecValidatorTest {
  private static final String V1 = JobspecBuilder.jobspec().command("a").toYaml();

  @Test
  void checkPath_validFile_okLine(@TempDir Path dir) throws IOException {
    Path f = Files.writeString(dir.resolve("a.yaml"), V1);
    assertThat(JobspecValidator.check(f, Level.V1).lines()).containsExactly(f + ": ok");
  }

  @Test
  void checkPath_missingFile_cannotReadViolation(@TempDir Path dir) {
    Path f = dir.resolve("absent.yaml");
    Report r = JobspecValidator.check(f, Level.V1);
    assertThat(r.lines()).containsExactly(f + ": /: cannot read: no such file");
    assertThat(r.toJson().get("errnum").asInt()).isEqualTo(22);
  }

  @Test
  void checkPath_directory_cannotReadViolation(@TempDir Path dir) {
    Report r = JobspecValidator.check(dir, Level.V1);
    assertThat(r.valid()).isFalse();
    assertThat(r.violations().get(0).message()).startsWith("cannot read: ");
  }

  @Test
  void check_canonicalOnlyDocument_levelDecides() {
    byte[] content =
        JobspecBuilder.jobspec().command("a").version(2).toYaml().getBytes(StandardCharsets.UTF_8);
    assertThat(JobspecValidator.check("x", content, Level.CANONICAL).valid()).isTrue();
    assertThat(JobspecValidator.check("x", content, Level.V1).lines())
        .containsExactly("x: /version: 2 (expected: 1)");
  }

  @Test
  void checkSchema_payload_reportsViolations() {
    byte[] ok = "{\"matchtag\": 3}".getBytes(StandardCharsets.UTF_8);
    byte[] bad = "matchtag: -3\n".getBytes(StandardCharsets.UTF_8);
    assertThat(JobspecValidator.checkSchema("sched.realloc_cancel-request", "p.json", ok).lines())
        .containsExactly("p.json: ok");
    assertThat(JobspecValidator.checkSchema("sched.realloc_cancel-request", "p.yaml", bad).lines())
        .containsExactly("p.yaml: /matchtag: -3 (expected: >= 0)");
    assertThat(
            JobspecValidator.checkSchema("rv1", "bad", new byte[] {'{', (byte) 0xff, '}'}).lines())
        .containsExactly("bad: /: byte 1 is not valid UTF-8 (expected: a UTF-8 document)");
  }

  @Test
  void checkSchema_unknownName_schemaException() {
    assertThatThrownBy(() -> JobspecValidator.checkSchema("nope", "x", new byte[0]))
        .isInstanceOf(SchemaException.class)
        .hasMessageStartingWith("schema \"nope\": not found (expected: one of [");
  }
}
