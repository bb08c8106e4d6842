package io.fluxdrm.cli;

import static io.fluxdrm.cli.ReallocClient.LOOKUP_TOPIC;
import static io.fluxdrm.cli.ReallocClient.RPC_TIMEOUT;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.jobspec.Documents;
import io.fluxdrm.jobspec.JobspecException;
import io.fluxdrm.jobspec.JobspecValidator;
import io.fluxdrm.jobspec.Level;
import io.fluxdrm.jobspec.Report;
import io.fluxdrm.protocol.ReallocAnswer;
import io.fluxdrm.rpc.JobId;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.rset.RsetException;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code fluxdrm realloc} sends and prints: job ids, durations and the URI as the user gives
 * them, the jobspecs of {@code spec_add} and {@code spec_sub}, the R to release (the job's R, a
 * grant of its eventlog, a file), the SUCCESS line, and the companion job that runs a command on a
 * grant.
 */
final class ReallocRequests {
  private ReallocRequests() {}

  /** The environment ({@code FLUX_URI}, {@code PATH}); tests replace it. */
  static Function<String, String> env = System::getenv;

  static CliError usage(String message) {
    return CliError.usage(message);
  }

  // ---- arguments ---------------------------------------------------------------------------

  /**
   * A job id in one of RFC 19's forms ({@link JobId#parse}).
   *
   * @throws CliError status 2 for anything else
   */
  static long jobId(String s) {
    try {
      return JobId.parse(s);
    } catch (IllegalArgumentException e) {
      throw usage(
          "JOBID: \""
              + s
              + "\" (expected: a job id such as \u0192A1b2C3d, fA1b2C3d, 1234, 0x4d2 or"
              + " 0000.0000.0000.04d2)");
    }
  }

