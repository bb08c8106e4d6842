package io.fluxdrm.jobmanager.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.jobmanager.JobEvent;
import io.fluxdrm.jobmanager.JobManagerException;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.rset.RsetException;

/**
 * One job as the job manager knows it, built only by applying its eventlog's events in order, live
 * and on recovery alike, so the R after a restart is the R before it: R = initial R ∪ every {@code
 * R_delta_add} − every release.
 */
public final class Job {
  final long id;
  int userid;
  double tSubmit;
  JsonNode jobspec;

  /** What the job holds (resources being released included), null before its alloc. */
  ResourceSet r;

  /** Granted shrinks ({@code R_delta_sub}) the job has not released yet. */
  ResourceSet releasing = ResourceSet.empty();

  boolean ended;

  /**
   * RFC 27 annotations: merged from the scheduler's ANNOTATE and SUCCESS answers, cleared on DENY
   * and CANCEL; the {@code alloc} event keeps the snapshot taken at SUCCESS.
   */
  final ObjectNode annotations = Json.object();

  Job(long id) {
    this.id = id;
  }

  /** The job id. */
  public long id() {
    return id;
  }

  /** The submitting user. */
  public int userid() {
    return userid;
  }

  /** What the job holds (resources being released included), null before its alloc. */
  public ResourceSet r() {
    return r;
  }

  /** Granted shrinks not released yet (empty if none). */
  public ResourceSet releasing() {
    return releasing;
  }

  /** Whether the job has ended (freed, or denied before its alloc). */
  public boolean ended() {
    return ended;
  }

  /** A copy of the job's RFC 27 annotations. */
  public ObjectNode annotations() {
    return annotations.deepCopy();
  }

  /** Whether the job has had its alloc. */
  public boolean allocated() {
    return r != null;
  }

  /** Whether the job holds resources: allocated and not ended. */
  public boolean running() {
    return r != null && !ended;
  }

  /**
   * Applies one event.
   *
   * @param where the event's place, for messages
   * @throws JobManagerException when its context cannot be applied
   */
  void apply(JobEvent e, String where) {
    // RFC 21: the event names and contexts of the job manager's eventlog (decision D8)
    switch (e.name()) {
      case JobEvent.SUBMIT -> {
        JsonNode uid = e.context().get("userid");
        if (uid == null
            || !uid.canConvertToLong()
            || uid.asLong() < 0
            || uid.asLong() > 0xFFFFFFFFL) {
          throw new JobManagerException(
              where + ": /context/userid: " + uid + " (expected: a user id)");
        }
        userid = (int) uid.asLong();
        tSubmit = e.timestamp();
        jobspec = e.context().get("jobspec");
      }
      case JobEvent.ALLOC -> {
        if (r != null) {
          throw new JobManagerException(where + ": second alloc (expected: one per job)");
        }
        r = rOf(e, "R", where);
        JsonNode a = e.context().get("annotations");
        if (a != null && a.isObject()) {
          annotations.removeAll();
          annotations.setAll((ObjectNode) a.deepCopy());
        }
      }
      case JobEvent.RESOURCE_UPDATE -> {
        requireAllocated(e, where);
        if (e.context().has("R_delta_add")) {
          ResourceSet add = rOf(e, "R_delta_add", where);
          r = r.union(add).withTimes(r.starttime(), r.expiration());
        }
        if (e.context().has("R_delta_sub")) {
          releasing = releasing.union(rOf(e, "R_delta_sub", where));
        }
      }
      case JobEvent.RELEASE -> {
        requireAllocated(e, where);
        JsonNode fin = e.context().get("final");
        if (fin == null || !fin.isBoolean()) {
          throw new JobManagerException(where + ": /context/final: " + fin + " (expected: bool)");
        }
        if (!fin.asBoolean()) {
          IdSet ranks = ranksOf(e, where);
          ResourceSet released = releasing.copyRanks(ranks);
          r = r.diff(released).withTimes(r.starttime(), r.expiration());
          releasing = releasing.diff(released);
        }
      }
      case JobEvent.FREE -> ended = true;
      case JobEvent.EXCEPTION -> {
        // a fatal exception before alloc ends the job (alloc denied); later ones are recorded only,
        // the job ends with its free
        if (r == null) {
          ended = true;
        }
      }
      default -> {
        // other RFC 21 events carry nothing the job manager tracks
      }
    }
  }

  private void requireAllocated(JobEvent e, String where) {
    if (r == null) {
      throw new JobManagerException(
          where + ": " + e.name() + " before alloc (expected: alloc first)");
    }
  }

  private static ResourceSet rOf(JobEvent e, String key, String where) {
    JsonNode n = e.context().get(key);
    if (n == null) {
      throw new JobManagerException(where + ": /context/" + key + ": missing (expected: R)");
    }
    try {
      return ResourceSet.fromJson(n);
    } catch (RsetException ex) {
      throw new JobManagerException(where + ": /context/" + key + ": " + ex.getMessage());
    }
  }

  private static IdSet ranksOf(JobEvent e, String where) {
    JsonNode n = e.context().get("ranks");
    if (n == null || !n.isTextual()) {
      throw new JobManagerException(where + ": /context/ranks: " + n + " (expected: an idset)");
    }
    try {
      return IdSet.parse(n.asText());
    } catch (RsetException ex) {
      throw new JobManagerException(where + ": /context/ranks: " + ex.getMessage());
    }
  }
}
