package io.fluxdrm.jobspec;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.testkit.JobspecBuilder;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** testkit's JobspecBuilder writes RFC 25 V1 jobspecs the validator accepts, as YAML and JSON. */
class JobspecBuilderValidityTest {

  static Stream<Arguments> shapes() {
    return Stream.of(
        Arguments.of("defaults", JobspecBuilder.jobspec()),
        Arguments.of("nodes, exclusive", JobspecBuilder.jobspec().nodes(2).exclusive().slots(4)),
        Arguments.of("cores and gpus", JobspecBuilder.jobspec().slots(2).cores(8).gpus(2)),
        Arguments.of(
            "duration, constraints, attributes",
            JobspecBuilder.jobspec()
                .duration(3600)
                .constraints("{\"properties\":[\"amd\"]}")
                .attribute("name", "x")
                .attribute("n", 3)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("shapes")
  void builderOutput_validV1(String name, JobspecBuilder b) {
    for (String text : new String[] {b.toYaml(), b.toJson()}) {
      Report r = JobspecValidator.check(name, text.getBytes(StandardCharsets.UTF_8), Level.V1);
      assertThat(r.lines()).as(text).containsExactly(name + ": ok");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("shapes")
  void builderOutput_zeroSlots_refused(String name, JobspecBuilder b) {
    byte[] text = b.slots(0).toYaml().getBytes(StandardCharsets.UTF_8);
    assertThat(JobspecValidator.check(name, text, Level.V1).valid()).isFalse();
  }
}
