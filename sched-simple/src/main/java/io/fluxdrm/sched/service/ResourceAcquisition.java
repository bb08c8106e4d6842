package io.fluxdrm.sched.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.protocol.FluxTopics;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.SchedEvent;
import io.fluxdrm.sched.SchedulerCore;
import io.fluxdrm.sched.SchedulerOptions;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;

/**
 * An attached scheduler's pool: the {@code resource.acquire} stream (RFC 28). The first response
 * carries the whole R and creates the {@link SchedulerCore}; each later one is an update (ranks up,
 * down or shrunk away, properties added or removed, a new expiration) handed to the core as a
 * {@link SchedEvent.ResourceUpdate}. The first response also starts the job manager link.
 */
final class ResourceAcquisition {
  private final Logger log;

  private final DecisionRunner runner;
  private final JobManagerLink link;
  private final SchedulerOptions options;

  ResourceAcquisition(
      DecisionRunner runner, JobManagerLink link, SchedulerOptions options, Logger log) {
    this.log = log;
    this.runner = runner;
    this.link = link;
    this.options = options;
  }

  /** Opens the stream; {@code started} completes once the job manager answered sched-ready. */
  void acquire(FluxHandle handle, CompletableFuture<Void> started) {
    boolean[] first = {true};
    handle.stream(
            FluxTopics.RESOURCE_ACQUIRE,
            null,
            m -> {
              try {
                acquired(m.json(), first[0]);
              } catch (RuntimeException e) {
                log.error("{}: {}", FluxTopics.RESOURCE_ACQUIRE, e.getMessage());
                if (first[0]) {
                  started.completeExceptionally(e);
                }
                return;
              }
              if (first[0]) {
                first[0] = false;
                link.hello(true);
                link.online()
                    .whenComplete(
                        (v, err) -> {
                          if (err != null) {
                            started.completeExceptionally(err);
                          } else {
                            started.complete(null);
                          }
                        });
              }
            },
            null)
        .done()
        .whenComplete(
            (v, err) -> {
              if (err != null) {
                log.error(
                    "{} ended: {}",
                    FluxTopics.RESOURCE_ACQUIRE,
                    DecisionRunner.asRpc(DecisionRunner.cause(err)).getMessage());
                started.completeExceptionally(DecisionRunner.cause(err));
              }
            });
  }

  private void acquired(ObjectNode p, boolean first) {
    String t = FluxTopics.RESOURCE_ACQUIRE;
    IdSet up = p.has("up") ? Payloads.idset(t, "up", p.get("up")) : IdSet.empty();
    IdSet down = p.has("down") ? Payloads.idset(t, "down", p.get("down")) : IdSet.empty();
    IdSet shrink = p.has("shrink") ? Payloads.idset(t, "shrink", p.get("shrink")) : IdSet.empty();
    Map<String, IdSet> add = Payloads.properties(t, "property-add", p.get("property-add"));
    Map<String, IdSet> remove = Payloads.properties(t, "property-remove", p.get("property-remove"));
    double expiration = Double.NaN;
    if (p.has("expiration")) {
      JsonNode e = p.get("expiration");
      if (!e.isNumber()) {
        throw new RpcException(
            Errno.EPROTO, t + ": /expiration: " + Rfc27Handlers.kind(e) + " (expected: a number)");
      }
      expiration = e.asDouble();
    }
    if (first) {
      JsonNode resources = p.get("resources");
      if (resources == null) {
        throw new RpcException(Errno.EPROTO, t + ": /resources: missing (expected: R)");
      }
      ResourceSet all = Payloads.r(t, "resources", resources);
      runner.core(SchedulerCore.of(all, options));
      // everything down first, then up (RFC 28 as flux-core's schedulers read it)
      down = all.ranks().difference(up);
      log.info("{}: pool {} up {}", t, all.summary(), up);
    } else {
      log.info(
          "{}: up {} down {} shrink {} property-add {} property-remove {}{}",
          t,
          up,
          down,
          shrink,
          add.keySet(),
          remove.keySet(),
          Double.isNaN(expiration) ? "" : " expiration " + expiration);
    }
    runner.handle(new SchedEvent.ResourceUpdate(up, down, shrink, add, remove, expiration));
  }
}
