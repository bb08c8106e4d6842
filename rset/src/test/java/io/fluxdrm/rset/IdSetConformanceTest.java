package io.fluxdrm.rset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every vector of {@code flux/derived/idset-vectors.json} from the outside conformance corpus
 * named by the system property {@code fluxdrm.conformance}; skipped when the property is unset.
 */
class IdSetConformanceTest {

  private static JsonNode vectors() throws IOException {
    String root = System.getProperty("fluxdrm.conformance", "");
    assumeTrue(!root.isBlank(), "fluxdrm.conformance is not set");
    Path dir = Path.of(root);
    assumeTrue(Files.isDirectory(dir), "fluxdrm.conformance is not a directory: " + root);
    Path file = dir.resolve("flux/derived/idset-vectors.json");
    assertThat(file).as("idset vectors in the corpus").isRegularFile();
    return new ObjectMapper().readTree(file.toFile());
  }

  private static List<Integer> members(JsonNode array) {
    List<Integer> out = new ArrayList<>();
    array.forEach(n -> out.add(n.intValue()));
    return out;
  }

  @TestFactory
  Stream<DynamicTest> decode_everyVector_matchesFluxCore() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode v : vectors().get("decode")) {
      String in = v.get("in").asText();
      JsonNode out = v.get("out");
      if (out.isNull()) {
        String why = v.has("why") ? " (" + v.get("why").asText() + ")" : "";
        tests.add(
            DynamicTest.dynamicTest(
                "decode \"" + in + "\" is rejected" + why,
                () ->
                    assertThatThrownBy(() -> IdSet.parse(in))
                        .isInstanceOf(RsetException.class)
                        .hasMessageStartingWith("idset \"" + in + "\": ")));
      } else {
        tests.add(
            DynamicTest.dynamicTest(
                "decode \"" + in + "\" gives " + out,
                () -> {
                  IdSet set = IdSet.parse(in);
                  assertThat(set.stream().boxed().toList()).isEqualTo(members(out));
                  assertThat(set.count()).isEqualTo(out.size());
                }));
      }
    }
    return tests.stream();
  }

  @TestFactory
  Stream<DynamicTest> encode_everyVector_matchesFluxCore() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode v : vectors().get("encode")) {
      List<Integer> ids = members(v.get("members"));
      IdSet set = IdSet.of(ids.stream().mapToInt(Integer::intValue).toArray());
      String[][] styles = {
        {"plain", IdSet.Style.PLAIN.name()},
        {"ranged", IdSet.Style.RANGES.name()},
        {"ranged_brackets", IdSet.Style.BRACKETS.name()}
      };
      for (String[] s : styles) {
        String expected = v.get(s[0]).asText();
        IdSet.Style style = IdSet.Style.valueOf(s[1]);
        tests.add(
            DynamicTest.dynamicTest(
                "encode " + ids + " " + s[0] + " gives \"" + expected + "\"",
                () -> {
                  assertThat(set.encode(style)).isEqualTo(expected);
                  assertThat(IdSet.parse(expected)).isEqualTo(set);
                }));
      }
    }
    return tests.stream();
  }

  @TestFactory
  Stream<DynamicTest> limits_maxId_matchesFluxCore() throws IOException {
    long max = vectors().get("limits").get("max_id").longValue();
    return Stream.of(
        DynamicTest.dynamicTest(
            "max_id " + max + " is accepted",
            () -> {
              assertThat(IdSet.MAX_ID).isEqualTo(max);
              assertThat(IdSet.parse(Long.toString(max)).last()).isEqualTo(max);
            }),
        DynamicTest.dynamicTest(
            "max_id + 1 is rejected with reason RANGE",
            () ->
                assertThatThrownBy(() -> IdSet.parse(Long.toString(max + 1)))
                    .isInstanceOf(RsetException.class)
                    .extracting(e -> ((RsetException) e).reason())
                    .isEqualTo(RsetException.Reason.RANGE)));
  }

  @TestFactory
  Stream<DynamicTest> setOps_everyVector_matchesFluxCore() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode v : vectors().get("set_ops")) {
      String a = v.get("a").asText();
      String op = v.get("op").asText();
      String b = v.get("b").asText();
      String result = v.get("result").asText();
      tests.add(
          DynamicTest.dynamicTest(
              a + " " + op + " " + b + " = " + result,
              () -> {
                IdSet x = IdSet.parse(a);
                IdSet y = IdSet.parse(b);
                IdSet got =
                    switch (op) {
                      case "union" -> x.union(y);
                      case "difference" -> x.difference(y);
                      case "intersection" -> x.intersection(y);
                      default -> throw new AssertionError("unknown op in corpus: " + op);
                    };
                assertThat(got).isEqualTo(IdSet.parse(result));
              }));
    }
    return tests.stream();
  }
}
