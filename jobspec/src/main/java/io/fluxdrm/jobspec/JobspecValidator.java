package io.fluxdrm.jobspec;

import com.fasterxml.jackson.databind.JsonNode;
import io.fluxdrm.schemas.SchemaException;
import io.fluxdrm.schemas.Schemas;
import io.fluxdrm.schemas.Violation;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Validates jobspecs: first against the level's JSON Schema (module {@code schemas}), then with the
 * rules a schema cannot express. Every violation is reported, sorted by location. Never throws for
 * bad input: unreadable documents become a report with the reading error.
 *
 * <p>A command line calls {@link #check(String, byte[], Level)} per file and prints {@link
 * Report#lines()} or {@link Report#toJson()}.
 */
public final class JobspecValidator {
  private JobspecValidator() {}

  /**
   * Validates a parsed document.
   *
   * @param doc the document
   * @param level {@link Level#V1} (what schedulers accept) or {@link Level#CANONICAL}
   * @return every violation, sorted by location; empty when valid
   */
  public static List<Violation> validate(JsonNode doc, Level level) {
    List<Violation> out = new ArrayList<>(Schemas.validate(level.schema(), doc));
    Rules.check(doc, out);
    if (out.isEmpty()) {
      return List.of();
    }
    // a task count with several keys gets the semantic message, not the schema's maxProperties
    List<String> multiKey =
        out.stream().filter(v -> v.rule().equals("task-count")).map(Violation::pointer).toList();
    return out.stream()
        .filter(v -> !(v.rule().equals("maxProperties") && multiKey.contains(v.pointer())))
        .distinct()
        .sorted()
        .toList();
  }

  /**
   * Reads and validates one document.
   *
   * @param source the name to show ({@code -} for standard input)
   * @param content the document's bytes
   * @param level the level
   * @return the report
   */
  public static Report check(String source, byte[] content, Level level) {
    try {
      return new Report(source, validate(Documents.read(content), level));
    } catch (JobspecException e) {
      return new Report(source, e.violations());
    }
  }

  /**
   * Reads (at most {@link Documents#MAX_BYTES} plus one) and validates one document.
   *
   * @param source the name to show ({@code -} for standard input)
   * @param in the stream; not closed
   * @param level the level
   * @return the report
   * @throws IOException if the stream cannot be read
   */
  public static Report check(String source, InputStream in, Level level) throws IOException {
    return check(source, in.readNBytes(Documents.MAX_BYTES + 1), level);
  }

  /**
   * Reads (at most {@link Documents#MAX_BYTES} plus one) and validates one file. A file that cannot
   * be read gives a report with one violation, {@code cannot read: REASON}.
   *
   * @param file the file; its name as given is the report's source
   * @param level the level
   * @return the report
   */
  public static Report check(Path file, Level level) {
    String source = file.toString();
    try (InputStream in = Files.newInputStream(file)) {
      return check(source, in, level);
    } catch (IOException | SecurityException e) {
      return new Report(source, List.of(unreadable(e)));
    }
  }

  /**
   * Reads one document and validates it against a named schema of the {@code schemas} module (for
   * RPC payloads, R, ...); reading errors become violations as for jobspecs.
   *
   * @param schema the schema name, e.g. {@code sched.alloc-request}
   * @param source the name to show
   * @param content the document's bytes
   * @return the report
   * @throws SchemaException if no schema has that name
   */
  public static Report checkSchema(String schema, String source, byte[] content) {
    if (!Schemas.exists(schema)) {
      throw new SchemaException(
          "schema \"" + schema + "\": not found (expected: one of " + Schemas.names() + ")");
    }
    try {
      return new Report(source, Schemas.validate(schema, Documents.read(content)));
    } catch (JobspecException e) {
      return new Report(source, e.violations());
    }
  }

  private static Violation unreadable(Exception e) {
    String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    if (e instanceof java.nio.file.NoSuchFileException) {
      reason = "no such file";
    } else if (e instanceof java.nio.file.AccessDeniedException) {
      reason = "permission denied";
    }
    return new Violation("", "io", "cannot read: " + reason);
  }
}
