package io.fluxdrm.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * RFC 51 (§Realloc Cancel, D003) {@code sched.realloc_cancel {"matchtag": N}}, job-manager to
 * scheduler, NORESPONSE: the RFC 6 matchtag of the pending {@code sched.realloc} to cancel. Checked
 * against the {@code sched.realloc_cancel-request} schema.
 *
 * @param matchtag the matchtag, an unsigned 32-bit value
 */
public record SchedReallocCancel(long matchtag) {
  private static final long U32_MAX = 0xffff_ffffL;

  /** The record; the matchtag must fit in 32 unsigned bits (RFC 6). */
  public SchedReallocCancel {
    if (matchtag < 0 || matchtag > U32_MAX) {
      throw new ProtocolException("/matchtag: " + matchtag + " (expected: 0 to " + U32_MAX + ")");
    }
  }

  /** The payload, as {@link FluxPayloads#reallocCancel} writes it. */
  public ObjectNode toJson() {
    return JsonNodeFactory.instance.objectNode().put("matchtag", matchtag);
  }

  /**
   * Reads a {@code sched.realloc_cancel} payload.
   *
   * @param p the payload
   * @return the record
   * @throws ProtocolException with the JSON Pointer of the bad member
   */
  public static SchedReallocCancel fromJson(JsonNode p) {
    SchedFree.Payloads.requireObject(p);
    JsonNode m = SchedFree.Payloads.required(p, "matchtag");
    // RFC 6: a matchtag is an unsigned 32-bit integer.
    if (!m.isIntegralNumber() || !m.canConvertToLong()) {
      throw new ProtocolException("/matchtag: " + m + " (expected: an integer)");
    }
    return new SchedReallocCancel(m.asLong());
  }
}
