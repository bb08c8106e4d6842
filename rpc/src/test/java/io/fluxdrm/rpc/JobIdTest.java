package io.fluxdrm.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** RFC 19 job id forms (F58, dotted hex, JSON), including ids above 2^63 read as unsigned. */
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

  private static final ObjectMapper JSON = new ObjectMapper();

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "0, 0000.0000.0000.0000",
    "88097161216, 0000.0014.8300.0000",
    "-1, ffff.ffff.ffff.ffff",
  })
  void dothex_id_sixteenHexDigitsInFours(long id, String dothex) {
    assertThat(JobId.dothex(id)).isEqualTo(dothex);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"0", "7", "2147483648", "9223372036854775807", "18446744073709551615"})
  void json_read_roundTripsEveryUnsignedId(String text) throws Exception {
    long id = JobId.read(JSON.readTree(text), "/id");

    assertThat(Long.toUnsignedString(id)).isEqualTo(text);
    assertThat(JSON.writeValueAsString(JobId.json(id))).isEqualTo(text);
  }

  @Test
  void read_notAnUnsignedInteger_locatedEproto() throws Exception {
    assertThatThrownBy(() -> JobId.read(null, "sched.free: /id"))
        .isInstanceOfSatisfying(
            RpcException.class, e -> assertThat(e.errnum()).isEqualTo(Errno.EPROTO))
        .hasMessage(
            "sched.free: /id: missing (expected: an integer from 0 to 18446744073709551615)");
    assertThatThrownBy(() -> JobId.read(JSON.readTree("1.5"), "/id"))
        .hasMessage("/id: 1.5 (expected: an integer from 0 to 18446744073709551615)");
    assertThatThrownBy(() -> JobId.read(JSON.readTree("-1"), "/id"))
        .hasMessage("/id: -1 (expected: an integer from 0 to 18446744073709551615)");
    assertThatThrownBy(() -> JobId.read(JSON.readTree("18446744073709551616"), "/id"))
        .hasMessage(
            "/id: 18446744073709551616 (expected: an integer from 0 to 18446744073709551615)");
    assertThatThrownBy(() -> JobId.read(JSON.readTree("\"7\""), "/id"))
        .hasMessage("/id: \"7\" (expected: an integer from 0 to 18446744073709551615)");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"0", "1", "2147483648", "9223372036854775808", "18446744073709551615"})
  void parse_everyFormOfAnId_roundTrips(String text) {
    long id = Long.parseUnsignedLong(text);
    assertThat(JobId.parse(text)).isEqualTo(id);
    assertThat(JobId.parse(JobId.f58(id))).isEqualTo(id);
    assertThat(JobId.parse(" " + JobId.f58plain(id) + "\n")).isEqualTo(id);
    assertThat(JobId.parse(JobId.dothex(id))).isEqualTo(id);
    assertThat(JobId.parse("job." + JobId.dothex(id))).isEqualTo(id);
    assertThat(JobId.parse("0x" + Long.toHexString(id))).isEqualTo(id);
  }

  @Test
  void parse_notAnId_orOver64Bits_illegalArgument() {
    for (String bad :
        new String[] {"", "f", "\u0192", "fl0", "18446744073709551616", "-1", "0x", "jobid"}) {
      assertThatThrownBy(() -> JobId.parse(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class);
    }
    // 58^11 - 1 is over 64 bits
    assertThatThrownBy(() -> JobId.parse("fzzzzzzzzzzz"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
