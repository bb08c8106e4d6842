package io.fluxdrm.dvm.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fluxdrm.dvm.exec.DaemonPolicy;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.rpc.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One request of a DVM client against an elastic reference DVM on a Unix socket: the answer as it
 * arrives, the second-phase event after it, and a failure for each way there is no answer.
 */
class DvmClientTest {
  @TempDir Path dir;

  private DvmOnSocket socket;

  private String hub(DaemonPolicy daemons) throws Exception {
    socket = DvmOnSocket.start(dir, daemons);
    return socket.uri();
  }

  @AfterEach
  void stop() throws Exception {
    if (socket != null) {
      socket.close();
    }
  }

  private static List<Info> grow(String reqId) {
    return List.of(
        Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "n2:2,n3:2"),
        Info.of(PmixKey.PMIX_ALLOC_REQ_ID, reqId));
  }

  @Test
  void request_withPhases_answerFirstThenTheReadyEvent() throws Exception {
    String uri = hub(DaemonPolicy.immediate().withLatency(Duration.ofMillis(200), Duration.ZERO));
    List<StatusInfos> answers = new ArrayList<>();
    Optional<StatusInfos> event =
        DvmClient.request(
            uri,
            20,
            port -> port.allocationRequestRaw(AllocDirective.NEW, grow("r1")),
            true,
            answers::add);
    assertThat(answers).hasSize(1);
    assertThat(answers.get(0).status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(event).isPresent();
    assertThat(event.get().status()).isEqualTo(PmixStatus.PMIX_DVM_IS_READY);
    StringWriter text = new StringWriter();
    DvmClient.print(answers.get(0), false, new PrintWriter(text), 1);
    DvmClient.print(event.get(), false, new PrintWriter(text), 2);
    assertThat(text.toString().lines().toList())
        .containsExactly(
            "PMIX_SUCCESS",
            "PMIX_ALLOC_ID=\"1\"",
            "PMIX_ALLOC_REQ_ID=\"r1\"",
            "event PMIX_DVM_IS_READY",
            "PMIX_ALLOC_ID=\"1\"",
            "PMIX_ALLOC_REQ_ID=\"r1\"");
  }

  @Test
  void request_failedDaemon_eventIsErrDvmMod_printedAsJsonOfPhaseTwo() throws Exception {
    String uri = hub(DaemonPolicy.immediate().failing(Set.of("n3")));
    Optional<StatusInfos> event =
        DvmClient.request(
            uri,
            20,
            port -> port.allocationRequestRaw(AllocDirective.NEW, grow("r2")),
            true,
            a -> {});
    assertThat(event).isPresent();
    StringWriter json = new StringWriter();
    DvmClient.print(event.get(), true, new PrintWriter(json), 2);
    var o = Json.mapper().readTree(json.toString());
    assertThat(o.get("phase").asInt()).isEqualTo(2);
    assertThat(o.get("status").asText()).isEqualTo("PMIX_ERR_DVM_MOD");
    assertThat(o.get("infos").toString()).contains("\"r2\"").contains("pmix.job.term.status");
  }

  @Test
  void request_refused_noEventAwaited() throws Exception {
    String uri = hub(DaemonPolicy.immediate());
    List<StatusInfos> answers = new ArrayList<>();
    Optional<StatusInfos> event =
        DvmClient.request(
            uri,
            20,
            port ->
                port.allocationRequestRaw(
                    AllocDirective.NEW, List.of(Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, 2L))),
            true,
            answers::add);
    assertThat(answers).hasSize(1);
    assertThat(answers.get(0).succeeded()).isFalse();
    assertThat(event).isEmpty();
  }

  @Test
  void request_hubWithoutDvm_noDvmThere() throws Exception {
    String uri = hub(null);
    assertThatThrownBy(
            () ->
                DvmClient.request(
                    uri, 5, port -> port.sessionControlRaw(1, List.of()), false, a -> {}))
        .isInstanceOf(DvmClient.Failure.class)
        .hasMessage("no DVM there (expected: 'fluxdrm dvm' listening)")
        .satisfies(f -> assertThat(((DvmClient.Failure) f).connection()).isEmpty());
  }

  @Test
  void request_nothingListening_theConnectionsFailure() {
    String uri = "local://" + dir.resolve("none");
    assertThatThrownBy(
            () ->
                DvmClient.request(
                    uri, 5, port -> port.sessionControlRaw(1, List.of()), false, a -> {}))
        .isInstanceOf(DvmClient.Failure.class)
        .satisfies(f -> assertThat(((DvmClient.Failure) f).connection()).isPresent());
  }
}
