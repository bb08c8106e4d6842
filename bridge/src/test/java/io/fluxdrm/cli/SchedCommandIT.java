package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.net.FluxHandle;
import io.fluxdrm.rpc.net.Reactor;
import io.fluxdrm.rpc.net.Service;
import io.fluxdrm.rset.ResourceSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fluxdrm sched --listen unix:DIR} as a real process: a job manager written here connects
 * over the Unix socket, receives hello and ready, runs an alloc, a grow and a free; SIGTERM stops
 * the process cleanly; a second process on the same state directory rebuilds the grown job from the
 * job manager's hello.
 */
@Timeout(90)
class SchedCommandIT {

  private static Process start(Path hub, Path state, Path log) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Main.class.getName());
    cmd.addAll(
        List.of(
            "sched",
            "--listen",
            "unix:" + hub,
            "--hosts",
            "node[0-3]",
            "--cores",
            "0-3",
            "--state-dir",
            state.toString()));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.redirectOutput(log.toFile());
    return pb.start();
  }

  /** A job manager for the test: its hello lists {@code running}; counts readies. */
  private static final class JobManager {
    final FluxHandle h;
    final List<ObjectNode> running = new CopyOnWriteArrayList<>();
    final CompletableFuture<ObjectNode> ready = new CompletableFuture<>();

    JobManager(Reactor reactor, Path socket, List<ObjectNode> jobs) throws Exception {
      running.addAll(jobs);
      h = FluxHandle.connect(reactor, "local://" + socket, Duration.ofSeconds(20));
      h.register(
              Service.builder("job-manager")
                  .onStreaming(
                      "sched-hello",
                      req -> {
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
          .get(10, TimeUnit.SECONDS);
    }

    Message call(String topic, ObjectNode p) throws Exception {
      return h.rpc(topic, p).get(10, TimeUnit.SECONDS);
    }
  }

  private static ObjectNode nodeJobspec() {
    ObjectNode slot = Json.object().put("type", "slot").put("count", 1).put("label", "task");
    slot.putArray("with").addObject().put("type", "core").put("count", 4);
    ObjectNode node = Json.object().put("type", "node").put("count", 1);
    node.putArray("with").add(slot);
    ObjectNode js = Json.object().put("version", 1);
    js.putArray("resources").add(node);
    ObjectNode task = js.putArray("tasks").addObject().put("slot", "task");
    task.putArray("command").add("true");
    task.putObject("count").put("per_slot", 1);
    js.putObject("attributes").putObject("system").put("duration", 0);
    return js;
  }

  private static String allocated(JobManager jm) throws Exception {
    Message m = jm.call("sched.resource-status", Json.object());
    return ResourceSet.fromJson(m.json().get("allocated")).summary();
  }

  private static void stop(Process p) throws Exception {
    p.destroy();
    assertThat(p.waitFor(20, TimeUnit.SECONDS)).as("stops on SIGTERM").isTrue();
  }

  @Test
  void sched_unixListen_allocGrowFreeAndRestartKeepsGrownJob(@TempDir Path dir) throws Exception {
    Path hub = dir.resolve("hub");
    Path state = dir.resolve("state");
    Path log1 = dir.resolve("sched1.log");
    Process p = start(hub, state, log1);
    try (Reactor reactor = Reactor.start("sched-it")) {
      JobManager jm = new JobManager(reactor, hub.resolve("local"), List.of());
      assertThat(jm.ready.get(20, TimeUnit.SECONDS).toString())
          .isEqualTo("{\"mode\":\"limited\",\"limit\":8}");

      ObjectNode alloc = Json.object().put("id", 1).put("priority", 16).put("userid", 1000);
      alloc.put("t_submit", 1.0);
      alloc.set("jobspec", nodeJobspec());
      Message a1 = jm.call("sched.alloc", alloc);
      assertThat(a1.json().path("annotations").path("sched").path("resource_summary").asText())
          .isEqualTo("rank0/core[0-3]");
      alloc.put("id", 2);
      Message a2 = jm.call("sched.alloc", alloc);

      ObjectNode grow = Json.object().put("job_id", 1);
      grow.set("spec_add", nodeJobspec());
      Message g = jm.call("sched.realloc", grow);
      assertThat(g.json().path("type").asInt()).isZero();
      assertThat(ResourceSet.fromJson(g.json().get("R_delta_add")).nnodes()).isEqualTo(1);

      ObjectNode free = Json.object().put("id", 2).put("final", true);
      free.set("R", a2.json().get("R"));
      jm.h.send("sched.free", free);
      String grown =
          ResourceSet.fromJson(a1.json().get("R"))
              .union(ResourceSet.fromJson(g.json().get("R_delta_add")))
              .summary();
      assertThat(grown).isEqualTo("rank[0,2]/core[0-3]");
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (!allocated(jm).equals(grown) && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(allocated(jm)).isEqualTo(grown);
      jm.h.close();
    }
    stop(p);
    String log = Files.readString(log1);
    assertThat(log).contains("alloc ƒ2: rank0/core[0-3]").contains("stopping");
    assertThat(log).contains("realloc ƒ2 alloc_id=1: SUCCESS add rank");

    Path hub2 = dir.resolve("hub2");
    Process p2 = start(hub2, state, dir.resolve("sched2.log"));
    try (Reactor reactor = Reactor.start("sched-it-2")) {
      ObjectNode job = Json.object().put("id", 1).put("priority", 16).put("userid", 1000);
      job.put("t_submit", 1.0);
      JobManager jm = new JobManager(reactor, hub2.resolve("local"), List.of(job));
      jm.ready.get(20, TimeUnit.SECONDS);
      assertThat(allocated(jm)).isEqualTo("rank[0,2]/core[0-3]");
      jm.h.close();
    } finally {
      stop(p2);
    }
  }
}
