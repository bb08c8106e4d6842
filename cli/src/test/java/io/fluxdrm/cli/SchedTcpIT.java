package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rset.ResourceSet;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code fluxdrm sched --listen tcp://127.0.0.1:*} as a real process: a ZeroMQ client written here
 * plays the job manager (registers {@code job-manager}, serves hello and ready as RFC 27 says) and
 * runs alloc, an RFC 51 grow and shrink, partial and final frees, checking every answer and the
 * scheduler's log; SIGTERM ends it with the documented status. Listening beyond loopback without
 * CURVE keys is refused with one line and status 1. Without CURVE every peer is a guest unless
 * {@code --tcp-loopback-role owner} says otherwise (issue 12, finding 5; decision D330).
 */
@Timeout(180)
class SchedTcpIT {
  /** Exit status of a scheduler stopped by SIGTERM: 128 + 15, as the JVM and shells report it. */
  static final int EXIT_SIGTERM = 143;

  private static ResourceSet r(JsonNode n) {
    return ResourceSet.fromJson(n);
  }

  @Test
  void sched_tcpLoopback_allocGrowShrinkFreeThenSigterm(@TempDir Path dir) throws Exception {
    try (SchedProcess p =
        SchedProcess.start(
            dir,
            "sched",
            "--listen",
            "tcp://127.0.0.1:*",
            "--tcp-loopback-role",
            "owner",
            "--hosts",
            "node[0-3]",
            "--cores",
            "0-3",
            "--queue-depth",
            "unlimited")) {
      String endpoint = p.awaitLog("listening on (tcp://127\\.0\\.0\\.1:[0-9]+)");
      try (Reactor reactor = Reactor.start("sched-tcp-it");
          ItJobManager jm =
              new ItJobManager(FluxHandle.connectZmq(reactor, endpoint, null), List.of())) {
        assertThat(jm.awaitReady().toString()).isEqualTo("{\"mode\":\"unlimited\"}");
        assertThat(jm.hellos)
            .extracting(JsonNode::toString)
            .containsExactly("{\"partial-ok\":true}");

        // alloc: SUCCESS with R (nslots, starttime, expiration) and the resource_summary annotation
        Message a1 = jm.call("sched.alloc", ItJobManager.alloc(1, Jobspecs.nodes(1, 4, false)));
        assertThat(a1.json().get("id").asLong()).isEqualTo(1);
        assertThat(a1.json().get("type").asInt()).isZero();
        JsonNode exec = a1.json().get("R").get("execution");
        assertThat(exec.get("nslots").asInt()).isEqualTo(1);
        assertThat(exec.get("starttime").asDouble()).isPositive();
        assertThat(exec.get("expiration").asDouble()).isZero();
        assertThat(a1.json().get("annotations").toString())
            .isEqualTo("{\"sched\":{\"resource_summary\":\"rank0/core[0-3]\"}}");
        Message a2 = jm.call("sched.alloc", ItJobManager.alloc(2, Jobspecs.nodes(1, 4, false)));
        assertThat(r(a2.json().get("R")).summary()).isEqualTo("rank1/core[0-3]");

        // grow: SUCCESS 0 with the first alloc_id and a full R_delta_add on a rank job 1 lacks
        ObjectNode grow = Json.object().put("job_id", 1);
        grow.set("spec_add", Jobspecs.nodes(1, 4, false));
        Message g = jm.call("sched.realloc", grow);
        assertThat(g.json().get("type").asInt()).as("%s", g.json()).isZero();
        assertThat(g.json().get("alloc_id").asLong()).isEqualTo(1);
        ResourceSet added = r(g.json().get("R_delta_add"));
        assertThat(added.summary()).isEqualTo("rank2/core[0-3]");
        assertThat(added.nodelist().toString()).isEqualTo("node2");
        assertThat(jm.allocated()).isEqualTo("rank[0-2]/core[0-3]");

        // shrink naming the grown rank: granted, but it stays allocated until sched.free names it
        ObjectNode shrink = Json.object().put("job_id", 1);
        shrink.set("spec_sub", Jobspecs.nodes(1, 4, false));
        shrink.set("R", added.toJson());
        Message s = jm.call("sched.realloc", shrink);
        assertThat(s.json().get("type").asInt()).as("%s", s.json()).isZero();
        assertThat(s.json().get("alloc_id").asLong()).isEqualTo(2);
        assertThat(r(s.json().get("R_delta_sub")).summary()).isEqualTo("rank2/core[0-3]");
        assertThat(jm.allocated()).isEqualTo("rank[0-2]/core[0-3]");

        // partial free of the shrunk rank, then final frees
        ObjectNode partial = Json.object().put("id", 1).put("final", false);
        partial.set("R", added.toJson());
        jm.h.send("sched.free", partial);
        jm.awaitAllocated("rank[0-1]/core[0-3]");
        assertThat(jm.allocated()).isEqualTo("rank[0-1]/core[0-3]");
        ObjectNode free2 = Json.object().put("id", 2).put("final", true);
        free2.set("R", a2.json().get("R"));
        jm.h.send("sched.free", free2);
        ObjectNode free1 = Json.object().put("id", 1).put("final", true);
        free1.set("R", a1.json().get("R"));
        jm.h.send("sched.free", free1);
        jm.awaitAllocated("");
        assertThat(jm.allocated()).isEmpty();
      }
      assertThat(p.terminate()).isEqualTo(EXIT_SIGTERM);
      String log = p.stderr();
      assertThat(log)
          .contains("alloc ƒ2: rank0/core[0-3]")
          .contains("alloc ƒ3: rank1/core[0-3]")
          .contains("realloc ƒ2 alloc_id=1: SUCCESS add rank2/core[0-3]")
          .contains("realloc ƒ2 alloc_id=2: SUCCESS sub rank2/core[0-3]")
          .contains("stopping");
      assertThat(log).doesNotContain("Exception").doesNotContain("\tat ");
      assertThat(p.stdout()).isEmpty();
    }
  }

