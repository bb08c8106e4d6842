package io.fluxdrm.jobmanager;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-job eventlogs of a state directory: {@code <dir>/<jobid>.eventlog}, JSON lines appended
 * (RFC 18), the job id in unsigned decimal; or, for replays, kept in memory only.
 */
final class Eventlog {
  private static final Logger LOG = LoggerFactory.getLogger(Eventlog.class);
  static final String SUFFIX = ".eventlog";

  private final Path dir;
  private final Map<Long, StringBuilder> memory;

  private Eventlog() {
    this.dir = null;
    this.memory = new TreeMap<>(Long::compareUnsigned);
  }

  /** Eventlogs that live in memory only (nothing to recover from). */
  static Eventlog inMemory() {
    return new Eventlog();
  }

  Eventlog(Path dir) {
    this.dir = dir;
    this.memory = null;
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new JobManagerException("state directory " + dir + ": " + e.getMessage());
    }
  }

  Path dir() {
    return dir;
  }

  Path file(long jobId) {
    return dir.resolve(Long.toUnsignedString(jobId) + SUFFIX);
  }

  /** Appends one event; the line is written before this returns (a process crash keeps it). */
  void append(long jobId, JobEvent e) {
    ObjectNode o = Json.object();
    o.put("timestamp", e.timestamp());
    o.put("name", e.name());
    o.set("context", e.context());
    String line;
    try {
      line = Json.mapper().writeValueAsString(o) + "\n";
    } catch (JsonProcessingException ex) {
      throw new IllegalStateException("cannot encode an event", ex);
    }
    if (memory != null) {
      memory.computeIfAbsent(jobId, k -> new StringBuilder()).append(line);
      return;
    }
    try {
      Files.writeString(
          file(jobId),
          line,
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND,
          StandardOpenOption.WRITE);
    } catch (IOException ex) {
      throw new UncheckedIOException("eventlog of job " + Long.toUnsignedString(jobId), ex);
    }
  }

  /** Every job's events, by job id (unsigned order); a torn last line is skipped with a warning. */
  Map<Long, List<JobEvent>> readAll() {
    Map<Long, List<JobEvent>> out = new TreeMap<>(Long::compareUnsigned);
    if (memory != null) {
      return out;
    }
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*" + SUFFIX)) {
      for (Path p : ds) {
        String name = p.getFileName().toString();
        String idText = name.substring(0, name.length() - SUFFIX.length());
        long id;
        try {
          id = Long.parseUnsignedLong(idText);
        } catch (NumberFormatException e) {
          throw new JobManagerException(name + ": not a job id (expected: <unsigned id>.eventlog)");
        }
        out.put(id, read(p));
      }
    } catch (IOException e) {
      throw new JobManagerException("state directory " + dir + ": " + e.getMessage());
    }
    return out;
  }

  static List<JobEvent> read(Path p) throws IOException {
    String name = p.getFileName().toString();
    String text = Files.readString(p, StandardCharsets.UTF_8);
    String[] lines = text.split("\n", -1);
    List<JobEvent> out = new ArrayList<>();
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      boolean last = i == lines.length - 1;
      if (last && line.isEmpty()) {
        break;
      }
      if (last) {
        LOG.warn("{}:{}: torn last line skipped (no newline)", name, i + 1);
        break;
      }
      out.add(parse(line, name + ":" + (i + 1)));
    }
    return out;
  }

  static JobEvent parse(String line, String where) {
    JsonNode n;
    try {
      n = Json.mapper().readTree(line);
    } catch (JsonProcessingException e) {
      throw new JobManagerException(where + ": not JSON (expected: one JSON object per line)");
    }
    if (n == null || !n.isObject()) {
      throw new JobManagerException(where + ": not an object (expected: one JSON object per line)");
    }
    JsonNode ts = n.get("timestamp");
    if (ts == null || !ts.isNumber() || !(ts.asDouble() > 0)) {
      throw new JobManagerException(
          where + ": /timestamp: " + ts + " (expected: a number of seconds > 0)");
    }
    JsonNode name = n.get("name");
    if (name == null || !name.isTextual() || name.asText().isEmpty()) {
      throw new JobManagerException(where + ": /name: " + name + " (expected: an event name)");
    }
    JsonNode ctx = n.get("context");
    if (ctx != null && !ctx.isObject()) {
      throw new JobManagerException(where + ": /context: " + ctx + " (expected: an object)");
    }
    return new JobEvent(
        ts.asDouble(), name.asText(), ctx == null ? Json.object() : (ObjectNode) ctx.deepCopy());
  }
}
