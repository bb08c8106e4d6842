package io.fluxdrm.rpc.zmtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** ZMTP framing: the frame decoder and encoder (RFC 37 "Framing", D172). */
class FrameCodecTest {
  private static final HexFormat HEX = HexFormat.of();

  /** Decodes every frame of {@code bytes} fed in pieces of {@code piece} bytes. */
  private static List<Frame> decodeAll(FrameDecoder d, byte[] bytes, int piece)
      throws ZmtpException {
    List<Frame> out = new ArrayList<>();
    for (int at = 0; at < bytes.length; at += piece) {
      ByteBuffer b = ByteBuffer.wrap(bytes, at, Math.min(piece, bytes.length - at));
      Frame f;
      while ((f = d.next(b)) != null) {
        out.add(f);
      }
      assertThat(b.hasRemaining()).isFalse();
    }
    return out;
  }

  private static String show(Frame f) {
    return (f.command() ? "C" : "P") + (f.more() ? "+" : "") + ":" + HEX.formatHex(f.body());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    // short part, last
    "0003616263, P:616263",
    // short part with MORE then an empty last part
    "01016100 00, P+:61 P:",
    // short command
    "04045045524f, C:5045524f",
    // long part with a size below 256: accepted as libzmq does
    "02000000000000000278 79, P:7879",
    // long command with MORE clear
    "0600000000000000017a, C:7a",
    // reserved bits ignored as libzmq does
    "f9017a 08017b, P+:7a P:7b",
  })
  void next_validFrames_decodedWhateverTheSplit(String hex, String expected) throws Exception {
    byte[] bytes = HEX.parseHex(hex.replace(" ", ""));
    for (int piece = 1; piece <= bytes.length; piece++) {
      List<Frame> frames = decodeAll(new FrameDecoder(1024), bytes, piece);
      assertThat(frames.stream().map(FrameCodecTest::show).toList())
          .as("pieces of %d", piece)
          .containsExactly(expected.split(" "));
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "0001ff 0505 | frame at byte 3: a command with MORE set (expected: MORE clear)",
        "0011 | frame at byte 0: size 17 over the limit of 16 bytes",
        "020000000000000100 | frame at byte 0: size 256 over the limit of 16 bytes",
        "02ffffffffffffffff | frame at byte 0: size 18446744073709551615 over the limit of 16"
            + " bytes",
      })
  void next_badFrame_refusedWithOffset(String hex, String why) {
    FrameDecoder d = new FrameDecoder(16);
    byte[] bytes = HEX.parseHex(hex.replace(" ", ""));
    assertThatThrownBy(() -> decodeAll(d, bytes, bytes.length))
        .isInstanceOf(ZmtpException.class)
        .hasMessage(why);
  }

  @Test
  void midFrame_partialHeaderOrBody_reported() throws Exception {
    FrameDecoder d = new FrameDecoder(16);
    assertThat(d.midFrame()).isFalse();
    assertThat(d.next(ByteBuffer.wrap(HEX.parseHex("0003")))).isNull();
    assertThat(d.midFrame()).isTrue();
    assertThat(d.next(ByteBuffer.wrap(HEX.parseHex("6162")))).isNull();
    assertThat(d.next(ByteBuffer.wrap(HEX.parseHex("63")))).isNotNull();
    assertThat(d.midFrame()).isFalse();
    assertThat(d.offset()).isEqualTo(5);
  }

  @ParameterizedTest(name = "body of {0} bytes")
  @ValueSource(ints = {0, 1, 255, 256, 70_000})
  void encode_sizes_shortUpTo255ElseLong(int n) {
    byte[] body = new byte[n];
    byte[] wire = FrameEncoder.encode(Frame.part(body, true));
    assertThat(wire).hasSize(FrameEncoder.encodedSize(n));
    if (n <= 255) {
      assertThat(wire[0]).isEqualTo((byte) 0x01);
      assertThat(wire[1] & 0xff).isEqualTo(n);
    } else {
      assertThat(wire[0]).isEqualTo((byte) 0x03);
      assertThat(ByteBuffer.wrap(wire, 1, 8).getLong()).isEqualTo(n);
    }
  }

  @Test
  void encode_command_commandFlag() {
    assertThat(HEX.formatHex(FrameEncoder.encode(Frame.command(HEX.parseHex("0450494e47")))))
        .isEqualTo("04050450494e47");
  }

  @Test
  void encodeThenDecode_seededRandomFrames_sameFrames() throws Exception {
    long seed = System.nanoTime();
    System.out.println("FrameCodecTest round trip seed " + seed);
    Random rnd = new Random(seed);
    for (int round = 0; round < 200; round++) {
      List<Frame> frames = new ArrayList<>();
      int count = 1 + rnd.nextInt(8);
      for (int i = 0; i < count; i++) {
        byte[] body = new byte[rnd.nextInt(4) == 0 ? 256 + rnd.nextInt(2000) : rnd.nextInt(256)];
        rnd.nextBytes(body);
        boolean command = rnd.nextInt(5) == 0;
        frames.add(new Frame(body, !command && rnd.nextBoolean(), command));
      }
      byte[] wire = FrameEncoder.encode(frames);
      List<Frame> back = decodeAll(new FrameDecoder(4096), wire, 1 + rnd.nextInt(wire.length));
      assertThat(back).as("seed %d round %d", seed, round).hasSize(frames.size());
      for (int i = 0; i < frames.size(); i++) {
        assertThat(show(back.get(i))).as("seed %d", seed).isEqualTo(show(frames.get(i)));
      }
    }
  }

  @Test
  void next_seededRandomBytes_onlyFramesOrZmtpExceptions() {
    long seed = System.nanoTime();
    System.out.println("FrameCodecTest garbage seed " + seed);
    Random rnd = new Random(seed);
    int refused = 0;
    for (int round = 0; round < 2_000; round++) {
      byte[] junk = new byte[1 + rnd.nextInt(600)];
      rnd.nextBytes(junk);
      FrameDecoder d = new FrameDecoder(rnd.nextInt(512));
      try {
        decodeAll(d, junk, 1 + rnd.nextInt(junk.length));
      } catch (ZmtpException e) {
        refused++;
        assertThat(e.getMessage()).as("seed %d", seed).startsWith("frame at byte ");
      } catch (RuntimeException e) {
        throw new AssertionError("seed " + seed + " round " + round + ": " + e, e);
      }
    }
    assertThat(refused).as("seed %d: some garbage is refused", seed).isPositive();
  }
}
