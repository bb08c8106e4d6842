package io.fluxdrm.jobmanager.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.jobmanager.JobEvent;
import io.fluxdrm.jobmanager.JobManagerException;
import io.fluxdrm.jobmanager.core.Decision.Level;
import io.fluxdrm.protocol.Rfc27Topics;
import io.fluxdrm.rpc.JobId;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.rset.RsetException;
import java.util.Map;

/**
 * flux-core's alloc and annotate parts: the answers to {@code sched.alloc} (RFC 27 digest §4: one
 * SUCCESS, DENY or CANCEL, ANNOTATE any number of times before) and RFC 27's annotation merge.
 */
final class AllocRules {
  private AllocRules() {}

  static void response(JobManagerCore core, long id, ObjectNode p) {
    Job job = core.jobOrNull(id);
    if (job == null || !core.allocPending(id)) {
      core.log(
          Level.WARN,
          Rfc27Topics.ALLOC
              + ": response for job "
              + JobId.f58(id)
              + " ignored: "
              + (job == null ? "unknown job" : "no alloc pending"));
      return;
    }
    String where = Rfc27Topics.ALLOC + " " + Long.toUnsignedString(id);
    JsonNode type = p.get("type");
    int t = type != null && type.isIntegralNumber() && type.canConvertToInt() ? type.asInt() : -1;
    try {
      switch (t) {
        case 0 -> success(core, job, p, where);
        case 1 -> {
          // RFC 27 digest §4: ANNOTATE, merged into what the job has
          JsonNode a = p.get("annotations");
          if (a == null || !a.isObject()) {
            throw new JobManagerException(
                where + ": /annotations: " + a + " (expected: an object on ANNOTATE)");
          }
          mergeAnnotations(job.annotations, (ObjectNode) a);
          core.log(Level.DEBUG, "alloc " + JobId.f58(id) + ": annotations " + job.annotations);
        }
        case 2 -> {
          // RFC 27 digest §4: DENY ends the job with a fatal exception, annotations cleared
          core.allocDone(id);
          job.annotations.removeAll();
          String note = p.path("note").asText("denied");
          ObjectNode ctx = Json.object().put("type", "alloc").put("severity", 0).put("note", note);
          core.record(job, JobEvent.EXCEPTION, ctx);
          core.log(Level.INFO, "alloc " + JobId.f58(id) + ": denied: " + note);
          core.emit(new Decision.AllocFailed(id, where + ": denied: " + note));
        }
        case 3 -> {
          // RFC 27 digest §5: CANCEL puts the job back in the queue, annotations cleared
          core.allocDone(id);
          job.annotations.removeAll();
          core.log(Level.INFO, "alloc " + JobId.f58(id) + ": canceled, back in the queue");
        }
        default ->
            throw new JobManagerException(where + ": /type: " + type + " (expected: 0, 1, 2 or 3)");
      }
    } catch (JobManagerException e) {
      core.log(Level.ERROR, e.getMessage());
      if (t != 1) {
        core.allocDone(id);
        core.emit(new Decision.AllocFailed(id, e.getMessage()));
      }
    }
  }

  private static void success(JobManagerCore core, Job job, ObjectNode p, String where) {
    JsonNode r = p.get("R");
    if (r == null) {
      throw new JobManagerException(where + ": /R: missing (expected: R on SUCCESS)");
    }
    ResourceSet rs;
    try {
      rs = ResourceSet.fromJson(r);
    } catch (RsetException e) {
      throw new JobManagerException(where + ": /R: " + e.getMessage());
    }
    JsonNode a = p.get("annotations");
    if (a != null && !a.isObject()) {
      throw new JobManagerException(where + ": /annotations: " + a + " (expected: an object)");
    }
    core.allocDone(job.id);
    if (a != null) {
      mergeAnnotations(job.annotations, (ObjectNode) a);
    }
    // RFC 21: the alloc event keeps the annotations' snapshot taken at SUCCESS
    ObjectNode ctx = Json.object();
    if (!job.annotations.isEmpty()) {
      ctx.set("annotations", job.annotations.deepCopy());
    }
    ctx.set("R", rs.toJson());
    core.record(job, JobEvent.ALLOC, ctx);
    core.log(Level.INFO, "alloc " + JobId.f58(job.id) + ": " + job.r.summary());
    core.emit(new Decision.Allocated(job.id));
  }

  /**
   * RFC 27's annotation merge: recursive by key, a JSON null deletes the key, an object left empty
   * is removed.
   */
  static void mergeAnnotations(ObjectNode into, ObjectNode update) {
    for (Map.Entry<String, JsonNode> en : update.properties()) {
      JsonNode v = en.getValue();
      JsonNode old = into.get(en.getKey());
      if (v.isNull()) {
        into.remove(en.getKey());
      } else if (v.isObject() && old != null && old.isObject()) {
        mergeAnnotations((ObjectNode) old, (ObjectNode) v);
        if (old.isEmpty()) {
          into.remove(en.getKey());
        }
      } else if (v.isObject()) {
        ObjectNode fresh = Json.object();
        mergeAnnotations(fresh, (ObjectNode) v);
        if (fresh.isEmpty()) {
          into.remove(en.getKey());
        } else {
          into.set(en.getKey(), fresh);
        }
      } else {
        into.set(en.getKey(), v.deepCopy());
      }
    }
  }
}
