package io.fluxdrm.jobspec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class JobspecTest {

  static Stream<Path> validFiles() throws IOException, URISyntaxException {
    return Stream.concat(JobspecFilesTest.valid(), JobspecFilesTest.validCanonical());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("validFiles")
  void toJson_validFile_equivalentToInputAndReparses(Path file) throws IOException {
    JsonNode doc = Documents.read(Files.readAllBytes(file));
    Jobspec js = Jobspec.of(doc, Level.CANONICAL);
    JsonNode out = js.toJson();
    assertThat(Jobspec.of(out, Level.CANONICAL)).isEqualTo(js);
    assertThat(JobspecValidator.validate(out, Level.CANONICAL)).isEmpty();
    assertThat(out.get("attributes")).isEqualTo(doc.get("attributes"));
    assertThat(out.get("tasks").size()).isEqualTo(doc.get("tasks").size());
  }

  @Test
  void of_fluxRunJobspec_typedModel() throws IOException, URISyntaxException {
    Path file =
        Path.of(JobspecTest.class.getResource("/jobspecs/valid/flux_run_N2_n4.json").toURI());
    Jobspec js = Jobspec.parse(Files.readAllBytes(file), Level.V1);
    Resource node = js.resources().get(0);
    assertThat(node.type()).isEqualTo("node");
    assertThat(node.count()).isEqualTo(new Count.Fixed(2));
    assertThat(node.isExclusive()).isFalse();
    Resource slot = node.with().get(0);
    assertThat(slot.label()).isEqualTo("task");
    assertThat(slot.with()).extracting(Resource::type).containsExactly("core");
    assertThat(js.tasks().get(0).command()).containsExactly("hostname");
    assertThat(js.tasks().get(0).count()).isEqualTo(new Task.PerSlot(1));
    assertThat(js.attributes().duration()).hasValue(0.0);
    assertThat(js.attributes().cwd()).contains("/home/alice/work");
    assertThat(js.attributes().shellOptions()).isPresent();
    assertThat(js.toJson()).isEqualTo(Documents.read(Files.readAllBytes(file)));
  }

  @Test
  void accessors_mutatingReturnedJson_recordUnchanged() {
    byte[] content =
        ("{\"version\":999,\"resources\":[{\"type\":\"slot\",\"count\":1,\"label\":\"task\","
                + "\"x\":{\"a\":1}}],\"tasks\":[{\"command\":[\"a\"],\"slot\":\"task\","
                + "\"count\":{\"per_slot\":1},\"y\":{\"b\":2}}],\"attributes\":{\"system\":"
                + "{\"env\":{\"A\":\"1\"}},\"user\":{\"u\":1}}}")
            .getBytes(StandardCharsets.UTF_8);
    Jobspec js = Jobspec.parse(content, Level.CANONICAL);
    JsonNode before = js.toJson();
    ((ObjectNode) js.attributes().user()).put("u", 2);
    ((ObjectNode) js.attributes().system().get("env")).put("A", "2");
    ((ObjectNode) js.resources().get(0).other().get("x")).put("a", 2);
    ((ObjectNode) js.tasks().get(0).other().get("y")).put("b", 3);
    ((ObjectNode) js.toJson().get("attributes")).removeAll();
    assertThat(js.toJson()).isEqualTo(before);
  }

  @Test
  void parse_invalidV1_exceptionCarriesEveryViolation() {
    byte[] content =
        "{\"version\": 2, \"resources\": [], \"tasks\": [], \"attributes\": {}}".getBytes();
    assertThatThrownBy(() -> Jobspec.parse(content, Level.V1))
        .isInstanceOfSatisfying(
            JobspecException.class,
            e ->
                assertThat(e.violations())
                    .extracting(v -> v.pointer())
                    .containsExactly("/attributes/system", "/resources", "/tasks", "/version"));
  }

  @Test
  void report_toJson_shapedLikeFluxJobValidator() {
    byte[] ok =
        ("{\"version\":1,\"resources\":[{\"type\":\"slot\",\"count\":1,\"label\":\"task\","
                + "\"with\":[{\"type\":\"core\",\"count\":1}]}],\"tasks\":[{\"command\":[\"a\"],"
                + "\"slot\":\"task\",\"count\":{\"per_slot\":1}}],\"attributes\":{\"system\":{\"duration\":0}}}")
            .getBytes();
    assertThat(JobspecValidator.check("a.json", ok, Level.V1).toJson().toString())
        .isEqualTo("{\"file\":\"a.json\",\"errnum\":0}");
    byte[] bad = "{\"version\":1}".getBytes();
    assertThat(JobspecValidator.check("-", bad, Level.V1).toJson().toString())
        .isEqualTo(
            "{\"file\":\"-\",\"errnum\":22,\"errstr\":\"/attributes: missing (expected: present); "
                + "/resources: missing (expected: present); /tasks: missing (expected: present)\"}");
  }

  /**
   * Count strings: every well-formed range or idset parses to a value that prints back the same.
   */
  @Property(seed = "20261129", tries = 300)
  void parseCountString_generatedRange_roundTrips(@ForAll("ranges") String text) {
    List<io.fluxdrm.schemas.Violation> problems = new java.util.ArrayList<>();
    Count c = Rules.parseCountString(text, "", problems);
    assertThat(problems).isEmpty();
    assertThat(c).isNotNull();
    assertThat(Rules.parseCountString(c.toString(), "", problems)).isEqualTo(reparsed(c));
  }

  private static Count reparsed(Count c) {
    return Rules.parseCountString(c.toString(), "", new java.util.ArrayList<>());
  }

  @Provide
  Arbitrary<String> ranges() {
    Arbitrary<Integer> min = Arbitraries.integers().between(2, 100);
    Arbitrary<Integer> span = Arbitraries.integers().between(1, 1000);
    Arbitrary<Integer> operand = Arbitraries.integers().between(2, 9);
    Arbitrary<String> op = Arbitraries.of("+", "*", "^");
    Arbitrary<String> minOnly = min.map(m -> m + "+");
    Arbitrary<String> full =
        Combinators.combine(min, span, operand, op)
            .as((m, s, o, p) -> m + "-" + (m + s) + ":" + o + ":" + p);
    Arbitrary<String> idset = Combinators.combine(min, span).as((m, s) -> m + "," + (m + s));
    return Arbitraries.oneOf(minOnly, full, idset);
  }
}
