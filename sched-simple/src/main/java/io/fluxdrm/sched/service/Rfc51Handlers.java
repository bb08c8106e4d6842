package io.fluxdrm.sched.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.service.PendingRequests;
import io.fluxdrm.rpc.service.ServiceRequest;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.JobspecRequests;
import io.fluxdrm.sched.ResourceRequest;
import io.fluxdrm.sched.SchedEvent;
import io.fluxdrm.sched.SchedException;

/**
 * The RFC 51 requests: {@code sched.realloc} (parked in the {@link DecisionRunner} under its sender
 * and matchtag until the core answers it) and {@code sched.realloc_cancel}, which names a pending
 * realloc by that matchtag.
 */
final class Rfc51Handlers {
  private final DecisionRunner runner;
  private final long instanceOwner;

  Rfc51Handlers(DecisionRunner runner, long instanceOwner) {
    this.runner = runner;
    this.instanceOwner = instanceOwner;
  }

  void realloc(ServiceRequest req) {
    ObjectNode p = req.json();
    Payloads.check(req.topic(), "sched.realloc-request", p);
    runner.requireCore(req.topic());
    if (!req.expectsResponse()) {
      // D2: a realloc is an RPC; its answer is the grant
      throw new RpcException(
          Errno.EPROTO, req.topic() + ": sent without a response (expected: an RPC, D2)");
    }
    ResourceRequest add = spec(req.topic(), "spec_add", p);
    ResourceRequest sub = spec(req.topic(), "spec_sub", p);
    ResourceSet r = p.has("R") ? Payloads.r(req.topic(), "R", p.get("R")) : null;
    long matchtag = Integer.toUnsignedLong(req.matchtag());
    long userid =
        req.isOwner() ? instanceOwner : Integer.toUnsignedLong(req.credentials().userid());
    SchedEvent.Realloc e =
        new SchedEvent.Realloc(
            Payloads.u64(p.get("job_id")), matchtag, req.sender(), userid, add, sub, r);
    // a duplicate matchtag is left to the core, which refuses it with its own message (RFC 6)
    PendingRequests.Key key = PendingRequests.Key.of(req);
    boolean mine = runner.parkRealloc(key, req);
    runner.run(e, req, mine ? () -> runner.unparkRealloc(key, req) : () -> {});
  }

  private static ResourceRequest spec(String topic, String key, ObjectNode p) {
    JsonNode n = p.get(key);
    if (n == null) {
      return null;
    }
    try {
      return JobspecRequests.of(n);
    } catch (SchedException e) {
      throw new RpcException(Errno.EINVAL, topic + ": /" + key + ": " + e.getMessage());
    }
  }

  void reallocCancel(ServiceRequest req) {
    ObjectNode p = req.json();
    Payloads.check(req.topic(), "sched.realloc_cancel-request", p);
    runner.requireCore(req.topic());
    runner.run(
        new SchedEvent.ReallocCancel(req.sender(), p.get("matchtag").asLong()), req, () -> {});
  }
}
