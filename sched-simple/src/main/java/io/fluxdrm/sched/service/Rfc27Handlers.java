package io.fluxdrm.sched.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.JobId;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.service.ServiceRequest;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.Decision;
import io.fluxdrm.sched.JobspecRequests;
import io.fluxdrm.sched.ResourceRequest;
import io.fluxdrm.sched.SchedEvent;
import io.fluxdrm.sched.SchedException;
import io.fluxdrm.sched.SchedulerCore;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.slf4j.Logger;

/**
 * The RFC 27 requests of the job manager ({@code sched.alloc}, {@code free}, {@code cancel}, {@code
 * prioritize}, {@code expiration}) and the read-only {@code sched.resource-status} and {@code
 * feasibility.check}: each payload is checked against its schema, decoded into a {@link SchedEvent}
 * and handed to the {@link DecisionRunner}. It remembers which senders acted as the job manager
 * (sent an alloc, a cancel, a prioritize or an expiration), so that the disconnect of one cancels
 * its allocs and starts a new hello; a sender of {@code sched.free} alone is not one (D471).
 */
final class Rfc27Handlers {
  private final Logger log;

  private final DecisionRunner runner;
  private final Set<String> jobManagers = new HashSet<>();

  /** The jobspecs read last, by their text (D585). */
  private final KnownJobspecs jobspecs = new KnownJobspecs();

  Rfc27Handlers(DecisionRunner runner, Logger log) {
    this.log = log;
    this.runner = runner;
  }

  /** Whether {@code sender} sent RFC 27 requests; it is forgotten by this call. */
  boolean forgetJobManager(String sender) {
    return jobManagers.remove(sender);
  }

  void alloc(ServiceRequest req) {
    req.requireOwner("the job manager");
    // a jobspec read before: the payload is read as bytes, nothing else is needed (D585)
    KnownJobspecs.Alloc fast = runner.core() == null ? null : KnownJobspecs.read(req.message());
    ResourceRequest known = jobspecs.request(fast);
    if (known != null) {
      jobManagers.add(req.sender());
      submit(
          req,
          new SchedEvent.Alloc(fast.id(), fast.priority(), fast.userid(), fast.tSubmit(), known));
      return;
    }
    ObjectNode p = req.json();
    Payloads.check(req.topic(), "sched.alloc-request", p);
    SchedulerCore c = runner.requireCore(req.topic());
    jobManagers.add(req.sender());
    long id = Payloads.u64(p.get("id"));
    ResourceRequest request;
    try {
      request = JobspecRequests.of(p.get("jobspec"));
    } catch (SchedException e) {
      // RFC 27 §4.1: one alloc per job; a second is a protocol error, not a denial
      if (runner.hasAlloc(id) || c.isRunning(id)) {
        throw new RpcException(
            Errno.EPROTO,
            "alloc: job "
                + Long.toUnsignedString(id)
                + (c.isRunning(id)
                    ? " already holds resources"
                    : " already has a pending alloc request"));
      }
      Decision.AllocDeny deny = new Decision.AllocDeny(id, e.getMessage());
      log.info("alloc {}: denied: {}", JobId.f58(id), deny.note());
      req.respond(Payloads.allocDeny(deny));
      return;
    }
    jobspecs.learn(fast, request);
    submit(
        req,
        new SchedEvent.Alloc(
            id,
            p.get("priority").asLong(),
            p.get("userid").asLong(),
            p.path("t_submit").asDouble(0),
            request));
  }

  private void submit(ServiceRequest req, SchedEvent.Alloc e) {
    long id = e.id();
    boolean mine = runner.parkAlloc(id, req);
    runner.run(e, req, mine ? () -> runner.unparkAlloc(id, req) : () -> {});
  }

  void free(ServiceRequest req) {
    req.requireOwner("the job manager");
    // not a job manager mark (D471): RFC 51 lets a job's realloc client send the partial free of a
    // shrink, and its disconnect must not make the scheduler say hello again
    SchedEvent.Free e = runner.core() == null ? null : runner.sentGrants().recognize(req.message());
    if (e == null) {
      ObjectNode p = req.json();
      Payloads.check(req.topic(), "sched.free-request", p);
      runner.requireCore(req.topic());
      long id = Payloads.u64(p.get("id"));
      boolean fin = p.path("final").asBoolean(false);
      ResourceSet r = Payloads.r(req.topic(), "R", p.get("R"));
      if (fin) {
        runner.sentGrants().forget(id);
      }
      e = new SchedEvent.Free(id, r, fin);
    }
    runner.run(e, req, () -> {});
  }

  void cancel(ServiceRequest req) {
    req.requireOwner("the job manager");
    ObjectNode p = req.json();
    Payloads.check(req.topic(), "sched.cancel-request", p);
    runner.requireCore(req.topic());
    jobManagers.add(req.sender());
    runner.run(new SchedEvent.Cancel(Payloads.u64(p.get("id"))), req, () -> {});
  }

  void prioritize(ServiceRequest req) {
    req.requireOwner("the job manager");
    ObjectNode p = req.json();
    Payloads.check(req.topic(), "sched.prioritize-request", p);
    runner.requireCore(req.topic());
    jobManagers.add(req.sender());
    List<SchedEvent.JobPriority> jobs = new ArrayList<>();
    for (JsonNode pair : p.get("jobs")) {
      jobs.add(new SchedEvent.JobPriority(Payloads.u64(pair.get(0)), pair.get(1).asLong()));
    }
    runner.run(new SchedEvent.Prioritize(jobs), req, () -> {});
  }

  void expiration(ServiceRequest req) {
    req.requireOwner("the job manager");
    ObjectNode p = req.json();
    JsonNode exp = p.get("expiration");
    if (exp != null && exp.isNumber() && exp.asDouble() < 0) {
      // a negative expiration is well formed: the core answers it EINVAL, as flux-core does (D83)
      Payloads.check(req.topic(), "sched.expiration-request", p.deepCopy().put("expiration", 0));
    } else {
      Payloads.check(req.topic(), "sched.expiration-request", p);
    }
    runner.requireCore(req.topic());
    jobManagers.add(req.sender());
    runner.run(new SchedEvent.Expiration(Payloads.u64(p.get("id")), exp.asDouble()), req, () -> {});
  }

  void resourceStatus(ServiceRequest req) {
    SchedulerCore c = runner.requireCore(req.topic());
    req.respond(Payloads.status(c.pool().all(), c.pool().allocated(), c.pool().down()));
  }

  void check(ServiceRequest req) {
    ObjectNode p = req.json();
    JsonNode jobspec = p.get("jobspec");
    if (jobspec == null || !jobspec.isObject()) {
      throw new RpcException(
          Errno.EPROTO, req.topic() + ": /jobspec: " + kind(jobspec) + " (expected: an object)");
    }
    SchedulerCore c = runner.requireCore(req.topic());
    ResourceRequest request;
    try {
      request = JobspecRequests.of(jobspec);
    } catch (SchedException e) {
      boolean unsat = e.getMessage().startsWith(JobspecRequests.UNSATISFIABLE_PREFIX);
      throw new RpcException(unsat ? Errno.EOVERFLOW : Errno.EINVAL, e.getMessage());
    }
    String note = c.feasibility(request).orElse(null);
    if (note != null) {
      throw new RpcException(Errno.EOVERFLOW, note);
    }
    req.respond(Json.object());
  }

  static String kind(JsonNode n) {
    return n == null ? "missing" : n.getNodeType().toString().toLowerCase(Locale.ROOT);
  }
}
