package io.fluxdrm.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.JobId;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.rset.RsetException;
import java.util.Objects;

/**
 * RFC 27 "Free": {@code sched.free {"id": JOB, "R": R, "final": FINAL}}, job-manager to scheduler,
 * no response. {@code final} false after a shrink (RFC 51, D7), true at the job's end; absent reads
 * as false (RFC 27: optional). Checked against the {@code sched.free-request} schema.
 *
 * @param id the job id, its 64 bits read as unsigned (D11)
 * @param r the resources freed
 * @param fin whether this is the job's last free
 */
public record SchedFree(long id, ResourceSet r, boolean fin) {
  /** The record; {@code r} must not be null. */
  public SchedFree {
    Objects.requireNonNull(r, "r");
  }

  /** The payload, as {@link FluxPayloads#free} writes it. */
  public ObjectNode toJson() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.set("id", JobId.json(id));
    o.set("R", r.toJson());
    o.put("final", fin);
    return o;
  }

  /**
   * Reads a {@code sched.free} payload.
   *
   * @param p the payload
   * @return the record
   * @throws ProtocolException with the JSON Pointer of the first bad member
   */
  public static SchedFree fromJson(JsonNode p) {
    Payloads.requireObject(p);
    // RFC 27 "Free": id and R are required.
    long id = FluxPayloads.readId(Payloads.required(p, "id"), "/id");
    ResourceSet r = Payloads.resourceSet(Payloads.required(p, "R"), "/R");
    JsonNode f = p.get("final");
    if (f != null && !f.isBoolean()) {
      throw new ProtocolException("/final: " + f + " (expected: a boolean)");
    }
    return new SchedFree(id, r, f != null && f.asBoolean());
  }

  /** Shared reading steps of the payload records, each failing with a located message. */
  static final class Payloads {
    private Payloads() {}

    static void requireObject(JsonNode p) {
      if (p == null || !p.isObject()) {
        throw new ProtocolException("/: " + p + " (expected: an object)");
      }
    }

    static JsonNode required(JsonNode p, String key) {
      JsonNode v = p.get(key);
      if (v == null) {
        throw new ProtocolException("/" + key + ": missing (expected: present)");
      }
      return v;
    }

    static ResourceSet resourceSet(JsonNode v, String where) {
      try {
        return ResourceSet.fromJson(v);
      } catch (RsetException e) {
        throw new ProtocolException(where + ": " + e.getMessage());
      }
    }
  }
}
