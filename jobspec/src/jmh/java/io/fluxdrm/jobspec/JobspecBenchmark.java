package io.fluxdrm.jobspec;

import com.fasterxml.jackson.databind.JsonNode;
import io.fluxdrm.schemas.Violation;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Throughput of validating and counting the jobspec {@code flux run -N2 -n4 hostname} submits
 * (node[2]>slot[2]>core[1], one task per slot, environment, cwd and shell rlimits). Targets:
 * validate >= 20,000/s, counts >= 200,000/s on one thread.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class JobspecBenchmark {
  static final String FLUX_RUN_N2_N4 =
      """
      {"resources": [{"type": "node", "count": 2, "with": [{"type": "slot", "count": 2,
        "with": [{"type": "core", "count": 1}], "label": "task"}]}],
       "tasks": [{"command": ["hostname"], "slot": "task", "count": {"per_slot": 1}}],
       "attributes": {"system": {"duration": 0,
         "environment": {"HOME": "/home/alice", "PATH": "/usr/local/bin:/usr/bin:/bin",
           "SHELL": "/bin/bash", "USER": "alice", "LANG": "C.UTF-8", "TERM": "xterm-256color",
           "PWD": "/home/alice/work", "LOGNAME": "alice", "HOSTNAME": "login1",
           "FLUX_URI": "local:///run/flux/local"},
         "cwd": "/home/alice/work",
         "shell": {"options": {"rlimit": {"cpu": -1, "fsize": -1, "data": -1, "stack": 8388608,
           "core": 0, "nofile": 20000, "as": -1, "rss": -1, "nproc": 96365}}}}},
       "version": 1}
      """;

  static final String FLUX_RUN_N2_N4_YAML =
      """
      version: 1
      resources:
        - type: node
          count: 2
          with:
            - type: slot
              count: 2
              label: task
              with:
                - type: core
                  count: 1
      tasks:
        - command: [hostname]
          slot: task
          count:
            per_slot: 1
      attributes:
        system:
          duration: 0
          cwd: /home/alice/work
          environment:
            HOME: /home/alice
            PATH: /usr/local/bin:/usr/bin:/bin
            USER: alice
      """;

  byte[] bytes;
  byte[] yaml;
  JsonNode doc;

  /** Parses the document once. */
  @Setup
  public void setup() {
    bytes = FLUX_RUN_N2_N4.getBytes(StandardCharsets.UTF_8);
    yaml = FLUX_RUN_N2_N4_YAML.getBytes(StandardCharsets.UTF_8);
    doc = Documents.read(bytes);
    if (!JobspecValidator.validate(doc, Level.V1).isEmpty()) {
      throw new IllegalStateException("benchmark jobspec is not valid");
    }
  }

  /** Validation of a parsed document at the V1 level (schema + semantic rules). */
  @Benchmark
  public List<Violation> validateV1() {
    return JobspecValidator.validate(doc, Level.V1);
  }

  /**
   * Reading the bytes (JSON) and validating: what {@code fluxdrm jobspec validate} does per file.
   */
  @Benchmark
  public Report readAndValidateV1() {
    return JobspecValidator.check("bench.json", bytes, Level.V1);
  }

  /** The same job written by hand in YAML: read and validate. */
  @Benchmark
  public Report readYamlAndValidateV1() {
    return JobspecValidator.check("bench.yaml", yaml, Level.V1);
  }

  /** Deriving the scheduler's counts from a parsed document. */
  @Benchmark
  public Counts counts() {
    return Counts.of(doc);
  }
}