  private static final Pattern FSD =
      Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)(ms|s|m|h|d)?|inf|infinity");

  /**
   * A Flux Standard Duration (RFC 23): a number with an optional unit {@code ms}, {@code s} (the
   * default), {@code m}, {@code h} or {@code d}; {@code inf} (or {@code infinity}) is no limit.
   *
   * @return the duration, or null for no limit
   * @throws CliError status 2 for anything else, zero included
   */
  static Duration duration(String s) {
    Matcher m = FSD.matcher(s.strip());
    if (m.matches()) {
      if (m.group(1) == null) {
        return null;
      }
      double v = Double.parseDouble(m.group(1));
      String unit = m.group(2) == null ? "s" : m.group(2);
      double seconds =
          switch (unit) {
            case "ms" -> v / 1000;
            case "m" -> v * 60;
            case "h" -> v * 3600;
            case "d" -> v * 86400;
            default -> v;
          };
      long nanos = (long) Math.min(seconds * 1e9, (double) Long.MAX_VALUE);
      if (nanos > 0) {
        return Duration.ofNanos(nanos);
      }
    }
    throw usage(
        "--timeout: \""
            + s
            + "\" (expected: a positive duration such as 30s, 500ms, 5m, 1.5h or 2d, or inf)");
  }

  /** The URI of {@code --uri}, else {@code $FLUX_URI}. */
  static String uri(String option) {
    if (option != null) {
      if (!(io.fluxdrm.rpc.endpoint.Endpoint.parse(option).orElse(null)
          instanceof io.fluxdrm.rpc.endpoint.Endpoint.Socket)) {
        throw usage("--uri: \"" + option + "\" (expected: local://PATH of a Flux instance)");
      }
      return option;
    }
    String e = env.apply("FLUX_URI");
    if (e == null || e.isEmpty()) {
      throw usage(
          "no Flux instance: FLUX_URI is not set and --uri is not given (expected: run inside"
              + " an instance, or --uri local://PATH)");
    }
    if (!(io.fluxdrm.rpc.endpoint.Endpoint.parse(e).orElse(null)
        instanceof io.fluxdrm.rpc.endpoint.Endpoint.Socket)) {
      throw new CliError(
          "FLUX_URI: \"" + e + "\" (expected: local://PATH; other connectors are not served)");
    }
    return e;
  }

  // ---- payloads ----------------------------------------------------------------------------

  /**
   * A jobspec V1 of {@code nodes} nodes, each one slot labelled {@code task} of {@code cores} cores
   * (and {@code gpus} GPUs when positive), one task per slot running {@code true}, {@code
   * attributes.system.duration} 0 (the scheduler wants {@code attributes.system} not empty).
   */
  static ObjectNode nodeSpec(long nodes, long cores, long gpus) {
    ObjectNode js = Json.object().put("version", 1);
    ObjectNode node = js.putArray("resources").addObject().put("type", "node").put("count", nodes);
    ObjectNode slot =
        node.putArray("with").addObject().put("type", "slot").put("count", 1).put("label", "task");
    ArrayNode with = slot.putArray("with");
    with.addObject().put("type", "core").put("count", cores);
    if (gpus > 0) {
      with.addObject().put("type", "gpu").put("count", gpus);
    }
    ObjectNode task = js.putArray("tasks").addObject();
    task.putArray("command").add("true");
    task.put("slot", "task");
    task.putObject("count").put("per_slot", 1);
    js.putObject("attributes").putObject("system").put("duration", 0);
    return js;
  }

  /**
   * The {@code spec_sub} that gives back {@code r}: as many nodes as it has ranks, each a slot of
   * the fewest cores (and GPUs) any of its ranks has.
   *
   * @throws CliError when {@code r} is empty or a rank of it has no core
   */
  static ObjectNode specSub(ResourceSet r) {
    IdSet ranks = r.ranks();
    if (ranks.isEmpty()) {
      throw new CliError("R to release: empty (expected: at least one rank)");
    }
    long cores = Long.MAX_VALUE;
    long gpus = Long.MAX_VALUE;
    for (int rank : ranks) {
      cores = Math.min(cores, r.resources(rank, "core").count());
      gpus = Math.min(gpus, r.resources(rank, "gpu").count());
    }
    if (cores == 0) {
      throw new CliError(
          "R to release: a rank of " + r.summary() + " has no core (expected: cores on each rank)");
    }
    return nodeSpec(ranks.count(), cores, gpus);
  }

  /** The request: {@code {"id": ID, KEY: SPEC[, "R": R]}} (schema job-manager.realloc-request). */
  static ObjectNode request(long job, String key, ObjectNode spec, ResourceSet r) {
    ObjectNode p = Json.object();
    p.set("id", JobId.json(job));
    p.set(key, spec);
    if (r != null) {
      p.set("R", r.toJson());
    }
    return p;
  }

  /**
   * The line of a SUCCESS: {@code alloc_id=N granted=SUMMARY hosts=HOSTLIST} (and/or {@code
   * released=...}); {@code hosts=} is left out when R has no nodelist.
   */
  static String successLine(ReallocAnswer a) {
    StringBuilder b = new StringBuilder("alloc_id=").append(Long.toUnsignedString(a.allocId()));
    if (!a.add().isEmpty()) {
      b.append(" granted=").append(a.add().summary());
      if (a.add().hasNodelist()) {
        b.append(" hosts=").append(a.add().nodelist());
      }
    }
    if (!a.sub().isEmpty()) {
      b.append(" released=").append(a.sub().summary());
      if (a.sub().hasNodelist()) {
        b.append(" hosts=").append(a.sub().nodelist());
      }
    }
    return b.toString();
  }

  /** Reads and validates a jobspec V1 file. */
  static ObjectNode readSpec(Path file) {
    byte[] content;
    try (InputStream in = Files.newInputStream(file)) {
      content = in.readNBytes(Documents.MAX_BYTES + 1);
    } catch (IOException | SecurityException e) {
      throw new CliError(
          "--spec: " + file + ": cannot read: " + Main.firstLine(String.valueOf(e.getMessage())));
    }
    Report report = JobspecValidator.check(file.toString(), content, Level.V1);
    if (!report.valid()) {
      List<String> lines = report.lines();
      throw new CliError(
          "--spec: "
              + lines.get(0)
              + (lines.size() > 1 ? " (and " + (lines.size() - 1) + " more)" : "")
              + " (expected: a jobspec V1, see 'fluxdrm jobspec validate')");
    }
    try {
      return (ObjectNode) Documents.read(content);
    } catch (JobspecException e) {
      throw new CliError("--spec: " + file + ": " + Main.firstLine(e.getMessage()));
    }
  }

  /** The {@code flux} on {@code PATH}. */
  static Path findFlux() {
    String path = env.apply("PATH");
    if (path != null) {
      for (String dir : path.split(":", -1)) {
        if (dir.isEmpty()) {
          continue;
        }
        Path p = Path.of(dir, "flux");
        if (Files.isRegularFile(p) && Files.isExecutable(p)) {
          return p;
        }
      }
    }
    throw new CliError(
        "COMMAND: no 'flux' on PATH (expected: flux-core's flux command, which submits "
            + "COMMAND"
            + " on the granted nodes)");
  }

  /**
   * {@code flux submit -N NODES --setattr=system.realloc.job=JOB
   * --setattr=system.realloc.alloc_id=ID COMMAND...} against {@code uri}: the companion job that
   * the plugin runs on the grant's R.
   *
   * @return the id {@code flux submit} printed
   */
  static String submitCompanion(
      Path flux, String uri, long job, ReallocAnswer a, List<String> command)
      throws InterruptedException {
    List<String> argv = new ArrayList<>();
    argv.add(flux.toString());
    argv.add("submit");
    argv.add("-N");
    argv.add(Integer.toString(a.add().nnodes()));
    argv.add("--setattr=system.realloc.job=" + Long.toUnsignedString(job));
    argv.add("--setattr=system.realloc.alloc_id=" + Long.toUnsignedString(a.allocId()));
    argv.addAll(command);
    String keep =
        " (the grant alloc_id="
            + Long.toUnsignedString(a.allocId())
            + " stays with the job; 'fluxdrm realloc release "
            + JobId.f58(job)
            + " --alloc-id "
            + Long.toUnsignedString(a.allocId())
            + "' gives it back)";
    ProcessBuilder pb = new ProcessBuilder(argv);
    pb.environment().put("FLUX_URI", uri);
    pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    Process p;
    try {
      p = pb.start();
    } catch (IOException e) {
      throw new CliError("companion: " + flux + ": " + Main.firstLine(e.getMessage()) + keep);
    }
    Future<byte[]> stderr = CompletableFuture.supplyAsync(() -> readAll(p.getErrorStream()));
    byte[] stdout = readAll(p.getInputStream());
    long limit = RPC_TIMEOUT.toSeconds() * 2;
    if (!p.waitFor(limit, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new CliError("companion: flux submit did not end in " + limit + " s" + keep);
    }
    int rc = p.exitValue();
    String errText;
    try {
      errText = new String(stderr.get(5, TimeUnit.SECONDS), StandardCharsets.UTF_8).strip();
    } catch (ExecutionException | TimeoutException e) {
      errText = "";
    }
    String id = new String(stdout, StandardCharsets.UTF_8).strip();
    if (rc != 0 || id.isEmpty() || id.contains("\n")) {
      throw new CliError(
          "companion: flux submit exited "
              + rc
              + (errText.isEmpty() ? "" : ": " + Main.firstLine(errText))
              + keep);
    }
    return id;
  }

  private static byte[] readAll(InputStream in) {
    try (in) {
      return in.readAllBytes();
    } catch (IOException e) {
      return new byte[0];
    }
  }

  /** The job's R of a {@code job-info.lookup} answer: a JSON string (flux-core), or an object. */
  static ResourceSet jobR(JsonNode v) {
    try {
      return v.isTextual() ? ResourceSet.parse(v.asText()) : ResourceSet.fromJson(v);
    } catch (RsetException e) {
      throw new CliError(LOOKUP_TOPIC + ": the job's R: " + Main.firstLine(e.getMessage()));
    }
  }

  /**
   * The {@code R_delta_add} of the {@code realloc-grow} event with {@code allocId} in a job's
   * eventlog (JSON lines, as {@code job-info.lookup} answers it).
   *
   * @throws CliError when there is none, or a later {@code realloc-release} gave its ranks back
   */
  static ResourceSet grant(long job, long allocId, JsonNode eventlog) {
    if (!eventlog.isTextual()) {
      throw new CliError(LOOKUP_TOPIC + ": eventlog: " + eventlog + " (expected: a string)");
    }
    ResourceSet found = null;
    String id = Long.toUnsignedString(allocId);
    for (String line : eventlog.asText().split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode e;
      try {
        e = Json.mapper().readTree(line);
      } catch (JsonProcessingException x) {
        throw new CliError(LOOKUP_TOPIC + ": eventlog: a line that is not JSON: " + line);
      }
      String name = e.path("name").asText();
      JsonNode ctx = e.path("context");
      if (found == null
          && name.equals("realloc-grow")
          && ctx.path("alloc_id").asText().equals(id)) {
        JsonNode add = ctx.get("R_delta_add");
        if (add == null) {
          throw new CliError(
              LOOKUP_TOPIC + ": eventlog: realloc-grow alloc_id " + id + ": no R_delta_add");
        }
        try {
          found = ResourceSet.fromJson(add);
        } catch (RsetException x) {
          throw new CliError(
              LOOKUP_TOPIC
                  + ": eventlog: realloc-grow alloc_id "
                  + id
                  + ": "
                  + Main.firstLine(x.getMessage()));
        }
      } else if (found != null && name.equals("realloc-release") && ctx.has("R_delta_sub")) {
        ResourceSet sub;
        try {
          sub = ResourceSet.fromJson(ctx.get("R_delta_sub"));
        } catch (RsetException x) {
          continue;
        }
        if (found.ranks().intersects(sub.ranks())) {
          throw new CliError(
              "--alloc-id: "
                  + id
                  + ": job "
                  + JobId.f58(job)
                  + " released "
                  + sub.summary()
                  + " already (realloc-release alloc_id "
                  + ctx.path("alloc_id").asText()
                  + ")");
        }
      }
    }
    if (found == null) {
      throw new CliError(
          "--alloc-id: job "
              + JobId.f58(job)
              + " has no realloc-grow event with alloc_id "
              + id
              + " (expected: the alloc_id a grow printed)");
    }
    return found;
  }
}
