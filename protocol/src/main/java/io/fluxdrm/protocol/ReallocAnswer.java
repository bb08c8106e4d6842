package io.fluxdrm.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.JobId;
import io.fluxdrm.rset.ResourceSet;
import java.util.Objects;

/**
 * The answer to an RFC 51 "Realloc" (RFC 51 §Realloc, the response): {@code {"alloc_id": N, "type":
 * T, "R_delta_add"?, "R_delta_sub"?, "note"?}}, as the scheduler answers {@code sched.realloc}
 * (schema {@code sched.realloc-response}); the job manager and the job shell pass it on with {@code
 * "R"}, the job's R after it ({@link #toJson(ResourceSet)}, schemas {@code
 * job-manager.realloc-response} and {@code shell.realloc-response}).
 *
 * @param allocId the scheduler's {@code alloc_id}, its 64 bits read as unsigned (D11); 0 for none
 * @param type the RFC 51 response type (not the RFC 27 numbers, D1)
 * @param add {@code R_delta_add}, empty when absent
 * @param sub {@code R_delta_sub}, empty when absent
 * @param note the note, or null when absent
 */
public record ReallocAnswer(
    long allocId, ReallocResponseType type, ResourceSet add, ResourceSet sub, String note) {

  /** The record: a SUCCESS carries a delta, any other type none (RFC 51 "Realloc" response). */
  public ReallocAnswer {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(add, "add");
    Objects.requireNonNull(sub, "sub");
    boolean delta = !add.isEmpty() || !sub.isEmpty();
    if (type == ReallocResponseType.SUCCESS && !delta) {
      throw new ProtocolException(
          "/: SUCCESS without R_delta_add or R_delta_sub (expected: one of them)");
    }
    if (type != ReallocResponseType.SUCCESS && delta) {
      throw new ProtocolException(
          "/: " + type + " with R_delta_add or R_delta_sub (expected: deltas on SUCCESS only)");
    }
  }

  /** An answer without deltas: DENY, CANCEL or UNSUPPORTED. */
  public static ReallocAnswer of(long allocId, ReallocResponseType type, String note) {
    return new ReallocAnswer(allocId, type, ResourceSet.empty(), ResourceSet.empty(), note);
  }

  /** The scheduler's form: the deltas when not empty, the note when present. */
  public ObjectNode toJson() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.set("alloc_id", JobId.json(allocId));
    o.put("type", type.code());
    if (!add.isEmpty()) {
      o.set("R_delta_add", add.toJson());
    }
    if (!sub.isEmpty()) {
      o.set("R_delta_sub", sub.toJson());
    }
    if (note != null) {
      o.put("note", note);
    }
    return o;
  }

  /** The job manager's and the shell's form: {@link #toJson()} plus {@code "R": jobR}. */
  public ObjectNode toJson(ResourceSet jobR) {
    ObjectNode o = toJson();
    o.set("R", jobR.toJson());
    return o;
  }

  /**
   * Reads an answer: {@code type}, {@code alloc_id}, {@code note}, then on SUCCESS the deltas (on
   * any other type they are not read); {@code R} and unknown keys are left to the caller.
   *
   * @throws ProtocolException with the JSON Pointer of the first bad member
   */
  public static ReallocAnswer fromJson(JsonNode a) {
    SchedFree.Payloads.requireObject(a);
    JsonNode tn = a.get("type");
    ReallocResponseType type =
        tn != null && tn.isIntegralNumber() && tn.canConvertToInt()
            ? ReallocResponseType.of(tn.asInt()).orElse(null)
            : null;
    if (type == null) {
      // RFC 51 "Realloc" response: SUCCESS 0, DENY 1, CANCEL 2, UNSUPPORTED 3
      throw new ProtocolException("/type: " + tn + " (expected: 0 to 3)");
    }
    long allocId = FluxPayloads.readId(a.get("alloc_id"), "/alloc_id");
    JsonNode nn = a.get("note");
    if (nn != null && !nn.isTextual()) {
      throw new ProtocolException("/note: " + nn + " (expected: a string)");
    }
    String note = nn == null ? null : nn.asText();
    if (type != ReallocResponseType.SUCCESS) {
      return of(allocId, type, note);
    }
    return new ReallocAnswer(allocId, type, delta(a, "R_delta_add"), delta(a, "R_delta_sub"), note);
  }

  private static ResourceSet delta(JsonNode a, String key) {
    JsonNode n = a.get(key);
    return n == null ? ResourceSet.empty() : SchedFree.Payloads.resourceSet(n, "/" + key);
  }
}
