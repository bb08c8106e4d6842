package io.fluxdrm.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class MessageCodecTest {
  private static final HexFormat HEX = HexFormat.of();

  static List<WireVectors.Vector> liveDumps() {
    return WireVectors.liveBroker();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("liveDumps")
  void decode_liveBrokerDump_givesRecordedMessage(WireVectors.Vector v) {
    LocalFraming.Decoder d = new LocalFraming.Decoder(LocalFraming.DEFAULT_MAX_MESSAGE_SIZE);
    d.feed(v.stream(), 0, v.stream().length);
    assertThat(d.next()).isEqualTo(v.message());
    assertThat(d.next()).isNull();
    assertThat(d.buffered()).isZero();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("liveDumps")
  void frame_liveBrokerMessage_byteExactWithDump(WireVectors.Vector v) {
    assertThat(HEX.formatHex(LocalFraming.frame(v.message()))).isEqualTo(HEX.formatHex(v.stream()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("liveDumps")
  void decode_liveBrokerDumpOneByteAtATime_givesRecordedMessage(WireVectors.Vector v) {
    LocalFraming.Decoder d = new LocalFraming.Decoder(LocalFraming.DEFAULT_MAX_MESSAGE_SIZE);
    byte[] s = v.stream();
    for (int i = 0; i < s.length - 1; i++) {
      d.feed(s, i, 1);
      assertThat(d.next()).isNull();
    }
    d.feed(s, s.length - 1, 1);
    assertThat(d.next()).isEqualTo(v.message());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("liveDumps")
  void parts_liveBrokerMessage_roundTrip(WireVectors.Vector v) {
    List<byte[]> parts = MessageCodec.toParts(v.message());
    assertThat(MessageCodec.fromParts(parts)).isEqualTo(v.message());
    assertThat(MessageCodec.encode(v.message()))
        .isEqualTo(java.util.Arrays.copyOfRange(v.stream(), 8, v.stream().length));
  }

  @Test
  void decode_allDumpsInOneStream_givesEachInOrder() {
    List<WireVectors.Vector> all = WireVectors.liveBroker();
    LocalFraming.Decoder d = new LocalFraming.Decoder(LocalFraming.DEFAULT_MAX_MESSAGE_SIZE);
    for (WireVectors.Vector v : all) {
      d.feed(ByteBuffer.wrap(v.stream()));
    }
    for (WireVectors.Vector v : all) {
      assertThat(d.next()).as(v.name()).isEqualTo(v.message());
    }
    assertThat(d.next()).isNull();
  }

  @Test
  void decode_networkOrderMagic_accepted() {
    WireVectors.Vector v = WireVectors.liveBroker().get(0);
    byte[] s = v.stream().clone();
    s[0] = (byte) 0xff;
    s[1] = (byte) 0xee;
    s[2] = 0x00;
    s[3] = 0x12;
    LocalFraming.Decoder d = new LocalFraming.Decoder(LocalFraming.DEFAULT_MAX_MESSAGE_SIZE);
    d.feed(s, 0, s.length);
    assertThat(d.next()).isEqualTo(v.message());
  }

  @Test
  void request_jsonPayload_hasNulAndLibfluxFlags() {
    Message m = Message.request("attr.get", Json.object().put("name", "rank")).withMatchtag(1);
    assertThat(HEX.formatHex(LocalFraming.frame(m)))
        .isEqualTo(
            "1200eeff00000030000861747472"
                + "2e676574107b226e616d65223a2272616e6b227d00148e01010bffffffff00000000ffffffff"
                + "00000001");
    assertThat(m.json().get("name").asText()).isEqualTo("rank");
  }

  @TestFactory
  Stream<DynamicTest> conformance_wireExamples_byteExact() throws IOException {
    String root = System.getProperty("fluxdrm.conformance", "");
    assumeTrue(!root.isBlank(), "fluxdrm.conformance is not set");
    Path file = Path.of(root, "flux", "derived", "wire-examples.json");
    assumeTrue(Files.isRegularFile(file), "no wire-examples.json under fluxdrm.conformance");
    JsonNode doc = Json.mapper().readTree(file.toFile());
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode c : doc.get("cases")) {
      tests.add(
          DynamicTest.dynamicTest(
              c.get("name").asText(),
              () -> {
                List<byte[]> frames = new ArrayList<>();
                c.get("zmq_frames_hex").forEach(f -> frames.add(HEX.parseHex(f.asText())));
                Message m = MessageCodec.fromParts(frames);
                List<String> again = MessageCodec.toParts(m).stream().map(HEX::formatHex).toList();
                assertThat(again).isEqualTo(frames.stream().map(HEX::formatHex).toList());
                byte[] stream = HEX.parseHex(c.get("usock_bytes_hex").asText());
                assertThat(HEX.formatHex(LocalFraming.frame(m)))
                    .isEqualTo(c.get("usock_bytes_hex").asText());
                assertThat(stream).hasSize(c.get("usock_total_bytes").asInt());
                assertThat(MessageCodec.encodedSize(m))
                    .isEqualTo(c.get("usock_length_field").asInt());
                LocalFraming.Decoder d = new LocalFraming.Decoder(1 << 20);
                d.feed(stream, 0, stream.length);
                assertThat(d.next()).isEqualTo(m);
              }));
    }
    assertThat(tests).isNotEmpty();
    return tests.stream();
  }

  /** Bad bodies (the bytes after the 8-byte prefix) and the error they must give. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          empty body                    | ''                                                     | no parts
          proto part of 19 bytes        | 138e01010bffffffff00000000ffffffff000000               | proto part: 19 bytes (expected: 20)
          proto part of 21 bytes        | 158e01010bffffffff00000000ffffffff0000000100           | proto part: 21 bytes (expected: 20)
          wrong proto magic             | 148f010100ffffffff00000000ffffffff00000001             | proto magic: 0x8f (expected: 0x8e)
          wrong proto version           | 148e020100ffffffff00000000ffffffff00000001             | proto version: 2 (expected: 1)
          unknown type 3                | 148e010300ffffffff00000000ffffffff00000001             | proto type: 0x03 (expected: 1, 2, 4 or 8)
          unknown type 0                | 148e010000ffffffff00000000ffffffff00000001             | proto type: 0x00
          part length beyond message    | 30616263148e010101ffffffff00000000ffffffff00000001     | part 0 at byte 0: length 48 beyond message (24 bytes left)
          long size beyond message      | ff7fffffff61148e010101ffffffff00000000ffffffff00000001 | part 0 at byte 0: length 2147483647 beyond message
          truncated long size           | ff0000                                                 | part 0 at byte 0: truncated 4-byte size
          route flag without delimiter  | 0161148e010109ffffffff00000000ffffffff00000001         | routes: no empty delimiter part
          topic flag without topic      | 148e010101ffffffff00000000ffffffff00000001             | topic: missing part
          payload flag without payload  | 0161148e010103ffffffff00000000ffffffff00000001         | payload: missing part
          extra part                    | 016101620163148e010103ffffffff00000000ffffffff00000001 | message: 1 unexpected part(s)
          noresponse with streaming     | 0161148e010145ffffffff00000000ffffffff00000001         | NORESPONSE and STREAMING both set
          topic with nul                | 03610062148e010101ffffffff00000000ffffffff00000001       | topic: NUL at byte 1 (expected: no NUL on the wire)
          topic not utf-8               | 01ff148e010101ffffffff00000000ffffffff00000001         | topic: not UTF-8
          """)
  void decode_badBody_eproto(String name, String hex, String expected) {
    byte[] body = HEX.parseHex(hex);
    assertThatThrownBy(() -> MessageCodec.decode(body))
        .isInstanceOfSatisfying(
            RpcException.class, e -> assertThat(e.errnum()).isEqualTo(Errno.EPROTO))
        .hasMessageContaining(expected);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          wrong magic          | 1200eefe00000015148e010100ffffffff00000000ffffffff00000001 | magic 12 00 ee fe (expected: 12 00 ee ff)
          length below minimum | 1200eeff00000001ff                                         | length 1 (expected: at least 21)
          length over limit    | 1200eeff04000001                                           | length 67108865 (expected: at most 67108864)
          bad body             | 1200eeff00000015138e010100ffffffff00000000ffffffff00000000 | frame at stream byte 0: proto part: 0 bytes (expected: 20)
          """)
  void decoder_badFrame_eprotoAndStaysFailed(String name, String hex, String expected) {
    byte[] s = HEX.parseHex(hex);
    LocalFraming.Decoder d = new LocalFraming.Decoder(LocalFraming.DEFAULT_MAX_MESSAGE_SIZE);
    d.feed(s, 0, s.length);
    assertThatThrownBy(d::next).isInstanceOf(RpcException.class).hasMessageContaining(expected);
    assertThatThrownBy(d::next).isInstanceOf(RpcException.class).hasMessageContaining(expected);
  }

  @Test
  void decoder_truncatedFrame_waitsAndReportsTruncation() {
    byte[] s = WireVectors.liveBroker().get(0).stream();
    LocalFraming.Decoder d = new LocalFraming.Decoder(LocalFraming.DEFAULT_MAX_MESSAGE_SIZE);
    d.feed(s, 0, s.length - 3);
    assertThat(d.next()).isNull();
    assertThat(d.truncated()).isTrue();
    assertThat(d.truncation()).contains("stream ended inside a frame at stream byte 0");
  }

  @Test
  void decoder_hugeLengthClaim_allocatesOnlyWhatArrives() {
    LocalFraming.Decoder d = new LocalFraming.Decoder(LocalFraming.DEFAULT_MAX_MESSAGE_SIZE);
    byte[] header = HEX.parseHex("1200eeff03ffffff");
    d.feed(header, 0, header.length);
    byte[] chunk = new byte[1000];
    for (int i = 0; i < 10; i++) {
      d.feed(chunk, 0, chunk.length);
      assertThat(d.next()).isNull();
    }
    assertThat(d.capacity()).isLessThanOrEqualTo(32 * 1024);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          no trailing nul | 7b7d           | no trailing NUL (expected: NUL-terminated string)
          json array      | 5b315d00       | array (expected: JSON object)
          json number     | 3400           | number (expected: JSON object)
          invalid json    | 7b2200         | invalid JSON at offset
          not utf-8       | 7bff7d00       | not UTF-8
          """)
  void json_badPayload_eproto(String name, String hex, String expected) {
    Message m = Message.request("svc.method", HEX.parseHex(hex));
    assertThatThrownBy(m::json)
        .isInstanceOfSatisfying(
            RpcException.class, e -> assertThat(e.errnum()).isEqualTo(Errno.EPROTO))
        .hasMessageContaining("payload of svc.method: " + expected);
  }

  /**
   * An ASCII payload is read from its bytes (issue 32): its errors are the text path's, word for
   * word.
   */
  @ParameterizedTest(name = "[{index}] {0}")
  @ValueSource(
      strings = {
        "{\"a\":1,}",
        "{\"a\" 1}",
        "{",
        "{\"a\":tru}",
        "{\"a\":[1,2}",
        "{\"a\":\"\\q\"}",
        "[1]",
        "7",
        ""
      })
  void json_asciiPayload_failsAsTheTextPathDoes(String text) {
    Message m = Message.request("svc.method", Json.text(text));
    assertThatThrownBy(m::json)
        .isInstanceOf(RpcException.class)
        .satisfies(
            e ->
                assertThatThrownBy(() -> Json.parseObject(text, "payload of svc.method"))
                    .hasMessage(e.getMessage()));
  }

  @Test
  void json_asciiAndUtf8Payloads_readAlike() {
    assertThat(Message.request("svc.method", Json.text("{\"a\":[1,\"x\"]}")).json())
        .isEqualTo(Json.parseObject("{\"a\":[1,\"x\"]}", "t"));
    assertThat(
            Message.request("svc.method", Json.text("{\"a\":\"\u00e9\"}")).json().get("a").asText())
        .isEqualTo("\u00e9");
  }

  @Test
  void response_derivedFromRoutedRequest_copiesRoutesTopicMatchtagStreaming() {
    Message req =
        Message.request("svc.watch", Json.object())
            .withFlags(Flags.STREAMING, 0)
            .withMatchtag(9)
            .pushRoute("client")
            .pushRoute("hop");
    Message resp = Message.response(req, Errno.ENODATA, null);
    assertThat(resp.routes()).containsExactly("hop", "client");
    assertThat(resp.topic()).isEqualTo("svc.watch");
    assertThat(resp.matchtag()).isEqualTo(9);
    assertThat(resp.errnum()).isEqualTo(Errno.ENODATA);
    assertThat(resp.flags()).isEqualTo(Flags.TOPIC | Flags.ROUTE | Flags.STREAMING);
    assertThat(resp.sender()).isEqualTo("client");
  }
}
