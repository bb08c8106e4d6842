package io.fluxdrm.pmix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Scenarios A2 and A3 of docs/scenarios.md. */
class AllocTimeTest {

  @ParameterizedTest(name = "\"{0}\" = {1} s")
  @CsvSource({
    "2, 2",
    "1:30, 90",
    "1:0:0, 3600",
    "1:0:0:0, 86400",
    "1:0:0:0:0, 2592000",
    "0, 0",
    "007, 7",
    "1:2:3:4:5, 2775845",
  })
  void a2_parseSeconds_readFromTheRight(String text, long seconds) {
    assertThat(AllocTime.parseSeconds(text)).isEqualTo(seconds);
  }

  @ParameterizedTest(name = "\"{0}\"")
  @CsvSource(
      delimiter = '|',
      value = {
        "''|pmix.alloc.time \"\": empty",
        ":30|pmix.alloc.time \":30\": field 1 of 2 is empty",
        "1:|pmix.alloc.time \"1:\": field 2 of 2 is empty",
        "1::2|pmix.alloc.time \"1::2\": field 2 of 3 is empty",
        "-5|pmix.alloc.time \"-5\": field 1 of 1 \"-5\" is not digits",
        "1:2:3:4:5:6|pmix.alloc.time \"1:2:3:4:5:6\": 6 fields (expected: at most 5",
        "abc|pmix.alloc.time \"abc\": field 1 of 1 \"abc\" is not digits",
        "1.5|pmix.alloc.time \"1.5\": field 1 of 1 \"1.5\" is not digits",
        "' 5'|pmix.alloc.time \" 5\": field 1 of 1 \" 5\" is not digits",
        "99999999999999999999|pmix.alloc.time \"99999999999999999999\": field 1 of 1 is too large",
        "9999999999999:0:0:0:0|pmix.alloc.time \"9999999999999:0:0:0:0\": field 1 of 5 is too large",
      })
  void a3_parseSeconds_malformed_badParamNamingTheField(String text, String message) {
    assertThatThrownBy(() -> AllocTime.parseSeconds(text))
        .isInstanceOf(PmixException.class)
        .hasMessageStartingWith(message)
        .satisfies(
            e -> assertThat(((PmixException) e).status()).isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM));
  }
}
