package io.fluxdrm.jobmanager;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.jobmanager.core.Input;
import io.fluxdrm.jobmanager.core.Job;
import io.fluxdrm.protocol.FluxPayloads;
import io.fluxdrm.protocol.JobManagerRealloc;
import io.fluxdrm.protocol.ProtocolException;
import io.fluxdrm.protocol.Rfc51Topics;
import io.fluxdrm.protocol.SchedRealloc;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.JobId;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.RpcCall;
import io.fluxdrm.rpc.service.PendingRequests;
import io.fluxdrm.rpc.service.ServiceRequest;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shell's {@code job-manager.realloc} passed on as {@code sched.realloc} (RFC 51 "Realloc"),
 * and the cancels of such requests passed on as {@code sched.realloc_cancel} (RFC 51 "Realloc
 * Cancel"): a cancel names the shell's request, by its matchtag in the payload or as RFC 6's {@code
 * <topic>.cancel}, and a disconnect of the shell cancels all of its requests. The table of
 * forwarded requests is a {@link PendingRequests}; the scheduler's answer goes to the core.
 */
final class ReallocForwarder {
  private static final Logger LOG = LoggerFactory.getLogger(JobManager.class);

  private final JobManager jm;
  private final PendingRequests<Pending> pending = new PendingRequests<>();

  /** A {@code job-manager.realloc} waiting for the scheduler's answer. */
  private static final class Pending {
    final ServiceRequest req;
    final long jobId;
    final int schedTag;
    boolean cancelSent;

    Pending(ServiceRequest req, long jobId, int schedTag) {
      this.req = req;
      this.jobId = jobId;
      this.schedTag = schedTag;
    }
  }

  ReallocForwarder(JobManager jm) {
    this.jm = jm;
  }

  int size() {
    return pending.size();
  }

  void realloc(ServiceRequest req) {
    ObjectNode p = req.json();
    ServiceRequest.requireOnlyKeys(req.topic(), p, JobManagerRealloc.KEYS);
    JobManagerRealloc in;
    try {
      // RFC 51 "Realloc": the job id, at least one of spec_add and spec_sub, each a jobspec
      in = JobManagerRealloc.fromJson(p);
    } catch (ProtocolException e) {
      throw new RpcException(Errno.EPROTO, req.topic() + ": " + e.getMessage());
    }
    if (!req.expectsResponse()) {
      throw new RpcException(
          Errno.EPROTO, req.topic() + ": sent without a response (expected: an RPC)");
    }
    Job job = jm.actingOn(req, in.id());
    PendingRequests.Key key = PendingRequests.Key.of(req);
    pending.requireFree(req.topic(), key);
    // on the loop: the request is sent, and its matchtag known, when rpcCall returns
    RpcCall call =
        jm.handle()
            .rpcCall(
                Rfc51Topics.SCHED_REALLOC, new SchedRealloc(job.id(), in.specs()).toJson(), null);
    Pending pend = new Pending(req, job.id(), call.matchtag().getNow(0));
    pending.put(key, pend);
    call.response()
        .whenComplete((m, err) -> answered(key, pend, m, err == null ? null : unwrap(err)));
  }

  private void answered(PendingRequests.Key key, Pending pend, Message m, Throwable err) {
    pending.remove(key, pend);
    if (err != null) {
      RpcException e =
          err instanceof RpcException x ? x : new RpcException(Errno.EIO, String.valueOf(err));
      jm.run(new Input.ReallocFailed(pend.jobId, e.errnum(), e.getMessage()), pend.req);
      return;
    }
    ObjectNode a;
    try {
      a = m.json();
    } catch (RpcException e) {
      LOG.error(
          "{} {}: bad answer: {}",
          Rfc51Topics.SCHED_REALLOC,
          JobId.f58(pend.jobId),
          e.getMessage());
      pend.req.fail(
          Errno.EPROTO,
          Rfc51Topics.SCHED_REALLOC + ": bad answer from the scheduler: " + e.getMessage());
      return;
    }
    jm.run(new Input.ReallocAnswer(pend.jobId, a), pend.req);
  }

  private static Throwable unwrap(Throwable t) {
    return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
  }

  void reallocCancel(ServiceRequest req) {
    int tag;
    try {
      tag = PendingRequests.matchtagOf(req.topic(), req.json());
    } catch (RpcException e) {
      // RFC 51 "Realloc Cancel" is sent without a response: a bad one is logged, not answered
      LOG.warn("{}", e.getMessage());
      return;
    }
    Pending pend = pending.get(req.sender(), tag);
    if (pend == null) {
      LOG.debug("{}: matchtag {} not pending, ignored", req.topic(), tag);
      return;
    }
    cancel(pend);
  }

  private void cancel(Pending pend) {
    if (pend.cancelSent || pend.schedTag == 0) {
      return; // canceled already, or the sched.realloc never left (its answer fails it)
    }
    pend.cancelSent = true;
    LOG.info("realloc_cancel {}: sched matchtag {}", JobId.f58(pend.jobId), pend.schedTag);
    jm.handle().send(Rfc51Topics.SCHED_REALLOC_CANCEL, FluxPayloads.reallocCancel(pend.schedTag));
  }

  void canceled(ServiceRequest req) {
    Pending pend = pending.canceledBy(req);
    if (pend != null) {
      cancel(pend);
    } else {
      req.fail(Errno.ECANCELED, req.topic() + ": request canceled");
    }
  }

  /**
   * The shell went away: its forwarded requests are canceled at the scheduler; each stays in the
   * table until the scheduler's answer (to a canceled realloc, RFC 51) arrives.
   */
  void disconnected(String sender) {
    for (Pending pend : pending.ofSender(sender)) {
      cancel(pend);
    }
  }
}
