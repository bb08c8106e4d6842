package io.fluxdrm.shell;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JobIdsTest {
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          0                    | ƒ1
          1                    | ƒ2
          57                   | ƒz
          58                   | ƒ21
          235012382949188      | ƒ2qSNrX7Ky
          18446744073709551615 | ƒjpXCZedGfVQ
          """)
  void f58_jobId_base58WithPrefix(String id, String f58) {
    long v = Long.parseUnsignedLong(id);
    assertThat(JobIds.f58(v)).isEqualTo(f58);
    assertThat(JobIds.f58plain(v)).isEqualTo("f" + f58.substring(1));
  }

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

  @ParameterizedTest(name = "{0}")
  @CsvSource({"0", "9007199254740993", "18446744073709551615"})
  void json_unsignedId_roundTrips(String id) {
    long v = Long.parseUnsignedLong(id);
    assertThat(JobIds.json(v).toString()).isEqualTo(id);
    assertThat(JobIds.read(JobIds.json(v), "/id")).isEqualTo(v);
  }
}
