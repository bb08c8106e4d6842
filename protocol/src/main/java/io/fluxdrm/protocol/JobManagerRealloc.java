package io.fluxdrm.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;
import java.util.Set;

/**
 * RFC 51 "Realloc" from the job shell to the job manager: {@code job-manager.realloc {"id": JOB,
 * "spec_add"?, "spec_sub"?, "R"?}} (schema {@code job-manager.realloc-request}), answered with a
 * {@link ReallocAnswer} plus the job's R.
 *
 * @param id the job id, its 64 bits read as unsigned (D11)
 * @param specs what the job asks for
 */
public record JobManagerRealloc(long id, ReallocSpecs specs) {
  /** Every key of the payload. */
  public static final Set<String> KEYS = Set.of("id", "spec_add", "spec_sub", "R");

  /** The record; {@code specs} must not be null. */
  public JobManagerRealloc {
    Objects.requireNonNull(specs, "specs");
  }

  /** The payload: {@code id}, then the specs' keys. */
  public ObjectNode toJson() {
    return specs.toJson("id", id);
  }

  /**
   * Reads a {@code job-manager.realloc} payload: {@code id} first, then the specs, then {@code R}
   * (unknown keys are the service's to refuse, against {@link #KEYS}).
   *
   * @throws ProtocolException with the JSON Pointer of the first bad member
   */
  public static JobManagerRealloc fromJson(JsonNode p) {
    return new JobManagerRealloc(ReallocSpecs.readId(p, "id"), ReallocSpecs.fromJson(p));
  }
}
