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
 * job-manager.sched-hello} (D521). The stream ends when the watcher disconnects. {@code fluxdrm
 * plot --live} reads it.
 */
final class Watchers {
  static final String METHOD = "watch";

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
