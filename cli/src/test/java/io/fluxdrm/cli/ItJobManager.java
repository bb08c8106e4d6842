package io.fluxdrm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rset.ResourceSet;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A job manager for the process-level ITs, on any handle (Unix socket or ZeroMQ): it registers
 * {@code job-manager}, serves {@code sched-hello} (streaming: one response per running job, then
 * ENODATA, RFC 27) and {@code sched-ready}, and sends RFC 27 / RFC 51 requests to {@code sched}.
 */
final class ItJobManager implements AutoCloseable {
  static final Duration ANSWER = Duration.ofSeconds(30);

  final FluxHandle h;
  final List<ObjectNode> running = new CopyOnWriteArrayList<>();
  final List<JsonNode> hellos = new CopyOnWriteArrayList<>();
  final CompletableFuture<ObjectNode> ready = new CompletableFuture<>();

  ItJobManager(FluxHandle h, List<ObjectNode> jobs)
      throws InterruptedException, ExecutionException, TimeoutException {
    this.h = h;
    running.addAll(jobs);
    h.register(
            Service.builder("job-manager")
                .onStreaming(
                    "sched-hello",
                    req -> {
                      hellos.add(req.json());
                      running.forEach(req::respond);
                      req.end();
                    })
                .on(
                    "sched-ready",
                    req -> {
                      ready.complete(req.json());
                      req.respond(Json.object().put("count", 0));
                    })
                .build())
        .get(ANSWER.toSeconds(), TimeUnit.SECONDS);
  }

  /** The ready payload, once the scheduler sent it. */
  ObjectNode awaitReady() throws Exception {
    return ready.get(SchedProcess.SLOW.toSeconds(), TimeUnit.SECONDS);
  }

  Message call(String topic, ObjectNode p) throws Exception {
    return h.rpc(topic, p).get(ANSWER.toSeconds(), TimeUnit.SECONDS);
  }

  /** A {@code sched.alloc} payload for job {@code id}. */
  static ObjectNode alloc(long id, JsonNode jobspec) {
    ObjectNode p = Json.object().put("id", id).put("priority", 16).put("userid", 1000);
    p.put("t_submit", 1.0);
    p.set("jobspec", jobspec);
    return p;
  }

  /** A hello entry for a running job. */
  static ObjectNode runningJob(long id) {
    ObjectNode j = Json.object().put("id", id).put("priority", 16).put("userid", 1000);
    return j.put("t_submit", 1.0);
  }

  /** The summary of what {@code sched.resource-status} calls allocated. */
  String allocated() throws Exception {
    Message m = call("sched.resource-status", Json.object());
    return ResourceSet.fromJson(m.json().get("allocated")).summary();
  }

  /** Polls {@code sched.resource-status} until allocated is {@code want} (frees are unanswered). */
  void awaitAllocated(String want) throws Exception {
    long deadline = System.nanoTime() + ANSWER.toNanos();
    while (!allocated().equals(want) && System.nanoTime() - deadline < 0) {
      Thread.sleep(20); // polling with a deadline
    }
  }

  @Override
  public void close() {
    h.close();
  }
}
