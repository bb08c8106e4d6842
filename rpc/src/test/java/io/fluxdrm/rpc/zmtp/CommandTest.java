package io.fluxdrm.rpc.zmtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Command bodies, ERROR, PING and PONG (RFC 37 "Commands", "Connection Heartbeating"). */
class CommandTest {
  private static final HexFormat HEX = HexFormat.of();

  @Test
  void of_nameAndData_lengthPrefixedName() throws Exception {
    byte[] b = Command.of("READY", HEX.parseHex("0102"));
    assertThat(HEX.formatHex(b)).isEqualTo("0552454144590102");
    assertThat(Command.name(b)).isEqualTo("READY");
    assertThat(Command.dataOffset(b)).isEqualTo(6);
  }

  @ParameterizedTest(name = "[{index}] {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "'' | command: empty body (expected: a name length and a name)",
        "00 | command: empty name (expected: 1 to 255 characters)",
        "0550494e47 | command: name of 5 bytes in a body of 5 (expected: the name within the"
            + " body)",
      })
  void name_malformedBody_refused(String hex, String why) {
    assertThatThrownBy(() -> Command.name(HEX.parseHex(hex)))
        .isInstanceOf(ZmtpException.class)
        .hasMessage(why);
  }

  @Test
  void error_reason_roundTripsAndShowsOnlyPrintable() throws Exception {
    assertThat(Command.errorReason(Command.error("client key not allowed")))
        .isEqualTo("client key not allowed");
    byte[] odd = Command.of("ERROR", HEX.parseHex("03410a42"));
    assertThat(Command.errorReason(odd)).isEqualTo("A?B");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "054552524f52 | ERROR: no reason length (expected: a length byte and a reason)",
        "054552524f520541 | ERROR: reason of 5 bytes runs past the command (expected: within it)",
      })
  void errorReason_malformed_refused(String hex, String why) {
    assertThatThrownBy(() -> Command.errorReason(HEX.parseHex(hex)))
        .isInstanceOf(ZmtpException.class)
        .hasMessage(why);
  }

  @Test
  void ping_encode_ttlThenContext() {
    Ping p = new Ping(50, HEX.parseHex("c0ffee"));
    assertThat(HEX.formatHex(p.encode())).isEqualTo("0450494e470032c0ffee");
    assertThat(HEX.formatHex(p.pong())).isEqualTo("04504f4e47c0ffee");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "0450494e470000, 0, ''",
    "0450494e47ffff01, 65535, 01",
    // a context over 16 bytes is cut to 16 as libzmq does
    "0450494e47000a00112233445566778899aabbccddeeff1122, 10, 00112233445566778899aabbccddeeff",
  })
  void ping_parse_ttlAndContext(String hex, int ttl, String context) throws Exception {
    Ping p = Ping.parse(HEX.parseHex(hex));
    assertThat(p.ttlDeciseconds()).isEqualTo(ttl);
    assertThat(HEX.formatHex(p.context())).isEqualTo(context);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "0450494e4700 | PING: 1 bytes of data (expected: a 2-byte ttl and a context)",
        "04504f4e470000 | PING: command PONG (expected: PING)",
      })
  void ping_parseMalformed_refused(String hex, String why) {
    assertThatThrownBy(() -> Ping.parse(HEX.parseHex(hex)))
        .isInstanceOf(ZmtpException.class)
        .hasMessage(why);
  }

  @Test
  void ping_badFields_rejected() {
    assertThatThrownBy(() -> new Ping(70_000, new byte[0]))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Ping(1, new byte[17]))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
