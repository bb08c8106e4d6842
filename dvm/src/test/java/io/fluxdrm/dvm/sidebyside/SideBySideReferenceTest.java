package io.fluxdrm.dvm.sidebyside;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The reference side of the side-by-side table (issue 16, scope 4), in the default build: the
 * scenarios run against the reference DVM, and the table's reference column in docs/dvm.md says
 * what they give, so the document cannot rot without the PRRTE peer (whose side {@code
 * SideBySideIT} of pmix-native runs).
 */
class SideBySideReferenceTest {
  static final Path DOC = Path.of("..", "docs", "dvm.md");

  @Test
  void referenceColumnOfDocsDvmMd_isWhatTheReferenceDvmGives() throws Exception {
    Map<String, String> ref = SideBySide.run(ReferenceWorld::new);
    Map<String, String> doc = SideBySide.referenceColumn(SideBySide.read(DOC));
    for (Scenario s : Scenarios.all()) {
      assertThat(doc).as("docs/dvm.md's table has a row for %s", s.id()).containsKey(s.id());
      if (ref.containsKey(s.id())) {
        assertThat(doc.get(s.id())).as("reference column of %s", s.id()).isEqualTo(ref.get(s.id()));
      }
    }
    assertThat(doc.keySet()).as("rows of the table").hasSameSizeAs(Scenarios.all());
  }

  @Test
  void aVaryingRowWhosePrrteOutcomeIsTheReferences_isFound() {
    Map<String, String> ref = Map.of("B21", "a", "B22", "b", "B1", "c");
    assertThat(SideBySide.variesButAgrees(ref, Map.of("B21", "x", "B22", "y", "B1", "c")))
        .isEmpty();
    assertThat(SideBySide.variesButAgrees(ref, Map.of("B21", "a", "B22", "y")))
        .containsExactly("B21");
    assertThat(SideBySide.variesButAgrees(ref, ref)).containsExactly("B21", "B22");
  }

  @Test
  void everyScenarioRunsAgainstTheReferenceDvm_withoutError() {
    Map<String, String> ref = SideBySide.run(ReferenceWorld::new);
    assertThat(ref.values()).noneMatch(o -> o.startsWith("error:"));
  }
}
