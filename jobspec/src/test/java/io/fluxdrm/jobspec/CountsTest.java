package io.fluxdrm.jobspec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.fluxdrm.rset.Constraint;
import io.fluxdrm.schemas.Violation;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CountsTest {

  private static JsonNode yaml(String s) {
    return Documents.read(s.getBytes(StandardCharsets.UTF_8));
  }

  private static String jobspec(String resources, String system) {
    return "{\"version\":1,\"resources\":"
        + resources
        + ",\"tasks\":[{\"command\":[\"a\"],\"slot\":\"task\",\"count\":{\"per_slot\":1}}],"
        + "\"attributes\":{\"system\":"
        + system
        + "}}";
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          [{"type":"slot","count":3,"label":"task","with":[{"type":"core","count":2}]}]                                        | 0 | 0 | 3 | 2 | 0 | false
          [{"type":"node","count":2,"with":[{"type":"slot","count":2,"label":"task","with":[{"type":"core","count":1}]}]}]     | 1 | 2 | 2 | 1 | 0 | false
          [{"type":"node","count":4,"exclusive":true,"with":[{"type":"slot","count":1,"label":"task","with":[{"type":"core","count":8},{"type":"gpu","count":2}]}]}] | 1 | 4 | 1 | 8 | 2 | true
          [{"type":"rack","count":3,"with":[{"type":"slot","count":2,"label":"task","with":[{"type":"node","count":1,"with":[{"type":"core","count":4}]}]}]}] | 6 | 1 | 2 | 4 | 0 | false
          [{"type":"node","count":{"min":2},"with":[{"type":"slot","count":1,"label":"task","with":[{"type":"core","count":"4+"}]}]}] | 1 | 2+ | 1 | 4+ | 0 | false
          """)
  void of_shape_countsAsFluxCoreReader(
      String resources,
      long nodefactor,
      String nnodes,
      String nslots,
      String slotSize,
      long gpus,
      boolean exclusive) {
    Counts c = Counts.of(yaml(jobspec(resources, "{\"duration\":60}")));
    assertThat(c.nodefactor()).isEqualTo(nodefactor);
    assertThat(c.nnodes().toString()).isEqualTo(nnodes);
    assertThat(c.nslots().toString()).isEqualTo(nslots);
    assertThat(c.slotSize().toString()).isEqualTo(slotSize);
    assertThat(c.slotGpus()).isEqualTo(gpus);
    assertThat(c.exclusive()).isEqualTo(exclusive);
    assertThat(c.duration()).isEqualTo(60.0);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          [{"type":"slot","count":{"min":2},"label":"task","with":[{"type":"node","count":1,"with":[{"type":"core","count":1}]}]}] | {"duration":1} | /resources/0/count: non-integer count not allowed above node
          [{"type":"node","count":1,"with":[{"type":"core","count":1}]}]                                                           | {"duration":1} | /resources: unable to determine slot count (expected: a slot vertex)
          [{"type":"slot","count":1,"label":"task","with":[{"type":"gpu","count":1}]}]                                             | {"duration":1} | /resources: unable to determine slot size (expected: a core vertex under the slot)
          [{"type":"slot","count":0,"label":"task","with":[{"type":"core","count":1}]}]                                            | {"duration":1} | /resources/0/count: 0 (expected: integer count must be >= 1)
          [{"type":"rack","count":9223372036854775807,"with":[{"type":"rack","count":2,"with":[{"type":"slot","count":1,"label":"task","with":[{"type":"node","count":1,"with":[{"type":"core","count":1}]}]}]}]}] | {"duration":1} | /resources/0/with/0/count: product of counts above the node overflows (expected: < 2^63)
          [{"type":"slot","count":1,"label":"task","with":[{"type":"core","count":1}]}]                                            | {"cwd":"/"}    | /attributes/system/duration: getting duration: object item not found: duration
          [{"type":"slot","count":1,"label":"task","with":[{"type":"core","count":1}]}]                                            | {"duration":1,"constraints":{"ranks":["2,1"]}} | /attributes/system/constraints/ranks/0: idset "2,1": "1" is out of order (expected: ascending)
          """)
  void of_unusable_locatedError(String resources, String system, String expected) {
    JsonNode doc = yaml(jobspec(resources, system));
    assertThatThrownBy(() -> Counts.of(doc))
        .isInstanceOfSatisfying(
            JobspecException.class,
            e ->
                assertThat(e.violations())
                    .extracting(Violation::toString)
                    .containsExactly(expected));
  }

  @Test
  void of_jobspecWithConstraint_carriesConstraintAndJson() {
    Jobspec js =
        Jobspec.of(
            yaml(
                jobspec(
                    "[{\"type\":\"slot\",\"count\":1,\"label\":\"task\",\"with\":[{\"type\":\"core\",\"count\":1}]}]",
                    "{\"duration\":0,\"constraints\":{\"properties\":[\"ssd\"]}}")),
            Level.V1);
    Counts c = Counts.of(js);
    assertThat(c.constraint()).contains(new Constraint.Properties(List.of("ssd")));
    assertThat(c.toJson().toString())
        .isEqualTo(
            "{\"nodefactor\":0,\"nnodes\":0,\"nslots\":1,\"slot_size\":1,\"slot_gpus\":0,"
                + "\"exclusive\":false,\"duration\":0.0,\"constraint\":{\"properties\":[\"ssd\"]}}");
  }
}
