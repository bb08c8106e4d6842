package io.fluxdrm.pmix.port;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class SchedulerUpcallsTest {
  static final PmixProc P = new PmixProc("tool", 0);
  static final List<Info> NODES = List.of(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "n2"));

  static StatusInfos now(CompletionStage<StatusInfos> s) {
    return s.toCompletableFuture().getNow(null);
  }

  /** A scheduler answering with {@code status} and recording what it was asked. */
  static final class Recording implements SchedulerUpcalls {
    final List<String> calls = new ArrayList<>();
    final PmixStatus status;

    Recording(PmixStatus status) {
      this.status = status;
    }

    @Override
    public CompletionStage<StatusInfos> allocate(
        PmixProc requester, AllocDirective directive, List<Info> infos) {
      calls.add("allocate " + requester + " " + directive + " " + infos);
      return CompletableFuture.completedFuture(StatusInfos.of(status));
    }

    @Override
    public CompletionStage<StatusInfos> sessionControl(
        PmixProc requester, long sessionId, List<Info> directives) {
      calls.add("sessionControl " + requester + " " + sessionId + " " + directives);
      return CompletableFuture.completedFuture(StatusInfos.of(status));
    }

    @Override
    public CompletionStage<Void> nodesReleased(List<String> hosts) {
      calls.add("nodesReleased " + hosts);
      return CompletableFuture.completedFuture(null);
    }
  }

  @Test
  void refusing_answersEveryRequestWithItsStatusAndKeepsTheDefaultReleaseHook() {
    SchedulerUpcalls r = SchedulerUpcalls.refusing(PmixStatus.PMIX_ERR_NOT_SUPPORTED);
    assertThat(now(r.allocate(P, AllocDirective.NEW, NODES)))
        .isEqualTo(StatusInfos.of(PmixStatus.PMIX_ERR_NOT_SUPPORTED));
    assertThat(now(r.sessionControl(P, 7, NODES)))
        .isEqualTo(StatusInfos.of(PmixStatus.PMIX_ERR_NOT_SUPPORTED));
    assertThat(
            now(
                SchedulerUpcalls.refusing(PmixStatus.PMIX_ERR_NO_PERMISSIONS)
                    .allocate(P, AllocDirective.EXTEND, List.of())))
        .isEqualTo(StatusInfos.of(PmixStatus.PMIX_ERR_NO_PERMISSIONS));
    assertThat(r.nodesReleased(List.of("n2")).toCompletableFuture()).isCompletedWithValue(null);
    assertThatThrownBy(() -> SchedulerUpcalls.refusing(null))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void delegating_passesEveryCallToTheTargetOfTheMomentWithItsArguments() {
    Recording first = new Recording(PmixStatus.PMIX_SUCCESS);
    Recording second = new Recording(PmixStatus.PMIX_ERR_OUT_OF_RESOURCE);
    AtomicReference<SchedulerUpcalls> target = new AtomicReference<>(first);
    SchedulerUpcalls d = SchedulerUpcalls.delegating(target::get);
    assertThat(now(d.allocate(P, AllocDirective.NEW, NODES)).status())
        .isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(now(d.sessionControl(P, 7, NODES)).status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    d.nodesReleased(List.of("n2", "n3"));
    target.set(second);
    assertThat(now(d.allocate(P, AllocDirective.RELEASE, List.of())).status())
        .isEqualTo(PmixStatus.PMIX_ERR_OUT_OF_RESOURCE);
    assertThat(first.calls)
        .containsExactly(
            "allocate " + P + " NEW " + NODES,
            "sessionControl " + P + " 7 " + NODES,
            "nodesReleased [n2, n3]");
    assertThat(second.calls).containsExactly("allocate " + P + " RELEASE []");
    assertThatThrownBy(() -> SchedulerUpcalls.delegating(null))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void forwarding_asksForItsTargetAtEachCall() {
    List<SchedulerUpcalls> asked = new ArrayList<>();
    SchedulerUpcalls target = SchedulerUpcalls.refusing(PmixStatus.PMIX_ERR_UNREACH);
    SchedulerUpcalls.Forwarding f =
        () -> {
          asked.add(target);
          return target;
        };
    assertThat(now(f.sessionControl(P, 1, List.of())).status())
        .isEqualTo(PmixStatus.PMIX_ERR_UNREACH);
    assertThat(now(f.allocate(P, AllocDirective.NEW, List.of())).status())
        .isEqualTo(PmixStatus.PMIX_ERR_UNREACH);
    assertThat(asked).hasSize(2);
  }
}
