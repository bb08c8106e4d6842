package io.fluxdrm.shell;

import io.fluxdrm.protocol.JobManagerRealloc;
import io.fluxdrm.protocol.JobManagerRelease;
import io.fluxdrm.protocol.ProtocolException;
import io.fluxdrm.protocol.ReallocAnswer;
import io.fluxdrm.protocol.ReallocSpecs;
import io.fluxdrm.protocol.Rfc51Topics;
import io.fluxdrm.protocol.SchedReallocCancel;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.JobId;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.client.RpcCall;
import io.fluxdrm.rpc.service.PendingRequests;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.shell.core.ShellCore;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shell plugin's link to the job manager (RFC 51): each realloc goes on as {@code
 * job-manager.realloc}, its answer is checked against the core and applied, a cancel becomes {@code
 * job-manager.realloc_cancel} with the link's own matchtag, and a shrink the core decides to hand
 * back becomes {@code job-manager.release}. The reallocs waiting for an answer are a {@link
 * PendingRequests}, keyed by the request to the shell service they answer (the Java API's are keyed
 * under {@link #JAVA_API}). Runs on the handle's loop only.
 */
final class JobManagerLink {
  private static final Logger LOG = LoggerFactory.getLogger(ShellPlugin.class);

  /**
   * The sender under which the Java API's reallocs are kept: the empty route, which no request
   * routed by a hub carries (RFC 6: the hub pushes the sender's identity).
   */
  static final String JAVA_API = "";

  private final long jobId;
  private final String job;
  private final ShellCore core;
  private final PendingRequests<Pending> pending = new PendingRequests<>();
  private FluxHandle handle;
  private int javaTags;

  /** A realloc waiting for the job manager's answer. */
  static final class Pending {
    final CompletableFuture<Answer> answer = new CompletableFuture<>();
    int jmTag;
    boolean cancelSent;
  }

  JobManagerLink(long jobId, ShellCore core) {
    this.jobId = jobId;
    this.job = JobId.f58(jobId);
    this.core = core;
  }

  void attach(FluxHandle h) {
    this.handle = h;
  }

  PendingRequests<Pending> pending() {
    return pending;
  }

  /** A key for a realloc of the Java API. */
  PendingRequests.Key javaKey() {
    return new PendingRequests.Key(JAVA_API, ++javaTags);
  }

  /** The pending realloc of the Java API whose answer is {@code f}, or null. */
  Pending javaRealloc(CompletableFuture<Answer> f) {
    for (Pending p : pending.values()) {
      if (p.answer == f) {
        return p;
      }
    }
    return null;
  }

  // ---- realloc ----------------------------------------------------------------------------------

  /** Sends {@code job-manager.realloc} for the request {@code key}; on the loop. */
  CompletableFuture<Answer> forward(PendingRequests.Key key, Pending p, ReallocSpecs specs) {
    // on the loop: the request is sent, and its matchtag known, when rpcCall returns
    RpcCall call =
        handle.rpcCall(
            Rfc51Topics.JOB_MANAGER_REALLOC, new JobManagerRealloc(jobId, specs).toJson(), null);
    p.jmTag = call.matchtag().getNow(0);
    pending.put(key, p);
    call.response().whenComplete((m, err) -> answered(key, p, m, err == null ? null : unwrap(err)));
    return p.answer;
  }

  private void answered(PendingRequests.Key key, Pending p, Message m, Throwable err) {
    pending.remove(key, p);
    if (err != null) {
      int errnum = err instanceof RpcException e ? e.errnum() : Errno.EIO;
      if (errnum == Errno.ENOSYS) {
        // RFC 51: no sched.realloc on the way is UNSUPPORTED, not an error
        LOG.info("realloc {}: ENOSYS on the way: UNSUPPORTED", job);
        p.answer.complete(
            Answer.unsupported("dynamic allocation not implemented: " + err.getMessage()));
      } else {
        LOG.info("realloc {}: {} {}", job, Errno.name(errnum), err.getMessage());
        p.answer.completeExceptionally(new ShellException(errnum, err.getMessage()));
      }
      return;
    }
    Answer a;
    try {
      a = Answer.of(ReallocAnswer.fromJson(m.json()));
      if (a instanceof Answer.Success s) {
        core.checkGrant(s.added(), s.removed());
      }
    } catch (ShellException | RpcException | ProtocolException e) {
      LOG.error("realloc {}: bad answer from the job manager: {}", job, e.getMessage());
      p.answer.completeExceptionally(
          new ShellException(
              Errno.EPROTO, Rfc51Topics.JOB_MANAGER_REALLOC + ": bad answer: " + e.getMessage()));
      return;
    }
    if (a instanceof Answer.Success s) {
      core.granted(s.added(), s.removed());
      LOG.info(
          "realloc {} alloc_id={}: SUCCESS{}{} -> {}",
          job,
          Long.toUnsignedString(s.allocId()),
          s.added().isEmpty() ? "" : " add " + s.added().summary(),
          s.removed().isEmpty() ? "" : " sub " + s.removed().summary(),
          core.r().summary());
    } else {
      LOG.info("realloc {}: {} {}", job, a.type(), a.note());
    }
    p.answer.complete(a);
  }

  /** RFC 51 "Realloc Cancel": once per realloc, with the matchtag of the link's own request. */
  void cancel(Pending p) {
    if (p.cancelSent) {
      return;
    }
    p.cancelSent = true;
    LOG.info("realloc_cancel {}: job-manager matchtag {}", job, p.jmTag);
    handle.send(
        Rfc51Topics.JOB_MANAGER_REALLOC_CANCEL,
        new SchedReallocCancel(Integer.toUnsignedLong(p.jmTag)).toJson());
  }

  // ---- release ----------------------------------------------------------------------------------

  /**
   * Hands {@code rel} back ({@code job-manager.release {id, ranks, final: false}}); {@code done}
   * gets the error, or null once the core has taken the release.
   */
  void release(ShellCore.Release rel, Consumer<ShellException> done) {
    var ranks = rel.r().ranks();
    handle
        .rpc(Rfc51Topics.JOB_MANAGER_RELEASE, new JobManagerRelease(jobId, ranks).toJson())
        .whenComplete(
            (m, err) -> {
              if (err != null) {
                Throwable e = unwrap(err);
                int errnum = e instanceof RpcException re ? re.errnum() : Errno.EIO;
                LOG.error(
                    "release {}: ranks {}: {} {}", job, ranks, Errno.name(errnum), e.getMessage());
                core.releaseFailed(rel.shrink());
                done.accept(new ShellException(errnum, e.getMessage()));
                return;
              }
              ResourceSet gone = core.released(rel.shrink());
              LOG.info("release {}: {} -> {}", job, gone.summary(), core.r().summary());
              done.accept(null);
            });
  }

  static Throwable unwrap(Throwable t) {
    return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
  }
}