  @Test
  void sched_tcpJobManagerRestarts_helloAgainKeepsRunningJob(@TempDir Path dir) throws Exception {
    try (SchedProcess p =
        SchedProcess.start(
            dir,
            "sched",
            "--listen",
            "tcp://127.0.0.1:*",
            "--tcp-loopback-role",
            "owner",
            "--hosts",
            "node[0-1]",
            "--cores",
            "0-3")) {
      String endpoint = p.awaitLog("listening on (tcp://127\\.0\\.0\\.1:[0-9]+)");
      try (Reactor reactor = Reactor.start("sched-tcp-it")) {
        Message a1;
        try (ItJobManager jm =
            new ItJobManager(FluxHandle.connectZmq(reactor, endpoint, null), List.of())) {
          jm.awaitReady();
          a1 = jm.call("sched.alloc", ItJobManager.alloc(1, Jobspecs.nodes(1, 4, false)));
          assertThat(r(a1.json().get("R")).summary()).isEqualTo("rank0/core[0-3]");
        }
        // a new job manager process: the scheduler notices the old one left and says hello again
        ObjectNode running = ItJobManager.runningJob(1);
        running.set("R", a1.json().get("R"));
        try (ItJobManager jm2 =
            new ItJobManager(FluxHandle.connectZmq(reactor, endpoint, null), List.of(running))) {
          assertThat(jm2.awaitReady().toString()).isEqualTo("{\"mode\":\"limited\",\"limit\":8}");
          assertThat(jm2.allocated()).isEqualTo("rank0/core[0-3]");
          Message a2 = jm2.call("sched.alloc", ItJobManager.alloc(2, Jobspecs.nodes(1, 4, false)));
          assertThat(r(a2.json().get("R")).summary()).isEqualTo("rank1/core[0-3]");
        }
      }
      assertThat(p.terminate()).isEqualTo(EXIT_SIGTERM);
      assertThat(p.stderr()).contains("job manager").doesNotContain("Exception");
    }
  }

