package io.fluxdrm.showcase.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.showcase.replay.DemoReplayProvider;
import java.io.StringWriter;
import java.util.OptionalLong;
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
    return new Step(
        12, "a-grow", "A", 1, "PMIX_ALLOC_NEW +4 node(s)", outcome, expected, "n", 0, 16);
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
            "    12 ms  A      ƒ2   PMIX_ALLOC_NEW +4 node(s)                          PMIX_SUCCESS"
                + "               n | free 0/16 nodes");
  }

  @Test
  void toJson_poolStep_hasNoJob() {
    Step s =
        new Step(
            3, "pool", "pool", 0, "pool after the story", "conserved", "conserved", "", 16, 16);
    assertThat(s.job()).isEqualTo("-");
    assertThat(s.toJson().get("actor").asText()).isEqualTo("pool");
    assertThat(s.toJson().has("job")).isFalse();
    assertThat(s.toJson().has("detail")).isFalse();
    assertThat(s.toJson().get("free_nodes").asInt()).isEqualTo(16);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          7  | 32 | 1    | pool: 7 nodes (expected: at least 8)
          16 | 0  | 1    | pool: 0 cores per node (expected: >= 1)
          16 | 32 | 0    | speed: 0.0 (expected: 0.01 to 100)
          16 | 32 | 101  | speed: 101.0 (expected: 0.01 to 100)
          """)
  void scenario_outOfRange_rejected(int nodes, int slots, double speed, String message) {
    assertThatThrownBy(() -> Scenario.of(nodes, slots, OptionalLong.empty(), speed))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @Test
  void config_poolAndScenarioOfOtherSizes_rejected() {
    assertThatThrownBy(
            () ->
                new Demo.Config(
                    DemoReplayProvider.pool(Hostlist.parse("n[0-8]"), IdSet.range(0, 3)),
                    io.fluxdrm.sched.SchedulerOptions.defaults(),
                    null,
                    new StringWriter(),
                    new StringWriter(),
                    Scenario.of(8, 4, OptionalLong.empty(), 1),
                    Demo.Mode.IN_PROCESS,
                    null,
                    false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("scenario: 8 nodes for a pool of 9");
  }

  @Test
  void config_crashesInOneJvm_rejected() {
    assertThatThrownBy(
            () ->
                new Demo.Config(
                    DemoReplayProvider.pool(Hostlist.parse("n[0-7]"), IdSet.range(0, 3)),
                    io.fluxdrm.sched.SchedulerOptions.defaults(),
                    null,
                    new StringWriter(),
                    new StringWriter(),
                    Scenario.of(8, 4, OptionalLong.empty(), 1),
                    Demo.Mode.IN_PROCESS,
                    null,
                    true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("crashes: only with the parts as processes");
  }

  /** The canonical sizes, and a seed's: always within what the story needs. */
  @ParameterizedTest
  @CsvSource({"8,    4", "16,   32", "33,   8", "1000, 2"})
  void scenario_anySeed_sizesTheStoryCanPlay(int nodes, int slots) {
    Scenario canonical = Scenario.of(nodes, slots, OptionalLong.empty(), 1);
    assertThat(canonical.grow()).isEqualTo(Math.max(1, nodes / 8));
    assertThat(canonical.deny()).isEqualTo(nodes + 1);
    for (long seed = 0; seed < 200; seed++) {
      Scenario s = Scenario.of(nodes, slots, OptionalLong.of(seed), 1);
      int free = nodes - s.aNodes() - s.bNodes();
      assertThat(s.grow()).as("seed %d", seed).isBetween(1, free - 1);
      int freeAfterGrow = free - s.grow();
      // B waits: one node or more short; granted once A gives its grow back
      assertThat(s.bAsk()).as("seed %d", seed).isGreaterThan(freeAfterGrow);
      assertThat(s.bAsk()).as("seed %d", seed).isLessThanOrEqualTo(free);
      assertThat(s.deny()).as("seed %d", seed).isGreaterThan(nodes);
      assertThat(s.sessionProcs()).as("seed %d", seed).isBetween(1, slots);
    }
  }

  @ParameterizedTest
  @CsvSource({"1, 250", "0.5, 500", "10, 25", "100, 3", "0.01, 25000"})
  void scenario_speed_scalesDaemonLatency(double speed, long ms) {
    assertThat(Scenario.of(16, 32, OptionalLong.empty(), speed).startLatencyMs()).isEqualTo(ms);
  }
}
