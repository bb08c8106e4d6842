package io.fluxdrm.jobspec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The idset and hostlist syntax checks used for constraints and count strings accept and refuse
 * what flux-core's decoders do ({@code derived/idset-vectors.json}, {@code
 * derived/hostlist-vectors.json}); the corpus part is skipped when {@code fluxdrm.conformance} is
 * unset.
 */
class SyntaxConformanceTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  static JsonNode vectors(String name) throws IOException {
    String p = System.getProperty("fluxdrm.conformance", "");
    assumeTrue(
        !p.isBlank() && Files.isDirectory(Path.of(p, "flux")), "fluxdrm.conformance not set");
    return JSON.readTree(Path.of(p, "flux", "derived", name).toFile());
  }

  static Stream<Arguments> idsets() throws IOException {
    List<Arguments> out = new ArrayList<>();
    for (JsonNode c : vectors("idset-vectors.json").get("decode")) {
      out.add(Arguments.of(c.get("in").asText(), !c.get("out").isNull()));
    }
    return out.stream();
  }

  static Stream<Arguments> hostlists() throws IOException {
    JsonNode v = vectors("hostlist-vectors.json");
    List<Arguments> out = new ArrayList<>();
    for (JsonNode c : v.get("rfc29")) {
      out.add(Arguments.of(c.get("in").asText(), true));
    }
    for (JsonNode c : v.get("codec")) {
      out.add(Arguments.of(c.get("in").asText(), true));
      out.add(Arguments.of(c.get("encode").asText(), true));
    }
    for (JsonNode c : v.get("invalid")) {
      out.add(Arguments.of(c.isTextual() ? c.asText() : c.get("in").asText(), false));
    }
    return out.stream();
  }

  @ParameterizedTest(name = "\"{0}\" valid={1}")
  @MethodSource("idsets")
  void idsetProblem_fluxCoreVector_sameVerdict(String text, boolean valid) {
    assertThat(Syntax.idsetProblem(text) == null).as(text).isEqualTo(valid);
  }

  @ParameterizedTest(name = "\"{0}\" valid={1}")
  @MethodSource("hostlists")
  void hostlistProblem_fluxCoreVector_sameVerdict(String text, boolean valid) {
    assertThat(Syntax.hostlistProblem(text) == null).as(text).isEqualTo(valid);
  }

  @ParameterizedTest(name = "\"{0}\" valid={1}")
  @CsvSource({
    "'1,,2', true",
    "'0', true",
    "'2147483647', true",
    "'2147483648', false",
    "'1-2147483648', false",
    "' 1', false",
    "'1-', false"
  })
  void idsetProblem_edgeCases_asFluxCoreDecoder(String text, boolean valid) {
    assertThat(Syntax.idsetProblem(text) == null).as(text).isEqualTo(valid);
  }
}
