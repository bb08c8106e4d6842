package io.fluxdrm.jobspec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.schemas.Schemas;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Our verdicts on flux-core's jobspec corpus ({@code t/jobspec}) and on the RFC examples match
 * flux-core's. Skipped when {@code fluxdrm.conformance} is unset.
 */
class JobspecConformanceTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One file and the verdict flux-core gives it at one level. */
  record Case(Path file, Level level, boolean valid) {
    @Override
    public String toString() {
      return file.getParent().getFileName()
          + "/"
          + file.getFileName()
          + " "
          + level
          + " "
          + (valid ? "accepted" : "rejected");
    }
  }

  static Path corpus() {
    String p = System.getProperty("fluxdrm.conformance", "");
    assumeTrue(
        !p.isBlank() && Files.isDirectory(Path.of(p, "flux")), "fluxdrm.conformance not set");
    return Path.of(p, "flux");
  }

  static List<Path> yaml(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
    }
  }

  static Stream<Case> cases() throws IOException {
    Path js = corpus().resolve("flux-core/jobspec");
    List<Case> out = new ArrayList<>();
    for (Path f : yaml(js.resolve("valid"))) {
      out.add(new Case(f, Level.CANONICAL, true));
    }
    for (Path f : yaml(js.resolve("valid_v1"))) {
      out.add(new Case(f, Level.V1, true));
      out.add(new Case(f, Level.CANONICAL, true));
    }
    for (Path f : yaml(js.resolve("invalid"))) {
      out.add(new Case(f, Level.CANONICAL, false));
      out.add(new Case(f, Level.V1, false));
    }
    for (Path f : yaml(js.resolve("invalid_v1"))) {
      out.add(new Case(f, Level.V1, false));
    }
    for (Path f : yaml(corpus().resolve("rfc/spec_14"))) {
      out.add(new Case(f, Level.CANONICAL, true));
    }
    for (Path f : yaml(corpus().resolve("rfc/spec_25"))) {
      out.add(new Case(f, Level.V1, true));
      out.add(new Case(f, Level.CANONICAL, true));
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check_fluxCoreCorpus_sameVerdict(Case c) throws IOException {
    Report r = JobspecValidator.check(c.file().toString(), Files.readAllBytes(c.file()), c.level());
    assertThat(r.valid()).as(String.join("\n", r.lines())).isEqualTo(c.valid());
    if (!c.valid()) {
      assertThat(r.violations()).allSatisfy(v -> assertThat(v.message()).isNotBlank());
    }
  }

  static Stream<Path> dependencyExamples() throws IOException {
    return yaml(corpus().resolve("rfc/spec_26")).stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dependencyExamples")
  void validate_rfc26DependencyExample_acceptedInJobspec(Path example) throws IOException {
    JsonNode deps = Documents.read(Files.readAllBytes(example));
    ObjectNode doc =
        (ObjectNode)
            JSON.readTree(
                "{\"version\":1,\"resources\":[{\"type\":\"slot\",\"count\":1,\"label\":\"task\","
                    + "\"with\":[{\"type\":\"core\",\"count\":1}]}],\"tasks\":[{\"command\":[\"a\"],"
                    + "\"slot\":\"task\",\"count\":{\"per_slot\":1}}],\"attributes\":{\"system\":"
                    + "{\"duration\":0}}}");
    ((ObjectNode) doc.get("attributes").get("system")).set("dependencies", deps);
    assertThat(JobspecValidator.validate(doc, Level.V1)).isEmpty();
  }

  static Stream<Path> rExamples() {
    return Stream.of(corpus().resolve("rfc/spec_20/example1.json"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rExamples")
  void validate_rfc20Example_validR(Path example) throws IOException {
    assertThat(Schemas.validate("rv1", JSON.readTree(example.toFile()))).isEmpty();
  }
}
