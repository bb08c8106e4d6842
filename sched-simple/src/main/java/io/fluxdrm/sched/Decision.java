package io.fluxdrm.sched;

import io.fluxdrm.protocol.AllocResponseType;
import io.fluxdrm.protocol.ReallocResponseType;
import io.fluxdrm.rset.ResourceSet;
import java.util.Objects;

/**
 * What the scheduler core decided, as data for a service to carry out: responses to send and facts
 * to log (each names the job and, where resources move, their R, whose {@link
 * ResourceSet#summary()} is the one-line form to log).
 */
public sealed interface Decision {

  /** The job a decision is about; 0 for a refused request that names no job. */
  long jobId();

  /**
   * {@code sched.alloc} response SUCCESS: R (with nslots, starttime, expiration); {@code
   * clearsPending} when the job was annotated pending, whose annotations the SUCCESS sets to null.
   */
  record AllocSuccess(long jobId, ResourceSet r, boolean clearsPending) implements Decision {
    public AllocSuccess {
      Objects.requireNonNull(r, "r");
    }

    /** A SUCCESS of a job never annotated pending. */
    public AllocSuccess(long jobId, ResourceSet r) {
      this(jobId, r, false);
    }

    public AllocResponseType type() {
      return AllocResponseType.SUCCESS;
    }

    /** The {@code sched.resource_summary} annotation, e.g. {@code rank0/core[0-1]}. */
    public String resourceSummary() {
      return r.summary();
    }
  }

  /**
   * {@code sched.alloc} response ANNOTATE of a job left pending: {@code {"sched":{"reason_pending":
   * reason,"jobs_ahead": jobsAhead}}}; the request stays open.
   */
  record AllocAnnotate(long jobId, String reasonPending, long jobsAhead) implements Decision {
    public AllocAnnotate {
      Objects.requireNonNull(reasonPending, "reasonPending");
    }

    public AllocResponseType type() {
      return AllocResponseType.ANNOTATE;
    }
  }

  /** {@code sched.alloc} response DENY with a note. */
  record AllocDeny(long jobId, String note) implements Decision {
    public AllocResponseType type() {
      return AllocResponseType.DENY;
    }
  }

  /** {@code sched.alloc} response CANCEL, after {@code sched.cancel}. */
  record AllocCancel(long jobId) implements Decision {
    public AllocResponseType type() {
      return AllocResponseType.CANCEL;
    }
  }

  /**
   * {@code sched.realloc} response (RFC 51), to the request {@code (sender, matchtag)}.
   *
   * @param rDeltaAdd R added to the job (SUCCESS of a grow), or null
   * @param rDeltaSub R to be removed from the job (SUCCESS of a shrink), or null
   * @param note why, for DENY; null otherwise
   */
  record ReallocResponse(
      long jobId,
      long matchtag,
      String sender,
      long allocId,
      ReallocResponseType type,
      ResourceSet rDeltaAdd,
      ResourceSet rDeltaSub,
      String note)
      implements Decision {}

  /**
   * A request refused as bad: answer it with an error response (errnum and text), or log it for a
   * message that has no response. Nothing changed.
   */
  record Rejected(long jobId, SchedEvent request, int errnum, String message) implements Decision {}

  /** {@code sched.free} applied: {@code r} is free again. */
  record Freed(long jobId, ResourceSet r, boolean isFinal) implements Decision {}

  /** Hello: the running job's allocation is rebuilt. */
  record Restored(long jobId, ResourceSet r) implements Decision {}

  /**
   * Hello: the job's R cannot be allocated again; the service raises a fatal job exception of
   * {@code type} with {@code note} (flux-core's words) and logs {@code reason}.
   */
  record JobException(long jobId, String type, String note, String reason) implements Decision {}

  /** {@code sched.expiration} applied: answer with an empty success. */
  record ExpirationSet(long jobId, double expiration) implements Decision {}
}
