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
 * Runs every vector of {@code flux/derived/hostlist-vectors.json} from the outside conformance
 * corpus named by the system property {@code fluxdrm.conformance}; skipped when the property is
 * unset.
 */
class HostlistConformanceTest {

  private static JsonNode vectors() throws IOException {
    String root = System.getProperty("fluxdrm.conformance", "");
    assumeTrue(!root.isBlank(), "fluxdrm.conformance is not set");
    Path dir = Path.of(root);
    assumeTrue(Files.isDirectory(dir), "fluxdrm.conformance is not a directory: " + root);
    Path file = dir.resolve("flux/derived/hostlist-vectors.json");
    assertThat(file).as("hostlist vectors in the corpus").isRegularFile();
    return new ObjectMapper().readTree(file.toFile());
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  @TestFactory
  Stream<DynamicTest> rfc29_everyVector_expandsAsTheRfc() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode v : vectors().get("rfc29")) {
      String in = v.get("in").asText();
      List<String> expand = strings(v.get("expand"));
      tests.add(
          DynamicTest.dynamicTest(
              "expand \"" + in + "\" gives " + expand,
              () -> {
                Hostlist h = Hostlist.parse(in);
                assertThat(h.expand()).isEqualTo(expand);
                assertThat(h.count()).isEqualTo(expand.size());
                assertThat(Hostlist.parse(h.toString()).expand()).isEqualTo(expand);
              }));
    }
    return tests.stream();
  }

  @TestFactory
  Stream<DynamicTest> codec_everyVector_encodesAsFluxCore() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode v : vectors().get("codec")) {
      String in = v.get("in").asText();
      String encode = v.get("encode").asText();
      long count = v.get("count").longValue();
      tests.add(
          DynamicTest.dynamicTest(
              "encode \"" + in + "\" gives \"" + encode + "\" (" + count + " hosts)",
              () -> {
                Hostlist h = Hostlist.parse(in);
                assertThat(h.toString()).isEqualTo(encode);
                assertThat(h.count()).isEqualTo(count);
              }));
    }
    return tests.stream();
  }

  @TestFactory
  Stream<DynamicTest> invalid_everyVector_rejected() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode v : vectors().get("invalid")) {
      String in = v.isTextual() ? v.asText() : v.get("in").asText();
      String why = v.has("why") ? " (" + v.get("why").asText() + ")" : "";
      tests.add(
          DynamicTest.dynamicTest(
              "decode \"" + in + "\" is rejected" + why,
              () ->
                  assertThatThrownBy(() -> Hostlist.parse(in))
                      .isInstanceOf(RsetException.class)
                      .hasMessageStartingWith("hostlist \"" + in + "\": ")));
    }
    return tests.stream();
  }

  @TestFactory
  Stream<DynamicTest> sortUniq_everyVector_matchesFluxCore() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode v : vectors().get("sort_uniq")) {
      String in = v.get("in").asText();
      String sorted = v.get("sorted").asText();
      String uniq = v.get("uniq").asText();
      tests.add(
          DynamicTest.dynamicTest(
              "sort \"" + in + "\" gives \"" + sorted + "\"",
              () -> assertThat(Hostlist.parse(in).sort().toString()).isEqualTo(sorted)));
      tests.add(
          DynamicTest.dynamicTest(
              "uniq \"" + in + "\" gives \"" + uniq + "\"",
              () -> assertThat(Hostlist.parse(in).uniq().toString()).isEqualTo(uniq)));
    }
    return tests.stream();
  }

  @TestFactory
  Stream<DynamicTest> find_everyVector_matchesFluxCore() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode v : vectors().get("find")) {
      String list = v.get("list").asText();
      String host = v.get("host").asText();
      long index = v.get("index").longValue();
      tests.add(
          DynamicTest.dynamicTest(
              "find \"" + host + "\" in \"" + list + "\" gives " + index,
              () -> {
                Hostlist h = Hostlist.parse(list);
                assertThat(h.indexOf(host)).isEqualTo(index);
                assertThat(h.contains(host)).isEqualTo(index >= 0);
              }));
    }
    return tests.stream();
  }

  @TestFactory
  Stream<DynamicTest> delete_everyVector_matchesFluxCore() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode v : vectors().get("delete")) {
      String list = v.get("list").asText();
      String delete = v.get("delete").asText();
      long deleted = v.get("deleted").longValue();
      String result = v.get("result").asText();
      tests.add(
          DynamicTest.dynamicTest(
              "delete \"" + delete + "\" from \"" + list + "\" gives \"" + result + "\"",
              () -> {
                Hostlist before = Hostlist.parse(list);
                Hostlist after = before.delete(Hostlist.parse(delete));
                assertThat(after.toString()).isEqualTo(result);
                assertThat(before.count() - after.count()).isEqualTo(deleted);
              }));
    }
    return tests.stream();
  }
}
