package io.fluxdrm.sched.service;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.protocol.ReallocAnswer;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.JobId;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.rset.RsetException;
import io.fluxdrm.sched.Decision;
import io.fluxdrm.schemas.Schemas;
import io.fluxdrm.schemas.Violation;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Payload checks and conversions of the RFC 27 / RFC 51 messages: every request is checked against
 * its schema in the {@code schemas} module first; what fails is EPROTO with the first violation.
 */
final class Payloads {
  private Payloads() {}

  /**
   * Checks {@code payload} against schema {@code schema}.
   *
   * @throws RpcException EPROTO {@code <topic>: <pointer>: <message>} at the first violation
   */
  static void check(String topic, String schema, JsonNode payload) {
    List<Violation> v = Schemas.validate(schema, payload);
    if (!v.isEmpty()) {
      Violation first = v.get(0);
      String where = first.pointer().isEmpty() ? "/" : first.pointer();
      throw new RpcException(Errno.EPROTO, topic + ": " + where + ": " + first.message());
    }
  }

  /** An unsigned 64-bit integer (job id, alloc id) already checked by a schema. */
  static long u64(JsonNode n) {
    return n.bigIntegerValue().longValue();
  }

  /** An R already checked by a schema, read into a value. */
  static ResourceSet r(String topic, String key, JsonNode n) {
    try {
      return ResourceSet.fromJson(n);
    } catch (RsetException e) {
      throw new RpcException(Errno.EPROTO, topic + ": /" + key + ": " + e.getMessage());
    }
  }

  /** An RFC 22 idset text. */
  static IdSet idset(String topic, String key, JsonNode n) {
    try {
      return IdSet.parse(n.asText());
    } catch (RsetException e) {
      throw new RpcException(Errno.EPROTO, topic + ": /" + key + ": " + e.getMessage());
    }
  }

  /** The {@code sched.alloc} SUCCESS response, with the resource_summary annotation. */
  /** An RFC 20 properties object ({@code {"name": "idset", ...}}); empty when absent. */
  static Map<String, IdSet> properties(String topic, String key, JsonNode n) {
    if (n == null) {
      return Map.of();
    }
    if (!n.isObject()) {
      throw new RpcException(
          Errno.EPROTO,
          topic
              + ": /"
              + key
              + ": "
              + n.getNodeType().toString().toLowerCase(java.util.Locale.ROOT)
              + " (expected: an object of idsets)");
    }
    Map<String, IdSet> out = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : n.properties()) {
      out.put(e.getKey(), idset(topic, key + "/" + e.getKey(), e.getValue()));
    }
    return out;
  }

  static ObjectNode allocSuccess(Decision.AllocSuccess d) {
    ObjectNode o = Json.object();
    putU64(o, "id", d.jobId());
    o.put("type", d.type().code());
    o.set("R", d.r().toJson());
    ObjectNode sched = o.putObject("annotations").putObject("sched");
    sched.put("resource_summary", d.resourceSummary());
    if (d.clearsPending()) {
      sched.putNull("reason_pending");
      sched.putNull("jobs_ahead");
    }
    return o;
  }

  /**
   * {@link #allocSuccess} serialized as a payload (with its NUL), written from its parts around
   * {@code r}, the compact JSON text of {@code d}'s R: the bytes the tree serializes to, without
   * building it (issue 32).
   */
  static byte[] allocSuccessEncoded(Decision.AllocSuccess d, byte[] r) {
    StringBuilder head = new StringBuilder(48);
    head.append("{\"id\":").append(Long.toUnsignedString(d.jobId()));
    head.append(",\"type\":").append(d.type().code()).append(",\"R\":");
    byte[] h = head.toString().getBytes(StandardCharsets.US_ASCII);
    byte[] summary = JsonStringEncoder.getInstance().quoteAsUTF8(d.resourceSummary());
    byte[] tail = d.clearsPending() ? SUCCESS_TAIL_CLEARING : SUCCESS_TAIL;
    return Json.concat(h, r, SUCCESS_MID, summary, tail);
  }

  private static final byte[] SUCCESS_MID =
      ",\"annotations\":{\"sched\":{\"resource_summary\":\"".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] SUCCESS_TAIL = "\"}}}\0".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] SUCCESS_TAIL_CLEARING =
      "\",\"reason_pending\":null,\"jobs_ahead\":null}}}\0".getBytes(StandardCharsets.US_ASCII);

  /** The {@code sched.alloc} ANNOTATE response of a job left pending. */
  static ObjectNode allocAnnotate(Decision.AllocAnnotate d) {
    ObjectNode o = Json.object();
    putU64(o, "id", d.jobId());
    o.put("type", d.type().code());
    ObjectNode sched = o.putObject("annotations").putObject("sched");
    sched.put("reason_pending", d.reasonPending());
    sched.put("jobs_ahead", d.jobsAhead());
    return o;
  }

  static ObjectNode allocDeny(Decision.AllocDeny d) {
    ObjectNode o = Json.object();
    putU64(o, "id", d.jobId());
    o.put("type", d.type().code());
    o.put("note", d.note());
    return o;
  }

  static ObjectNode allocCancel(Decision.AllocCancel d) {
    ObjectNode o = Json.object();
    putU64(o, "id", d.jobId());
    o.put("type", d.type().code());
    return o;
  }

  /** The {@code sched.realloc} response (RFC 51 §Realloc), as its payload record writes it. */
  static ObjectNode realloc(Decision.ReallocResponse d) {
    ResourceSet none = ResourceSet.empty();
    return new ReallocAnswer(
            d.allocId(),
            d.type(),
            d.rDeltaAdd() == null ? none : d.rDeltaAdd(),
            d.rDeltaSub() == null ? none : d.rDeltaSub(),
            d.note())
        .toJson();
  }

  /** {@code sched.resource-status}: all, allocated and down R. */
  static ObjectNode status(ResourceSet all, ResourceSet allocated, ResourceSet down) {
    ObjectNode o = Json.object();
    o.set("all", all.toJson());
    o.set("allocated", allocated.toJson());
    o.set("down", down.toJson());
    return o;
  }

  /** Puts an unsigned 64-bit value as a JSON integer (D11, {@link JobId#json}). */
  static void putU64(ObjectNode o, String key, long v) {
    o.set(key, JobId.json(v));
  }
}
