package io.fluxdrm.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.JobId;
import io.fluxdrm.rset.ResourceSet;
import java.util.Locale;
import java.util.Set;

/**
 * The body of an RFC 51 "Realloc" request, as the job shell's {@code <uid>-shell-<id>.realloc}
 * carries it ({@code {"spec_add": J?, "spec_sub": J?, "R": R?}}, schema {@code
 * shell.realloc-request}) and as {@link JobManagerRealloc} and {@link SchedRealloc} carry it next
 * to the job id. The jobspec nodes are held, not copied: a caller hands them over.
 *
 * @param specAdd a jobspec of resources to add, or null
 * @param specSub a jobspec of resources to remove, or null
 * @param r the resources meant by {@code specSub}, or null
 */
public record ReallocSpecs(JsonNode specAdd, JsonNode specSub, ResourceSet r) {
  /** The keys of the shell's form. */
  public static final Set<String> KEYS = Set.of("spec_add", "spec_sub", "R");

  /** The record, checked as {@link #check} checks it. */
  public ReallocSpecs {
    check(specAdd, specSub);
  }

  /**
   * RFC 51 "Realloc": at least one of {@code spec_add} and {@code spec_sub}, each a jobspec object.
   *
   * @throws ProtocolException located at {@code /} or at the key
   */
  public static void check(JsonNode add, JsonNode sub) {
    if (add == null && sub == null) {
      throw new ProtocolException("/: no spec_add and no spec_sub (expected: at least one)");
    }
    checkSpec("spec_add", add);
    checkSpec("spec_sub", sub);
  }

  private static void checkSpec(String key, JsonNode spec) {
    if (spec != null && !spec.isObject()) {
      throw new ProtocolException(
          "/"
              + key
              + ": "
              + spec.getNodeType().toString().toLowerCase(Locale.ROOT)
              + " (expected: a jobspec object)");
    }
  }

  /**
   * Reads the body's keys of {@code p} (other keys are the caller's to refuse or read): the specs
   * first, then {@code R}.
   *
   * @throws ProtocolException with the JSON Pointer of the first bad member
   */
  public static ReallocSpecs fromJson(JsonNode p) {
    SchedFree.Payloads.requireObject(p);
    JsonNode add = p.get("spec_add");
    JsonNode sub = p.get("spec_sub");
    check(add, sub);
    JsonNode rn = p.get("R");
    ResourceSet r = rn == null ? null : SchedFree.Payloads.resourceSet(rn, "/R");
    return new ReallocSpecs(add, sub, r);
  }

  /** The shell's form, {@code {"spec_add"?, "spec_sub"?, "R"?}}. */
  public ObjectNode toJson() {
    return writeTo(JsonNodeFactory.instance.objectNode());
  }

  /**
   * The form with a job id in front, as the job manager ({@code id}) and the scheduler ({@code
   * job_id}) take it.
   */
  ObjectNode toJson(String idKey, long id) {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.set(idKey, JobId.json(id));
    return writeTo(o);
  }

  /** Reads the job id under {@code idKey} of the form {@link #toJson(String, long)} writes. */
  static long readId(JsonNode p, String idKey) {
    SchedFree.Payloads.requireObject(p);
    return FluxPayloads.readId(p.get(idKey), "/" + idKey);
  }

  /** Appends {@code spec_add}, {@code spec_sub} and {@code R}, those present, in that order. */
  private ObjectNode writeTo(ObjectNode o) {
    if (specAdd != null) {
      o.set("spec_add", specAdd);
    }
    if (specSub != null) {
      o.set("spec_sub", specSub);
    }
    if (r != null) {
      o.set("R", r.toJson());
    }
    return o;
  }
}
