package io.fluxdrm.sched.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.JobIdMap;
import java.util.Comparator;
import java.util.Map;

/**
 * The R of each granted alloc exactly as its SUCCESS carried it, so that the final {@code
 * sched.free} flux-core's job manager sends (that same R) is read without the schema check and the
 * parse, which are most of a free's cost (D571). Such a payload is valid by construction and its R
 * reads back as the granted value; any other payload is not recognized and takes the full path.
 *
 * <p>One entry per job granted since the last hello and not yet finally freed, so it holds no more
 * than the running jobs.
 */
final class SentGrants {
  private record Sent(JsonNode json, ResourceSet r) {}

  private final Map<Long, Sent> byJob = new JobIdMap<>();

  /**
   * Node equality where two numbers are the same when both are integers or both are not, of equal
   * value: the wire's reader keeps fractions as decimals, the answer holds doubles.
   */
  private static final Comparator<JsonNode> SAME_NUMBER =
      (a, b) -> {
        if (a.equals(b)) {
          return 0;
        }
        if (a.isNumber()
            && b.isNumber()
            && a.isIntegralNumber() == b.isIntegralNumber()
            && a.decimalValue().compareTo(b.decimalValue()) == 0) {
          return 0;
        }
        return 1;
      };

  /** Remembers the grant of job {@code id}: {@code json} is {@code r} as the answer carries it. */
  void sent(long id, JsonNode json, ResourceSet r) {
    byJob.put(id, new Sent(json, r));
  }

  /**
   * The granted R when {@code p} frees exactly it: a job id granted here, {@code R} equal to what
   * its SUCCESS carried, and {@code final} absent or a boolean; null otherwise. A final free
   * recognized here is forgotten.
   */
  ResourceSet recognize(ObjectNode p) {
    JsonNode id = p.get("id");
    JsonNode fin = p.get("final");
    if (id == null
        || !id.isIntegralNumber()
        || !id.canConvertToLong()
        || id.longValue() < 0
        || (fin != null && !fin.isBoolean())) {
      return null;
    }
    Sent s = byJob.get(id.longValue());
    JsonNode r = p.get("R");
    if (s == null || r == null || !s.json().equals(SAME_NUMBER, r)) {
      return null;
    }
    if (fin != null && fin.booleanValue()) {
      byJob.remove(id.longValue());
    }
    return s.r();
  }

  /** Forgets job {@code id} (its final free took the full path). */
  void forget(long id) {
    byJob.remove(id);
  }

  /** Forgets every grant: a new hello rebuilds the running jobs (RFC 27 §3). */
  void clear() {
    byJob.clear();
  }

  int size() {
    return byJob.size();
  }
}
