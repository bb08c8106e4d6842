package io.fluxdrm.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;

class StepTableTest {

  @Test
  void parse_skipsBlankAndCommentLines_trimsCells_andRefusesTooManyColumns() {
    List<StepTable.Row> rows = StepTable.parse("\n# note\n a | b \nc\n", 3);
    assertThat(rows).extracting(StepTable.Row::line).containsExactly(3, 4);
    assertThat(rows.get(0).cells()).containsExactly("a", "b");
    assertThat(rows.get(1).cell(2)).isEmpty();
    assertThat(rows.get(0).where()).isEqualTo("line 3: a | b");
    assertThatThrownBy(() -> StepTable.parse("a | b | c", 2))
        .hasMessage("step table line 1: 3 columns (at most 2): a | b | c");
  }

  @Test
  void tests_oneDynamicTestPerScenarioNamedByIdAndTitle_runningItsBody() throws Throwable {
    List<String> ran = new ArrayList<>();
    List<DynamicTest> tests =
        StepTable.tests(
                List.of(
                    new StepTable.Scenario("C3", "pauseIsRelayed", () -> ran.add("c3")),
                    new StepTable.Scenario("C3 C4", "notUp", () -> ran.add("c3c4")),
                    new StepTable.Scenario("", "tryingItOut", () -> ran.add("none"))))
            .toList();
    assertThat(tests)
        .extracting(DynamicTest::getDisplayName)
        .containsExactly("C3 pauseIsRelayed", "C3 C4 notUp", "tryingItOut");
    for (DynamicTest t : tests) {
      t.getExecutable().execute();
    }
    assertThat(ran).containsExactly("c3", "c3c4", "none");
  }

  @Test
  void tests_refuseTwoScenariosOfOneNameAndATitleThatIsNoIdentifier() {
    StepTable.Scenario a = new StepTable.Scenario("C1", "x", () -> {});
    assertThatThrownBy(() -> StepTable.tests(List.of(a, a))).hasMessage("two scenarios named C1 x");
    assertThatThrownBy(() -> new StepTable.Scenario("C1", "two words", () -> {}))
        .hasMessage("scenario title is not an identifier: two words");
  }
}
