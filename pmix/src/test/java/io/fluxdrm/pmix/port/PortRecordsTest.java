package io.fluxdrm.pmix.port;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixException;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PortRecordsTest {
  private static final PmixProc SRC = new PmixProc("prterun-1", 0);

  @Test
  void statusInfosCarriesStatusAndInfosAndCopiesThem() {
    List<Info> infos = new ArrayList<>(List.of(Info.of(PmixKey.PMIX_ALLOC_ID, "7")));
    StatusInfos r = new StatusInfos(PmixStatus.PMIX_SUCCESS, infos);
    infos.clear();
    assertThat(r.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(r.infos()).extracting(Info::key).containsExactly(PmixKey.PMIX_ALLOC_ID);
    assertThat(r.succeeded()).isTrue();
    assertThat(StatusInfos.of(PmixStatus.PMIX_ERR_BAD_PARAM).succeeded()).isFalse();
    assertThatThrownBy(() -> r.infos().add(Info.of(PmixKey.PMIX_ALLOC_ID, "8")))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void statusInfosRejectsNulls() {
    assertThatThrownBy(() -> new StatusInfos(null, List.of()))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("status");
    assertThatThrownBy(() -> new StatusInfos(PmixStatus.PMIX_SUCCESS, null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("infos");
  }

  @Test
  void spawnResultNamesANamespaceExactlyOnSuccess() {
    assertThat(new SpawnResult(PmixStatus.PMIX_SUCCESS, Optional.of("ns1")).nspace())
        .contains("ns1");
    assertThat(new SpawnResult(PmixStatus.PMIX_ERROR, Optional.empty()).nspace()).isEmpty();
    assertThatThrownBy(() -> new SpawnResult(PmixStatus.PMIX_SUCCESS, Optional.empty()))
        .hasMessageContaining("expected: a namespace exactly on success");
    assertThatThrownBy(() -> new SpawnResult(PmixStatus.PMIX_ERROR, Optional.of("ns1")))
        .hasMessageContaining("expected: a namespace exactly on success");
    assertThatThrownBy(() -> new SpawnResult(PmixStatus.PMIX_SUCCESS, Optional.of("n".repeat(256))))
        .hasMessage("nspace: length 256 (expected: 1..255)");
    assertThatThrownBy(() -> new SpawnResult(null, Optional.empty()))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void appChecksItsFields() {
    App a = new App("/bin/true", List.of("true"), 2, List.of());
    assertThat(a.maxprocs()).isEqualTo(2);
    assertThatThrownBy(() -> new App("", List.of(), 1, List.of()))
        .isInstanceOf(PmixException.class)
        .hasMessage("app: cmd is empty (expected: an executable)");
    assertThatThrownBy(() -> new App("/bin/true", List.of(), 0, List.of()))
        .hasMessage("app: maxprocs 0 (expected: >= 1)");
    assertThatThrownBy(() -> new App("/bin/true", null, 1, List.of()))
        .isInstanceOf(PmixException.class)
        .hasMessage("app: argv is missing (expected: a list of strings)");
  }

  @Test
  void eventIsDirectedToATargetExactlyForACustomRange() {
    PmixProc requester = new PmixProc("app", 3);
    Event directed =
        new Event(-147, SRC, List.of(), Optional.of(requester), Event.Range.PMIX_RANGE_CUSTOM);
    assertThat(directed.target()).contains(requester);
    assertThat(
            new Event(-147, SRC, List.of(), Optional.empty(), Event.Range.PMIX_RANGE_SESSION)
                .target())
        .isEmpty();
    assertThatThrownBy(
            () -> new Event(-147, SRC, List.of(), Optional.empty(), Event.Range.PMIX_RANGE_CUSTOM))
        .hasMessageContaining("expected: a target exactly for PMIX_RANGE_CUSTOM");
    assertThatThrownBy(
            () ->
                new Event(-147, SRC, List.of(), Optional.of(requester), Event.Range.PMIX_RANGE_RM))
        .hasMessageContaining("expected: a target exactly for PMIX_RANGE_CUSTOM");
    assertThatThrownBy(
            () -> new Event(-147, null, List.of(), Optional.empty(), Event.Range.PMIX_RANGE_RM))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void registrationRejectsANullStatus() {
    assertThat(new Registration(PmixStatus.PMIX_SUCCESS, 4).ref()).isEqualTo(4);
    assertThatThrownBy(() -> new Registration(null, 4)).isInstanceOf(NullPointerException.class);
  }
}
