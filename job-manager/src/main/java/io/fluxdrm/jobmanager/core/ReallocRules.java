package io.fluxdrm.jobmanager.core;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.jobmanager.JobEvent;
import io.fluxdrm.jobmanager.JobManagerException;
import io.fluxdrm.jobmanager.core.Decision.Level;
import io.fluxdrm.protocol.JobR;
import io.fluxdrm.protocol.ProtocolException;
import io.fluxdrm.protocol.ReallocAnswer;
import io.fluxdrm.protocol.ReallocResponseType;
import io.fluxdrm.protocol.Rfc51Topics;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.JobId;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.rset.RsetException;

/**
 * flux-core's realloc and release parts for RFC 51: the scheduler's answer to a forwarded {@code
 * sched.realloc} applied to the job's R and eventlog, and the shell's {@code job-manager.release}
 * of a granted shrink becoming {@code sched.free {final:false}}.
 */
final class ReallocRules {
  private ReallocRules() {}

  static void failed(JobManagerCore core, Input.ReallocFailed f) {
    String jobF58 = JobId.f58(f.jobId());
    if (f.errnum() == Errno.ENOSYS) {
      // RFC 51: a scheduler without sched.realloc (RFC 27 only) is UNSUPPORTED, not an error
      core.log(Level.INFO, "realloc " + jobF58 + ": scheduler has no sched.realloc: UNSUPPORTED");
      ObjectNode a =
          ReallocAnswer.of(
                  0,
                  ReallocResponseType.UNSUPPORTED,
                  "scheduler does not implement sched.realloc (RFC 27 only)")
              .toJson();
      respond(core, core.jobOrNull(f.jobId()), a);
    } else {
      core.log(Level.INFO, "realloc " + jobF58 + ": " + Errno.name(f.errnum()) + " " + f.message());
      core.emit(new Decision.Fail(f.errnum(), f.message()));
    }
  }

  static void answer(JobManagerCore core, long jobId, ObjectNode a) {
    Job job = core.jobOrNull(jobId);
    String jobF58 = JobId.f58(jobId);
    try {
      int type = JobManagerCore.reallocType(a.get("type"));
      if (type < 0) {
        throw new JobManagerException("/type: " + a.get("type") + " (expected: 0 to 3)");
      }
      JobManagerCore.readAllocId(a.get("alloc_id"));
      if (type == ReallocResponseType.SUCCESS.code() && job != null && job.running()) {
        ResourceSet add = JobManagerCore.rOf(a.get("R_delta_add"));
        ResourceSet sub = JobManagerCore.rOf(a.get("R_delta_sub"));
        if (add == null && sub == null) {
          throw new JobManagerException("SUCCESS without R_delta_add or R_delta_sub");
        }
        // RFC 51 "Realloc": a shrink takes what the job holds, a grow adds what it does not
        if (sub != null && !sub.diff(job.r.diff(job.releasing)).isEmpty()) {
          throw new JobManagerException(
              "/R_delta_sub: "
                  + sub.summary()
                  + " is not held by the job (expected: a subset of "
                  + job.r.summary()
                  + ")");
        }
        if (add != null && !add.intersect(job.r).isEmpty()) {
          throw new JobManagerException(
              "/R_delta_add: "
                  + add.summary()
                  + " overlaps the job's "
                  + job.r.summary()
                  + " (expected: new resources)");
        }
        if (add != null) {
          core.record(
              job, JobEvent.RESOURCE_UPDATE, Json.object().set("R_delta_add", add.toJson()));
        }
        if (sub != null) {
          core.record(
              job, JobEvent.RESOURCE_UPDATE, Json.object().set("R_delta_sub", sub.toJson()));
        }
        core.log(
            Level.INFO,
            "realloc "
                + jobF58
                + " alloc_id="
                + a.get("alloc_id")
                + ": SUCCESS"
                + (add == null ? "" : " add " + add.summary())
                + (sub == null ? "" : " sub " + sub.summary())
                + " -> "
                + job.r.summary());
      } else {
        core.log(
            Level.INFO,
            "realloc "
                + jobF58
                + ": "
                + ReallocResponseType.of(type).orElseThrow()
                + " "
                + a.path("note").asText(""));
      }
    } catch (ProtocolException | RsetException | JobManagerException e) {
      core.log(
          Level.ERROR,
          Rfc51Topics.SCHED_REALLOC + " " + jobF58 + ": bad answer: " + e.getMessage());
      core.emit(
          new Decision.Fail(
              Errno.EPROTO,
              Rfc51Topics.SCHED_REALLOC + ": bad answer from the scheduler: " + e.getMessage()));
      return;
    }
    respond(core, job, a);
  }

  private static void respond(JobManagerCore core, Job job, ObjectNode a) {
    if (job != null && job.running()) {
      a.set("R", job.r.toJson());
    }
    core.emit(new Decision.Respond(a));
  }

  /** The job is checked by the service ({@link JobManagerCore#actingOn}) before this input. */
  static void release(JobManagerCore core, Input.Release in) {
    Job job = core.jobOrNull(in.jobId());
    if (job == null || !job.running()) {
      throw new RpcException(
          Errno.ENOENT,
          in.topic() + ": job " + Long.toUnsignedString(in.jobId()) + " holds no resources");
    }
    var ranks = in.ranks();
    ResourceSet released = job.releasing.copyRanks(ranks);
    // RFC 51 "Background": only ranks a granted shrink took away are released
    if (ranks.isEmpty() || !ranks.isSubsetOf(job.releasing.ranks())) {
      throw new RpcException(
          Errno.EINVAL,
          in.topic()
              + ": ranks "
              + ranks
              + " (expected: ranks the job was granted to release: "
              + (job.releasing.isEmpty() ? "none" : job.releasing.ranks().toString())
              + ")");
    }
    ResourceSet r = in.r();
    if (r != null && !(r.diff(released).isEmpty() && released.diff(r).isEmpty())) {
      throw new RpcException(
          Errno.EINVAL,
          in.topic()
              + ": /R: "
              + r.summary()
              + " (expected: everything being released on its ranks: "
              + released.summary()
              + ")");
    }
    core.record(
        job, JobEvent.RELEASE, Json.object().put("ranks", ranks.toString()).put("final", false));
    // RFC 27 digest §7: a partial free, final:false
    core.emit(new Decision.SendFree(in.jobId(), released, false));
    core.log(
        Level.INFO,
        "release " + JobId.f58(in.jobId()) + ": " + released.summary() + " -> " + job.r.summary());
    core.emit(new Decision.Respond(new JobR(job.r).toJson()));
  }
}
