package io.fluxdrm.pmix.nativ;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.pmix.nativ.PrrteBridgeProcessIT.Watched;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * A difference of PRRTE's own, with no fluxdrm in the loop (docs/dvm.md, "Applications through
 * PRRTE"): {@code prte} elastic without a scheduler, its hostfile the head node only, and the C
 * application {@code app-requester.c}. An application that grows (NEW with a node list, which
 * PRRTE's {@code ras/hosts} serves itself) and spawns into the new allocation once its second phase
 * came sees its child run there; one that spawns before the second phase sees {@code PMIx_Spawn}
 * never return (the application's own bound ends it, 15 s). The daemon of that second node starts 5
 * s late, so that its spawn comes before the phase on any machine.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PrrteSpawnRaceIT {
  @TempDir static Path dir;

  private static Path prrte;
  private static Path app;
  private static Path uri;
  private static Watched prte;

  @BeforeAll
  static void start() throws Exception {
    prrte = Peer.prrtePrefix();
    Path fakessh = Peer.needPrrte(dir);
    app = Peer.compile("app-requester.c", dir, true);
    String head = Peer.run(List.of("hostname"), dir).strip();
    Files.writeString(dir.resolve("hosts"), head + " slots=2\n");
    uri = dir.resolve("dvm.uri");
    // node2's daemon starts 5 s late, so that the second test's spawn surely comes before the
    // DVM's second phase (on a fast machine the phase could otherwise come first)
    Path agent = dir.resolve("slow-node2-ssh");
    Files.writeString(
        agent,
        "#!/bin/bash\n"
            + "args=(\"$@\")\n"
            + "while [[ \"${1:-}\" == -* ]]; do shift; done\n"
            + "[ \"${1:-}\" = node2 ] && sleep 5\n"
            + "exec "
            + fakessh
            + " \"${args[@]}\"\n");
    agent.toFile().setExecutable(true);
    prte = new Watched("prte-alone", Peer.prte(dir, agent, dir.resolve("hosts"), uri, false));
    prte.await("DVM ready");
  }

  @AfterAll
  static void stop() throws Exception {
    if (prte == null) {
      return;
    }
    ProcessBuilder pb =
        new ProcessBuilder(prrte.resolve("bin/pterm").toString(), "--dvm-uri", "file:" + uri)
            .directory(dir.toFile());
    Peer.prrteEnv(pb);
    Peer.runFor(pb, Duration.ofSeconds(60));
    if (!prte.process.waitFor(30, TimeUnit.SECONDS)) {
      prte.process.descendants().forEach(Peer::killTree);
      Peer.killTree(prte.process.toHandle());
    }
  }

  static Watched launch(String... steps) throws Exception {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                prrte.resolve("bin/prun").toString(),
                "--dvm-uri",
                "file:" + uri,
                "-x",
                "APP_STEP_TIMEOUT",
                "-n",
                "1",
                app.toString(),
                "0"));
    cmd.addAll(List.of(steps));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
    Peer.prrteEnv(pb);
    pb.environment().put("APP_STEP_TIMEOUT", "15");
    return new Watched("app", pb);
  }

  @Test
  @Order(1)
  void spawnAfterTheSecondPhase_theChildRunsOnTheNewNode() throws Exception {
    Watched w = launch("new", "nlist=node1:2", "spawn", "np=1", "id=last", "--", "where");
    assertThat(w.exit()).as("prun:\n%s", w.text()).isZero();
    assertThat(w.text())
        .contains("APP 0 READY PMIX_DVM_IS_READY")
        .contains("APP 0 SPAWN PMIX_SUCCESS")
        .contains("APP 1 WHERE node1");
  }

  @Test
  @Order(2)
  void spawnBeforeTheSecondPhase_neverReturns() throws Exception {
    Watched w =
        launch("new", "nlist=node2:2", "ready=no", "spawn", "np=1", "id=last", "--", "where");
    try {
      assertThat(w.await("^APP 0 NEW ")).startsWith("APP 0 NEW PMIX_SUCCESS");
      assertThat(w.await("^APP 0 SPAWN ")).isEqualTo("APP 0 SPAWN TIMEOUT");
    } finally {
      // prun stays with the job that never started
      w.process.toHandle().destroy();
      if (!w.process.waitFor(30, TimeUnit.SECONDS)) {
        Peer.killTree(w.process.toHandle());
      }
    }
  }
}
