package io.fluxdrm.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * RFC 51 "Realloc" from the job manager to the scheduler (RFC 51 §Realloc): {@code sched.realloc
 * {"job_id": JOB, "spec_add"?, "spec_sub"?, "R"?}} (schema {@code sched.realloc-request}), answered
 * with a {@link ReallocAnswer}. The job id's key is {@code job_id} here, {@code id} at the job
 * manager.
 *
 * @param jobId the job id, its 64 bits read as unsigned (D11)
 * @param specs what the job asks for
 */
public record SchedRealloc(long jobId, ReallocSpecs specs) {
  /** The record; {@code specs} must not be null. */
  public SchedRealloc {
    Objects.requireNonNull(specs, "specs");
  }

  /** The payload: {@code job_id}, then the specs' keys. */
  public ObjectNode toJson() {
    return specs.toJson("job_id", jobId);
  }

  /**
   * Reads a {@code sched.realloc} payload.
   *
   * @throws ProtocolException with the JSON Pointer of the first bad member
   */
  public static SchedRealloc fromJson(JsonNode p) {
    return new SchedRealloc(ReallocSpecs.readId(p, "job_id"), ReallocSpecs.fromJson(p));
  }
}
