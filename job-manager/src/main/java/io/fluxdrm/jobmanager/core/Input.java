package io.fluxdrm.jobmanager.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;

/**
 * What happens to the job manager, as the service has read it off the wire (payload shapes checked
 * already): one input to {@link JobManagerCore#handle}, which answers with {@link Decision}s.
 */
public sealed interface Input {

  /** A new job (flux-core's job-ingest submit). */
  record Submit(JsonNode jobspec, int userid) implements Input {}

  /** A job whose initial R is known, before the scheduler's hello. */
  record Register(long jobId, int userid, ResourceSet r) implements Input {}

  /** The job ends: release of all it holds and free (flux-core's release on job end). */
  record Finish(long jobId) implements Input {}

  /** One good response to {@code sched.alloc}: its job id and payload (RFC 27 digest §4). */
  record AllocResponse(long jobId, ObjectNode payload) implements Input {}

  /** The scheduler interface goes down (RFC 27 digest §11): an error answer, a disconnect. */
  record SchedulerDown(String why) implements Input {}

  /** {@code job-manager.sched-hello} (RFC 27 digest §3.1). */
  record Hello() implements Input {}

  /** {@code job-manager.sched-ready} (RFC 27 digest §3.2), its mode checked. */
  record Ready() implements Input {}

  /** {@code job-manager.raise}: an exception on a job. */
  record Raise(long jobId, String type, int severity, String note) implements Input {}

  /** The scheduler's answer to a forwarded {@code sched.realloc} (RFC 51 "Realloc"). */
  record ReallocAnswer(long jobId, ObjectNode answer) implements Input {}

  /** The forwarded {@code sched.realloc} failed with an error response. */
  record ReallocFailed(long jobId, int errnum, String message) implements Input {}

  /**
   * {@code job-manager.release} of ranks a granted shrink took away (RFC 51 "Background"); {@code
   * r}, when given, must be everything being released on those ranks.
   */
  record Release(String topic, long jobId, IdSet ranks, ResourceSet r) implements Input {}
}
