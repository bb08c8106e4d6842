package io.fluxdrm.jobmanager;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.protocol.FluxPayloads;
import io.fluxdrm.protocol.ProtocolException;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.reactor.EventLoop;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rpc.service.ServiceRequest;
import java.util.Iterator;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code bridge} service of {@code fluxdrm bridge} (decision D138): how jobs come to exist for
 * the job manager it runs. Not an RFC protocol; two methods:
 *
 * <ul>
 *   <li>{@code bridge.submit {"jobspec": V1 jobspec}} → {@code {"id", "userid", "R"}} once the
 *       scheduler allocated it (the job's user is the caller's uid); EAGAIN while the scheduler has
 *       not said {@code sched-ready}, EINVAL when it denied the job;
 *   <li>{@code bridge.finish {"id"}} → {@code {}}: the job ends and gives back everything it holds
 *       ({@code sched.free final: true}); instance owner only (EPERM), ENOENT for an unknown or
 *       ended job;
 *   <li>{@code bridge.list {}} → {@code {"jobs": [{"id", "userid", "R", "releasing"}]}}: the
 *       running jobs in ascending id order, each with its R (granted shrinks not released yet
 *       included) and what of it is being released; read-only, instance owner only (EPERM). It is
 *       how a client that lost an answer learns which jobs exist (D500).
 * </ul>
 *
 * Handlers run on the handle's loop, as the job manager's do.
 */
public final class BridgeService {
  private static final Logger LOG = LoggerFactory.getLogger(BridgeService.class);

  /** The service name. */
  public static final String NAME = "bridge";

  /** Resource temporarily unavailable (Linux errno 11). */
  public static final int EAGAIN = 11;

  private final JobManager jm;
  private final EventLoop loop;

  public BridgeService(JobManager jm, EventLoop loop) {
    this.jm = jm;
    this.loop = loop;
  }

  public Service service() {
    return Service.builder(NAME)
        .on("submit", this::submit)
        .on("finish", this::finish)
        .on("list", this::list)
        .build();
  }

  private static void onlyKeys(ServiceRequest req, ObjectNode p, String key) {
    for (Iterator<String> it = p.fieldNames(); it.hasNext(); ) {
      String k = it.next();
      if (!k.equals(key)) {
        throw new RpcException(
            Errno.EPROTO, req.topic() + ": /" + k + ": unknown key (expected: " + key + ")");
      }
    }
  }

  private void submit(ServiceRequest req) {
    ObjectNode p = req.json();
    onlyKeys(req, p, "jobspec");
    JsonNode js = p.get("jobspec");
    if (js == null || !js.isObject()) {
      throw new RpcException(
          Errno.EPROTO,
          req.topic()
              + ": /jobspec: "
              + (js == null
                  ? "missing"
                  : js.getNodeType().toString().toLowerCase(java.util.Locale.ROOT))
              + " (expected: a jobspec object)");
    }
    if (!req.expectsResponse()) {
      throw new RpcException(
          Errno.EPROTO, req.topic() + ": sent without a response (expected: an RPC)");
    }
    if (!jm.schedulerOnline()) {
      throw new RpcException(
          EAGAIN,
          req.topic() + ": scheduler not online yet (expected: retry after its sched-ready)");
    }
    int userid = req.credentials().userid();
    jm.submit(js, userid)
        .whenCompleteAsync(
            (id, err) -> {
              if (err != null) {
                Throwable c =
                    err instanceof CompletionException && err.getCause() != null
                        ? err.getCause()
                        : err;
                if (c instanceof RpcException r) {
                  req.fail(r.errnum(), req.topic() + ": " + r.getMessage());
                } else {
                  req.fail(Errno.EINVAL, req.topic() + ": " + c.getMessage());
                }
                LOG.info("{}: {}", req.topic(), c.getMessage());
                return;
              }
              ObjectNode a = Json.object();
              a.set("id", FluxPayloads.id(id));
              a.put("userid", Integer.toUnsignedLong(userid));
              a.set("R", jm.jobR(id).orElseThrow().toJson());
              req.respond(a);
            },
            loop::execute);
  }

  private void list(ServiceRequest req) {
    ObjectNode p = req.json();
    if (p.size() > 0) {
      String k = p.fieldNames().next();
      throw new RpcException(
          Errno.EPROTO, req.topic() + ": /" + k + ": unknown key (expected: no keys)");
    }
    req.requireOwner("the owner lists jobs");
    ObjectNode a = Json.object();
    com.fasterxml.jackson.databind.node.ArrayNode jobs = a.putArray("jobs");
    for (long id : jm.runningJobs()) {
      ObjectNode j = jobs.addObject();
      j.set("id", FluxPayloads.id(id));
      j.put("userid", Integer.toUnsignedLong(jm.jobUser(id).orElseThrow()));
      j.set("R", jm.jobR(id).orElseThrow().toJson());
      j.set("releasing", jm.releasing(id).orElseThrow().toJson());
    }
    req.respond(a);
  }

  private void finish(ServiceRequest req) {
    ObjectNode p = req.json();
    onlyKeys(req, p, "id");
    long id;
    try {
      id = FluxPayloads.readId(p.get("id"), req.topic() + ": /id");
    } catch (ProtocolException e) {
      throw new RpcException(Errno.EPROTO, e.getMessage());
    }
    req.requireOwner("the owner ends jobs");
    jm.finish(id)
        .whenCompleteAsync(
            (v, err) -> {
              if (err == null) {
                req.respond(Json.object());
                return;
              }
              Throwable c =
                  err instanceof CompletionException && err.getCause() != null
                      ? err.getCause()
                      : err;
              req.fail(
                  c instanceof JobManagerException ? Errno.ENOENT : Errno.EIO,
                  req.topic() + ": " + c.getMessage());
            },
            loop::execute);
  }
}
