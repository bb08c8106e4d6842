package io.fluxdrm.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every RFC 27 payload of the live flux-core traces and of {@code rfc27-messages.json}, and every
 * RFC 51 example of {@code rfc51-examples.json} (draft A, the RFC 51 text), validates against our
 * schemas; mutated variants of each do not. Skipped when {@code fluxdrm.conformance} is unset.
 */
class PayloadConformanceTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern HEADER =
      Pattern.compile("^\\S+\\s+(\\S+)\\s+(rx|tx) ([<>]) (\\S+) \\[\\d+\\](?: (\\S+))?$");

  record Payload(String source, String schema, JsonNode value) {
    @Override
    public String toString() {
      return source + " -> " + schema;
    }
  }

  static Path corpus() {
    String p = System.getProperty("fluxdrm.conformance", "");
    return p.isBlank() ? null : Path.of(p, "flux");
  }

  static Stream<Payload> payloads() throws IOException {
    Path root = corpus();
    assumeTrue(root != null && Files.isDirectory(root), "fluxdrm.conformance not set");
    List<Payload> out = new ArrayList<>();
    for (String trace : List.of("rfc27-trace-1.txt", "rfc27-trace-2.txt")) {
      readTrace(root.resolve("live").resolve(trace), trace, out);
    }
    readDerived27(root.resolve("derived/rfc27-messages.json"), out);
    readDerived51(root.resolve("derived/rfc51-examples.json"), out);
    readSeed004(root.getParent().getParent().resolve("seeds"), out);
    return out.stream();
  }

  private static void readTrace(Path file, String name, List<Payload> out) throws IOException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    for (int i = 0; i < lines.size(); i++) {
      Matcher m = HEADER.matcher(lines.get(i).trim());
      if (!m.matches()) {
        continue;
      }
      boolean request = m.group(3).equals(">");
      String status = m.group(5);
      StringBuilder body = new StringBuilder();
      int j = i + 1;
      while (j < lines.size() && !HEADER.matcher(lines.get(j).trim()).matches()) {
        body.append(lines.get(j)).append('\n');
        j++;
      }
      String schema = m.group(4) + (request ? "-request" : "-response");
      boolean errorResponse = !request && status != null && !status.equals("success");
      if (Schemas.exists(schema) && !errorResponse && !body.toString().isBlank()) {
        out.add(new Payload(name + ":" + (i + 1), schema, JSON.readTree(body.toString())));
      }
    }
  }

  private static void readDerived27(Path file, List<Payload> out) throws IOException {
    JsonNode root = JSON.readTree(file.toFile());
    for (JsonNode msg : root.get("messages")) {
      String topic = msg.get("topic").asText();
      String src = "rfc27-messages.json:" + msg.get("name").asText();
      addIfSchema(out, src, topic + "-request", msg.get("request"));
      for (JsonNode r : iter(msg.get("request_examples"))) {
        addIfSchema(out, src, topic + "-request", r);
      }
      addIfSchema(out, src, topic + "-response", msg.get("response"));
      for (JsonNode r : iter(msg.get("responses"))) {
        addIfSchema(out, src, topic + "-response", r);
      }
    }
  }

  private static void readDerived51(Path file, List<Payload> out) throws IOException {
    JsonNode root = JSON.readTree(file.toFile());
    for (JsonNode ex : root.get("draft_A").get("examples")) {
      String topic = ex.get("topic").asText();
      addIfSchema(out, "rfc51-examples.json:draft_A", topic + "-request", ex.get("request"));
      addIfSchema(out, "rfc51-examples.json:draft_A", topic + "-response", ex.get("response"));
    }
  }

  /**
   * The JSON examples printed in the RFC 51 text beside the corpus: objects starting with "{" in
   * column 0.
   */
  private static void readSeed004(Path seeds, List<Payload> out) throws IOException {
    if (!Files.isDirectory(seeds)) {
      return;
    }
    List<Path> files;
    try (Stream<Path> s = Files.list(seeds)) {
      files = s.filter(p -> p.getFileName().toString().startsWith("004_")).toList();
    }
    for (Path seed : files) {
      List<String> lines = Files.readAllLines(seed, StandardCharsets.UTF_8);
      for (int i = 0; i < lines.size(); i++) {
        if (!lines.get(i).equals("{")) {
          continue;
        }
        StringBuilder body = new StringBuilder();
        int j = i;
        while (j < lines.size() && !lines.get(j).equals("}")) {
          body.append(lines.get(j++)).append('\n');
        }
        body.append("}");
        JsonNode example = JSON.readTree(body.toString());
        String schema = example.has("job_id") ? "sched.realloc-request" : "sched.realloc-response";
        out.add(new Payload("RFC 51 text line " + (i + 1), schema, example));
        i = j;
      }
    }
  }

  private static Iterable<JsonNode> iter(JsonNode n) {
    return n == null ? List.of() : n;
  }

  private static void addIfSchema(List<Payload> out, String src, String schema, JsonNode v) {
    if (v != null && v.isObject() && Schemas.exists(schema)) {
      out.add(new Payload(src, schema, v));
    }
  }

  @Test
  void corpus_everyPayloadKindCovered() throws IOException {
    assumeTrue(corpus() != null, "fluxdrm.conformance not set");
    List<String> covered = payloads().map(Payload::schema).distinct().sorted().toList();
    assertThat(covered)
        .contains(
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
            "sched.realloc_cancel-request");
  }

  @Test
  void corpus_seed004Examples_bothFound() throws IOException {
    assumeTrue(corpus() != null, "fluxdrm.conformance not set");
    Path seeds = corpus().getParent().getParent().resolve("seeds");
    assumeTrue(Files.isDirectory(seeds), "no seeds directory beside the conformance corpus");
    assertThat(payloads().map(Payload::source).filter(s -> s.startsWith("RFC 51 text")).count())
        .isEqualTo(2);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("payloads")
  void validate_corpusPayload_valid(Payload p) {
    assertThat(Schemas.validate(p.schema(), p.value())).as(p.toString()).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("payloads")
  void validate_corpusPayloadMutated_rejected(Payload p) throws IOException {
    assertThat(Schemas.validate(p.schema(), JSON.createArrayNode().add(p.value())))
        .as("wrapped in an array")
        .isNotEmpty();
    for (String key : required(p.schema())) {
      ObjectNode copy = p.value().deepCopy();
      copy.remove(key);
      assertThat(Schemas.validate(p.schema(), copy)).as("without " + key).isNotEmpty();
    }
    Iterator<Map.Entry<String, JsonNode>> fields = p.value().properties().iterator();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> f = fields.next();
      if (f.getValue().isNumber() || f.getValue().isContainerNode()) {
        ObjectNode copy = p.value().deepCopy();
        copy.set(f.getKey(), TextNode.valueOf("x"));
        assertThat(Schemas.validate(p.schema(), copy)).as(f.getKey() + " as a string").isNotEmpty();
      }
    }
  }

  private static List<String> required(String schema) throws IOException {
    try (InputStream in =
        Schemas.class.getResourceAsStream("/io/fluxdrm/schemas/" + schema + ".schema.json")) {
      JsonNode req = JSON.readTree(in).path("required");
      List<String> out = new ArrayList<>();
      if (req instanceof ArrayNode a) {
        a.forEach(n -> out.add(n.asText()));
      }
      return out;
    }
  }
}
