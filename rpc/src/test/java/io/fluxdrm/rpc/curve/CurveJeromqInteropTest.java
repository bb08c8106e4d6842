package io.fluxdrm.rpc.curve;

import static io.fluxdrm.rpc.curve.CurveHandshakeTest.ascii;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.fluxdrm.rpc.zmtp.Frame;
import io.fluxdrm.rpc.zmtp.Seeded;
import io.fluxdrm.rpc.zmtp.ZmtpException;
import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import zmq.Msg;
import zmq.Options;
import zmq.SocketBase;
import zmq.ZMQ;
import zmq.io.SessionBase;
import zmq.io.mechanism.Mechanism.Status;
import zmq.io.mechanism.curve.CurveClientMechanism;
import zmq.io.mechanism.curve.CurveServerMechanism;

/**
 * Runs the CURVE handshake and MESSAGE sealing against JeroMQ 0.6.0's own CURVE mechanisms, byte
 * for byte, without sockets: each side's commands are handed to the other in memory.
 */
class CurveJeromqInteropTest {
  private SecureRandom random;
  private CurveKeyPair serverKeys;
  private CurveKeyPair clientKeys;

  @BeforeEach
  void keys() {
    random = Seeded.random(Seeded.seed("CurveJeromqInteropTest"));
    serverKeys = CurveKeyPair.generate(random);
    clientKeys = CurveKeyPair.generate(random);
  }

  private CurveClientMechanism jeromqClient() {
    return jeromqClient(mock(SessionBase.class));
  }

  private CurveClientMechanism jeromqClient(SessionBase session) {
    Options o = new Options();
    o.type = ZMQ.ZMQ_DEALER;
    o.identity = ascii("jeromq-client");
    o.identitySize = (short) o.identity.length;
    o.curvePublicKey = clientKeys.publicKey();
    o.curveSecretKey = clientKeys.secretKey();
    o.curveServerKey = serverKeys.publicKey();
    return new CurveClientMechanism(session, o);
  }

  private CurveServerMechanism jeromqServer() {
    Options o = new Options();
    o.type = ZMQ.ZMQ_ROUTER;
    o.asServer = true;
    o.curvePublicKey = serverKeys.publicKey();
    o.curveSecretKey = serverKeys.secretKey();
    SessionBase session = mock(SessionBase.class);
    when(session.zapConnect()).thenReturn(-1); // no ZAP handler: every client key is accepted
    return new CurveServerMechanism(session, null, o);
  }

  private static byte[] next(zmq.io.mechanism.Mechanism m) {
    Msg.Builder b = new Msg.Builder();
    assertThat(m.nextHandshakeCommand(b)).isZero();
    return bytes(b.build());
  }

  private static byte[] bytes(Msg m) {
    byte[] out = new byte[m.size()];
    m.getBytes(0, out, 0, out.length);
    return out;
  }

  private CurveServer ourServer(boolean allowed) {
    return new CurveServer(
        serverKeys, key -> allowed, Map.of("Socket-Type", ascii("ROUTER")), random);
  }

  private CurveClient ourClient() {
    Map<String, byte[]> md = new LinkedHashMap<>();
    md.put("Socket-Type", ascii("DEALER"));
    md.put("Identity", ascii("fluxdrm-client"));
    return new CurveClient(serverKeys.publicKey(), clientKeys, md, random);
  }

  static Stream<Frame> frames() {
    return Stream.of(
        Frame.part(ascii("first"), true),
        Frame.part(ascii("last"), false),
        Frame.part(new byte[0], false),
        Frame.command(ascii("\u0004PING\u0000\u0000")));
  }

