package io.fluxdrm.rpc.zmtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** ZMTP greetings: our bytes, the versions accepted and the refusals (RFC 37, D171). */
class GreetingTest {
  private static final HexFormat HEX = HexFormat.of();

  @Test
  void encode_nullClient_exactBytes() {
    byte[] g = Greeting.encode("NULL", false);
    assertThat(HEX.formatHex(g))
        .isEqualTo(
            "ff00000000000000007f" // signature
                + "0301" // version 3.1
                + "4e554c4c"
                + "00".repeat(16) // mechanism NULL
                + "00" // as-server
                + "00".repeat(31)); // filler
  }

  @Test
  void encode_curveServer_asServerSet() {
    byte[] g = Greeting.encode("CURVE", true);
    assertThat(g).hasSize(64);
    assertThat(g[32]).isEqualTo((byte) 1);
    assertThat(new String(g, 12, 5, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("CURVE");
  }

  @ParameterizedTest(name = "version {0}.{1} speaks 3.1: {2}")
  @CsvSource({"3, 0, false", "3, 1, true", "3, 2, true", "4, 0, true"})
  void parse_version3OrLater_accepted(int major, int minor, boolean speaks31) throws Exception {
    byte[] g = Greeting.encode("NULL", false);
    g[10] = (byte) major;
    g[11] = (byte) minor;
    Greeting p = Greeting.parse(g);
    assertThat(p).isEqualTo(new Greeting(major, minor, "NULL", false));
    assertThat(p.speaks31()).isEqualTo(speaks31);
  }

  @Test
  void parse_ownGreeting_roundTrips() throws Exception {
    assertThat(Greeting.parse(Greeting.encode("CURVE", true)))
        .isEqualTo(new Greeting(3, 1, "CURVE", true));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "0 | 00 | 1 | greeting: byte 0 is 0x00 (expected: 0xff, the ZMTP signature; not a ZeroMQ"
            + " peer)",
        "0 | 47 | 1 | greeting: byte 0 is 0x47 (expected: 0xff, the ZMTP signature; not a ZeroMQ"
            + " peer)",
        "9 | 7e | 10 | greeting: byte 9 is 0x7e (expected: 0x7f; a ZMTP 1.0 peer, which is not"
            + " supported)",
        "10 | 02 | 11 | greeting: ZMTP version 2.x (expected: 3.0 or later; libzmq 4 or JeroMQ 0.4"
            + " and later)",
        "10 | 01 | 11 | greeting: ZMTP version 1.x (expected: 3.0 or later; libzmq 4 or JeroMQ 0.4"
            + " and later)",
      })
  void checkPrefix_badSignatureOrVersion_refusedAsSoonAsVisible(
      int at, String value, int visible, String why) {
    byte[] g = Greeting.encode("NULL", false);
    g[at] = HEX.parseHex(value)[0];
    assertThatThrownBy(() -> Greeting.checkPrefix(g, visible))
        .isInstanceOf(ZmtpException.class)
        .hasMessage(why);
    assertThatThrownBy(() -> Greeting.parse(g)).isInstanceOf(ZmtpException.class).hasMessage(why);
  }

  @Test
  void checkPrefix_goodBytesSoFar_accepted() throws Exception {
    byte[] g = Greeting.encode("NULL", false);
    for (int n = 0; n <= 64; n++) {
      Greeting.checkPrefix(g, n);
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "4e55004c | greeting: mechanism byte 3 is 0x4c (expected: printable ASCII padded with"
            + " zeros)",
        "4e552020 | greeting: mechanism byte 2 is 0x20 (expected: printable ASCII padded with"
            + " zeros)",
        "00000000 | greeting: empty mechanism name (expected: NULL, PLAIN or CURVE)",
      })
  void parse_badMechanismName_refused(String mechanism, String why) {
    byte[] g = Greeting.encode("NULL", false);
    System.arraycopy(HEX.parseHex(mechanism), 0, g, 12, 4);
    assertThatThrownBy(() -> Greeting.parse(g)).isInstanceOf(ZmtpException.class).hasMessage(why);
  }

  @Test
  void parse_wrongLength_refused() {
    assertThatThrownBy(() -> Greeting.parse(new byte[10]))
        .isInstanceOf(ZmtpException.class)
        .hasMessage("greeting: 10 bytes (expected: 64)");
  }
}
