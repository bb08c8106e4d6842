package io.fluxdrm.sched;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxdrm.rset.ResourceSet;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The decisions behind the payloads a live flux-core 0.88 sched-simple sent on a one-node, two-core
 * instance ({@code vm}): the R of a SUCCESS (keys, times, nslots, nodelist), its resource_summary,
 * and the note of a DENY, as the live traces record them.
 */
class LiveShapesTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String POOL =
      """
      {"version": 1, "execution": {"R_lite": [{"rank": "0", "children": {"core": "0-1"}}],
       "starttime": 0.0, "expiration": 0.0, "nodelist": ["vm"]}}
      """;

  private final SchedulerCore core =
      SchedulerCore.of(ResourceSet.parse(POOL), SchedulerOptions.defaults());

  @AfterEach
  void invariantsHold() {
    core.pool().checkInvariants();
  }

  @Test
  void alloc_oneNodeTwoSlotsSixtySeconds_rAsSchedSimpleSendsIt() throws Exception {
    double now = 1795966037.7357202;
    ResourceRequest req = ResourceRequest.nodes(1, 2, 1).withDuration(60.0);
    List<Decision> out =
        core.handle(new SchedEvent.Alloc(22800236544L, 16, 0, 1795966037.7124448, req), now);
    Decision.AllocSuccess s = (Decision.AllocSuccess) out.get(0);
    assertThat(s.type().code()).isZero();
    assertThat(s.resourceSummary()).isEqualTo("rank0/core[0-1]");
    JsonNode expected =
        JSON.readTree(
            """
            {"version": 1, "execution": {"R_lite": [{"rank": "0", "children": {"core": "0-1"}}],
             "starttime": 1795966037.7357202, "expiration": 1795966097.7357202, "nslots": 2,
             "nodelist": ["vm"]}}
            """);
    assertThat(JSON.readTree(s.r().toString())).isEqualTo(expected);

    List<Decision> freed = core.handle(new SchedEvent.Free(22800236544L, s.r(), true), now + 0.03);
    assertThat(Harness.describe(freed)).containsExactly("freed 22800236544 rank0/core[0-1] final");
  }

  @Test
  void alloc_threeCoreSlotOnTwoCores_denyNoteAsSchedSimpleWritesIt() {
    List<Decision> out =
        core.handle(
            new SchedEvent.Alloc(
                25266487296L, 16, 0, 1795966037.8587036, ResourceRequest.slots(1, 3)),
            1795966037.88);
    assertThat(out)
        .containsExactly(
            new Decision.AllocDeny(
                25266487296L,
                "unsatisfiable request: need 1 slot(s) of 3 core(s), only 0 such slot(s) available"
                    + " (total cores: 2)"));
    assertThat(((Decision.AllocDeny) out.get(0)).type().code()).isEqualTo(2);
  }

  @Test
  void alloc_noDuration_expirationZero() throws Exception {
    double now = 1795966046.7199039;
    List<Decision> out =
        core.handle(
            new SchedEvent.Alloc(8489271296L, 16, 0, now - 2, ResourceRequest.nodes(1, 2, 1)), now);
    Decision.AllocSuccess s = (Decision.AllocSuccess) out.get(0);
    assertThat(JSON.readTree(s.r().toString()))
        .isEqualTo(
            JSON.readTree(
                """
                {"version": 1, "execution": {"R_lite": [{"rank": "0", "children": {"core": "0-1"}}],
                 "starttime": 1795966046.7199039, "expiration": 0.0, "nslots": 2,
                 "nodelist": ["vm"]}}
                """));
  }
}
