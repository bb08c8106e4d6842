package io.fluxdrm.rset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every case of {@code flux/derived/rlist-vectors.json} and reads every R file under {@code
 * flux/flux-core/R} of the outside conformance corpus named by the system property {@code
 * fluxdrm.conformance}; skipped when the property is unset. Divergences are asserted as such (see
 * docs/decisions-rset-r.md).
 */
class RlistConformanceTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private static Path corpus() {
    String root = System.getProperty("fluxdrm.conformance", "");
    assumeTrue(!root.isBlank(), "fluxdrm.conformance is not set");
    Path dir = Path.of(root);
    assumeTrue(Files.isDirectory(dir), "fluxdrm.conformance is not a directory: " + root);
    return dir;
  }

  private static JsonNode vectors() throws IOException {
    Path file = corpus().resolve("flux/derived/rlist-vectors.json");
    assertThat(file).as("rlist vectors in the corpus").isRegularFile();
    return MAPPER.readTree(file.toFile());
  }

  private static ResourceSet r(JsonNode json) {
    return ResourceSet.parse(json.toString());
  }

  private static String label(JsonNode c) {
    String s = c.toString();
    return s.length() > 150 ? s.substring(0, 150) + "..." : s;
  }

  /** Cases of a section that combine {@code a} and {@code b}. */
  private static void pairs(
      List<DynamicTest> out,
      JsonNode v,
      String section,
      BiFunction<ResourceSet, ResourceSet, ResourceSet> op) {
    for (JsonNode c : v.get(section).get("cases")) {
      out.add(
          DynamicTest.dynamicTest(
              section + " " + label(c),
              () -> {
                ResourceSet got = op.apply(r(c.get("a")), r(c.get("b")));
                if (c.has("dumps")) {
                  assertThat(got.summary()).isEqualTo(c.get("dumps").asText());
                }
                if (c.has("total_cores")) {
                  assertThat(got.count("core")).isEqualTo(c.get("total_cores").asLong());
                }
                if (c.has("nnodes")) {
                  assertThat(got.nnodes()).isEqualTo(c.get("nnodes").asInt());
                }
                if (c.has("nodelist")) {
                  assertThat(got.nodelist()).hasToString(c.get("nodelist").asText());
                }
                assertThat(ResourceSet.parse(got.toString())).isEqualTo(got);
              }));
    }
  }

  @TestFactory
  Stream<DynamicTest> operations_everyVector_matchesFluxCore() throws IOException {
    JsonNode v = vectors();
    List<DynamicTest> out = new ArrayList<>();
    pairs(out, v, "append", ResourceSet::append);
    // rlist_add(a, b) appends b - a to a: for these operands that is a ∪ b
    pairs(out, v, "add", ResourceSet::union);
    pairs(out, v, "diff", ResourceSet::diff);
    pairs(out, v, "union", ResourceSet::union);
    pairs(out, v, "intersect", ResourceSet::intersect);

    ResourceSet copyBase = r(v.get("copy_ranks").get("base"));
    for (JsonNode c : v.get("copy_ranks").get("cases")) {
      out.add(
          DynamicTest.dynamicTest(
              "copy_ranks " + label(c),
              () -> {
                ResourceSet got = copyBase.copyRanks(IdSet.parse(c.get("ranks").asText()));
                assertThat(got.nnodes()).isEqualTo(c.get("nnodes").asInt());
                assertThat(got.count("core")).isEqualTo(c.get("cores").asLong());
                assertThat(got.summary()).isEqualTo(c.get("dumps").asText());
              }));
    }
    ResourceSet removeBase = r(v.get("remove_ranks").get("base"));
    for (JsonNode c : v.get("remove_ranks").get("cases")) {
      out.add(
          DynamicTest.dynamicTest(
              "remove_ranks " + label(c),
              () -> {
                ResourceSet got = removeBase.removeRanks(IdSet.parse(c.get("ranks").asText()));
                assertThat(removeBase.nnodes() - got.nnodes()).isEqualTo(c.get("removed").asInt());
                assertThat(got.summary()).isEqualTo(c.get("dumps").asText());
              }));
    }
    for (JsonNode c : v.get("remap").get("cases")) {
      out.add(
          DynamicTest.dynamicTest(
              "remap " + label(c),
              () ->
                  assertThat(r(c.get("in")).remap().summary()).isEqualTo(c.get("dumps").asText())));
    }
    return out.stream();
  }

  private static final Map<String, RsetException.Reason> ERRNO =
      Map.of(
          "ENOSPC", RsetException.Reason.TOO_FEW,
          "EOVERFLOW", RsetException.Reason.TOO_MANY,
          "ENOENT", RsetException.Reason.NOT_FOUND,
          "EINVAL", RsetException.Reason.INVALID,
          "EEXIST", RsetException.Reason.EXISTS);

  @TestFactory
  Stream<DynamicTest> hosts_everyVector_matchesFluxCore() throws IOException {
    JsonNode v = vectors();
    List<DynamicTest> out = new ArrayList<>();
    ResourceSet base = r(v.get("rerank").get("base"));
    for (JsonNode c : v.get("rerank").get("cases")) {
      String hosts = c.get("hosts").asText();
      out.add(
          DynamicTest.dynamicTest(
              "rerank " + label(c),
              () -> {
                if (c.path("ok").asBoolean()) {
                  ResourceSet got = base.rerank(Hostlist.parse(hosts));
                  assertThat(got.nodelist()).hasToString(c.get("nodelist_after").asText());
                  return;
                }
                RsetException.Reason why = ERRNO.get(c.get("errno").asText());
                assertThat(why).as("errno %s is mapped", c.get("errno")).isNotNull();
                // the hostlist is parsed before rerank is called (D53): EINVAL comes from there
                assertThatThrownBy(() -> base.rerank(Hostlist.parse(hosts)))
                    .isInstanceOf(RsetException.class)
                    .satisfies(e -> assertThat(((RsetException) e).reason()).isEqualTo(why))
                    .satisfies(
                        e -> {
                          if (c.has("error")) {
                            assertThat(e).hasMessage(c.get("error").asText());
                          }
                        });
              }));
    }
    for (JsonNode c : v.get("hosts_to_ranks").get("cases")) {
      String hosts = c.get("hosts").asText();
      out.add(
          DynamicTest.dynamicTest(
              "hosts_to_ranks " + label(c),
              () -> {
                ResourceSet rs = r(c.get("R"));
                if (c.has("ranks")) {
                  assertThat(rs.hostsToRanks(Hostlist.parse(hosts)))
                      .hasToString(c.get("ranks").asText());
                } else if (c.get("error").asText().equals("Hostlist cannot be decoded")) {
                  // D53: the hostlist is parsed by Hostlist.parse, whose message names it
                  assertThatThrownBy(() -> rs.hostsToRanks(Hostlist.parse(hosts)))
                      .isInstanceOf(RsetException.class)
                      .hasMessageStartingWith("hostlist \"" + hosts + "\": ");
                } else {
                  assertThatThrownBy(() -> rs.hostsToRanks(Hostlist.parse(hosts)))
                      .isInstanceOf(RsetException.class)
                      .hasMessage(c.get("error").asText());
                }
              }));
    }
    return out.stream();
  }

  @TestFactory
  Stream<DynamicTest> propertiesAndConstraints_everyVector_matchesFluxCore() throws IOException {
    JsonNode v = vectors().get("properties_and_constraints");
    List<DynamicTest> out = new ArrayList<>();
    for (JsonNode c : v.get("cases")) {
      ObjectNode doc = v.get("base_without_props").deepCopy();
      ((ObjectNode) doc.get("execution")).set("properties", c.get("properties"));
      out.add(
          DynamicTest.dynamicTest(
              "properties " + label(c),
              () -> {
                if (c.has("decode_error")) {
                  assertThatThrownBy(() -> r(doc))
                      .isInstanceOf(RsetException.class)
                      .hasMessageStartingWith("R: /execution/properties")
                      .hasMessageContaining(c.get("decode_error").asText());
                  return;
                }
                ResourceSet got = r(doc).copyConstraint(Constraint.parse(c.get("constraint")));
                assertThat(got.summary()).isEqualTo(c.get("dumps").asText());
              }));
    }
    return out.stream();
  }

  @TestFactory
  Stream<DynamicTest> dumps_everyVector_matchesFluxCore() throws IOException {
    List<DynamicTest> out = new ArrayList<>();
    for (JsonNode c : vectors().get("dumps").get("cases")) {
      out.add(
          DynamicTest.dynamicTest(
              "dumps " + label(c),
              () -> {
                StringBuilder lite = new StringBuilder();
                for (JsonNode rc : c.get("ranks_cores")) {
                  lite.append(rc.get(0).asInt()).append(":core=").append(rc.get(1).asText());
                  lite.append(' ');
                }
                assertThat(RText.rl(lite.toString()).summary()).isEqualTo(c.get("dumps").asText());
              }));
    }
    return out.stream();
  }

  /**
   * The corpus words these errors from reading flux-core's code; each maps to the phrase (or the
   * reason) of fluxdrm's message. A new wording in the corpus fails until it is mapped here.
   */
  private static final Map<String, String> DECODE_PHRASES =
      Map.of(
          "invalid version=2", "R: /version: invalid version=2",
          "execution object missing", "R: /execution: is missing",
          "R_lite missing", "R: /execution/R_lite: is missing",
          "overlapping ids on the same rank (EEXIST)", "R: /execution/R_lite/1: rank 0 has core 1",
          "nodelist host count (1) differs from rank count (2)",
              "R: /execution/nodelist: names 1 host for 2 ranks",
          "property names a rank not in R_lite",
              "R: /execution/properties/x: rank 5 not found in target resource list");

  @TestFactory
  Stream<DynamicTest> fromJsonErrors_everyVector_rejected() throws IOException {
    List<DynamicTest> out = new ArrayList<>();
    for (JsonNode c : vectors().get("from_json_errors_by_code_reading")) {
      String error = c.get("error").asText();
      out.add(
          DynamicTest.dynamicTest(
              "from_json error: " + error,
              () -> {
                String phrase = DECODE_PHRASES.get(error);
                assertThat(phrase).as("fluxdrm phrase for \"%s\"", error).isNotNull();
                assertThatThrownBy(() -> r(c.get("R")))
                    .isInstanceOf(RsetException.class)
                    .hasMessageStartingWith(phrase)
                    .satisfies(
                        e -> {
                          if (error.contains("EEXIST")) {
                            assertThat(((RsetException) e).reason())
                                .isEqualTo(RsetException.Reason.EXISTS);
                          }
                        });
              }));
    }
    return out.stream();
  }

  // ---- R files written by flux-core ---------------------------------------------------------

  /** Ranks, cores and hosts counted from the raw JSON, independently of ResourceSet. */
  private static void checkRFile(JsonNode raw) throws IOException {
    ResourceSet r = ResourceSet.parse(raw.toString());
    IdSet ranks = IdSet.empty();
    long cores = 0;
    long gpus = 0;
    for (JsonNode e : raw.get("execution").get("R_lite")) {
      IdSet rk = IdSet.parse(e.get("rank").asText());
      ranks = ranks.union(rk);
      JsonNode ch = e.get("children");
      cores += rk.count() * (ch.has("core") ? IdSet.parse(ch.get("core").asText()).count() : 0);
      gpus += rk.count() * (ch.has("gpu") ? IdSet.parse(ch.get("gpu").asText()).count() : 0);
    }
    assertThat(r.ranks()).isEqualTo(ranks);
    assertThat(r.nnodes()).isEqualTo(ranks.count());
    assertThat(r.count("core")).isEqualTo(cores);
    assertThat(r.count("gpu")).isEqualTo(gpus);
    JsonNode nodelist = raw.get("execution").get("nodelist");
    if (nodelist != null) {
      Hostlist all = Hostlist.empty();
      for (JsonNode h : nodelist) {
        all = all.append(Hostlist.parse(h.asText()));
      }
      assertThat(r.nodelist().expand()).isEqualTo(all.expand());
    } else {
      assertThat(r.hasNodelist()).isEqualTo(r.isEmpty());
    }
    JsonNode props = raw.get("execution").get("properties");
    if (props != null) {
      props
          .properties()
          .forEach(
              p -> assertThat(r.properties().get(p.getKey())).hasToString(p.getValue().asText()));
    }
    ResourceSet again = ResourceSet.parse(r.toString());
    assertThat(again).isEqualTo(r);
    assertThat(again.toString()).isEqualTo(r.toString());
    assertThat(again.summary()).isEqualTo(r.summary());
  }

  @TestFactory
  Stream<DynamicTest> rFiles_everyFile_parsesAndRoundTrips() throws IOException {
    Path dir = corpus().resolve("flux/flux-core/R");
    assertThat(dir).as("flux-core R files in the corpus").isDirectory();
    List<Path> files;
    try (Stream<Path> walk = Files.walk(dir)) {
      files = walk.filter(Files::isRegularFile).sorted().toList();
    }
    List<DynamicTest> out = new ArrayList<>();
    for (Path f : files) {
      String name = dir.relativize(f).toString();
      String fileName = f.getFileName().toString();
      if (fileName.endsWith(".R") || name.startsWith("shell-input")) {
        out.add(DynamicTest.dynamicTest(name, () -> checkRFile(MAPPER.readTree(f.toFile()))));
      } else if (fileName.endsWith(".json")) {
        JsonNode doc = MAPPER.readTree(f.toFile());
        for (String key : List.of("all", "allocated", "down")) {
          JsonNode rj = doc.get(key);
          out.add(
              DynamicTest.dynamicTest(
                  name + " " + key,
                  () -> {
                    if (rj == null || rj.isNull()) {
                      assertThat(key)
                          .as("only allocated and down may be absent")
                          .isNotEqualTo("all");
                      return;
                    }
                    checkRFile(rj);
                  }));
        }
      }
    }
    assertThat(out).as("R files found").hasSizeGreaterThan(10);
    return out.stream();
  }
}
