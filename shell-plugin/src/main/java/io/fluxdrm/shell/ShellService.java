package io.fluxdrm.shell;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.protocol.JobAccess;
import io.fluxdrm.protocol.JobR;
import io.fluxdrm.protocol.ProtocolException;
import io.fluxdrm.protocol.ReallocSpecs;
import io.fluxdrm.protocol.ShellRanks;
import io.fluxdrm.protocol.ShellTopics;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.JobId;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.service.PendingRequests;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rpc.service.ServiceRequest;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shell service {@code <uid>-shell-<f58plain jobid>} of one plugin: each handler checks the
 * caller ({@link JobAccess}, D16) and the payload (its record in {@code protocol}, the schemas of
 * {@code shell.*}) before anything changes, then hands the work to the plugin and its {@link
 * JobManagerLink}. Runs on the loop of the handle it is registered on.
 */
final class ShellService {
  private static final Logger LOG = LoggerFactory.getLogger(ShellPlugin.class);
  private static final Set<String> CANCEL_KEYS = Set.of("matchtag");

  private final ShellPlugin plugin;
  private final JobManagerLink link;

  ShellService(ShellPlugin plugin, JobManagerLink link) {
    this.plugin = plugin;
    this.link = link;
  }

  Service build() {
    return Service.builder(plugin.serviceName())
        .on(ShellTopics.REALLOC_METHOD, this::realloc)
        .on(ShellTopics.REALLOC_CANCEL_METHOD, this::reallocCancel)
        .on(ShellTopics.RELEASE_METHOD, this::release)
        .on(ShellTopics.TASK_EXIT_METHOD, this::taskExit)
        .onCancel(this::canceled)
        .onDisconnect(this::disconnected)
        .build();
  }

  /** The payload after the caller check: the job's user or the instance owner (D16). */
  private ObjectNode payload(ServiceRequest req, Set<String> keys) {
    return JobAccess.payload(req, plugin.userid(), JobId.f58(plugin.jobId()), keys);
  }

  private static RpcException malformed(ServiceRequest req, ProtocolException e) {
    return new RpcException(Errno.EPROTO, req.topic() + ": " + e.getMessage());
  }

  static RpcException rpcError(Throwable t) {
    Throwable e = JobManagerLink.unwrap(t);
    if (e instanceof ShellException s) {
      return new RpcException(s.errnum(), s.getMessage());
    }
    return e instanceof RpcException re ? re : new RpcException(Errno.EIO, String.valueOf(e));
  }

  private static void answerOrDrop(ServiceRequest req) {
    if (req.expectsResponse()) {
      req.respond(Json.object());
    } else {
      req.drop();
    }
  }

  private void realloc(ServiceRequest req) {
    ObjectNode p = payload(req, ReallocSpecs.KEYS);
    ReallocSpecs specs;
    try {
      specs = ReallocSpecs.fromJson(p);
    } catch (ProtocolException e) {
      throw malformed(req, e);
    }
    if (!req.expectsResponse()) {
      throw new RpcException(
          Errno.EPROTO, req.topic() + ": sent without a response (expected: an RPC)");
    }
    PendingRequests.Key key = PendingRequests.Key.of(req);
    // RFC 6: a matchtag names one request in flight
    link.pending().requireFree(req.topic(), key);
    link.forward(key, new JobManagerLink.Pending(), specs)
        .whenComplete(
            (a, err) -> {
              if (err != null) {
                RpcException e = rpcError(err);
                req.fail(e.errnum(), e.getMessage());
                return;
              }
              req.respond(a.toRecord().toJson(plugin.r()));
            });
  }

  private void reallocCancel(ServiceRequest req) {
    ObjectNode p = payload(req, CANCEL_KEYS);
    int tag = PendingRequests.matchtagOf(req.topic(), p);
    JobManagerLink.Pending pend = link.pending().get(req.sender(), tag);
    if (pend == null) {
      LOG.debug("{}: matchtag {} not pending, ignored", req.topic(), tag);
    } else {
      link.cancel(pend);
    }
    answerOrDrop(req);
  }

  private IdSet ranks(ServiceRequest req) {
    try {
      return ShellRanks.fromJson(payload(req, ShellRanks.KEYS)).ranks();
    } catch (ProtocolException e) {
      throw malformed(req, e);
    }
  }

  private void release(ServiceRequest req) {
    CompletableFuture<ResourceSet> f = plugin.exited(req.topic(), ranks(req));
    f.whenComplete(
        (rr, err) -> {
          if (err != null) {
            RpcException e = rpcError(err);
            req.fail(e.errnum(), e.getMessage());
          } else {
            req.respond(new JobR(rr).toJson());
          }
        });
  }

  private void taskExit(ServiceRequest req) {
    IdSet ranks = ranks(req);
    try {
      plugin.exitedOrThrow(req.topic(), ranks);
    } catch (ShellException e) {
      throw new RpcException(e.errnum(), e.getMessage());
    }
    answerOrDrop(req);
  }

  private void canceled(ServiceRequest req) {
    JobManagerLink.Pending pend = link.pending().canceledBy(req);
    if (pend != null) {
      link.cancel(pend);
    } else {
      req.fail(Errno.ECANCELED, req.topic() + ": request canceled");
    }
  }

  /** The sender went away: its reallocs are canceled; each stays until its answer comes. */
  private void disconnected(String sender) {
    for (JobManagerLink.Pending pend : link.pending().ofSender(sender)) {
      link.cancel(pend);
    }
  }
}
