package io.fluxdrm.shell;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rpc.service.ServiceRequest;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code job-manager} for one job whose answers the test chooses. Its payloads are those of the
 * bridge's job manager (docs/protocol-mapping.md, "Job manager"): {@code realloc} is answered with
 * the scheduler's answer plus {@code "R"}, the job's R after it; a SUCCESS with {@code R_delta_sub}
 * leaves R unchanged and marks the resources as being released; {@code release {id, ranks,
 * final:false}} takes everything being released on those ranks (EINVAL for other ranks) and answers
 * {@code {"R": R}}; {@code realloc_cancel {matchtag}} makes the sender's pending realloc answer
 * CANCEL and is never answered itself.
 */
final class ShellFacingJobManager {
  final long jobId;
  ResourceSet r;
  ResourceSet releasing = ResourceSet.empty();
  private final boolean withRealloc;
  private long nextAllocId = 1;

  /** Reallocs not answered yet, oldest first. */
  final List<ServiceRequest> pending = new ArrayList<>();

  final List<ObjectNode> reallocs = new ArrayList<>();
  final List<ObjectNode> releases = new ArrayList<>();
  final List<ObjectNode> cancels = new ArrayList<>();

  /** Everything handed back by {@code release}, in order. */
  final List<ResourceSet> released = new ArrayList<>();

  ShellFacingJobManager(long jobId, ResourceSet r, boolean withRealloc) {
    this.jobId = jobId;
    this.r = r;
    this.withRealloc = withRealloc;
  }

  Service service() {
    Service.Builder b =
        Service.builder(ShellPlugin.JOB_MANAGER)
            .on("release", this::release)
            .on("realloc_cancel", this::reallocCancel);
    if (withRealloc) {
      b.on("realloc", this::realloc);
    }
    return b.build();
  }

  private void realloc(ServiceRequest req) {
    reallocs.add(req.json());
    pending.add(req);
  }

  private ServiceRequest next() {
    if (pending.isEmpty()) {
      throw new AssertionError("no realloc pending at the fake job manager");
    }
    return pending.remove(0);
  }

  private ObjectNode base(int type) {
    return Json.object().put("alloc_id", nextAllocId++).put("type", type);
  }

  /** Answers the oldest realloc SUCCESS with {@code add}. */
  void grant(ResourceSet add) {
    ServiceRequest req = next();
    ObjectNode a = base(0);
    a.set("R_delta_add", add.toJson());
    r = r.union(add);
    a.set("R", r.toJson());
    req.respond(a);
  }

  /** Answers the oldest realloc SUCCESS with {@code sub} (R unchanged until released). */
  void shrink(ResourceSet sub) {
    ServiceRequest req = next();
    ObjectNode a = base(0);
    a.set("R_delta_sub", sub.toJson());
    releasing = releasing.union(sub);
    a.set("R", r.toJson());
    req.respond(a);
  }

  /** Answers the oldest realloc with {@code type} (1 DENY, 2 CANCEL, 3 UNSUPPORTED). */
  void answer(int type, String note) {
    ServiceRequest req = next();
    ObjectNode a = base(type);
    if (note != null) {
      a.put("note", note);
    }
    a.set("R", r.toJson());
    req.respond(a);
  }

  /** Answers the oldest realloc with an arbitrary payload. */
  void answerRaw(ObjectNode payload) {
    next().respond(payload);
  }

  /** Answers the oldest realloc with an error. */
  void fail(int errnum, String text) {
    next().fail(errnum, text);
  }

  private void release(ServiceRequest req) {
    ObjectNode p = req.json();
    releases.add(p);
    JsonNode fin = p.get("final");
    if (p.path("id").asLong(-1) != jobId || fin == null || fin.asBoolean()) {
      throw new RpcException(
          Errno.EPROTO, "release: " + p + " (expected: {id, ranks, final:false})");
    }
    IdSet ranks = IdSet.parse(p.get("ranks").asText());
    if (ranks.isEmpty() || !ranks.isSubsetOf(releasing.ranks())) {
      throw new RpcException(Errno.EINVAL, "release: ranks " + ranks + " not being released");
    }
    ResourceSet out = releasing.copyRanks(ranks);
    releasing = releasing.diff(out);
    r = r.diff(out);
    released.add(out);
    ObjectNode a = Json.object();
    a.set("R", r.toJson());
    req.respond(a);
  }

  private void reallocCancel(ServiceRequest req) {
    ObjectNode p = req.json();
    cancels.add(p);
    int tag = p.path("matchtag").asInt(-1);
    for (ServiceRequest q : List.copyOf(pending)) {
      if (q.matchtag() == tag && q.sender().equals(req.sender())) {
        pending.remove(q);
        ObjectNode a = base(2);
        a.set("R", r.toJson());
        q.respond(a);
      }
    }
    req.drop();
  }
}
