package io.fluxdrm.bridge.dvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A restarted bridge's ledger with the shrinks Flux granted and not handed back yet (D521). */
class LedgerReleasingTest {
  private static final Ledger BEFORE =
      new Ledger(
          Map.of(1L, List.of("n2:2", "n3:2"), 2L, List.of("n4")),
          null,
          Map.of("n5", "n5:1"),
          null,
          List.of("n1"));

  @Test
  void aSessionsHost_leavesItsSession_andDeparts() {
    List<String> told = new ArrayList<>();
    Ledger l = BEFORE.withReleasing(List.of("n3", "n4"), told::add);
    assertThat(l.sessions()).isEqualTo(Map.of(1L, List.of("n2:2"), 2L, List.of()));
    assertThat(l.departing()).isEqualTo(Map.of("n3", "n3:2", "n4", "n4", "n5", "n5:1"));
    assertThat(told).containsExactly("n3:2", "n4");
    assertThat(l.base()).isEqualTo(BEFORE.base());
  }

  @Test
  void aHostDepartingAlready_orOfNoSession() {
    List<String> told = new ArrayList<>();
    Ledger l = BEFORE.withReleasing(List.of("n5", "n9"), told::add);
    assertThat(l.sessions()).isEqualTo(BEFORE.sessions());
    assertThat(l.departing()).isEqualTo(Map.of("n5", "n5:1", "n9", "n9"));
    assertThat(told).containsExactly("n9");
  }

  @Test
  void nothingReleasing_theSameLedger() {
    assertThat(BEFORE.withReleasing(List.of(), e -> {})).isSameAs(BEFORE);
  }
}
