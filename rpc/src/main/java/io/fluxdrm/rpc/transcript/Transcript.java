package io.fluxdrm.rpc.transcript;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.RpcException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reading transcript files: one JSON object per line; blank lines are skipped.
 *
 * <p>Stable: user tests may rely on it; it changes only with a decision that says so
 * (docs/transcripts.md, "What is stable").
 */
public final class Transcript {
  private Transcript() {}

  /**
   * Reads a transcript file.
   *
   * @throws RpcException EINVAL naming the file, line and field of the first bad line, EIO when the
   *     file cannot be read
   */
  public static List<TranscriptLine> read(Path file) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new RpcException(Errno.EIO, file + ": cannot read (" + e.getMessage() + ")");
    }
    return parse(lines, file.getFileName().toString());
  }

  /** Parses transcript lines; {@code name} locates errors. */
  public static List<TranscriptLine> parse(List<String> lines, String name) {
    List<TranscriptLine> out = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String s = lines.get(i);
      if (s.isBlank()) {
        continue;
      }
      String where = name + ":" + (i + 1);
      JsonNode node;
      try {
        node = Json.mapper().readTree(s);
      } catch (JsonProcessingException e) {
        throw new RpcException(
            Errno.EINVAL,
            where
                + ": invalid JSON at column "
                + e.getLocation().getColumnNr()
                + " (expected: one JSON object per line)");
      }
      out.add(TranscriptLine.fromJson(node, where));
    }
    return out;
  }
}
