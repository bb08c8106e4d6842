package io.fluxdrm.sched.service;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.protocol.Rfc27Topics;
import io.fluxdrm.protocol.Rfc51Topics;
import io.fluxdrm.protocol.SchedFree;
import io.fluxdrm.rpc.JobId;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.service.ServiceRequest;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.Decision;
import io.fluxdrm.sched.SchedulerCore;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code sched.watch} (decision D427), fluxdrm's and not RFC 27's: a streaming request of the
 * instance owner that is answered first with what the scheduler holds, {@code {"pool": R, "jobs":
 * [{"id", "R"}]}}, then once per decision that changes or refuses an allocation, {@code {"topic",
 * "payload"}} with the very payload the scheduler sent or was sent: the {@code sched.alloc} answer
 * (SUCCESS, ANNOTATE, DENY, CANCEL), the {@code sched.realloc} answer (with {@code "id"}, the job,
 * and {@code "request"}: grow, shrink or realloc), the {@code sched.free} request it carried out.
 * After a job manager's hello, the whole of what is held again, under {@code
 * job-manager.sched-hello} (D521). The stream ends when the watcher disconnects, or with ENODATA,
 * its normal end, when the watcher sends {@code sched.watch-cancel {"matchtag": N}} (D520: the
 * method's own cancel, as flux-core's {@code job-info.eventlog-watch-cancel}; RFC 27's {@code
 * sched.cancel} is an alloc's). {@code fluxdrm plot --live} reads it.
 */
final class Watchers {
  static final String METHOD = "watch";

  /** The watch's own cancel (D520). */
  static final String CANCEL_METHOD = METHOD + io.fluxdrm.rpc.service.Service.CANCEL_SUFFIX;

  private final List<ServiceRequest> watchers = new ArrayList<>();

  /** Starts a watch: the owner only, answered with the snapshot. */
  void watch(ServiceRequest req, SchedulerCore core) {
    req.requireOwner("the instance owner");
    req.respond(snapshot(core));
    watchers.add(req);
  }

  /**
   * A job manager's hello was taken (decision D521): the running jobs are the job manager's, whose
   * R wins over what the scheduler had recorded (D502), so a grant it never recorded is freed
   * without a {@code sched.free}. Every watcher gets what is held now, {@code {"topic":
   * "job-manager.sched-hello", "payload": {"pool", "jobs"}}}, the snapshot's form, in place of what
   * it followed.
   */
  void resynced(SchedulerCore core) {
    if (watchers.isEmpty()) {
      return;
    }
    ObjectNode item = item(Rfc27Topics.SCHED_HELLO, snapshot(core));
    watchers.removeIf(ServiceRequest::isDone);
    for (ServiceRequest w : watchers) {
      w.respond(item);
    }
  }

  private static ObjectNode snapshot(SchedulerCore core) {
    ObjectNode snap = Json.object();
    snap.set("pool", core.pool().all().toJson());
    ArrayNode jobs = snap.putArray("jobs");
    for (long id : core.pool().jobs()) {
      ResourceSet r = core.pool().allocation(id).orElse(ResourceSet.empty());
      ObjectNode j = jobs.addObject();
      j.set("id", JobId.json(id));
      j.set("R", r.toJson());
    }
    return snap;
  }

  boolean isEmpty() {
    return watchers.isEmpty();
  }

  /** The watches going on (those that ended are not counted). */
  int count() {
    watchers.removeIf(ServiceRequest::isDone);
    return watchers.size();
  }

  /**
   * {@code sched.watch-cancel {"matchtag": N}}: the sender's watch of that matchtag ends with
   * ENODATA and is forgotten; none of its, nothing happens (it may have ended already).
   *
   * @throws RpcException EPROTO for a payload without a matchtag
   */
  void cancel(ServiceRequest req) {
    ObjectNode p = req.json();
    ServiceRequest.requireOnlyKeys(req.topic(), p, java.util.Set.of("matchtag"));
    com.fasterxml.jackson.databind.JsonNode tag = p.get("matchtag");
    if (tag == null || !tag.canConvertToInt() || tag.asInt() <= 0) {
      throw new io.fluxdrm.rpc.RpcException(
          io.fluxdrm.rpc.Errno.EPROTO,
          req.topic() + ": /matchtag: " + tag + " (expected: the watch's matchtag, above 0)");
    }
    for (var it = watchers.iterator(); it.hasNext(); ) {
      ServiceRequest w = it.next();
      if (w.sender().equals(req.sender()) && w.matchtag() == tag.asInt()) {
        it.remove();
        w.end();
        return;
      }
    }
  }

  /** Tells every watcher about the decisions that concern allocations. */
  void decided(List<Decision> out) {
    if (watchers.isEmpty()) {
      return;
    }
    for (Decision d : out) {
      ObjectNode item = item(d);
      if (item != null) {
        watchers.removeIf(ServiceRequest::isDone);
        for (ServiceRequest w : watchers) {
          w.respond(item);
        }
      }
    }
  }

  private static ObjectNode item(Decision d) {
    if (d instanceof Decision.AllocSuccess s) {
      return item(Rfc27Topics.ALLOC, Payloads.allocSuccess(s));
    } else if (d instanceof Decision.AllocAnnotate x) {
      return item(Rfc27Topics.ALLOC, Payloads.allocAnnotate(x));
    } else if (d instanceof Decision.AllocDeny x) {
      return item(Rfc27Topics.ALLOC, Payloads.allocDeny(x));
    } else if (d instanceof Decision.AllocCancel x) {
      return item(Rfc27Topics.ALLOC, Payloads.allocCancel(x));
    } else if (d instanceof Decision.ReallocResponse x) {
      ObjectNode o = item(Rfc51Topics.SCHED_REALLOC, Payloads.realloc(x));
      o.set("id", JobId.json(x.jobId()));
      o.put(
          "request",
          x.rDeltaAdd() != null && x.rDeltaSub() == null
              ? "grow"
              : x.rDeltaSub() != null && x.rDeltaAdd() == null ? "shrink" : "realloc");
      return o;
    } else if (d instanceof Decision.Freed x) {
      return item(Rfc27Topics.FREE, new SchedFree(x.jobId(), x.r(), x.isFinal()).toJson());
    }
    return null;
  }

  private static ObjectNode item(String topic, ObjectNode payload) {
    ObjectNode o = Json.object();
    o.put("topic", topic);
    o.set("payload", payload);
    return o;
  }

  /** The sender left: its watches end. */
  void disconnected(String sender) {
    watchers.removeIf(w -> w.isDone() || w.sender().equals(sender));
  }
}
