package io.fluxdrm.rpc.curve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fluxdrm.rpc.zmtp.Seeded;
import java.util.HexFormat;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.zeromq.ZMQ;

class Z85Test {
  @Test
  void encode_rfc32Example_helloWorld() {
    byte[] data = HexFormat.of().parseHex("864FD26FB559F75B");
    assertThat(Z85.encode(data)).isEqualTo("HelloWorld");
    assertThat(Z85.decode("HelloWorld")).isEqualTo(data);
  }

  @Test
  void encodeDecode_randomKeys_matchesJeromq() {
    // JeroMQ's Z85 functions handle 32-byte keys only
    long seed = Seeded.seed("encodeDecode_randomKeys_matchesJeromq");
    Random rnd = new Random(seed);
    for (int i = 0; i < 500; i++) {
      byte[] data = new byte[32];
      rnd.nextBytes(data);
      String text = Z85.encode(data);
      assertThat(text).as("seed %d, round %d", seed, i).isEqualTo(ZMQ.Curve.z85Encode(data));
      assertThat(Z85.decode(text)).isEqualTo(data).isEqualTo(ZMQ.Curve.z85Decode(text));
    }
  }

  @Test
  void encodeDecode_anyLength_roundTrips() {
    long seed = Seeded.seed("encodeDecode_anyLength_roundTrips");
    Random rnd = new Random(seed);
    for (int i = 0; i < 500; i++) {
      byte[] data = new byte[4 * rnd.nextInt(30)];
      rnd.nextBytes(data);
      String text = Z85.encode(data);
      assertThat(text).hasSize(data.length / 4 * 5);
      assertThat(Z85.decode(text)).as("seed %d, round %d", seed, i).isEqualTo(data);
    }
  }

  @Test
  void encodeAscii_anyLength_sameTextAsEncodeAtTheOffsetOnly() {
    long seed = Seeded.seed("encodeAscii_anyLength_sameTextAsEncodeAtTheOffsetOnly");
    Random rnd = new Random(seed);
    for (int i = 0; i < 200; i++) {
      byte[] data = new byte[4 * rnd.nextInt(12)];
      rnd.nextBytes(data);
      int off = rnd.nextInt(5);
      byte[] out = new byte[off + data.length / 4 * 5 + 3];
      int end = Z85.encodeAscii(data, out, off);
      assertThat(end).isEqualTo(off + data.length / 4 * 5);
      assertThat(new String(out, off, end - off, java.nio.charset.StandardCharsets.US_ASCII))
          .as("seed %d, round %d", seed, i)
          .isEqualTo(Z85.encode(data));
      for (int j = 0; j < off; j++) {
        assertThat(out[j]).isZero();
      }
      assertThat(out[end]).isZero();
    }
    assertThatThrownBy(() -> Z85.encodeAscii(new byte[8], new byte[9], 0))
        .isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> Z85.encodeAscii(new byte[3], new byte[9], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("z85: 3 bytes to encode (expected: a multiple of 4)");
  }

  /** D331: a key pair zeroes its secret key on destroy, and refuses a wiped (zero) secret key. */
  @Test
  void curveKeyPair_destroyed_secretZerosAndRefused() {
    CurveKeyPair k = CurveKeyPair.generate(new java.security.SecureRandom());
    byte[] pub = k.publicKey();
    assertThat(k.isDestroyed()).isFalse();
    k.destroy();
    assertThat(k.isDestroyed()).isTrue();
    assertThat(k.publicKey()).isEqualTo(pub);
    assertThatThrownBy(k::secretKey)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("curve key pair: the secret key is wiped");
    assertThatThrownBy(() -> CurveKeyPair.fromSecret(new byte[32]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("curve key pair: secret key of zeros (expected: a key, not a wiped one)");
  }

  @Test
  void decodeKey_jeromqKey_thirtyTwoBytes() {
    ZMQ.Curve.KeyPair pair = ZMQ.Curve.generateKeyPair();
    assertThat(Z85.decodeKey(pair.publicKey)).isEqualTo(ZMQ.Curve.z85Decode(pair.publicKey));
  }

  record BadKey(String text, String error) {}

  static Stream<BadKey> badKeys() {
    String ok = "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7"; // 40 characters
    return Stream.of(
        new BadKey("Hello", "z85 key: 5 characters (expected: 40)"),
        new BadKey(ok + "x", "z85 key: 41 characters (expected: 40)"),
        new BadKey(
            ok.substring(0, 39) + "\"",
            "z85: character 39 is '\"' (expected: one of the 85 Z85 characters)"),
        new BadKey(
            ok.substring(0, 30) + "~" + ok.substring(31),
            "z85: character 30 is '~' (expected: one of the 85 Z85 characters)"),
        new BadKey("#####" + ok.substring(5), "z85: characters 0-4 \"#####\" exceed 32 bits"));
  }

  @ParameterizedTest
  @MethodSource("badKeys")
  void decodeKey_badText_refusedSayingWhy(BadKey bad) {
    assertThatThrownBy(() -> Z85.decodeKey(bad.text()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(bad.error());
  }

  @Test
  void decode_nonAsciiCharacter_namedByCodePoint() {
    assertThatThrownBy(() -> Z85.decode("Hell\u00e9"))
        .hasMessage("z85: character 4 is U+00E9 (expected: one of the 85 Z85 characters)");
  }

  @Test
  void decode_lengthNotMultipleOfFive_refused() {
    assertThatThrownBy(() -> Z85.decode("Hell"))
        .hasMessage("z85: 4 characters (expected: a multiple of 5)");
  }

  @Test
  void encode_lengthNotMultipleOfFour_refused() {
    assertThatThrownBy(() -> Z85.encode(new byte[5]))
        .hasMessage("z85: 5 bytes to encode (expected: a multiple of 4)");
  }
}
