package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rset.ResourceSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fluxdrm sched --listen unix:DIR --state-dir DIR} as a real process: a job manager written
 * here connects over the Unix socket, receives hello and ready, runs an alloc, a grow and a free;
 * SIGTERM stops the process with status 143; a second process on the same state directory rebuilds
 * the grown job from the job manager's hello, continues the alloc_ids, and the rebuilt R frees back
 * to an empty pool.
 */
@Timeout(180)
class SchedCommandIT {

  private static SchedProcess start(Path dir, String name, Path hub, Path state) throws Exception {
    return SchedProcess.start(
        dir,
        name,
        "--listen",
        "unix:" + hub,
        "--hosts",
        "node[0-3]",
        "--cores",
        "0-3",
        "--state-dir",
        state.toString());
  }

  private static ItJobManager jobManager(Reactor reactor, Path hub, List<ObjectNode> jobs)
      throws Exception {
    return new ItJobManager(
        FluxHandle.connect(reactor, "local://" + hub.resolve("local"), Duration.ofSeconds(60)),
        jobs);
  }

  @Test
  void sched_unixListen_allocGrowFreeAndRestartKeepsGrownJob(@TempDir Path dir) throws Exception {
    Path hub = dir.resolve("hub");
    Path state = dir.resolve("state");
    ResourceSet grownR;
    String grown;
    try (SchedProcess p = start(dir, "sched1", hub, state)) {
      p.awaitLog("listening on ");
      try (Reactor reactor = Reactor.start("sched-it");
          ItJobManager jm = jobManager(reactor, hub, List.of())) {
        assertThat(jm.awaitReady().toString()).isEqualTo("{\"mode\":\"limited\",\"limit\":8}");

        Message a1 = jm.call("sched.alloc", ItJobManager.alloc(1, Jobspecs.nodes(1, 4, false)));
        assertThat(a1.json().path("annotations").path("sched").path("resource_summary").asText())
            .isEqualTo("rank0/core[0-3]");
        Message a2 = jm.call("sched.alloc", ItJobManager.alloc(2, Jobspecs.nodes(1, 4, false)));

        ObjectNode grow = Json.object().put("job_id", 1);
        grow.set("spec_add", Jobspecs.nodes(1, 4, false));
        Message g = jm.call("sched.realloc", grow);
        assertThat(g.json().path("type").asInt()).isZero();
        assertThat(ResourceSet.fromJson(g.json().get("R_delta_add")).nnodes()).isEqualTo(1);

        ObjectNode free = Json.object().put("id", 2).put("final", true);
        free.set("R", a2.json().get("R"));
        jm.h.send("sched.free", free);
        grownR =
            ResourceSet.fromJson(a1.json().get("R"))
                .union(ResourceSet.fromJson(g.json().get("R_delta_add")));
        grown = grownR.summary();
        assertThat(grown).isEqualTo("rank[0,2]/core[0-3]");
        jm.awaitAllocated(grown);
        assertThat(jm.allocated()).isEqualTo(grown);
      }
      assertThat(p.terminate()).isEqualTo(SchedTcpIT.EXIT_SIGTERM);
      String log = p.stderr();
      assertThat(log).contains("alloc ƒ2: rank0/core[0-3]").contains("stopping");
      assertThat(log).contains("realloc ƒ2 alloc_id=1: SUCCESS add rank2/core[0-3]");
      assertThat(log).doesNotContain("Exception");
    }
    assertThat(Files.list(state).map(f -> f.getFileName().toString()).sorted().toList())
        .as("the state directory keeps the grown job's R")
        .contains("0000.0000.0000.0001.R.json");

    Path hub2 = dir.resolve("hub2");
    try (SchedProcess p2 = start(dir, "sched2", hub2, state);
        Reactor reactor = Reactor.start("sched-it-2")) {
      p2.awaitLog("listening on ");
      try (ItJobManager jm = jobManager(reactor, hub2, List.of(ItJobManager.runningJob(1)))) {
        jm.awaitReady();
        assertThat(jm.allocated()).isEqualTo(grown);
        // alloc_ids stay unique across the restart: the next grant gets 2
        ObjectNode grow = Json.object().put("job_id", 1);
        grow.set("spec_add", Jobspecs.nodes(1, 4, false));
        Message g = jm.call("sched.realloc", grow);
        assertThat(g.json().path("type").asInt()).as("%s", g.json()).isZero();
        assertThat(g.json().path("alloc_id").asLong()).isEqualTo(2);
        ResourceSet all = grownR.union(ResourceSet.fromJson(g.json().get("R_delta_add")));
        assertThat(all.summary()).isEqualTo("rank[0-2]/core[0-3]");
        ObjectNode free = Json.object().put("id", 1).put("final", true);
        free.set("R", all.toJson());
        jm.h.send("sched.free", free);
        jm.awaitAllocated("");
        assertThat(jm.allocated()).isEmpty();
      }
      assertThat(p2.terminate()).isEqualTo(SchedTcpIT.EXIT_SIGTERM);
      assertThat(p2.stderr())
          .contains("hello ƒ2: rank[0,2]/core[0-3]")
          .contains("realloc ƒ2 alloc_id=2: SUCCESS add rank1/core[0-3]");
    }
  }

  @Test
  void sched_sigint_stopsCleanlyWithStatus130(@TempDir Path dir) throws Exception {
    try (SchedProcess p = start(dir, "sched", dir.resolve("hub"), dir.resolve("state"))) {
      p.awaitLog("listening on ");
      p.awaitLog("ready: pool ");
      assertThat(p.interrupt()).isEqualTo(130);
      assertThat(p.stderr()).contains("stopping").doesNotContain("Exception");
      assertThat(p.stdout()).isEmpty();
    }
  }
}
