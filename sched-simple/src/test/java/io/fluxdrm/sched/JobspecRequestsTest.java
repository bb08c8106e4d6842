package io.fluxdrm.sched;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The jobspec adapter: what flux-core's sched-simple reads from a jobspec, and its DENY notes. */
class JobspecRequestsTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private static JsonNode jobspec(String resources, String system) throws Exception {
    String attrs = system == null ? "{}" : "{\"system\":" + system + "}";
    return MAPPER.readTree(
        "{\"version\":1,\"resources\":"
            + resources
            + ",\"tasks\":[{\"command\":[\"true\"],\"slot\":\"task\",\"count\":{\"per_slot\":1}}],"
            + "\"attributes\":"
            + attrs
            + "}");
  }

  /** Reads as: nodes / slots / slot size / gpus / exclusive / duration. */
  private static String shape(ResourceRequest r) {
    return (r.nodes() == null ? "-" : r.nodes().toString())
        + " / "
        + r.slots()
        + " / "
        + r.slotSize()
        + " / "
        + r.gpusPerSlot()
        + " / "
        + r.exclusive()
        + " / "
        + r.duration()
        + (r.constraint() == null ? "" : " / constrained");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          one core               | [{"type":"slot","count":1,"label":"task","with":[{"type":"core","count":1}]}] | {"duration":0} | - / 1 / 1 / 0 / false / 0.0
          live trace: node, 2 slots | [{"type":"node","count":1,"with":[{"type":"slot","count":2,"label":"task","with":[{"type":"core","count":1}]}]}] | {"duration":60.0} | 1 / 2 / 1 / 0 / false / 60.0
          exclusive nodes        | [{"type":"node","count":2,"exclusive":true,"with":[{"type":"slot","count":1,"label":"task","with":[{"type":"core","count":4}]}]}] | {"duration":0} | 2 / 1 / 4 / 0 / true / 0.0
          node range             | [{"type":"node","count":{"min":2,"max":4},"with":[{"type":"slot","count":1,"label":"task","with":[{"type":"core","count":1}]}]}] | {"duration":0} | 2-4 / 1 / 1 / 0 / false / 0.0
          unbounded slots        | [{"type":"slot","count":"3+","label":"task","with":[{"type":"core","count":2}]}] | {"duration":0} | - / 3+ / 2 / 0 / false / 0.0
          gpus                   | [{"type":"slot","count":1,"label":"task","with":[{"type":"core","count":1},{"type":"gpu","count":2}]}] | {"duration":0} | - / 1 / 1 / 2 / false / 0.0
          cluster above node     | [{"type":"cluster","count":2,"with":[{"type":"node","count":3,"with":[{"type":"slot","count":1,"label":"task","with":[{"type":"core","count":1}]}]}]}] | {"duration":0} | 6 / 1 / 1 / 0 / false / 0.0
          constraint             | [{"type":"slot","count":1,"label":"task","with":[{"type":"core","count":1}]}] | {"duration":5,"constraints":{"properties":["amd"]}} | - / 1 / 1 / 0 / false / 5.0 / constrained
          """)
  void of_validJobspec_request(String name, String resources, String system, String expected)
      throws Exception {
    assertThat(shape(JobspecRequests.of(jobspec(resources, system)))).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          t2300 item 8: no system   | [{"type":"slot","count":1,"label":"task","with":[{"type":"core","count":1}]}] | | cannot parse jobspec: /attributes/system: getting duration: object item not found: system
          no duration               | [{"type":"slot","count":1,"label":"task","with":[{"type":"core","count":1}]}] | {} | cannot parse jobspec: /attributes/system/duration: getting duration: object item not found: duration
          no slot                   | [{"type":"core","count":1}] | {"duration":0} | cannot parse jobspec: /resources: unable to determine slot count (expected: a slot vertex)
          no core                   | [{"type":"slot","count":1,"label":"task","with":[{"type":"gpu","count":1}]}] | {"duration":0} | cannot parse jobspec: /resources: unable to determine slot size (expected: a core vertex under the slot)
          negative duration         | [{"type":"slot","count":1,"label":"task","with":[{"type":"core","count":1}]}] | {"duration":-1} | cannot parse jobspec: request: duration -1.0 (expected: finite, >= 0)
          stepped node count        | [{"type":"node","count":"2-8:2:*","with":[{"type":"slot","count":1,"label":"task","with":[{"type":"core","count":1}]}]}] | {"duration":0} | unsatisfiable request: node count 2-8:2:* is stepped (expected: a number or a range with step 1)
          range with step 2         | [{"type":"slot","count":"1-9:2","label":"task","with":[{"type":"core","count":1}]}] | {"duration":0} | unsatisfiable request: slot count 1-9:2 is stepped (expected: a number or a range with step 1)
          discrete slot count       | [{"type":"slot","count":"2,4","label":"task","with":[{"type":"core","count":1}]}] | {"duration":0} | unsatisfiable request: slot count "2,4" is a set of values (expected: a number or a range)
          """)
  void of_badJobspec_denyNote(String name, String resources, String system, String note)
      throws Exception {
    JsonNode doc = jobspec(resources, system);
    assertThatThrownBy(() -> JobspecRequests.of(doc))
        .isInstanceOf(SchedException.class)
        .hasMessage(note);
  }

  @org.junit.jupiter.api.Test
  void of_notAnObject_cannotParse() {
    assertThatThrownBy(() -> JobspecRequests.of(MAPPER.getNodeFactory().textNode("x")))
        .isInstanceOf(SchedException.class)
        .hasMessageStartingWith(JobspecRequests.PARSE_PREFIX);
  }
}
