package io.fluxdrm.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.RsetException;
import java.util.Objects;
import java.util.Set;

/**
 * The job shell's {@code release} (RFC 51 "Background": {@code shell.release}) and {@code
 * task-exit} requests, {@code {"ranks": IDSET}}: the tasks on those ranks have exited (schemas
 * {@code shell.release-request} and {@code shell.task-exit-request}).
 *
 * @param ranks the ranks, an RFC 22 idset
 */
public record ShellRanks(IdSet ranks) {
  /** Every key of the payload. */
  public static final Set<String> KEYS = Set.of("ranks");

  /** The record; {@code ranks} must not be null. */
  public ShellRanks {
    Objects.requireNonNull(ranks, "ranks");
  }

  /** The payload. */
  public ObjectNode toJson() {
    return JsonNodeFactory.instance.objectNode().put("ranks", ranks.toString());
  }

  /**
   * Reads the payload (unknown keys are the service's to refuse, against {@link #KEYS}).
   *
   * @throws ProtocolException at {@code /ranks} when it is missing, not a string or not an idset
   */
  public static ShellRanks fromJson(JsonNode p) {
    SchedFree.Payloads.requireObject(p);
    JsonNode n = p.get("ranks");
    if (n == null || !n.isTextual()) {
      throw new ProtocolException(
          "/ranks: " + (n == null ? "missing" : n) + " (expected: an idset string)");
    }
    try {
      // RFC 22: an idset string
      return new ShellRanks(IdSet.parse(n.asText()));
    } catch (RsetException e) {
      throw new ProtocolException("/ranks: " + e.getMessage());
    }
  }
}