  @ParameterizedTest
  @MethodSource("frames")
  void jeromqClient_ourServer_handshakeAndMessagesBothWays(Frame plain) throws ZmtpException {
    CurveClientMechanism jm = jeromqClient();
    CurveServer server = ourServer(true);

    byte[] welcome = single(server.onHandshakeCommand(next(jm)));
    assertThat(jm.processHandshakeCommand(new Msg(welcome))).isZero();
    byte[] ready = single(server.onHandshakeCommand(next(jm)));
    assertThat(jm.processHandshakeCommand(new Msg(ready))).isZero();
    assertThat(jm.status()).isEqualTo(Status.READY);
    assertThat(server.done()).isTrue();
    assertThat(server.peerKey()).isEqualTo(clientKeys.publicKey());
    assertThat(server.peerMetadata().get("Identity")).isEqualTo(ascii("jeromq-client"));
    assertThat(server.peerMetadata().get("Socket-Type")).isEqualTo(ascii("DEALER"));

    for (int i = 0; i < 3; i++) {
      Msg up = new Msg(plain.body());
      up.setFlags((plain.more() ? Msg.MORE : 0) | (plain.command() ? Msg.COMMAND : 0));
      Frame got = server.decode(Frame.part(bytes(jm.encode(up)), false));
      assertThat(got).usingRecursiveComparison().isEqualTo(plain);

      Msg down = jm.decode(new Msg(server.encode(plain).body()));
      assertThat(down).as("JeroMQ opens our MESSAGE").isNotNull();
      assertThat(bytes(down)).isEqualTo(plain.body());
      assertThat(down.hasMore()).isEqualTo(plain.more());
      assertThat(down.isCommand()).isEqualTo(plain.command());
    }
  }

  @ParameterizedTest
  @MethodSource("frames")
  void ourClient_jeromqServer_handshakeAndMessagesBothWays(Frame plain) throws ZmtpException {
    CurveClient client = ourClient();
    CurveServerMechanism jm = jeromqServer();

    assertThat(jm.processHandshakeCommand(new Msg(single(client.start())))).isZero();
    byte[] initiate = single(client.onHandshakeCommand(next(jm)));
    assertThat(jm.processHandshakeCommand(new Msg(initiate))).isZero();
    assertThat(client.onHandshakeCommand(next(jm))).isEmpty();
    assertThat(jm.status()).isEqualTo(Status.READY);
    assertThat(client.done()).isTrue();
    assertThat(client.peerMetadata().get("Socket-Type")).isEqualTo(ascii("ROUTER"));

    for (int i = 0; i < 3; i++) {
      Msg down = new Msg(plain.body());
      down.setFlags((plain.more() ? Msg.MORE : 0) | (plain.command() ? Msg.COMMAND : 0));
      Frame got = client.decode(Frame.part(bytes(jm.encode(down)), false));
      assertThat(got).usingRecursiveComparison().isEqualTo(plain);

      Msg up = jm.decode(new Msg(client.encode(plain).body()));
      assertThat(up).as("JeroMQ opens our MESSAGE").isNotNull();
      assertThat(bytes(up)).isEqualTo(plain.body());
      assertThat(up.hasMore()).isEqualTo(plain.more());
      assertThat(up.isCommand()).isEqualTo(plain.command());
    }
  }

  @Test
  void jeromqClient_ourServerRefusesKey_jeromqReportsAuthFailure400() throws ZmtpException {
    SessionBase session = mock(SessionBase.class);
    SocketBase socket = mock(SocketBase.class);
    when(session.getSocket()).thenReturn(socket);
    CurveClientMechanism jm = jeromqClient(session);
    CurveServer server = ourServer(false);
    byte[] welcome = single(server.onHandshakeCommand(next(jm)));
    assertThat(jm.processHandshakeCommand(new Msg(welcome))).isZero();
    byte[] error = single(server.onHandshakeCommand(next(jm)));
    assertThat(server.refusal()).isPresent();
    assertThat(jm.processHandshakeCommand(new Msg(error))).isZero();
    assertThat(jm.status()).isEqualTo(Status.ERROR);
    verify(socket).eventHandshakeFailedAuth(any(), eq(400));
  }

  private static byte[] single(java.util.List<byte[]> commands) {
    assertThat(commands).hasSize(1);
    return commands.get(0);
  }
}
