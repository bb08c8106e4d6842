package io.fluxdrm.rpc.zmtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** ZMTP metadata properties (RFC 37 "Metadata"). */
class MetadataTest {
  private static final HexFormat HEX = HexFormat.of();

  private static final String DEALER_READY_METADATA =
      "0b536f636b65742d54797065" + "00000006" + "4445414c4552" + "084964656e74697479" + "00000000";

  @Test
  void encode_socketTypeAndEmptyIdentity_bytesAsJeroMqSendsThem() {
    Map<String, byte[]> md = new LinkedHashMap<>();
    md.put("Socket-Type", "DEALER".getBytes(StandardCharsets.US_ASCII));
    md.put("Identity", new byte[0]);
    assertThat(HEX.formatHex(Metadata.encode(md))).isEqualTo(DEALER_READY_METADATA);
  }

  @Test
  void decode_atOffset_propertiesInOrderAndCaseInsensitiveGet() throws Exception {
    byte[] buf = HEX.parseHex("ffff" + DEALER_READY_METADATA + "ee");
    Map<String, byte[]> md = Metadata.decode(buf, 2, buf.length - 3);
    assertThat(md.keySet()).containsExactly("Socket-Type", "Identity");
    assertThat(new String(Metadata.get(md, "socket-type"), StandardCharsets.US_ASCII))
        .isEqualTo("DEALER");
    assertThat(Metadata.get(md, "IDENTITY")).isEmpty();
    assertThat(Metadata.get(md, "User-Id")).isNull();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "00 | metadata: property 0: empty name (expected: 1 to 255 characters)",
        "0141000000 | metadata: property 0: truncated name or value length",
        "014100000002ff | metadata: property 0: \"A\" value of 2 bytes runs past the metadata",
      })
  void decode_malformed_refusedWithPlace(String hex, String why) {
    byte[] b = HEX.parseHex(hex);
    assertThatThrownBy(() -> Metadata.decode(b, 0, b.length))
        .isInstanceOf(ZmtpException.class)
        .hasMessage(why);
  }

  @Test
  void decode_badNameCharacter_refused() {
    byte[] b = HEX.parseHex("02412000000000");
    assertThatThrownBy(() -> Metadata.decode(b, 0, b.length))
        .isInstanceOf(ZmtpException.class)
        .hasMessage(
            "metadata: property 0: name character 1 is not allowed (expected: letters, digits,"
                + " '-', '_', '.', '+')");
  }

  @Test
  void decode_nameRepeatedInAnotherCase_refused() {
    byte[] b = HEX.parseHex("01410000000001610000000000");
    assertThatThrownBy(() -> Metadata.decode(b, 0, b.length - 1))
        .isInstanceOf(ZmtpException.class)
        .hasMessage("metadata: property 1: name \"a\" repeated");
  }

  @Test
  void encodeThenDecode_variedProperties_same() throws Exception {
    Map<String, byte[]> md = new LinkedHashMap<>();
    md.put("X-a.b_c+1", new byte[300]);
    md.put("User-Id", "alice".getBytes(StandardCharsets.US_ASCII));
    byte[] wire = Metadata.encode(md);
    Map<String, byte[]> back = Metadata.decode(wire, 0, wire.length);
    assertThat(back.keySet()).containsExactlyElementsOf(md.keySet());
    assertThat(back.get("X-a.b_c+1")).isEqualTo(new byte[300]);
  }

  @Test
  void encode_badName_rejected() {
    assertThatThrownBy(() -> Metadata.encode(Map.of("a b", new byte[0])))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
