package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.fixture.FluxPeer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/flux-job-validator} (which runs {@code fluxdrm jobspec validate --stream}) as a real
 * instance's job-ingest validator (issue 15, scope 5): with the project's {@code bin} in {@code
 * FLUX_EXEC_PATH_PREPEND}, an invalid jobspec is refused with fluxdrm's message, valid ones run.
 */
@Tag(FluxPeer.TAG)
@Timeout(300)
class FluxValidatorLiveIT {
  @TempDir Path dir;

  @BeforeEach
  void available() {
    FluxPeer.assumeAvailable();
  }

  @Test
  void jobIngest_usesFluxdrmValidator_rejectsWithOurMessage_acceptsValid() throws Exception {
    Path bin = FluxdrmLauncherIT.ROOT.resolve("bin");
    assertThat(FluxdrmLauncherIT.ROOT.resolve("cli/target/fluxdrm.jar")).exists();
    String javaBin = Path.of(System.getProperty("java.home"), "bin").toString();
    FluxPeer.Options o =
        FluxPeer.Options.defaults()
            .env("FLUX_EXEC_PATH_PREPEND", bin.toString())
            .env("PATH", javaBin + ":" + FluxPeer.fluxCommand().getParent() + ":/usr/bin:/bin");
    try (FluxLive f = FluxLive.start(dir, o)) {
      // valid: flux submit goes through the validator and the job runs
      String ok = f.submit("-n1", FluxLive.QUICK, "true");
      assertThat(f.waitInactive(ok)).isEqualTo("COMPLETED");

      // invalid: both per_slot and total, refused at ingest with fluxdrm's words
      ObjectNode bad = Jobspecs.nodes(1, 1, false);
      ((ObjectNode) bad.get("tasks").get(0).get("count")).put("total", 2);
      Path file = dir.resolve("bad.json");
      Files.writeString(file, bad.toString(), StandardCharsets.UTF_8);
      FluxPeer.Result r = f.peer.run("job", "submit", file.toString());
      assertThat(r.status()).as(r.describe()).isNotZero();
      assertThat(r.err())
          .as(r.describe())
          .contains("/tasks/0/count: has both per_slot and total (expected: exactly one)");
      assertThat(f.jobs("all")).containsExactly(ok);

      // and a valid raw jobspec through the same path
      Path good = dir.resolve("good.json");
      ObjectNode js = Jobspecs.nodes(1, 1, false);
      ObjectNode system = (ObjectNode) js.get("attributes").get("system");
      system.put("cwd", dir.toString());
      system.putObject("exec").putObject("test").put("run_duration", "0.01s");
      Files.writeString(good, js.toString(), StandardCharsets.UTF_8);
      String id = f.peer.ok("job", "submit", good.toString()).strip();
      assertThat(f.waitInactive(id)).isEqualTo("COMPLETED");
      // it was our worker that job-ingest ran (it names itself in the process table)
      assertThat(f.peer.log()).doesNotContain("worker unexpectedly exited");
    }
  }
}
