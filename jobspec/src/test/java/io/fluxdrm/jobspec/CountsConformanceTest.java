package io.fluxdrm.jobspec;

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
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Counts} gives the figures of flux-core's jobspec count reader, as recorded in {@code
 * derived/jobspec-counts.json}. Skipped when {@code fluxdrm.conformance} is unset.
 */
class CountsConformanceTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  record Entry(String name, JsonNode doc, JsonNode expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Path corpus() {
    String p = System.getProperty("fluxdrm.conformance", "");
    assumeTrue(
        !p.isBlank() && Files.isDirectory(Path.of(p, "flux")), "fluxdrm.conformance not set");
    return Path.of(p, "flux");
  }

  static JsonNode table() throws IOException {
    return JSON.readTree(corpus().resolve("derived/jobspec-counts.json").toFile());
  }

  static Stream<Entry> fileOk() throws IOException {
    List<Entry> out = new ArrayList<>();
    for (JsonNode e : table().get("ok")) {
      String f = e.get("file").asText();
      out.add(new Entry(f, Documents.read(Files.readAllBytes(corpus().resolve(f))), e));
    }
    return out.stream();
  }

  static Stream<Entry> fileErrors() throws IOException {
    List<Entry> out = new ArrayList<>();
    for (JsonNode e : table().get("error")) {
      String f = e.get("file").asText();
      out.add(new Entry(f, Documents.read(Files.readAllBytes(corpus().resolve(f))), e));
    }
    return out.stream();
  }

  static Stream<Entry> cliCases() throws IOException {
    List<Entry> out = new ArrayList<>();
    for (JsonNode e : table().get("cli_equivalents").get("cases")) {
      String args = e.get("args").asText();
      out.add(new Entry("flux run " + args, fluxRun(args.equals("(none)") ? "" : args), e));
    }
    return out.stream();
  }

  static Stream<Entry> cliErrors() throws IOException {
    List<Entry> out = new ArrayList<>();
    for (JsonNode e : table().get("cli_equivalents").get("error_cases")) {
      String mutation = e.get("mutation").asText();
      out.add(new Entry(mutation, mutate(mutation), e));
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource({"fileOk", "cliCases"})
  void of_fluxCoreCase_sameCounts(Entry e) {
    Counts c = Counts.of(e.doc());
    JsonNode x = e.expected();
    assertThat(c.nodefactor()).isEqualTo(x.get("nodefactor").asLong());
    assertThat(c.nnodes().toString()).isEqualTo(x.get("nnodes").asText());
    assertThat(c.nslots().toString()).isEqualTo(x.get("nslots").asText());
    assertThat(c.slotSize().toString()).isEqualTo(x.get("slot_size").asText());
    assertThat(c.slotGpus()).isEqualTo(x.get("slot_gpus").asLong());
    if (x.has("exclusive")) {
      assertThat(c.exclusive()).isEqualTo(x.get("exclusive").asBoolean());
    }
    if (x.has("duration")) {
      assertThat(c.duration()).isEqualTo(x.get("duration").asDouble());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource({"fileErrors", "cliErrors"})
  void of_fluxCoreErrorCase_sameError(Entry e) {
    String want = e.expected().get("error_contains").asText().toLowerCase(Locale.ROOT);
    assertThatThrownBy(() -> Counts.of(e.doc()))
        .isInstanceOfSatisfying(
            JobspecException.class,
            ex -> assertThat(ex.getMessage().toLowerCase(Locale.ROOT)).contains(want));
  }

  /** The jobspec {@code flux run ARGS hostname} submits (flux-core's from_command rules). */
  static ObjectNode fluxRun(String args) throws IOException {
    int ntasks = 1;
    int cores = 1;
    int gpus = 0;
    Integer nodes = null;
    double duration = 0;
    String[] a = args.isBlank() ? new String[0] : args.trim().split("\\s+");
    for (int i = 0; i < a.length; i++) {
      String opt = a[i];
      String val = opt.length() > 2 ? opt.substring(2) : a[++i];
      switch (opt.substring(0, 2)) {
        case "-N" -> nodes = Integer.parseInt(val);
        case "-n" -> ntasks = Integer.parseInt(val);
        case "-c" -> cores = Integer.parseInt(val);
        case "-g" -> gpus = Integer.parseInt(val);
        case "-t" ->
            duration =
                val.endsWith("m")
                    ? 60 * Double.parseDouble(val.replace("m", ""))
                    : Double.parseDouble(val);
        default -> throw new IllegalArgumentException(opt);
      }
    }
    String leaves =
        "[{\"type\":\"core\",\"count\":"
            + cores
            + "}"
            + (gpus > 0 ? ",{\"type\":\"gpu\",\"count\":" + gpus + "}" : "")
            + "]";
    String count = "{\"per_slot\":1}";
    String resources;
    if (nodes != null) {
      int slots = (ntasks + nodes - 1) / nodes;
      if (ntasks % nodes != 0) {
        count = "{\"total\":" + ntasks + "}";
      }
      resources =
          "[{\"type\":\"node\",\"count\":"
              + nodes
              + ",\"with\":[{\"type\":\"slot\",\"count\":"
              + slots
              + ",\"label\":\"task\",\"with\":"
              + leaves
              + "}]}]";
    } else {
      resources =
          "[{\"type\":\"slot\",\"count\":"
              + ntasks
              + ",\"label\":\"task\",\"with\":"
              + leaves
              + "}]";
    }
    return (ObjectNode)
        JSON.readTree(
            "{\"version\":1,\"resources\":"
                + resources
                + ",\"tasks\":[{\"command\":[\"hostname\"],"
                + "\"slot\":\"task\",\"count\":"
                + count
                + "}],\"attributes\":{\"system\":{\"duration\":"
                + duration
                + "}}}");
  }

  private static JsonNode mutate(String mutation) throws IOException {
    ObjectNode doc = fluxRun("-N1 -n1");
    ObjectNode slot = (ObjectNode) doc.get("resources").get(0).get("with").get(0);
    ObjectNode core = (ObjectNode) slot.get("with").get(0);
    if (mutation.contains("delete top-level version")) {
      doc.remove("version");
    } else if (mutation.contains("core count = -1")) {
      core.put("count", -1);
    } else if (mutation.contains("core count = 1.5")) {
      core.put("count", 1.5);
    } else if (mutation.contains("resources is an object")) {
      doc.set("resources", doc.get("resources").get(0));
    } else if (mutation.contains("renamed to an unknown type")) {
      ObjectNode plain = fluxRun("");
      ((ObjectNode) plain.get("resources").get(0)).put("type", "beans");
      return plain;
    } else {
      throw new IllegalArgumentException("unknown mutation: " + mutation);
    }
    return doc;
  }
}
