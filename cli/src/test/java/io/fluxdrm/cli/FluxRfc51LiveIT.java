package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.client.RpcCall;
import io.fluxdrm.rpc.fixture.FluxPeer;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rset.ResourceSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * RFC 51 over a live flux-core broker (issue 15, scope 3). flux-core 0.88's job manager has no RFC
 * 51 (unmerged in flux-core, nothing implemented), so it neither sends nor routes {@code
 * sched.realloc}: what is real is the broker routing a client's {@code sched.realloc} to the {@code
 * sched} service that fluxdrm registered, for a job that flux's job manager started through
 * fluxdrm, and the job manager's own final {@code sched.free} when the job ends. The client plays
 * the RFC 51 job manager's part (a grow, a wait then {@code sched.realloc_cancel}, a DENY, a shrink
 * then {@code sched.free final:false}); flux's job manager frees the job at the end.
 */
@Tag(FluxPeer.TAG)
@Timeout(600)
class FluxRfc51LiveIT {
  private static final Duration T = Duration.ofSeconds(60);
  private static final String[] FAKE4 = {"-r", "0-3", "-c", "0-3", "-H", "fake[0-3]"};

  @TempDir Path dir;

  @BeforeEach
  void available() {
    FluxPeer.assumeAvailable();
  }

  private static ObjectNode nodes(long job, String key, int n) {
    ObjectNode p = Json.object().put("job_id", job);
    p.set(key, Jobspecs.nodes(n, 4, false));
    return p;
  }

  private static long dec(FluxLive f, String id) throws Exception {
    return Long.parseLong(f.peer.ok("job", "id", "--to=dec", id).strip());
  }

  @Test
  void realloc_growWaitCancelDenyShrinkFree_thenJobManagersFinalFreeReturnsAll() throws Exception {
    try (FluxLive f = FluxLive.start(dir, FluxPeer.Options.defaults());
        Reactor reactor = Reactor.start("rfc51-live")) {
      f.removeSchedSimple();
      f.fakeR(FAKE4);
      f.startFluxdrm();
      String id = f.submit("-N1", FluxLive.LONG, "true");
      f.waitEvent(id, "start");
      long job = dec(f, id);
      ResourceSet original = f.r(id);
      assertThat(original.summary()).isEqualTo("rank0/core[0-3]");
      String other = f.submit("-N1", FluxLive.LONG, "true");
      f.waitEvent(other, "start");

      try (FluxHandle h = FluxHandle.connect(reactor, f.peer.uri(), T)) {
        // a grow that fits: SUCCESS with the added rank
        Message g = h.rpc("sched.realloc", nodes(job, "spec_add", 1), T).get(60, TimeUnit.SECONDS);
        assertThat(g.json().get("type").asInt()).as("%s", g.json()).isZero();
        ResourceSet added = ResourceSet.fromJson(g.json().get("R_delta_add"));
        assertThat(added.ranks().count()).isEqualTo(1);
        assertThat(added.intersect(original).isEmpty()).isTrue();
        assertThat(f.schedStatus().get("allocated").ranks().count()).isEqualTo(3);

        // a grow of two when one node is free: it waits, then realloc_cancel answers it CANCEL
        RpcCall wait = h.rpcCall("sched.realloc", nodes(job, "spec_add", 2), T);
        int tag = wait.matchtag().get(60, TimeUnit.SECONDS);
        // one connection, one service: the status answer comes after the realloc was decided, so
        // an undone realloc here is one that waits (not one still in flight)
        h.rpc("sched.resource-status", Json.object(), T).get(60, TimeUnit.SECONDS);
        assertThat(wait.response().isDone()).as("the 2-node grow waits").isFalse();
        h.send("sched.realloc_cancel", Json.object().put("matchtag", tag));
        Message c = wait.response().get(60, TimeUnit.SECONDS);
        assertThat(c.json().get("type").asInt()).as("%s", c.json()).isEqualTo(2);

        // a grow that could never fit: DENY (1) at once
        Message d = h.rpc("sched.realloc", nodes(job, "spec_add", 5), T).get(60, TimeUnit.SECONDS);
        assertThat(d.json().get("type").asInt()).as("%s", d.json()).isEqualTo(1);

        // a shrink naming the grown rank, then the partial free RFC 51's job manager would send
        ObjectNode shrink = nodes(job, "spec_sub", 1);
        shrink.set("R", added.toJson());
        Message s = h.rpc("sched.realloc", shrink, T).get(60, TimeUnit.SECONDS);
        assertThat(s.json().get("type").asInt()).as("%s", s.json()).isZero();
        assertThat(FluxLive.same(ResourceSet.fromJson(s.json().get("R_delta_sub")), added))
            .isTrue();
        ObjectNode partial = Json.object().put("id", job).put("final", false);
        partial.set("R", added.toJson());
        h.send("sched.free", partial);
        io.fluxdrm.rpc.fixture.Wait.until(T, () -> uncheckedAllocatedRanks(f) == 2);

        // grow again, and let flux's job manager end the job: its final free carries only the
        // R it knows, and everything the job holds, grown part included, goes back
        Message g2 = h.rpc("sched.realloc", nodes(job, "spec_add", 1), T).get(60, TimeUnit.SECONDS);
        assertThat(g2.json().get("type").asInt()).as("%s", g2.json()).isZero();
        assertThat(f.schedStatus().get("allocated").ranks().count()).isEqualTo(3);
      }
      f.peer.ok("cancel", id);
      assertThat(f.waitInactive(id)).isEqualTo("CANCELED");
      f.sched.awaitLog("free " + java.util.regex.Pattern.quote(id) + ": .*\\(final\\)");
      assertThat(FluxLive.same(f.schedStatus().get("allocated"), f.r(other))).isTrue();
      f.assertViewsAgree();
      f.peer.ok("cancel", other);
      assertThat(f.waitInactive(other)).isEqualTo("CANCELED");
      assertThat(f.schedStatus().get("allocated").isEmpty()).isTrue();
      f.assertViewsAgree();
    }
  }

