package io.fluxdrm.shell;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The shell service name, as flux-core's job shell names it (the job id forms are rpc's JobId). */
class ServiceNameTest {
  @ParameterizedTest(name = "uid {0} job {1} -> {2}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          1000       | 235012382949188      | 1000-shell-f2qSNrX7Ky
          0          | 1                    | 0-shell-f2
          4294967295 | 18446744073709551615 | 4294967295-shell-fjpXCZedGfVQ
          """)
  void serviceName_uidAndJob_specTopicForm(String uid, String job, String name) {
    assertThat(ShellPlugin.serviceName(Integer.parseUnsignedInt(uid), Long.parseUnsignedLong(job)))
        .isEqualTo(name);
  }
}
