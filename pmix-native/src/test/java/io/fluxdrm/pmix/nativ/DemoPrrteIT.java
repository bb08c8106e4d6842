package io.fluxdrm.pmix.nativ;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/fluxdrm demo --prrte --ssh-agent fakessh} as a process (D463), on the cli jar and the
 * pmix-native jar the reactor has just built: it exits 0, and its timeline has every step of the
 * story in order with the answers PRRTE and fluxdrm really gave (the grants, the denial, the
 * release freed only after the daemon left, the clean stop), and no process of it is left.
 */
class DemoPrrteIT {
  private static final Duration LIMIT = Duration.ofSeconds(300);

  private static final List<String> STEPS =
      List.of(
          "sched-up",
          "bridge-up",
          "prte-up",
          "daemons-at-start",
          "tool-connect",
          "grow-node1",
          "grow-node1-ready",
          "daemons-default",
          "daemons-grown",
          "grow-count",
          "grow-count-ready",
          "daemons-count",
          "release-count",
          "release-count-ready",
          "deny",
          "daemons-after-deny",
          "release-node1",
          "release-node1-ready",
          "free-after-daemon-left",
          "daemons-at-end",
          "tool-disconnect",
          "pterm",
          "dvm-job-finished",
          "stop");

  @TempDir Path dir;

  @Test
  void demoPrrte_everyStepAsExpected_exit0() throws Exception {
    Path prrte = Peer.prrtePrefix();
    Path fakessh = Peer.needPrrte(dir).toAbsolutePath();
    Path root = Path.of(System.getProperty("fluxdrm.root", "..")).toAbsolutePath().normalize();
    Peer.need(
        Files.isRegularFile(root.resolve("cli/target/fluxdrm.jar")),
        root.resolve("cli/target/fluxdrm.jar") + " is missing (mvn -Ppmix-native package)");
    boolean nativeJar;
    try (var s = Files.list(root.resolve("pmix-native/target"))) {
      nativeJar =
          s.map(p -> p.getFileName().toString())
              .anyMatch(
                  n ->
                      n.startsWith("fluxdrm-pmix-native-")
                          && n.endsWith(".jar")
                          && !n.endsWith("-tests.jar"));
    }
    Peer.need(
        nativeJar,
        root.resolve("pmix-native/target") + " has no pmix-native jar (mvn -Ppmix-native package)");

    List<String> cmd =
        new ArrayList<>(
            List.of(
                root.resolve("bin/fluxdrm").toString(),
                "demo",
                "--prrte",
                "--prrte-prefix",
                prrte.toString(),
                "--pmix-prefix",
                Peer.pmixPrefix().toString(),
                "--ssh-agent",
                fakessh.toString(),
                "--json"));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    long t0 = System.nanoTime();
    Peer.Ran r = Peer.runFor(pb, LIMIT);
    long ms = (System.nanoTime() - t0) / 1_000_000;
    System.err.println("fluxdrm demo --prrte (" + ms + " ms):\n" + r.out());
    assertThat(r.timedOut()).as("ended within %s s", LIMIT.toSeconds()).isFalse();
    assertThat(r.exit()).as(r.out()).isZero();

    List<com.fasterxml.jackson.databind.JsonNode> steps = new ArrayList<>();
    var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
    for (String line : r.out().lines().toList()) {
      if (line.startsWith("{\"elapsed_ms\"")) {
        steps.add(mapper.readTree(line));
      }
    }
    assertThat(steps.stream().map(s -> s.get("step").asText()).toList())
        .containsExactlyElementsOf(STEPS);
    assertThat(steps)
        .allSatisfy(s -> assertThat(s.get("ok").asBoolean()).as(s.toString()).isTrue());
    String head = Peer.run(List.of("hostname"), dir).strip();
    assertThat(outcome(steps, "grow-node1")).isEqualTo("PMIX_SUCCESS");
    assertThat(outcome(steps, "grow-node1-ready")).isEqualTo("PMIX_DVM_IS_READY");
    assertThat(outcome(steps, "daemons-at-start")).isEqualTo("on " + head);
    assertThat(outcome(steps, "daemons-grown")).isEqualTo("on node1");
    assertThat(outcome(steps, "daemons-count")).isIn("on node2", "on node3");
    assertThat(outcome(steps, "deny")).isEqualTo("PMIX_ERR_OUT_OF_RESOURCE");
    assertThat(outcome(steps, "daemons-after-deny")).isEqualTo("on node1");
    assertThat(outcome(steps, "release-node1")).isEqualTo("PMIX_SUCCESS");
    assertThat(outcome(steps, "free-after-daemon-left"))
        .isEqualTo("sched.free final:false after the daemon left");
    assertThat(outcome(steps, "daemons-at-end")).isEqualTo("on " + head);
    assertThat(outcome(steps, "pterm")).isEqualTo("pterm 0, prte 0");
    assertThat(outcome(steps, "dvm-job-finished")).isEqualTo("the pool free");
    assertThat(outcome(steps, "stop")).isEqualTo("bridge 143, sched 143");
    // the free nodes follow the grants: 3 of 4 with the DVM's job alone, all 4 at the end
    assertThat(steps.get(steps.size() - 1).get("free_nodes").asInt()).isEqualTo(4);
    assertThat(
            steps.stream()
                .filter(s -> s.get("step").asText().equals("grow-count"))
                .findFirst()
                .orElseThrow()
                .get("free_nodes")
                .asInt())
        .isEqualTo(1);

    List<ProcessHandle> left =
        ProcessHandle.allProcesses()
            .filter(
                p ->
                    p.info()
                        .commandLine()
                        .map(c -> c.contains(dir.toString()) || c.contains("fluxdrm-demo-prrte-"))
                        .orElse(false))
            .toList();
    assertThat(left).as("processes of the demo left running").isEmpty();
  }

  private static String outcome(List<com.fasterxml.jackson.databind.JsonNode> steps, String name) {
    return steps.stream()
        .filter(s -> s.get("step").asText().equals(name))
        .findFirst()
        .map(s -> s.get("outcome").asText())
        .orElse("(no step " + name + ")");
  }
}
