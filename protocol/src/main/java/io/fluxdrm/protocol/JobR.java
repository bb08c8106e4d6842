package io.fluxdrm.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rset.ResourceSet;
import java.util.Objects;

/**
 * {@code {"R": R}}, a job's R after a release: the answer of {@code job-manager.release} and of the
 * job shell's {@code release} (schemas {@code job-manager.release-response} and {@code
 * shell.release-response}).
 *
 * @param r the job's R
 */
public record JobR(ResourceSet r) {
  /** The record; {@code r} must not be null. */
  public JobR {
    Objects.requireNonNull(r, "r");
  }

  /** The payload. */
  public ObjectNode toJson() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.set("R", r.toJson());
    return o;
  }

  /**
   * Reads the payload.
   *
   * @throws ProtocolException at {@code /R} when it is missing or not an R
   */
  public static JobR fromJson(JsonNode p) {
    SchedFree.Payloads.requireObject(p);
    return new JobR(SchedFree.Payloads.resourceSet(SchedFree.Payloads.required(p, "R"), "/R"));
  }
}
