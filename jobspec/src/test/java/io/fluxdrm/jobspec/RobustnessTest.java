package io.fluxdrm.jobspec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.schemas.Violation;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Seeded mutation tests: whatever a valid jobspec is turned into, validation and counting answer
 * with located violations or a {@link JobspecException}, never another exception, and every pointer
 * names the offending value or a missing child of an existing one.
 */
class RobustnessTest {
  private static final long SEED = 20261129L;
  private static final int ROUNDS_PER_FILE = 200;
  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  @Test
  void validate_mutatedJobspecs_onlyLocatedViolations() throws IOException, URISyntaxException {
    System.out.println("RobustnessTest seed " + SEED);
    Random rng = new Random(SEED);
    List<Path> files = JobspecFilesTest.valid().toList();
    int invalid = 0;
    for (Path file : files) {
      JsonNode original = Documents.read(Files.readAllBytes(file));
      for (int round = 0; round < ROUNDS_PER_FILE; round++) {
        JsonNode doc = original.deepCopy();
        int mutations = 1 + rng.nextInt(3);
        for (int m = 0; m < mutations; m++) {
          doc = mutate(doc, rng);
        }
        for (Level level : Level.values()) {
          List<Violation> vs = JobspecValidator.validate(doc, level);
          for (Violation v : vs) {
            assertThat(resolvesOrParentResolves(doc, v.pointer()))
                .as("seed %d, %s: %s in %s", SEED, file.getFileName(), v, doc)
                .isTrue();
            assertThat(v.message()).isNotBlank().doesNotEndWith(".");
          }
          invalid += vs.isEmpty() ? 0 : 1;
        }
        try {
          Counts.of(doc);
        } catch (JobspecException e) {
          assertThat(e.violations()).isNotEmpty();
        }
      }
    }
    assertThat(invalid)
        .as("mutations that broke a rule")
        .isGreaterThan(files.size() * ROUNDS_PER_FILE / 2);
  }

  @Test
  void read_randomBytes_documentOrJobspecException() {
    System.out.println("RobustnessTest seed " + SEED);
    Random rng = new Random(SEED);
    byte[] alphabet =
        "{}[]:,-\"' \n\t#&*!|>abc019.eE+".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    for (int i = 0; i < 5000; i++) {
      byte[] b = new byte[rng.nextInt(40)];
      for (int j = 0; j < b.length; j++) {
        b[j] =
            rng.nextInt(10) == 0 ? (byte) rng.nextInt(256) : alphabet[rng.nextInt(alphabet.length)];
      }
      Report r = JobspecValidator.check("fuzz", b, Level.V1);
      assertThat(r.lines()).isNotEmpty();
    }
  }

  private static boolean resolvesOrParentResolves(JsonNode doc, String pointer) {
    if (pointer.isEmpty()) {
      return true;
    }
    JsonPointer p = JsonPointer.compile(pointer);
    return !doc.at(p).isMissingNode() || !doc.at(p.head()).isMissingNode();
  }

  private static JsonNode mutate(JsonNode doc, Random rng) {
    List<JsonNode> containers = new ArrayList<>();
    collect(doc, containers);
    if (containers.isEmpty()) {
      return randomValue(rng);
    }
    JsonNode target = containers.get(rng.nextInt(containers.size()));
    if (target instanceof ObjectNode o && o.size() > 0) {
      List<String> keys = new ArrayList<>();
      o.fieldNames().forEachRemaining(keys::add);
      String key = keys.get(rng.nextInt(keys.size()));
      switch (rng.nextInt(4)) {
        case 0 -> o.remove(key);
        case 1 -> o.set(key, randomValue(rng));
        case 2 -> o.set("extra" + rng.nextInt(3), randomValue(rng));
        default -> o.set(key, o.get(key).deepCopy());
      }
    } else if (target instanceof ArrayNode a && a.size() > 0) {
      int i = rng.nextInt(a.size());
      switch (rng.nextInt(3)) {
        case 0 -> a.remove(i);
        case 1 -> a.set(i, randomValue(rng));
        default -> a.add(a.get(i).deepCopy());
      }
    } else if (rng.nextInt(8) == 0) {
      return randomValue(rng);
    }
    return doc;
  }

  private static void collect(JsonNode n, List<JsonNode> out) {
    if (n.isContainerNode()) {
      out.add(n);
      n.forEach(c -> collect(c, out));
    }
  }

  private static JsonNode randomValue(Random rng) {
    return switch (rng.nextInt(12)) {
      case 0 -> F.nullNode();
      case 1 -> F.booleanNode(rng.nextBoolean());
      case 2 -> F.numberNode(rng.nextInt(7) - 2);
      case 3 -> F.numberNode(rng.nextLong());
      case 4 -> F.numberNode(rng.nextInt(5) + 0.5);
      case 5 -> F.numberNode((double) rng.nextInt(4));
      case 6 ->
          F.textNode(
              List.of("", "node", "slot", "core", "gpu", "2+", "1-4:2:*", "0-3", "x")
                  .get(rng.nextInt(9)));
      case 7 -> F.arrayNode();
      case 8 -> F.objectNode();
      case 9 -> F.arrayNode().add(F.textNode("a")).add(F.numberNode(1));
      case 10 ->
          F.objectNode()
              .put("min", rng.nextInt(4))
              .put("operator", "^")
              .put("operand", rng.nextInt(3));
      default ->
          F.objectNode()
              .set("and", F.arrayNode().add(F.objectNode().set("ranks", F.arrayNode().add("3,1"))));
    };
  }
}