  /**
   * Issue 12, finding 5 (D330): a loopback hub without CURVE cannot tell one local user from
   * another, so by default (or with {@code --tcp-loopback-role guest}) its peers are guests of
   * unknown uid: {@code service.add job-manager} and {@code sched.alloc} are refused with EPERM,
   * and a bridge started against it exits 1 saying why. With {@code --tcp-loopback-role owner} the
   * same client is the owner: it registers the job manager and its alloc is granted.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"default", "guest", "owner"})
  void sched_tcpLoopbackWithoutCurve_peersAreGuestsUnlessOwnerIsConfigured(
      String role, @TempDir Path dir) throws Exception {
    List<String> args =
        new java.util.ArrayList<>(
            List.of("--listen", "tcp://127.0.0.1:*", "--hosts", "node0", "--cores", "0"));
    if (!role.equals("default")) {
      args.addAll(List.of("--tcp-loopback-role", role));
    }
    try (SchedProcess p = SchedProcess.start(dir, role, args.toArray(String[]::new))) {
      String endpoint = p.awaitLog("listening on (tcp://127\\.0\\.0\\.1:[0-9]+)");
      // the listener opens before the scheduler registers its service (ENOSYS until then)
      p.awaitLog("ready: pool");
      try (Reactor reactor = Reactor.start("sched-tcp-role-it")) {
        if (role.equals("owner")) {
          try (ItJobManager jm =
              new ItJobManager(FluxHandle.connectZmq(reactor, endpoint, null), List.of())) {
            jm.awaitReady();
            Message a = jm.call("sched.alloc", ItJobManager.alloc(1, Jobspecs.nodes(1, 1, false)));
            assertThat(r(a.json().get("R")).summary()).isEqualTo("rank0/core0");
          }
          assertThat(p.stderr()).contains("every peer is the instance owner");
        } else {
          FluxHandle h = FluxHandle.connectZmq(reactor, endpoint, null);
          assertThatThrownBy(
                  () ->
                      h.register(
                              io.fluxdrm.rpc.service.Service.builder("job-manager")
                                  .on("sched-ready", req -> req.respond(Json.object()))
                                  .build())
                          .get(30, TimeUnit.SECONDS))
              .cause()
              .isInstanceOfSatisfying(
                  RpcException.class, e -> assertThat(e.errnum()).isEqualTo(Errno.EPERM))
              .hasMessageContaining("service.add: job-manager");
          assertThatThrownBy(
                  () ->
                      h.rpc("sched.alloc", ItJobManager.alloc(1, Jobspecs.nodes(1, 1, false)))
                          .get(30, TimeUnit.SECONDS))
              .cause()
              .isInstanceOfSatisfying(
                  RpcException.class, e -> assertThat(e.errnum()).isEqualTo(Errno.EPERM))
              .hasMessage(
                  "sched.alloc: user 4294967295 is not the instance owner (expected: the"
                      + " job manager)");
          h.close();
          if (role.equals("default")) {
            Path log = dir.resolve("bridge.log");
            Process bridge =
                BridgeCommandIT.start(
                    log,
                    "bridge",
                    "--connect",
                    endpoint,
                    "--state-dir",
                    dir.resolve("state").toString());
            assertThat(bridge.waitFor(60, TimeUnit.SECONDS)).as("bridge exits").isTrue();
            assertThat(bridge.exitValue()).isEqualTo(1);
            assertThat(java.nio.file.Files.readString(log))
                .contains("service.add: job-manager")
                .contains("start it with --tcp-loopback-role owner, or connect through unix:DIR")
                .doesNotContain("\tat ");
          }
          assertThat(p.stderr()).contains("every peer is a guest of unknown uid");
        }
      }
      assertThat(p.terminate()).isEqualTo(EXIT_SIGTERM);
      assertThat(p.stderr()).doesNotContain("Exception");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"tcp://0.0.0.0:*", "tcp://[::]:*", "tcp://192.0.2.1:5555"})
  void sched_tcpBeyondLoopbackWithoutCurve_oneLineExit1(String endpoint, @TempDir Path dir)
      throws Exception {
    try (SchedProcess p =
        SchedProcess.start(
            dir, "refused", "--listen", endpoint, "--hosts", "node0", "--cores", "0")) {
      assertThat(p.awaitExit()).isEqualTo(1);
      assertThat(p.stderr())
          .isEqualTo(
              "fluxdrm sched: --listen: "
                  + endpoint
                  + ": listening beyond loopback without CURVE (expected: CURVE keys)\n");
      assertThat(p.stdout()).isEmpty();
    }
  }
}
