package io.fluxdrm.jobspec;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.schemas.Violation;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The project's own jobspecs, one small file per rule: {@code valid/} (V1), {@code
 * valid_canonical/}, {@code invalid/} (V1) and {@code invalid_canonical/}; each invalid file sits
 * beside a {@code .expected} file with the exact violations it must produce.
 */
class JobspecFilesTest {

  static Stream<Path> files(String folder) throws IOException, URISyntaxException {
    Path dir = Path.of(JobspecFilesTest.class.getResource("/jobspecs/" + folder).toURI());
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> !p.toString().endsWith(".expected")).sorted().toList().stream();
    }
  }

  static Stream<Path> valid() throws IOException, URISyntaxException {
    return files("valid");
  }

  static Stream<Path> validCanonical() throws IOException, URISyntaxException {
    return files("valid_canonical");
  }

  static Stream<Path> invalid() throws IOException, URISyntaxException {
    return files("invalid");
  }

  static Stream<Path> invalidCanonical() throws IOException, URISyntaxException {
    return files("invalid_canonical");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valid")
  void check_validV1File_okAtBothLevels(Path file) throws IOException {
    byte[] content = Files.readAllBytes(file);
    assertThat(JobspecValidator.check("f", content, Level.V1).lines()).containsExactly("f: ok");
    assertThat(JobspecValidator.check("f", content, Level.CANONICAL).valid()).isTrue();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("validCanonical")
  void check_validCanonicalFile_okAtCanonicalLevel(Path file) throws IOException {
    Report r = JobspecValidator.check("f", Files.readAllBytes(file), Level.CANONICAL);
    assertThat(r.lines()).containsExactly("f: ok");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalid")
  void check_invalidV1File_reportsExpectedViolations(Path file) throws IOException {
    assertExpected(file, Level.V1);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidCanonical")
  void check_invalidCanonicalFile_reportsExpectedViolations(Path file) throws IOException {
    assertExpected(file, Level.CANONICAL);
    // what is not canonical is not V1 either
    assertThat(JobspecValidator.check("f", Files.readAllBytes(file), Level.V1).valid()).isFalse();
  }

  private static void assertExpected(Path file, Level level) throws IOException {
    Path expected =
        file.resolveSibling(file.getFileName().toString().replaceAll("\\.\\w+$", ".expected"));
    List<String> want = Files.readAllLines(expected, StandardCharsets.UTF_8);
    Report r =
        JobspecValidator.check(file.getFileName().toString(), Files.readAllBytes(file), level);
    assertThat(r.violations().stream().map(Violation::toString).toList())
        .containsExactlyElementsOf(want);
    assertThat(r.valid()).isFalse();
  }
}
