package io.fluxdrm.sched.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rset.ResourceSet;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A job manager written for the tests: it serves {@code job-manager.sched-hello} (the running jobs
 * it is given), {@code sched-ready} and {@code raise}, and sends RFC 27 / RFC 51 requests.
 */
final class SchedulerFacingJobManager {
  final FluxHandle h;
  final List<ObjectNode> running = new ArrayList<>();
  final List<ObjectNode> readies = new ArrayList<>();
  final List<ObjectNode> raised = new ArrayList<>();
  int hellos;

  SchedulerFacingJobManager(FluxHandle h) {
    this.h = h;
  }

  CompletableFuture<Void> register() {
    return h.register(
        Service.builder("job-manager")
            .onStreaming(
                "sched-hello",
                req -> {
                  hellos++;
                  for (ObjectNode j : running) {
                    req.respond(j);
                  }
                  req.end();
                })
            .on(
                "sched-ready",
                req -> {
                  readies.add(req.json());
                  req.respond(Json.object().put("count", 0));
                })
            .on(
                "raise",
                req -> {
                  raised.add(req.json());
                  req.respond(Json.object());
                })
            .build());
  }

  /** A hello entry for a running job. */
  ObjectNode runningJob(long id, String free) {
    ObjectNode j = Json.object().put("id", id).put("priority", 16).put("userid", 1000);
    j.put("t_submit", 1.0);
    if (free != null) {
      j.put("free", free);
    }
    running.add(j);
    return j;
  }

  /** {@code nslots} slots of {@code cores} cores, no node, duration {@code duration}. */
  static ObjectNode slots(int nslots, int cores, double duration) {
    return jobspec(null, nslots, cores, duration);
  }

  static ObjectNode nodes(int nnodes, int slots, int cores) {
    return jobspec(nnodes, slots, cores, 0);
  }

  private static ObjectNode jobspec(Integer nnodes, int nslots, int cores, double duration) {
    ObjectNode slot = Json.object().put("type", "slot").put("count", nslots).put("label", "task");
    slot.putArray("with").addObject().put("type", "core").put("count", cores);
    ObjectNode top = slot;
    if (nnodes != null) {
      top = Json.object().put("type", "node").put("count", nnodes);
      top.putArray("with").add(slot);
    }
    ObjectNode js = Json.object().put("version", 1);
    js.putArray("resources").add(top);
    ObjectNode task = js.putArray("tasks").addObject();
    task.putArray("command").add("true");
    task.put("slot", "task");
    task.putObject("count").put("per_slot", 1);
    js.putObject("attributes").putObject("system").put("duration", duration);
    return js;
  }

  CompletableFuture<Message> alloc(long id, JsonNode jobspec) {
    return alloc(id, 16, jobspec);
  }

  CompletableFuture<Message> alloc(long id, long priority, JsonNode jobspec) {
    ObjectNode p = Json.object().put("id", id).put("priority", priority).put("userid", 1000);
    p.put("t_submit", 1.0);
    p.set("jobspec", jobspec);
    return h.rpc("sched.alloc", p);
  }

  /**
   * {@code sched.alloc} that keeps every response (ANNOTATE ones, then the final one) in {@code
   * responses}, as flux-core's job manager reads them.
   */
  void allocKeepingAll(long id, JsonNode jobspec, List<ObjectNode> responses) {
    ObjectNode p = Json.object().put("id", id).put("priority", 16).put("userid", 1000);
    p.put("t_submit", 1.0);
    p.set("jobspec", jobspec);
    h.stream("sched.alloc", p, m -> responses.add(m.json()), null);
  }

  void free(long id, ResourceSet r, boolean fin) {
    ObjectNode p = Json.object().put("id", id);
    p.set("R", r.toJson());
    p.put("final", fin);
    h.send("sched.free", p);
  }

  void cancel(long id) {
    h.send("sched.cancel", Json.object().put("id", id));
  }

  void prioritize(long id, long priority) {
    ObjectNode p = Json.object();
    ArrayNode pair = p.putArray("jobs").addArray();
    pair.add(id).add(priority);
    h.send("sched.prioritize", p);
  }

  CompletableFuture<Message> realloc(long id, JsonNode add, JsonNode sub, ResourceSet r) {
    ObjectNode p = Json.object().put("job_id", id);
    if (add != null) {
      p.set("spec_add", add);
    }
    if (sub != null) {
      p.set("spec_sub", sub);
    }
    if (r != null) {
      p.set("R", r.toJson());
    }
    return h.rpc("sched.realloc", p);
  }
}
