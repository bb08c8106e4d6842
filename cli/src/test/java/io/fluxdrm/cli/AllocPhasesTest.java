package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fluxdrm.dvm.client.DvmOnSocket;
import io.fluxdrm.dvm.exec.DaemonPolicy;
import io.fluxdrm.rpc.Json;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fluxdrm alloc --wait} against an elastic DVM on a Unix socket (issue 14 scope 6): the
 * answer, then the second-phase event, each printed as it arrives (B1, D16).
 */
class AllocPhasesTest {
  @TempDir Path dir;

  private DvmOnSocket socket;

  private void dvm(DaemonPolicy daemons) throws Exception {
    socket = DvmOnSocket.start(dir, daemons);
  }

  @AfterEach
  void stop() throws Exception {
    if (socket != null) {
      socket.close();
    }
  }

  private CliRun alloc(String args) {
    return CliRun.run("", CliRun.words("alloc " + args + " --timeout 20 --connect unix:" + dir));
  }

  @Test
  void allocNewWait_b1_answerThenIsReady_exit0() throws Exception {
    dvm(DaemonPolicy.immediate().withLatency(Duration.ofMillis(200), Duration.ZERO));
    CliRun r = alloc("new --hosts n2:2,n3:2 --req-id r1 --wait");
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out().lines().toList())
        .containsExactly(
            "PMIX_SUCCESS",
            "PMIX_ALLOC_ID=\"1\"",
            "PMIX_ALLOC_REQ_ID=\"r1\"",
            "event PMIX_DVM_IS_READY",
            "PMIX_ALLOC_ID=\"1\"",
            "PMIX_ALLOC_REQ_ID=\"r1\"");
  }

  @Test
  void allocNewWaitJson_d16_answerThenErrDvmMod_exit1() throws Exception {
    dvm(DaemonPolicy.immediate().failing(Set.of("n3")));
    CliRun r = alloc("new --hosts n2:2,n3:2 --req-id r2 --wait --json");
    assertThat(r.status()).isEqualTo(1);
    List<String> lines = r.out().lines().toList();
    assertThat(lines).hasSize(2);
    JsonNode one = Json.mapper().readTree(lines.get(0));
    JsonNode two = Json.mapper().readTree(lines.get(1));
    assertThat(one.get("phase").asInt()).isEqualTo(1);
    assertThat(one.get("status").asText()).isEqualTo("PMIX_SUCCESS");
    assertThat(two.get("phase").asInt()).isEqualTo(2);
    assertThat(two.get("status").asText()).isEqualTo("PMIX_ERR_DVM_MOD");
    assertThat(two.get("infos").toString()).contains("\"r2\"").contains("pmix.job.term.status");
    assertThat(r.err()).startsWith("fluxdrm alloc new: PMIX_ALLOC_NEW: PMIX_ERR_DVM_MOD");
  }

  @Test
  void allocNewWait_refusedAtPhaseOne_noWaitExit1() throws Exception {
    dvm(DaemonPolicy.immediate());
    CliRun r = alloc("new --num-nodes 2 --wait");
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out().lines().toList()).doesNotContain("event PMIX_DVM_IS_READY");
    assertThat(r.out()).doesNotContain("event ");
  }
}
