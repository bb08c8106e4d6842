package io.fluxdrm.pmix.nativ;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The application rows against the reference DVM ({@link ReferenceApps}), without PRRTE: the
 * outcomes docs/dvm.md's table shows beside PRRTE's, and what must hold in them.
 */
class ReferenceAppsTest {
  @Test
  void everyRowRuns_b8IsRefused_andFluxGetsBackWhatTheDvmDidNotApply() {
    Map<String, String> rows = ReferenceApps.run();
    rows.forEach((k, v) -> System.err.println(k + " | " + v));
    assertThat(rows.keySet())
        .containsExactly(
            "B5", "A1", "A2", "A3", "A4", "A5", "A6", "A7", "B8", "A8", "A9", "A10", "A11");
    // B5: an application may not name an owner; refused before Flux grants anything (D477)
    assertThat(rows.get("B5")).isEqualTo("`PMIX_ERR_NO_PERMISSIONS`, no event; Flux free 7/7");
    // an EXTEND of one's own session grows the DVM by the granted node, and says so
    assertThat(rows.get("A1")).isEqualTo("`PMIX_SUCCESS`, `PMIX_DVM_IS_READY`; Flux free 6/7");
    // B8 is refused before the scheduler grants anything (D477): J1's node only is out of Flux
    assertThat(rows.get("B8")).isEqualTo("`PMIX_ERR_NO_PERMISSIONS`, no event; Flux free 6/7");
    // a daemon that never starts: the grow is rolled back and its node goes back to Flux (D424)
    assertThat(rows.get("A11")).isEqualTo("`PMIX_SUCCESS`, `PMIX_ERR_DVM_MOD`; Flux free 7/7");
    // the child of a spawn into a new allocation runs there
    assertThat(rows.get("A4")).endsWith("spawn `PMIX_SUCCESS` on [node1]");
  }
}
