package io.fluxdrm.rpc.zmtp;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MetadataTest {
  private static final HexFormat HEX = HexFormat.of();

  @Test
  void encode_twoProperties_bytesInOrder() {
    Map<String, byte[]> props = new LinkedHashMap<>();
    props.put("Socket-Type", "DEALER".getBytes(US_ASCII));
    props.put("Identity", new byte[0]);
    assertThat(HEX.formatHex(Metadata.encode(props)))
        .isEqualTo(
            "0b"
                + HEX.formatHex("Socket-Type".getBytes(US_ASCII))
                + "00000006"
                + HEX.formatHex("DEALER".getBytes(US_ASCII))
                + "08"
                + HEX.formatHex("Identity".getBytes(US_ASCII))
                + "00000000");
  }

  @Test
  void decode_encoded_sameNamesValuesAndOrder() {
    long seed = Seeded.seed("decode_encoded_sameNamesValuesAndOrder");
    Random rnd = new Random(seed);
    String chars = "abcXYZ019-_.+";
    for (int i = 0; i < 200; i++) {
      Map<String, byte[]> props = new LinkedHashMap<>();
      int n = rnd.nextInt(5);
      for (int j = 0; j < n; j++) {
        StringBuilder name = new StringBuilder("p" + j);
        for (int k = rnd.nextInt(10); k > 0; k--) {
          name.append(chars.charAt(rnd.nextInt(chars.length())));
        }
        byte[] value = new byte[rnd.nextInt(40)];
        rnd.nextBytes(value);
        props.put(name.toString(), value);
      }
      byte[] wire = Metadata.encode(props);
      byte[] framed = new byte[wire.length + 6];
      System.arraycopy(wire, 0, framed, 3, wire.length);
      Map<String, byte[]> back;
      try {
        back = Metadata.decode(framed, 3, wire.length);
      } catch (ZmtpException e) {
        throw new AssertionError("seed " + seed + ": " + e.getMessage(), e);
      }
      assertThat(back.keySet()).as("seed %d", seed).containsExactlyElementsOf(props.keySet());
      props.forEach((k, v) -> assertThat(back.get(k)).isEqualTo(v));
    }
  }

  @Test
  void get_otherCase_found() throws ZmtpException {
    Map<String, byte[]> props =
        Metadata.decode(Metadata.encode(Map.of("Socket-Type", "ROUTER".getBytes(US_ASCII))), 0, 22);
    assertThat(Metadata.get(props, "socket-type")).isEqualTo("ROUTER".getBytes(US_ASCII));
    assertThat(Metadata.get(props, "Identity")).isNull();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          empty name               | 00                              | metadata: property 0: empty name
          name cut                 | 0541424344                      | metadata: property 0: truncated name or value length (5 bytes left)
          value length cut         | 0141000000                      | metadata: property 0: truncated name or value length (5 bytes left)
          value cut                | 0141000000036162                | metadata: property 0: "A" value of 3 bytes is truncated (found: 2)
          huge value               | 0141ffffffff                    | metadata: property 0: "A" value of 4294967295 bytes is truncated (found: 0)
          bad character            | 0141000000000241200000000000    | metadata: property 1: name character 1 is U+0020 (expected: a letter, a digit or one of - _ . +)
          repeated ignoring case   | 01610000000001410000000000      | metadata: property 1: "A" repeats "a" (names ignore case)
          """)
  void decode_malformed_refusedSayingWhy(String rule, String hex, String error) {
    byte[] buf = HEX.parseHex(hex);
    int len = hex.length() / 2;
    assertThatThrownBy(() -> Metadata.decode(buf, 0, len))
        .as(rule)
        .isInstanceOf(ZmtpException.class)
        .hasMessage(error);
  }

  @ParameterizedTest(name = "{1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          ''         | metadata: property "": empty name
          'a b'      | metadata: property "a b": name character 1 is U+0020 (expected: a letter, a digit or one of - _ . +)
          """)
  void encode_badName_refused(String name, String error) {
    assertThatThrownBy(() -> Metadata.encode(Map.of(name, new byte[0])))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(error);
  }

  @Test
  void encode_nameOf256Characters_refused() {
    String name = "x".repeat(256);
    assertThatThrownBy(() -> Metadata.encode(Map.of(name, new byte[0])))
        .hasMessage(
            "metadata: property \"" + name + "\": name of 256 characters (expected: at most 255)");
  }
}
