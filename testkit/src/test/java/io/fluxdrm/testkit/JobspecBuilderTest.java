package io.fluxdrm.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.Test;

class JobspecBuilderTest {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void toJson_defaults_smallestV1Jobspec() {
    assertThat(JobspecBuilder.jobspec().toJson())
        .isEqualTo(
            "{\"version\":1,\"resources\":[{\"type\":\"slot\",\"count\":1,\"label\":\"task\","
                + "\"with\":[{\"type\":\"core\",\"count\":1}]}],\"tasks\":[{\"command\":[\"true\"],"
                + "\"slot\":\"task\",\"count\":{\"per_slot\":1}}],"
                + "\"attributes\":{\"system\":{\"duration\":0.0}}}");
  }

  @Test
  void toJson_everyKnob_placedWhereRfc25PutsIt() {
    String json =
        JobspecBuilder.jobspec()
            .nodes(2)
            .exclusive()
            .slots(3)
            .cores(4)
            .gpus(1)
            .command("a", "b c")
            .duration(60)
            .constraints("{\"properties\":[\"amd\"]}")
            .attribute("name", "x\"y")
            .attribute("n", 5)
            .toJson();
    assertThat(json)
        .isEqualTo(
            "{\"version\":1,\"resources\":[{\"type\":\"node\",\"count\":2,\"exclusive\":true,"
                + "\"with\":[{\"type\":\"slot\",\"count\":3,\"label\":\"task\",\"with\":["
                + "{\"type\":\"core\",\"count\":4},{\"type\":\"gpu\",\"count\":1}]}]}],"
                + "\"tasks\":[{\"command\":[\"a\",\"b c\"],\"slot\":\"task\",\"count\":{\"per_slot\":1}}],"
                + "\"attributes\":{\"system\":{\"duration\":60.0,\"constraints\":{\"properties\":[\"amd\"]}},"
                + "\"user\":{\"name\":\"x\\\"y\",\"n\":5}}}");
  }

  @Test
  void toJson_exclusiveWithoutNodes_marksTheSlot() {
    assertThat(
            JobspecBuilder.jobspec().exclusive().toTree().at("/resources/0/exclusive").asBoolean())
        .isTrue();
  }

  @Test
  void toJson_noDurationAndVersion_writtenAsTold() {
    var tree = JobspecBuilder.jobspec().version(2).noDuration().toTree();
    assertThat(tree.get("version").asInt()).isEqualTo(2);
    assertThat(tree.at("/attributes/system").isEmpty()).isTrue();
  }

  @Test
  void toYaml_sameTreeAsJson() throws Exception {
    JobspecBuilder b =
        JobspecBuilder.jobspec()
            .nodes(1)
            .slots(2)
            .gpus(2)
            .constraints("{\"not\":[{\"hostlist\":[\"n1\"]}]}");
    assertThat(YAML.readTree(b.toYaml())).isEqualTo(JSON.readTree(b.toJson()));
    assertThat(b.toYaml()).startsWith("version: 1\n");
  }

  @Test
  void constraints_notJson_refusedWithTheText() {
    assertThatThrownBy(() -> JobspecBuilder.jobspec().constraints("{oops"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("constraints: not JSON: {oops");
  }
}
