package io.fluxdrm.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** RFC 19 F58 of job ids, including ids above 2^63 read as unsigned. */
class JobIdTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "0, ƒ1, f1",
    "1, ƒ2, f2",
    "57, ƒz, fz",
    "58, ƒ21, f21",
    "235012382949188, ƒ2qSNrX7Ky, f2qSNrX7Ky",
    "-1, ƒjpXCZedGfVQ, fjpXCZedGfVQ",
  })
  void f58_id_base58Digits(long id, String f58, String plain) {
    assertThat(JobId.f58(id)).isEqualTo(f58);
    assertThat(JobId.f58plain(id)).isEqualTo(plain);
  }
}