  private static long uncheckedAllocatedRanks(FluxLive f) {
    try {
      return f.schedStatus().get("allocated").ranks().count();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** The same grow from Python ({@code flux python}), and a guest's realloc refused. */
  @Test
  void realloc_fromFluxPython_granted_guestRefused() throws Exception {
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    String conf = "[access]\nallow-guest-user = true\nallow-root-owner = true\n";
    try (FluxLive f = FluxLive.start(dir, FluxPeer.Options.defaults().config(conf))) {
      f.removeSchedSimple();
      f.fakeR(FAKE4);
      f.startFluxdrm();
      String id = f.submit("-N1", FluxLive.LONG, "true");
      f.waitEvent(id, "start");
      long job = dec(f, id);
      String spec = Jobspecs.nodes(1, 4, false).toString();
      JsonNode owner = f.pythonRealloc("sched.realloc", "job_id", job, spec, false);
      assertThat(owner.path("type").asInt(-1)).as("%s", owner).isZero();
      assertThat(ResourceSet.fromJson(owner.get("R_delta_add")).ranks().count()).isEqualTo(1);

      JsonNode g = f.pythonRealloc("sched.realloc", "job_id", job, spec, true);
      assertThat(g.path("errno").asInt()).as("%s", g).isEqualTo(1);
      assertThat(g.path("error").asText())
          .as("%s", g)
          .isEqualTo("realloc: user 65534 may not act on job " + job + " of user 0");
      assertThat(f.schedStatus().get("allocated").ranks().count()).isEqualTo(2);
      f.peer.ok("cancel", id);
      assertThat(f.waitInactive(id)).isEqualTo("CANCELED");
      assertThat(f.schedStatus().get("allocated").isEmpty()).isTrue();
      f.assertViewsAgree();
    }
  }
}
