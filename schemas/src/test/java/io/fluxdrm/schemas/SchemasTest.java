package io.fluxdrm.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class SchemasTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  record Vector(String schema, Path file) {
    @Override
    public String toString() {
      return schema + "/" + file.getFileName();
    }
  }

  static Path root() throws URISyntaxException {
    return Path.of(SchemasTest.class.getResource("/payloads").toURI());
  }

  static Stream<Vector> vectors(String kind) throws IOException, URISyntaxException {
    Path dir = root().resolve(kind);
    List<Vector> out;
    try (Stream<Path> files = Files.walk(dir)) {
      out =
          files
              .filter(p -> p.toString().endsWith(".json"))
              .map(p -> new Vector(p.getParent().getFileName().toString(), p))
              .sorted((a, b) -> a.toString().compareTo(b.toString()))
              .toList();
    }
    return out.stream();
  }

  static Stream<Vector> valid() throws IOException, URISyntaxException {
    return vectors("valid");
  }

  static Stream<Vector> invalid() throws IOException, URISyntaxException {
    return vectors("invalid");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valid")
  void validate_validPayload_noViolations(Vector v) throws IOException {
    JsonNode node = JSON.readTree(v.file().toFile());
    assertThat(Schemas.validate(v.schema(), node)).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalid")
  void validate_invalidPayload_reportsExpectedViolation(Vector v) throws IOException {
    JsonNode node = JSON.readTree(v.file().toFile());
    String name = v.file().getFileName().toString().replace(".json", ".expected");
    List<String> expected =
        Files.readAllLines(v.file().resolveSibling(name), StandardCharsets.UTF_8).stream()
            .filter(l -> !l.isBlank())
            .toList();
    List<String> actual =
        Schemas.validate(v.schema(), node).stream().map(Violation::toString).toList();
    assertThat(actual).containsAll(expected);
  }

  @Test
  void names_classpath_listsEveryShippedSchema() {
    assertThat(Schemas.names())
        .contains(
            "jobspec-canonical",
            "jobspec-v1",
            "rv1",
            "sched.alloc-request",
            "sched.alloc-response",
            "sched.free-request",
            "sched.cancel-request",
            "sched.prioritize-request",
            "sched.expiration-request",
            "job-manager.sched-hello-request",
            "job-manager.sched-hello-response",
            "job-manager.sched-ready-request",
            "job-manager.sched-ready-response",
            "sched.realloc-request",
            "sched.realloc-response",
            "sched.realloc_cancel-request",
            "job-manager.realloc-request",
            "job-manager.realloc-response",
            "job-manager.release-request",
            "job-manager.release-response",
            "shell.realloc-request",
            "shell.realloc-response",
            "shell.realloc_cancel-request",
            "shell.release-request",
            "shell.release-response",
            "shell.task-exit-request",
            "curve-clients");
  }

  @Test
  void validate_schemaFileAddedToClasspath_foundByName() throws IOException {
    // src/test/resources/io/fluxdrm/schemas/test-extra.schema.json is not in any list: it is
    // found by its name, as a schema contributed by another module would be
    assertThat(Schemas.names()).contains("test-extra");
    assertThat(Schemas.validate("test-extra", JSON.readTree("{\"a\": 1}"))).isEmpty();
    assertThat(Schemas.validate("test-extra", JSON.readTree("{}")))
        .extracting(Violation::toString)
        .containsExactly("/a: missing (expected: present)");
  }

  static Stream<String> shippedNames() {
    return Schemas.names().stream().filter(n -> !n.equals("test-extra"));
  }

  @ParameterizedTest
  @MethodSource("shippedNames")
  void names_everySchemaFile_idMatchesNameAndCompiles(String name) throws IOException {
    try (var in =
        Schemas.class.getResourceAsStream("/io/fluxdrm/schemas/" + name + ".schema.json")) {
      JsonNode schema = JSON.readTree(in);
      assertThat(schema.get("$id").asText()).isEqualTo(Schemas.ID_PREFIX + name + ".schema.json");
      assertThat(schema.get("$schema").asText())
          .isEqualTo("https://json-schema.org/draft/2020-12/schema");
    }
    assertThat(Schemas.exists(name)).isTrue();
    assertThat(Schemas.validate(name, JSON.getNodeFactory().booleanNode(true))).isNotNull();
  }

  @Test
  void validate_nullReference_treatedAsJsonNull() {
    assertThat(Schemas.validate("sched.cancel-request", null))
        .extracting(Violation::toString)
        .containsExactly("/: null (expected: an object)");
  }

  @ParameterizedTest
  @ValueSource(strings = {"no-such-schema", "../rv1", "", "a/b"})
  void validate_unknownName_throwsSchemaException(String name) {
    assertThatThrownBy(() -> Schemas.validate(name, JSON.createObjectNode()))
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining("not found");
  }

  @Test
  void validate_manyProblems_allReportedSortedByLocation() throws IOException {
    JsonNode node = JSON.readTree("{\"id\": \"x\", \"priority\": -1, \"jobspec\": 3}");
    List<String> actual =
        Schemas.validate("sched.alloc-request", node).stream().map(Violation::toString).toList();
    assertThat(actual)
        .containsExactly(
            "/id: a string (expected: an integer)",
            "/jobspec: 3 (expected: an object)",
            "/priority: -1 (expected: >= 0)",
            "/userid: missing (expected: present)");
  }

  @Test
  void violation_sortsArrayIndexesNumerically() {
    Violation a = new Violation("/tasks/10", "r", "m");
    Violation b = new Violation("/tasks/9", "r", "m");
    Violation c = new Violation("", "r", "m");
    assertThat(Stream.of(a, b, c).sorted().toList()).containsExactly(c, b, a);
    assertThat(c.toString()).isEqualTo("/: m");
  }
}
