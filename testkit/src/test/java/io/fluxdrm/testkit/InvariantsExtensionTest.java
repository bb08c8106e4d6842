package io.fluxdrm.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class InvariantsExtensionTest {

  @RegisterExtension final InvariantsExtension invariants = new InvariantsExtension();

  private final List<Integer> state = new ArrayList<>();

  @Test
  void check_brokenInvariant_namesItAndTheStep() {
    InvariantsExtension ext = new InvariantsExtension();
    ext.register("never negative", () -> assertThat(state).allMatch(i -> i >= 0));
    ext.register("at most two", () -> assertThat(state).hasSizeLessThanOrEqualTo(2));
    state.add(1);
    ext.check("step 1");
    state.add(-1);

    assertThatThrownBy(() -> ext.check("step 2"))
        .isInstanceOf(AssertionError.class)
        .hasMessageStartingWith("invariant broken after step 2:\n  never negative: ")
        .hasMessageNotContaining("at most two");
    state.add(3);
    assertThatThrownBy(() -> ext.check("step 3"))
        .hasMessageContaining("never negative")
        .hasMessageContaining("at most two");
    assertThat(ext.checks()).isEqualTo(3);
  }

  @Test
  void check_invariantThrowingAnException_reportedAsBroken() {
    InvariantsExtension ext = new InvariantsExtension();
    ext.register(
        "table consistent",
        () -> {
          throw new IllegalStateException("job 7 in two queues");
        });

    assertThatThrownBy(() -> ext.check("free 7"))
        .isInstanceOf(AssertionError.class)
        .hasMessage("invariant broken after free 7:\n  table consistent: job 7 in two queues");
  }

  @Test
  void register_sameNameTwice_refused() {
    invariants.register("a", () -> {});

    assertThatThrownBy(() -> invariants.register("a", () -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("invariant already registered: a");
    assertThat(invariants.names()).containsExactly("a");
  }

  @Test
  void afterEach_runsTheRegisteredInvariantsOnceMore() {
    // this invariant holds, and the extension checks it after this test; a broken one would fail it
    invariants.register("state empty at the end", () -> assertThat(state).isEmpty());
    state.add(1);
    state.clear();
  }

  @Test
  void stepTable_rowsCellsAndLines() {
    List<StepTable.Row> rows =
        StepTable.parse(
            """
            # comment
            alloc 1 | success 1 | rank0

            free 1  |           |
            """,
            3);

    assertThat(rows).hasSize(2);
    assertThat(rows.get(0).cells()).containsExactly("alloc 1", "success 1", "rank0");
    assertThat(rows.get(1).line()).isEqualTo(4);
    assertThat(rows.get(1).cell(1)).isEmpty();
    assertThat(rows.get(1).cell(5)).isEmpty();
    assertThat(rows.get(0).where()).isEqualTo("line 2: alloc 1 | success 1 | rank0");
    assertThatThrownBy(() -> StepTable.parse("a | b | c | d", 3))
        .hasMessage("step table line 1: 4 columns (at most 3): a | b | c | d");
  }
}
