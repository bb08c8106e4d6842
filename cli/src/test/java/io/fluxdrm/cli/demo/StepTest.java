package io.fluxdrm.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fluxdrm.cli.replay.DemoReplayProvider;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The timeline's lines: F58 ids, the self-check of a step, the text and JSON forms. */
class StepTest {

  @ParameterizedTest
  @CsvSource({"1, ƒ2", "57, ƒz", "58, ƒ21", "-1, ƒjpXCZedGfVQ"})
  void f58_jobId_asFluxPrintsIt(long id, String f58) {
    assertThat(Step.f58(id)).isEqualTo(f58);
  }

  private static Step step(String outcome, String expected) {
    return new Step(12, "a-grow", 1, "PMIX_ALLOC_NEW +4 node(s)", outcome, expected, "n", 0, 16);
  }

  @ParameterizedTest
  @CsvSource({
    "PMIX_SUCCESS, PMIX_SUCCESS, true",
    "waiting, PMIX_SUCCESS, false",
    "PMIX_ERR_OUT_OF_RESOURCE, waiting, false"
  })
  void ok_outcomeAgainstStory_trueOnlyWhenEqual(String outcome, String expected, boolean ok) {
    Step s = step(outcome, expected);
    assertThat(s.ok()).isEqualTo(ok);
    assertThat(s.toJson().get("ok").asBoolean()).isEqualTo(ok);
    assertThat(s.toLine().contains("(expected: " + expected + ")")).isEqualTo(!ok);
  }

  @Test
  void toLine_step_columnsAndPoolState() {
    assertThat(step("PMIX_SUCCESS", "PMIX_SUCCESS").toLine())
        .isEqualTo(
            "    12 ms  ƒ2   PMIX_ALLOC_NEW +4 node(s)                      PMIX_SUCCESS"
                + "               n | free 0/16 nodes");
  }

  @Test
  void toJson_poolStep_hasNoJob() {
    Step s = new Step(3, "pool", 0, "pool after the story", "conserved", "conserved", "", 16, 16);
    assertThat(s.job()).isEqualTo("-");
    assertThat(s.toJson().has("job")).isFalse();
    assertThat(s.toJson().has("detail")).isFalse();
    assertThat(s.toJson().get("free_nodes").asInt()).isEqualTo(16);
  }

  @Test
  void config_poolOfThreeNodes_rejected() {
    assertThatThrownBy(
            () ->
                new Demo.Config(
                    DemoReplayProvider.pool(Hostlist.parse("n[0-2]"), IdSet.range(0, 3)),
                    io.fluxdrm.sched.SchedulerOptions.defaults(),
                    null,
                    new StringWriter()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("pool: 3 nodes (expected: at least 4)");
  }
}
