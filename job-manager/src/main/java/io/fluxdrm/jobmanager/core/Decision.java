package io.fluxdrm.jobmanager.core;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.jobmanager.JobEvent;
import io.fluxdrm.rset.ResourceSet;

/**
 * What the job manager does in answer to an {@link Input}, in the order it must be done: an {@link
 * Append} precedes every message that tells anyone about its change (decision D8: written before
 * anyone is told).
 */
public sealed interface Decision {

  /** Append {@code entry} to the job's eventlog (RFC 18 / RFC 21); the core has applied it. */
  record Append(long jobId, JobEvent entry) implements Decision {}

  /** Send {@code sched.alloc} with this payload, matchtag 0 (RFC 27 digest §4). */
  record SendAlloc(long jobId, ObjectNode payload) implements Decision {}

  /** Send {@code sched.free} (RFC 27 digest §7; {@code final:false} after an RFC 51 shrink). */
  record SendFree(long jobId, ResourceSet r, boolean isFinal) implements Decision {}

  /** A new job has this id (its submit is appended). */
  record Submitted(long jobId) implements Decision {}

  /** The job's alloc succeeded (its submitter waits for this). */
  record Allocated(long jobId) implements Decision {}

  /** The job's alloc failed: denied, or a bad answer. */
  record AllocFailed(long jobId, String message) implements Decision {}

  /** One {@code sched-hello} response: a job holding resources (RFC 27 digest §3.1). */
  record HelloJob(ObjectNode payload) implements Decision {}

  /** Respond to the request this input came from with {@code payload}. */
  record Respond(ObjectNode payload) implements Decision {}

  /** Fail the request this input came from. */
  record Fail(int errnum, String message) implements Decision {}

  /** Something for the operator's log, at {@code level}. */
  record Log(Level level, String text) implements Decision {}

  /** The log levels the job manager uses. */
  enum Level {
    DEBUG,
    INFO,
    WARN,
    ERROR
  }
}
