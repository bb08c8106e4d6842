package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.client.RpcCall;
import io.fluxdrm.rpc.fixture.FluxPeer;
import io.fluxdrm.rpc.fixture.Wait;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rset.ResourceSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * RFC 51 served inside a real flux-core instance (issue 26): the jobtap plugin {@code realloc.so}
 * loaded into flux-core's job manager answers {@code job-manager.realloc}, with {@code fluxdrm
 * sched} (or flux-core's sched-simple) as the instance's scheduler. Four brokers on this host, real
 * job shells (no test execution). After every step flux-core's own views are checked against
 * fluxdrm's: the job's eventlog, {@code job.<id>.R} in the KVS, {@code flux resource R -s
 * allocated} and {@code flux resource list} beside {@code sched.resource-status}.
 */
@Tag(FluxPeer.TAG)
@Timeout(900)
class FluxReallocPluginIT {
  private static final Duration T = Duration.ofSeconds(60);
  private static final int CORES = 2;

  @TempDir Path dir;

  @BeforeEach
  void available() {
    FluxPeer.assumeAvailable();
  }

  /** A {@code job-manager.realloc} payload (the job manager's protocol names the job "id"). */
  private static ObjectNode realloc(long job, String key, int nodes) {
    ObjectNode p = Json.object().put("id", job);
    p.set(key, Jobspecs.nodes(nodes, CORES, false));
    return p;
  }

  /** A shrink of {@code r}: {@code spec_sub} with R. */
  private static ObjectNode shrink(long job, ResourceSet r) {
    ObjectNode p = realloc(job, "spec_sub", r.ranks().count() > 0 ? (int) r.ranks().count() : 1);
    p.set("R", r.toJson());
    return p;
  }

  /** The same for {@code sched.realloc}, whose RFC 51 payload names the job "job_id". */
  private static ObjectNode sched(ObjectNode jm) {
    ObjectNode p = jm.deepCopy();
    p.remove("id");
    p.put("job_id", jm.get("id").asLong());
    return p;
  }

  /** {@code job-manager.release {id, R, final: false}}: the job's R after it. */
  private static ResourceSet release(FluxHandle h, long job, ResourceSet r) throws Exception {
    ObjectNode p = Json.object().put("id", job).put("final", false);
    p.set("R", r.toJson());
    JsonNode a = h.rpc("job-manager.release", p, T).get(90, TimeUnit.SECONDS).json();
    return ResourceSet.fromJson(a.get("R"));
  }

  private static long dec(FluxLive f, String id) throws Exception {
    return Long.parseLong(f.peer.ok("job", "id", "--to=dec", id).strip());
  }

  private static JsonNode answer(FluxHandle h, ObjectNode p) throws Exception {
    return h.rpc("job-manager.realloc", p, T).get(90, TimeUnit.SECONDS).json();
  }

  /** The RPC error of a refused {@code job-manager.realloc}: "errnum: text". */
  private static String refusal(FluxHandle h, ObjectNode p) {
    return refusal(h, "job-manager.realloc", p);
  }

  /** The RPC error of a refused {@code job-manager.release}. */
  private static String releaseRefusal(FluxHandle h, ObjectNode p) {
    return refusal(h, "job-manager.release", p);
  }

  private static String refusal(FluxHandle h, String topic, ObjectNode p) {
    try {
      JsonNode a = h.rpc(topic, p, T).get(90, TimeUnit.SECONDS).json();
      throw new AssertionError("expected an error response, got " + a);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RpcException r) {
        return r.errnum() + ": " + r.getMessage();
      }
      throw new AssertionError(e);
    } catch (InterruptedException | java.util.concurrent.TimeoutException e) {
      throw new AssertionError(e);
    }
  }

  private static List<JsonNode> events(FluxLive f, String id, String name) throws Exception {
    return f.eventlog(id).stream().filter(e -> e.path("name").asText().equals(name)).toList();
  }

  private static ResourceSet allocated(FluxLive f) throws Exception {
    return f.schedStatus().get("allocated");
  }

  private static FluxLive instance(Path dir, String conf) throws Exception {
    FluxPeer.Options o = FluxPeer.Options.defaults().size(4);
    FluxLive f = FluxLive.start(dir, conf == null ? o : o.config(conf));
    f.removeSchedSimple();
    return f;
  }

  @Test
  void grow_companionRunsOnTheNewRank_release_free_eachStepSeenByFlux() throws Exception {
    try (FluxLive f = instance(dir, null);
        Reactor reactor = Reactor.start("realloc-plugin")) {
      f.startFluxdrm();
      ReallocPlugin.load(f.peer);
      String id = f.submit("-N1", "sleep", "600");
      f.waitEvent(id, "start");
      long job = dec(f, id);
      ResourceSet original = f.kvsR(id);
      assertThat(original.ranks().count()).isEqualTo(1);
      String last;
      String blocker;

      try (FluxHandle h = FluxHandle.connect(reactor, f.peer.uri(), T)) {
        // grow by one node: SUCCESS with a new rank, and flux-core sees it everywhere
        JsonNode g = answer(h, realloc(job, "spec_add", 1));
        assertThat(g.path("type").asInt(-1)).as("%s", g).isZero();
        long allocId = g.path("alloc_id").asLong();
        ResourceSet added = ResourceSet.fromJson(g.get("R_delta_add"));
        assertThat(added.ranks().count()).isEqualTo(1);
        assertThat(added.intersect(original).isEmpty()).isTrue();
        // the answer may reach the client before the job manager's eventlog commit does
        f.waitEvent(id, "realloc-grow");
        List<JsonNode> grows = events(f, id, "realloc-grow");
        assertThat(grows).hasSize(1);
        assertThat(grows.get(0).path("context").path("alloc_id").asLong()).isEqualTo(allocId);
        assertThat(
                FluxLive.same(
                    ResourceSet.fromJson(grows.get(0).path("context").path("R_delta_add")), added))
            .isTrue();
        ResourceSet grown = original.union(added);
        assertThat(FluxLive.same(ResourceSet.fromJson(g.get("R")), grown))
            .as("the answer's R, the job's R after the grow")
            .isTrue();
        assertThat(FluxLive.same(f.kvsR(id), grown)).as("KVS R %s", f.kvsR(id)).isTrue();
        assertThat(FluxLive.same(allocated(f), grown)).isTrue();
        f.assertViewsAgree();
        assertThat(f.peer.ok("resource", "list", "-s", "allocated", "-no", "{nnodes}").strip())
            .isEqualTo("2");

        // a process of the job on the new rank: a companion job on the grant
        String rank = added.ranks().toString();
        String probe =
            f.submit(
                "-N1",
                "--setattr=system.realloc.job=" + job,
                "--setattr=system.realloc.alloc_id=" + allocId,
                "flux",
                "getattr",
                "rank");
        assertThat(f.waitInactive(probe)).isEqualTo("COMPLETED");
        assertThat(f.peer.ok("job", "attach", probe).strip()).isEqualTo(rank);
        assertThat(f.peer.ok("jobs", "-no", "{ranks}", probe).strip()).isEqualTo(rank);
        // a long-running one, which the release must end before the rank is freed
        String worker =
            f.submit(
                "-N1",
                "--setattr=system.realloc.job=" + job,
                "--setattr=system.realloc.alloc_id=" + allocId,
                "sleep",
                "600");
        f.waitEvent(worker, "start");
        assertThat(f.peer.ok("jobs", "-no", "{ranks}", worker).strip()).isEqualTo(rank);
        f.assertViewsAgree();

        // a grant runs one companion at a time; a job that names no grant of its own is refused
        FluxPeer.Result twice =
            f.peer.run(
                "submit",
                "-N1",
                "--setattr=system.realloc.job=" + job,
                "--setattr=system.realloc.alloc_id=" + allocId,
                "true");
        assertThat(twice.status()).as(twice.describe()).isNotZero();
        assertThat(twice.err()).contains("already runs a companion");
        FluxPeer.Result unknownGrant =
            f.peer.run(
                "submit",
                "-N1",
                "--setattr=system.realloc.job=" + job,
                "--setattr=system.realloc.alloc_id=999",
                "true");
        assertThat(unknownGrant.err()).contains("no grant with alloc_id 999");

        // bad requests: each a clear error, nothing changes, the plugin stays up
        assertThat(refusal(h, realloc(12345, "spec_add", 1))).startsWith("2: realloc: unknown job");
        assertThat(refusal(h, Json.object().put("id", job)))
            .startsWith("71: realloc: expected spec_add and/or spec_sub");
        assertThat(refusal(h, realloc(job, "spec_add", 1).put("bogus", 1)))
            .startsWith("71: realloc: payload:");
        assertThat(refusal(h, shrink(job, original)))
            .contains("which realloc did not grant")
            .contains("flux-core cannot release a job's original ranks");
        assertThat(refusal(h, realloc(job, "spec_sub", 1))).contains("spec_sub needs R");
        ObjectNode huge = realloc(job, "spec_add", 1);
        huge.put("R", "x".repeat(1_100_000));
        assertThat(refusal(h, huge)).startsWith("7: realloc: payload of");
        assertThat(FluxLive.same(allocated(f), grown)).isTrue();

        // DENY: more than the pool could ever give
        JsonNode d = answer(h, realloc(job, "spec_add", 5));
        assertThat(d.path("type").asInt(-1)).as("%s", d).isEqualTo(1);
        assertThat(d.path("note").asText()).isNotEmpty();

        // a grow that must wait (one node free, three wanted), then the requester's cancel
        String other = f.submit("-N1", "sleep", "600");
        f.waitEvent(other, "start");
        RpcCall wait = h.rpcCall("job-manager.realloc", realloc(job, "spec_add", 2), T);
        int tag = wait.matchtag().get(60, TimeUnit.SECONDS);
        // the plugin forwards the cancel on the path its request took, so the scheduler sees it
        // second: CANCEL (not SUCCESS, not DENY) says the grow was waiting
        h.send("job-manager.realloc_cancel", Json.object().put("matchtag", tag));
        JsonNode c = wait.response().get(60, TimeUnit.SECONDS).json();
        assertThat(c.path("type").asInt(-1)).as("%s", c).isEqualTo(2);
        assertThat(FluxLive.same(allocated(f), grown.union(f.kvsR(other)))).isTrue();

        // the scheduler killed while a grow waits: the new one has the plugin answer it EAGAIN
        int before = sentLines(f);
        RpcCall lost = h.rpcCall("job-manager.realloc", realloc(job, "spec_add", 2), T);
        lost.matchtag().get(60, TimeUnit.SECONDS);
        // once the plugin has sent it on (its log line), the request is the scheduler's to lose
        Wait.until(T, () -> sentLinesNow(f) > before);
        f.sched.close();
        f.startFluxdrm();
        ExecutionException gone =
            org.junit.jupiter.api.Assertions.assertThrows(
                ExecutionException.class, () -> lost.response().get(60, TimeUnit.SECONDS));
        assertThat(gone.getCause()).isInstanceOf(RpcException.class);
        assertThat(((RpcException) gone.getCause()).errnum()).isEqualTo(11);
        assertThat(gone.getCause().getMessage()).contains("the scheduler restarted");
        f.assertViewsAgree();
        assertThat(FluxLive.same(allocated(f), grown.union(f.kvsR(other)))).isTrue();
        f.peer.ok("cancel", other);
        f.waitInactive(other);

        // shrink the grown rank: answered at once, the rank still the job's until released
        JsonNode s = answer(h, shrink(job, added));
        assertThat(s.path("type").asInt(-1)).as("%s", s).isZero();
        assertThat(FluxLive.same(ResourceSet.fromJson(s.get("R_delta_sub")), added)).isTrue();
        assertThat(FluxLive.same(allocated(f), grown)).as("held until released (D7)").isTrue();
        assertThat(f.peer.ok("jobs", "-no", "{status}", worker).strip()).isEqualTo("RUN");
        assertThat(refusal(h, shrink(job, added))).contains("already shrinking");
        ObjectNode wrong = Json.object().put("id", job).put("ranks", "0");
        assertThat(releaseRefusal(h, wrong)).contains("rank 0 is not in a granted shrink");
        ObjectNode fin = Json.object().put("id", job).put("ranks", rank).put("final", true);
        assertThat(releaseRefusal(h, fin)).startsWith("22: release: expected exactly one");
        // the release: the companion ends first, then the free, then the answer
        ResourceSet after = release(h, job, added);
        assertThat(FluxLive.same(after, original)).as("release answers %s", after).isTrue();
        assertThat(f.peer.ok("jobs", "-no", "{result}", worker).strip()).isEqualTo("CANCELED");
        assertThat(f.exceptionNote(worker)).contains("released these ranks");
        f.waitEvent(id, "realloc-release");
        List<JsonNode> releases = events(f, id, "realloc-release");
        assertThat(releases).hasSize(1);
        assertThat(
                FluxLive.same(
                    ResourceSet.fromJson(releases.get(0).path("context").path("R_delta_sub")),
                    added))
            .isTrue();
        assertThat(FluxLive.same(f.kvsR(id), original)).as("KVS R %s", f.kvsR(id)).isTrue();
        Wait.until(T, () -> FluxLive.same(allocatedNow(f), original));
        f.assertViewsAgree();
        assertThat(releaseRefusal(h, Json.object().put("id", job).put("ranks", rank)))
            .contains("is not in a granted shrink");
        assertThat(refusal(h, shrink(job, added))).contains("which realloc did not grant");

        // grow again, run a companion, and end the job: everything comes back
        JsonNode g2 = answer(h, realloc(job, "spec_add", 2));
        assertThat(g2.path("type").asInt(-1)).as("%s", g2).isZero();
        last =
            f.submit(
                "-N2",
                "--setattr=system.realloc.job=" + job,
                "--setattr=system.realloc.alloc_id=" + g2.path("alloc_id").asLong(),
                "sleep",
                "600");
        f.waitEvent(last, "start");
        f.assertViewsAgree();

        // a grow still waiting when the job ends is answered CANCEL (the last free node is taken)
        blocker = f.submit("-N1", "sleep", "600");
        f.waitEvent(blocker, "start");
        RpcCall orphan = h.rpcCall("job-manager.realloc", realloc(job, "spec_add", 1), T);
        orphan.matchtag().get(60, TimeUnit.SECONDS);
        f.peer.ok("cancel", id);
        JsonNode ended = orphan.response().get(60, TimeUnit.SECONDS).json();
        assertThat(ended.path("type").asInt(-1)).as("%s", ended).isEqualTo(2);
      }
      assertThat(f.waitInactive(id)).isEqualTo("CANCELED");
      assertThat(f.waitInactive(last)).isEqualTo("CANCELED");
      f.peer.ok("cancel", blocker);
      assertThat(f.waitInactive(blocker)).isEqualTo("CANCELED");
      Wait.until(T, () -> allocatedNow(f).isEmpty());
      f.assertViewsAgree();
      assertThat(f.peer.ok("resource", "list", "-s", "free", "-no", "{nnodes}").strip())
          .isEqualTo("4");
    }
  }

  /** How many "sched.realloc sent" lines the plugin has logged ({@code flux dmesg}). */
  private static int sentLines(FluxLive f) throws Exception {
    return (int) f.peer.ok("dmesg").lines().filter(l -> l.contains("sched.realloc sent")).count();
  }

  private static int sentLinesNow(FluxLive f) {
    try {
      return sentLines(f);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** {@link #allocated} for a polling condition. */
  private static ResourceSet allocatedNow(FluxLive f) {
    try {
      return allocated(f);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** {@code fluxdrm realloc ARGS} as a process of its own, with flux's bin first on PATH. */
  private static FluxPeer.Result fluxdrmRealloc(FluxLive f, String... args) throws Exception {
    List<String> cmd =
        new java.util.ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "realloc"));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(f.dir.toFile());
    pb.environment().putAll(f.peer.env());
    Path out = Files.createTempFile(f.dir, "realloc", ".out");
    Path err = Files.createTempFile(f.dir, "realloc", ".err");
    Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    p.getOutputStream().close();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("fluxdrm realloc ends").isTrue();
    return new FluxPeer.Result(p.exitValue(), Files.readString(out), Files.readString(err));
  }

  /** The path a user takes: {@code fluxdrm realloc} against the instance, as the job's user. */
  @Test
  void fluxdrmRealloc_growWithACommand_releaseByAllocId_denyExits1() throws Exception {
    try (FluxLive f = instance(dir, null)) {
      f.startFluxdrm();
      ReallocPlugin.load(f.peer);
      String id = f.submit("-N1", "sleep", "600");
      f.waitEvent(id, "start");
      ResourceSet original = f.kvsR(id);

      FluxPeer.Result g =
          fluxdrmRealloc(f, "grow", id, "-N1", "-c", "2", "--", "flux", "getattr", "rank");
      assertThat(g.status()).as(g.describe()).isZero();
      Matcher m = Pattern.compile("alloc_id=(\\d+) granted=rank(\\d+)/").matcher(g.out());
      assertThat(m.find()).as(g.describe()).isTrue();
      String allocId = m.group(1);
      String rank = m.group(2);
      Matcher c = Pattern.compile("companion=(\\S+)").matcher(g.out());
      assertThat(c.find()).as(g.describe()).isTrue();
      assertThat(f.waitInactive(c.group(1))).isEqualTo("COMPLETED");
      assertThat(f.peer.ok("job", "attach", c.group(1)).strip()).isEqualTo(rank);
      assertThat(f.kvsR(id).ranks().toString()).contains(rank);
      f.assertViewsAgree();

      FluxPeer.Result d = fluxdrmRealloc(f, "grow", id, "-N", "5");
      assertThat(d.status()).as(d.describe()).isEqualTo(1);
      assertThat(d.err()).startsWith("fluxdrm realloc grow: denied: ");

      FluxPeer.Result r = fluxdrmRealloc(f, "release", id, "--alloc-id", allocId, "--json");
      assertThat(r.status()).as(r.describe()).isZero();
      List<String> answers = r.out().lines().toList();
      assertThat(answers).hasSize(2);
      assertThat(FluxLive.JSON.readTree(answers.get(0)).path("type").asInt(-1)).isZero();
      assertThat(
              FluxLive.same(
                  ResourceSet.fromJson(FluxLive.JSON.readTree(answers.get(1)).get("R")), original))
          .isTrue();
      assertThat(FluxLive.same(f.kvsR(id), original)).isTrue();
      f.assertViewsAgree();
      f.peer.ok("cancel", id);
      f.waitInactive(id);
      Wait.until(T, () -> allocatedNow(f).isEmpty());
    }
  }

  @Test
  void underSchedSimple_unsupported_andANonOwnerIsRefused() throws Exception {
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    String conf = "[access]\nallow-guest-user = true\nallow-root-owner = true\n";
    try (FluxLive f = FluxLive.start(dir, FluxPeer.Options.defaults().size(4).config(conf))) {
      ReallocPlugin.load(f.peer);
      String id = f.submit("-N1", "sleep", "600");
      f.waitEvent(id, "start");
      long job = dec(f, id);
      String spec = Jobspecs.nodes(1, CORES, false).toString();
      JsonNode g = f.pythonRealloc("job-manager.realloc", "id", job, spec, true);
      assertThat(g.path("errno").asInt()).as("%s", g).isEqualTo(1);
      assertThat(g.path("error").asText())
          .as("%s", g)
          .startsWith("realloc: user 65534 may not act on job ");

      // sched-simple has no sched.realloc: the owner's request is answered UNSUPPORTED
      JsonNode u = f.pythonRealloc("job-manager.realloc", "id", job, spec, false);
      assertThat(u.path("type").asInt(-1)).as("%s", u).isEqualTo(3);
      assertThat(events(f, id, "realloc-grow")).isEmpty();
      assertThat(f.peer.ok("resource", "list", "-s", "allocated", "-no", "{nnodes}").strip())
          .isEqualTo("1");
      f.peer.ok("cancel", id);
      assertThat(f.waitInactive(id)).isEqualTo("CANCELED");
      assertThat(f.peer.ok("resource", "list", "-s", "free", "-no", "{nnodes}").strip())
          .isEqualTo("4");
    }
  }

  /**
   * The shrink that did not stay shrunk (issue 26): a job grown by two nodes and shrunk by both
   * held them again after its realloc client disconnected (the scheduler took the sender of {@code
   * sched.free} for a job manager and said hello again) and after a scheduler restart (the
   * scheduler rebuilt the job from {@code job.<id>.R}, never rewritten on a shrink). The raw RFC 51
   * client of the bug report first, then the plugin's path, then a plugin reload and a restart.
   */
  @Test
  void shrinkStaysShrunk_afterDisconnect_schedRestart_pluginReload() throws Exception {
    try (FluxLive f = instance(dir, null);
        Reactor reactor = Reactor.start("realloc-shrink")) {
      f.startFluxdrm();
      String id = f.submit("-N1", "sleep", "600");
      f.waitEvent(id, "start");
      long job = dec(f, id);
      ResourceSet original = f.kvsR(id);

      // the raw client: grow two nodes, shrink both, free them, go away
      try (FluxHandle h = FluxHandle.connect(reactor, f.peer.uri(), T)) {
        Message g =
            h.rpc("sched.realloc", sched(realloc(job, "spec_add", 2)), T).get(60, TimeUnit.SECONDS);
        assertThat(g.json().path("type").asInt(-1)).as("%s", g.json()).isZero();
        ResourceSet added = ResourceSet.fromJson(g.json().get("R_delta_add"));
        Message s = h.rpc("sched.realloc", sched(shrink(job, added)), T).get(60, TimeUnit.SECONDS);
        assertThat(s.json().path("type").asInt(-1)).as("%s", s.json()).isZero();
        ObjectNode free = Json.object().put("id", job).put("final", false);
        free.set("R", added.toJson());
        h.send("sched.free", free);
        Wait.until(T, () -> FluxLive.same(allocatedNow(f), original));
      }
      // the broker tells the scheduler of the disconnect before any later request reaches it, so
      // the status asked now comes after it: before the fix the scheduler had logged "job manager
      // ... disconnected" by then and was about to say hello again
      assertThat(FluxLive.same(allocated(f), original)).as("%s", allocated(f).summary()).isTrue();
      assertThat(f.sched.stderr()).doesNotContain("disconnected");
      assertThat(FluxLive.same(f.kvsR(id), original)).as("KVS R %s", f.kvsR(id)).isTrue();
      restartSched(f);
      assertThat(FluxLive.same(allocated(f), original)).as("%s", allocated(f).summary()).isTrue();

      // the plugin's path: grow, release, then reload the plugin and restart the scheduler
      ReallocPlugin.load(f.peer);
      try (FluxHandle h = FluxHandle.connect(reactor, f.peer.uri(), T)) {
        JsonNode g = answer(h, realloc(job, "spec_add", 2));
        assertThat(g.path("type").asInt(-1)).as("%s", g).isZero();
        ResourceSet added = ResourceSet.fromJson(g.get("R_delta_add"));
        JsonNode s = answer(h, shrink(job, added));
        assertThat(s.path("type").asInt(-1)).as("%s", s).isZero();
        assertThat(FluxLive.same(release(h, job, added), original)).isTrue();
        Wait.until(T, () -> FluxLive.same(allocatedNow(f), original));
      }
      f.assertViewsAgree();
      ReallocPlugin.remove(f.peer);
      ReallocPlugin.load(f.peer);
      f.assertViewsAgree();
      assertThat(FluxLive.same(allocated(f), original)).isTrue();
      restartSched(f);
      assertThat(FluxLive.same(allocated(f), original)).as("%s", allocated(f).summary()).isTrue();
      f.assertViewsAgree();
      // and the three free nodes can be granted again
      try (FluxHandle h = FluxHandle.connect(reactor, f.peer.uri(), T)) {
        JsonNode g = answer(h, realloc(job, "spec_add", 3));
        assertThat(g.path("type").asInt(-1)).as("%s", g).isZero();
      }
      f.assertViewsAgree();
      f.peer.ok("cancel", id);
      f.waitInactive(id);
      Wait.until(T, () -> allocatedNow(f).isEmpty());
      f.assertViewsAgree();
    }
  }

  private static void restartSched(FluxLive f) throws Exception {
    f.sched.terminate();
    f.sched.close();
    f.startFluxdrm();
  }
}
