package io.fluxdrm.rpc.curve;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fluxdrm.rpc.zmtp.Frame;
import io.fluxdrm.rpc.zmtp.Mechanism;
import io.fluxdrm.rpc.zmtp.Metadata;
import io.fluxdrm.rpc.zmtp.Seeded;
import io.fluxdrm.rpc.zmtp.ZmtpException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class CurveHandshakeTest {
  private static final byte[] ERROR_400 = concat(ascii("\u0005ERROR\u0003"), ascii("400"));

  private SecureRandom random;
  private CurveKeyPair serverKeys;
  private CurveKeyPair clientKeys;
  private Map<String, byte[]> clientMetadata;
  private Map<String, byte[]> serverMetadata;

  @BeforeEach
  void keys() {
    random = Seeded.random(Seeded.seed("CurveHandshakeTest"));
    serverKeys = CurveKeyPair.generate(random);
    clientKeys = CurveKeyPair.generate(random);
    clientMetadata = new LinkedHashMap<>();
    clientMetadata.put("Socket-Type", ascii("DEALER"));
    clientMetadata.put("Identity", ascii("client-1"));
    serverMetadata = Map.of("Socket-Type", ascii("ROUTER"));
  }

  private CurveClient client() {
    return new CurveClient(serverKeys.publicKey(), clientKeys, clientMetadata, random);
  }

  private CurveServer server() {
    return new CurveServer(
        serverKeys, key -> Arrays.equals(key, clientKeys.publicKey()), serverMetadata, random);
  }

  /** A finished handshake and its commands. */
  private record Done(CurveClient client, CurveServer server, List<byte[]> commands) {}

  private Done handshake() throws ZmtpException {
    CurveClient client = client();
    CurveServer server = server();
    byte[] hello = single(client.start());
    assertThat(server.start()).isEmpty();
    byte[] welcome = single(server.onHandshakeCommand(hello));
    byte[] initiate = single(client.onHandshakeCommand(welcome));
    assertThat(client.done()).isFalse();
    byte[] ready = single(server.onHandshakeCommand(initiate));
    assertThat(server.done()).isTrue();
    assertThat(client.onHandshakeCommand(ready)).isEmpty();
    assertThat(client.done()).isTrue();
    return new Done(client, server, List.of(hello, welcome, initiate, ready));
  }

  @Test
  void handshake_allowedClient_commandSizesOfJeromqAndLibzmq() throws ZmtpException {
    Done d = handshake();
    int clientMeta = Metadata.encode(clientMetadata).length;
    int serverMeta = Metadata.encode(serverMetadata).length;
    assertThat(d.commands())
        .extracting(c -> c.length)
        .containsExactly(200, 168, 257 + clientMeta, 30 + serverMeta);
    assertThat(d.commands())
        .extracting(CurveCodec::nameOf)
        .containsExactly("HELLO", "WELCOME", "INITIATE", "READY");
    byte[] hello = d.commands().get(0);
    assertThat(Arrays.copyOfRange(hello, 6, 80)).isEqualTo(concat(new byte[] {1, 0}, new byte[72]));
    assertThat(CurveCrypto.getLong(hello, 112)).isEqualTo(1);
    assertThat(CurveCrypto.getLong(d.commands().get(2), 105)).isEqualTo(2);
    assertThat(CurveCrypto.getLong(d.commands().get(3), 6)).isEqualTo(1);
  }

  @Test
  void handshake_allowedClient_eachSideKnowsThePeer() throws ZmtpException {
    Done d = handshake();
    assertThat(d.server().peerKey()).isEqualTo(clientKeys.publicKey());
    assertThat(d.client().peerKey()).isNull();
    assertThat(d.server().refusal()).isEmpty();
    assertThat(d.server().peerMetadata().keySet()).containsExactly("Socket-Type", "Identity");
    assertThat(d.server().peerMetadata().get("Identity")).isEqualTo(ascii("client-1"));
    assertThat(d.client().peerMetadata().get("Socket-Type")).isEqualTo(ascii("ROUTER"));
    assertThat(d.client().name()).isEqualTo("CURVE");
    assertThat(d.client().asServer()).isFalse();
    assertThat(d.server().asServer()).isTrue();
  }

  static Stream<Frame> frames() {
    return Stream.of(
        Frame.part(ascii("first"), true),
        Frame.part(new byte[0], true),
        Frame.part(ascii("last"), false),
        Frame.command(ascii("\u0004PING\u0000\u0000")),
        Frame.part(new byte[70_000], false));
  }

  @ParameterizedTest
  @MethodSource("frames")
  void encodeDecode_bothWays_sameFrameAndFlags(Frame plain) throws ZmtpException {
    Done d = handshake();
    Frame up = d.client().encode(plain);
    Frame down = d.server().encode(plain);
    for (Frame wire : List.of(up, down)) {
      assertThat(wire.more()).isFalse();
      assertThat(wire.command()).isFalse();
      assertThat(CurveCodec.nameOf(wire.body())).isEqualTo("MESSAGE");
      assertThat(wire.body()).hasSize(8 + 8 + 16 + 1 + plain.body().length);
    }
    assertThat(CurveCrypto.getLong(up.body(), 8)).isEqualTo(3);
    assertThat(CurveCrypto.getLong(down.body(), 8)).isEqualTo(2);
    for (Frame got : List.of(d.server().decode(up), d.client().decode(down))) {
      assertThat(got.body()).isEqualTo(plain.body());
      assertThat(got.more()).isEqualTo(plain.more());
      assertThat(got.command()).isEqualTo(plain.command());
    }
  }

  @Test
  void decode_manyMessages_noncesGoUp() throws ZmtpException {
    Done d = handshake();
    for (int i = 0; i < 10; i++) {
      Frame wire = d.server().encode(Frame.part(ascii("m" + i), i < 9));
      assertThat(CurveCrypto.getLong(wire.body(), 8)).isEqualTo(2 + i);
      assertThat(d.client().decode(wire).body()).isEqualTo(ascii("m" + i));
    }
  }

  @Test
  void decode_replayedMessage_refused() throws ZmtpException {
    Done d = handshake();
    Frame first = d.client().encode(Frame.part(ascii("a"), false));
    Frame second = d.client().encode(Frame.part(ascii("b"), false));
    d.server().decode(second);
    assertThatThrownBy(() -> d.server().decode(second))
        .isInstanceOf(ZmtpException.class)
        .hasMessage("curve: MESSAGE: nonce 4 is not above the last one (4)");
    assertThatThrownBy(() -> d.server().decode(first))
        .hasMessage("curve: MESSAGE: nonce 3 is not above the last one (4)");
  }

  @Test
  void decode_messageOfOtherDirection_refused() throws ZmtpException {
    Done d = handshake();
    // the server's own message has the server's nonce prefix: the server cannot open it
    d.server().encode(Frame.part(ascii("x"), false));
    Frame own = d.server().encode(Frame.part(ascii("y"), false));
    assertThatThrownBy(() -> d.server().decode(own))
        .hasMessage("curve: MESSAGE: box does not open");
  }

  /** One command changed on its way, and the error its receiver must give. */
  record Tamper(String name, int command, UnaryOperator<byte[]> change, String error) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Tamper> tampers() {
    return Stream.of(
        new Tamper("HELLO short", 0, b -> cut(b, 199), "curve: HELLO: 199 bytes (expected: 200)"),
        new Tamper(
            "HELLO long",
            0,
            b -> concat(b, new byte[1]),
            "curve: HELLO: 201 bytes (expected: 200)"),
        new Tamper(
            "HELLO version 2.0", 0, b -> set(b, 6, 2), "curve: HELLO: version 2.0 (expected: 1.0)"),
        new Tamper(
            "HELLO version 1.1", 0, b -> set(b, 7, 1), "curve: HELLO: version 1.1 (expected: 1.0)"),
        new Tamper(
            "HELLO box bit",
            0,
            b -> flip(b, 150),
            "curve: HELLO: box does not open (is the client using our key?)"),
        new Tamper(
            "HELLO nonce 0",
            0,
            b -> set(b, 119, 0),
            "curve: HELLO: nonce 0 is not above the last one (0)"),
        new Tamper("HELLO renamed", 0, b -> set(b, 1, 'J'), "curve: got JELLO (expected: HELLO)"),
        new Tamper(
            "WELCOME short", 1, b -> cut(b, 167), "curve: WELCOME: 167 bytes (expected: 168)"),
        new Tamper(
            "WELCOME long",
            1,
            b -> concat(b, new byte[1]),
            "curve: WELCOME: 169 bytes (expected: 168)"),
        new Tamper(
            "WELCOME box bit",
            1,
            b -> flip(b, 100),
            "curve: WELCOME: box does not open (is the server key right?)"),
        new Tamper(
            "WELCOME nonce bit",
            1,
            b -> flip(b, 10),
            "curve: WELCOME: box does not open (is the server key right?)"),
        new Tamper(
            "INITIATE short",
            2,
            b -> cut(b, 256),
            "curve: INITIATE: 256 bytes (expected: at least 257)"),
        new Tamper(
            "INITIATE cookie bit", 2, b -> flip(b, 60), "curve: INITIATE: cookie does not open"),
        new Tamper(
            "INITIATE cookie nonce bit",
            2,
            b -> flip(b, 12),
            "curve: INITIATE: cookie does not open"),
        new Tamper("INITIATE box bit", 2, b -> flip(b, 200), "curve: INITIATE: box does not open"),
        new Tamper(
            "INITIATE cut metadata",
            2,
            b -> cut(b, b.length - 1),
            "curve: INITIATE: box does not open"),
        new Tamper(
            "INITIATE nonce replays HELLO's",
            2,
            b -> set(b, 112, 1),
            "curve: INITIATE: nonce 1 is not above the last one (1)"),
        new Tamper(
            "READY short", 3, b -> cut(b, 29), "curve: READY: 29 bytes (expected: at least 30)"),
        new Tamper("READY box bit", 3, b -> flip(b, 20), "curve: READY: box does not open"),
        new Tamper(
            "READY nonce 0",
            3,
            b -> set(b, 13, 0),
            "curve: READY: nonce 0 is not above the last one (0)"));
  }

  @ParameterizedTest
  @MethodSource("tampers")
  void handshake_tamperedCommand_refusedSayingWhich(Tamper t) throws ZmtpException {
    CurveClient client = client();
    CurveServer server = server();
    List<Mechanism> receivers = List.of(server, client, server, client);
    byte[] cmd = single(client.start());
    for (int i = 0; i < 4; i++) {
      if (i == t.command()) {
        byte[] bad = t.change().apply(cmd.clone());
        Mechanism receiver = receivers.get(i);
        assertThatThrownBy(() -> receiver.onHandshakeCommand(bad))
            .isInstanceOf(ZmtpException.class)
            .hasMessage(t.error());
        assertThat(receiver.done()).isFalse();
        assertThat(receiver.peerMetadata()).isEmpty();
        return;
      }
      List<byte[]> answer = receivers.get(i).onHandshakeCommand(cmd);
      cmd = i == 3 ? null : single(answer);
    }
  }

  @Test
  void handshake_clientKeyNotAllowed_serverAnswersErrorThenRefusesMore() throws ZmtpException {
    CurveClient client = client();
    CurveServer server = new CurveServer(serverKeys, key -> false, serverMetadata, random);
    byte[] welcome = single(server.onHandshakeCommand(single(client.start())));
    byte[] initiate = single(client.onHandshakeCommand(welcome));
    byte[] error = single(server.onHandshakeCommand(initiate));

    assertThat(error).isEqualTo(ERROR_400);
    assertThat(server.refusal())
        .contains("client key " + Z85.encode(clientKeys.publicKey()) + " is not allowed");
    assertThat(server.done()).isFalse();
    assertThat(server.peerKey()).isNull();
    assertThat(server.peerMetadata()).isEmpty();
    assertThatThrownBy(() -> server.onHandshakeCommand(initiate))
        .isInstanceOf(ZmtpException.class)
        .hasMessage(
            "curve: got INITIATE after refusing: client key "
                + Z85.encode(clientKeys.publicKey())
                + " is not allowed");
    assertThatThrownBy(() -> client.onHandshakeCommand(error))
        .isInstanceOf(ZmtpException.class)
        .hasMessage("curve: server refused the handshake: 400 (authentication failure)");
  }

  @Test
  void handshake_predicateGetsTheClientKey() throws ZmtpException {
    byte[][] seen = new byte[1][];
    CurveServer server =
        new CurveServer(
            serverKeys,
            key -> {
              seen[0] = key;
              return true;
            },
            serverMetadata,
            random);
    CurveClient client = client();
    byte[] welcome = single(server.onHandshakeCommand(single(client.start())));
    single(server.onHandshakeCommand(single(client.onHandshakeCommand(welcome))));
    assertThat(seen[0]).isEqualTo(clientKeys.publicKey());
  }

  @Test
  void handshake_clientExpectsOtherServerKey_helloRefusedByServer() {
    CurveKeyPair other = CurveKeyPair.generate(random);
    CurveClient client = new CurveClient(other.publicKey(), clientKeys, clientMetadata, random);
    byte[] hello = single(client.start());
    assertThatThrownBy(() -> server().onHandshakeCommand(hello))
        .hasMessage("curve: HELLO: box does not open (is the client using our key?)");
  }

  @Test
  void handshake_welcomeFromOtherServer_refusedByClient() throws ZmtpException {
    CurveKeyPair other = CurveKeyPair.generate(random);
    CurveClient stranger = new CurveClient(other.publicKey(), clientKeys, clientMetadata, random);
    CurveServer otherServer = new CurveServer(other, key -> true, serverMetadata, random);
    byte[] welcome = single(otherServer.onHandshakeCommand(single(stranger.start())));
    CurveClient client = client();
    client.start();
    assertThatThrownBy(() -> client.onHandshakeCommand(welcome))
        .hasMessage("curve: WELCOME: box does not open (is the server key right?)");
  }

  @Test
  void handshake_initiateOfOtherConnection_cookieRefused() throws ZmtpException {
    CurveClient a = client();
    CurveServer serverA = server();
    byte[] initiateA =
        single(a.onHandshakeCommand(single(serverA.onHandshakeCommand(single(a.start())))));
    CurveClient b = client();
    CurveServer serverB = server();
    single(serverB.onHandshakeCommand(single(b.start())));
    assertThatThrownBy(() -> serverB.onHandshakeCommand(initiateA))
        .hasMessage("curve: INITIATE: cookie does not open");
  }

  /** A command arriving when another is due, and the error. */
  record OutOfOrder(String name, boolean toServer, int sent, int fed, String error) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<OutOfOrder> outOfOrder() {
    return Stream.of(
        new OutOfOrder(
            "server gets INITIATE first", true, 0, 2, "curve: got INITIATE (expected: HELLO)"),
        new OutOfOrder(
            "server gets HELLO twice", true, 1, 0, "curve: got HELLO (expected: INITIATE)"),
        new OutOfOrder(
            "server gets HELLO after READY", true, 2, 0, "curve: got HELLO after the handshake"),
        new OutOfOrder(
            "client gets READY first", false, 0, 3, "curve: got READY (expected: WELCOME)"),
        new OutOfOrder(
            "client gets WELCOME twice", false, 1, 1, "curve: got WELCOME (expected: READY)"),
        new OutOfOrder(
            "client gets WELCOME after READY",
            false,
            2,
            1,
            "curve: got WELCOME after the handshake"),
        new OutOfOrder("client gets HELLO", false, 0, 0, "curve: got HELLO (expected: WELCOME)"));
  }

  /**
   * Drives a handshake to the point where the receiver has taken {@code sent} commands, then feeds
   * it command {@code fed} of a complete handshake of the same pair.
   */
  @ParameterizedTest
  @MethodSource("outOfOrder")
  void handshake_commandOutOfOrder_refused(OutOfOrder o) throws ZmtpException {
    List<byte[]> wire = handshake().commands();
    CurveClient client = client();
    CurveServer server = server();
    byte[] cmd = single(client.start());
    int serverTook = 0;
    int clientTook = 0;
    Mechanism receiver = o.toServer() ? server : client;
    for (int i = 0; i < 4; i++) {
      boolean toServer = i % 2 == 0;
      if (toServer == o.toServer() && (toServer ? serverTook : clientTook) == o.sent()) {
        break;
      }
      List<byte[]> answer = (toServer ? server : client).onHandshakeCommand(cmd);
      if (toServer) {
        serverTook++;
      } else {
        clientTook++;
      }
      cmd = answer.isEmpty() ? null : answer.get(0);
    }
    byte[] stray = wire.get(o.fed());
    assertThatThrownBy(() -> receiver.onHandshakeCommand(stray))
        .isInstanceOf(ZmtpException.class)
        .hasMessage(o.error());
  }

  record BadFrame(String name, byte[] body, String error) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<BadFrame> badFrames() {
    byte[] message = ascii("\u0007MESSAGE");
    return Stream.of(
        new BadFrame(
            "32 bytes",
            concat(message, new byte[24]),
            "curve: MESSAGE: 32 bytes (expected: at least 33)"),
        new BadFrame("empty", new byte[0], "curve: MESSAGE: 0 bytes (expected: at least 33)"),
        new BadFrame(
            "other command",
            concat(ascii("\u0007MESSAGX"), new byte[40]),
            "curve: frame is MESSAGX (expected: MESSAGE)"),
        new BadFrame(
            "no name",
            concat(new byte[] {(byte) 200}, new byte[40]),
            "curve: frame is a frame without a command name (expected: MESSAGE)"));
  }

  @ParameterizedTest
  @MethodSource("badFrames")
  void decode_malformedFrame_refused(BadFrame f) throws ZmtpException {
    Done d = handshake();
    assertThatThrownBy(() -> d.client().decode(Frame.part(f.body(), false)))
        .isInstanceOf(ZmtpException.class)
        .hasMessage(f.error());
  }

  @Test
  void decode_tamperedMessageAnyByte_refusedThenGoodOneStillOpens() throws ZmtpException {
    Done d = handshake();
    Frame wire = d.client().encode(Frame.part(ascii("payload"), true));
    for (int i = 16; i < wire.body().length; i++) {
      byte[] bad = flip(wire.body().clone(), i);
      assertThatThrownBy(() -> d.server().decode(Frame.part(bad, false)))
          .as("byte %d", i)
          .hasMessage("curve: MESSAGE: box does not open");
    }
    assertThat(d.server().decode(wire).body()).isEqualTo(ascii("payload"));
  }

  record BadError(String name, byte[] body, String error) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<BadError> errors() {
    byte[] name = ascii("\u0005ERROR");
    return Stream.of(
        new BadError(
            "400", ERROR_400, "curve: server refused the handshake: 400 (authentication failure)"),
        new BadError(
            "300",
            concat(name, ascii("\u0003300")),
            "curve: server refused the handshake: 300 (temporary error)"),
        new BadError(
            "text", concat(name, ascii("\u0004nope")), "curve: server refused the handshake: nope"),
        new BadError(
            "empty reason",
            concat(name, ascii("\u0000")),
            "curve: server refused the handshake (no reason given)"),
        new BadError("no reason length", name, "curve: ERROR: 6 bytes (expected: at least 7)"),
        new BadError(
            "reason cut",
            concat(name, ascii("\u0005ab")),
            "curve: ERROR: reason of 5 bytes (found: 2)"));
  }

  @ParameterizedTest
  @MethodSource("errors")
  void onHandshakeCommand_errorFromServer_throwsWithReason(BadError e) {
    CurveClient client = client();
    client.start();
    assertThatThrownBy(() -> client.onHandshakeCommand(e.body()))
        .isInstanceOf(ZmtpException.class)
        .hasMessage(e.error());
  }

  @Test
  void encode_beforeHandshake_illegalState() {
    CurveClient client = client();
    assertThatThrownBy(() -> client.encode(Frame.part(new byte[1], false)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("curve: the handshake is not done");
    assertThatThrownBy(() -> server().decode(Frame.part(new byte[40], false)))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void start_twice_illegalState() {
    CurveClient client = client();
    client.start();
    assertThatThrownBy(client::start).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void newClient_badServerKey_refused() {
    assertThatThrownBy(() -> new CurveClient(new byte[31], clientKeys, clientMetadata, random))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("curve: server key of 31 bytes (expected: 32)");
    assertThatThrownBy(() -> new CurveClient(new byte[32], clientKeys, clientMetadata, random))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "curve: server key 0000000000000000000000000000000000000000 is not a usable public key");
  }

  @Test
  void keyPair_mismatchedKeys_refused() {
    assertThatThrownBy(() -> new CurveKeyPair(serverKeys.publicKey(), clientKeys.secretKey()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "curve key pair: public key "
                + Z85.encode(serverKeys.publicKey())
                + " is not the secret key's");
    assertThat(CurveKeyPair.fromSecret(clientKeys.secretKey())).isEqualTo(clientKeys);
    assertThat(clientKeys.toString()).doesNotContain(Z85.encode(clientKeys.secretKey()));
  }

  private static byte[] single(List<byte[]> commands) {
    assertThat(commands).hasSize(1);
    return commands.get(0);
  }

  static byte[] ascii(String s) {
    return s.getBytes(US_ASCII);
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  private static byte[] cut(byte[] b, int len) {
    return Arrays.copyOf(b, len);
  }

  private static byte[] set(byte[] b, int i, int v) {
    b[i] = (byte) v;
    return b;
  }

  private static byte[] flip(byte[] b, int i) {
    b[i] ^= 0x10;
    return b;
  }
}
