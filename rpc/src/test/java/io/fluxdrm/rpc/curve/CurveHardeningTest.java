package io.fluxdrm.rpc.curve;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fluxdrm.rpc.zmtp.Frame;
import io.fluxdrm.rpc.zmtp.Seeded;
import io.fluxdrm.rpc.zmtp.ZmtpException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 12, findings 12 and 13: the CURVE server validates every HELLO field and MESSAGE flag (RFC
 * 26), draws its short-term key pair only once HELLO arrives, and both sides wipe secrets they no
 * longer need: once the session key is derived, when a handshake fails part-way or is refused, and
 * when the engine wipes the mechanism of a closed connection.
 */
class CurveHardeningTest {
  private SecureRandom random;
  private CurveKeyPair serverKeys;
  private CurveKeyPair clientKeys;

  @BeforeEach
  void keys() {
    random = Seeded.random(Seeded.seed("CurveHardeningTest"));
    serverKeys = CurveKeyPair.generate(random);
    clientKeys = CurveKeyPair.generate(random);
  }

  private CurveServer server() {
    return new CurveServer(
        serverKeys,
        k -> Arrays.equals(k, clientKeys.publicKey()),
        Map.of("Socket-Type", "ROUTER".getBytes(US_ASCII)),
        random);
  }

  private CurveClient client() {
    return new CurveClient(
        serverKeys.publicKey(),
        clientKeys,
        Map.of("Socket-Type", "DEALER".getBytes(US_ASCII)),
        random);
  }

  /** A HELLO as a client would build it, with {@code signature} inside the box. */
  private byte[] hello(byte[] signature) {
    byte[][] shortKeys = CurveCrypto.keyPair(random);
    byte[] key = CurveCrypto.beforenm(serverKeys.publicKey(), shortKeys[1]);
    byte[] box =
        CurveCrypto.seal(key, CurveCrypto.nonce(CurveCodec.HELLO_PREFIX, 1), signature, 0, 64);
    byte[] hello = new byte[200];
    System.arraycopy(CurveMechanism.HELLO, 0, hello, 0, CurveMechanism.HELLO.length);
    hello[6] = 1;
    System.arraycopy(shortKeys[0], 0, hello, 80, 32);
    CurveCrypto.putLong(hello, 112, 1);
    System.arraycopy(box, 0, hello, 120, 80);
    return hello;
  }

  @Test
  void hello_zeroSignature_welcomed() throws ZmtpException {
    assertThat(server().onHandshakeCommand(hello(new byte[64]))).hasSize(1);
  }

  @Test
  void hello_signatureBoxNotZero_refused() {
    byte[] sig = new byte[64];
    sig[63] = 1;
    assertThatThrownBy(() -> server().onHandshakeCommand(hello(sig)))
        .isInstanceOf(ZmtpException.class)
        .hasMessage("curve: HELLO: signature box is not 64 zero bytes");
  }

  @Test
  void hello_paddingNotZero_refused() {
    byte[] h = hello(new byte[64]);
    h[8] = 7;
    assertThatThrownBy(() -> server().onHandshakeCommand(h))
        .isInstanceOf(ZmtpException.class)
        .hasMessage("curve: HELLO: padding byte 0 is not zero (expected: 72 zero bytes)");
  }

  @Test
  void message_reservedFlagBits_refused() throws ZmtpException {
    byte[] key = new byte[CurveCrypto.KEY];
    random.nextBytes(key);
    CurveCodec receiver = new CurveCodec(key, false, 2, 1);
    for (int flags : new int[] {0x04, 0x80}) {
      byte[] inner = {(byte) flags, 'x'};
      long n = flags; // above the last nonce, 1
      byte[] box =
          CurveCrypto.seal(
              key, CurveCrypto.nonce(CurveCodec.CLIENT_MESSAGE_PREFIX, n), inner, 0, 2);
      byte[] name = CurveCodec.command("MESSAGE");
      byte[] wire = new byte[name.length + 8 + box.length];
      System.arraycopy(name, 0, wire, 0, name.length);
      CurveCrypto.putLong(wire, name.length, n);
      System.arraycopy(box, 0, wire, name.length + 8, box.length);
      assertThatThrownBy(() -> receiver.decode(Frame.part(wire, false)))
          .isInstanceOf(ZmtpException.class)
          .hasMessageStartingWith("curve: MESSAGE: reserved flag bits set in 0x");
    }
    // the defined bits still pass
    CurveCodec sender = new CurveCodec(key, true, 5, 0);
    Frame back = receiver.decode(sender.encode(Frame.part("ok".getBytes(US_ASCII), true)));
    assertThat(back.more()).isTrue();
  }

  @Test
  void server_noShortTermKeysBeforeHello() throws ZmtpException {
    CurveServer s = server();
    assertThat(s.start()).isEmpty();
    assertThat(s.hasShortKeys()).as("before HELLO").isFalse();
    s.onHandshakeCommand(single(client().start()));
    assertThat(s.hasShortKeys()).as("after HELLO").isTrue();
  }

  @Test
  void shortTermSecrets_zeroedOnceSessionKeysAreDerived() throws ZmtpException {
    CurveClient c = client();
    CurveServer s = server();
    byte[] welcome = single(s.onHandshakeCommand(single(c.start())));
    assertThat(s.shortSecretForTest()).as("server secret in use").isNotEqualTo(new byte[32]);
    byte[] initiate = single(c.onHandshakeCommand(welcome));
    assertThat(c.shortSecretForTest()).as("client secret").isEqualTo(new byte[32]);
    byte[] ready = single(s.onHandshakeCommand(initiate));
    assertThat(s.shortSecretForTest()).as("server secret").isEqualTo(new byte[32]);
    c.onHandshakeCommand(ready);
    assertThat(c.done()).isTrue();
    // the session still works with the secrets gone
    Frame f = s.decode(c.encode(Frame.part("hi".getBytes(US_ASCII), false)));
    assertThat(new String(f.body(), US_ASCII)).isEqualTo("hi");
    assertThat(serverKeys.secretKey())
        .as("the long-term key itself is intact")
        .isNotEqualTo(new byte[32]);
  }

  /** Asserts that the side holds secrets and that every one of them is zero. */
  private static void assertWiped(CurveMechanism m, String side) {
    List<byte[]> secrets = m.secretsForTest();
    assertThat(secrets).as(side + " secrets").isNotEmpty();
    for (byte[] k : secrets) {
      assertThat(k).as(side + " secret").isEqualTo(new byte[k.length]);
    }
  }

  private static void assertNotWiped(CurveMechanism m, String side) {
    assertThat(m.secretsForTest())
        .as(side + " secrets")
        .anySatisfy(k -> assertThat(k).isNotEqualTo(new byte[k.length]));
  }

  @Test
  void server_initiateFailingPartWay_wipesShortSecretAndCookieKey() throws ZmtpException {
    CurveClient c = client();
    CurveServer s = server();
    byte[] welcome = single(s.onHandshakeCommand(single(c.start())));
    byte[] initiate = single(c.onHandshakeCommand(welcome));
    assertNotWiped(s, "server, between WELCOME and INITIATE");
    byte[] bad = initiate.clone();
    bad[bad.length - 1] ^= 1; // the box's last byte: the cookie opens, the box does not
    assertThatThrownBy(() -> s.onHandshakeCommand(bad))
        .isInstanceOf(ZmtpException.class)
        .hasMessage("curve: INITIATE: box does not open");
    assertWiped(s, "server");
    // with its keys zeroed the server must take nothing more, the genuine INITIATE neither
    assertThatThrownBy(() -> s.onHandshakeCommand(initiate))
        .isInstanceOf(ZmtpException.class)
        .hasMessage("curve: got INITIATE after a failed handshake");
    assertThat(s.done()).isFalse();
  }

  @Test
  void server_refusingTheClientKey_wipesEverySecret() throws ZmtpException {
    CurveClient c = client();
    CurveServer s =
        new CurveServer(
            serverKeys, k -> false, Map.of("Socket-Type", "ROUTER".getBytes(US_ASCII)), random);
    byte[] welcome = single(s.onHandshakeCommand(single(c.start())));
    byte[] error = single(s.onHandshakeCommand(single(c.onHandshakeCommand(welcome))));
    assertThat(CurveCodec.nameOf(error)).isEqualTo("ERROR");
    assertThat(s.refusal()).isPresent();
    assertWiped(s, "server");
  }

  @Test
  void client_welcomeFailingPartWay_wipesShortSecretAndHelloKey() throws ZmtpException {
    CurveClient c = client();
    CurveServer s = server();
    byte[] welcome = single(s.onHandshakeCommand(single(c.start())));
    assertNotWiped(c, "client, before WELCOME");
    welcome[welcome.length - 1] ^= 1;
    assertThatThrownBy(() -> c.onHandshakeCommand(welcome))
        .isInstanceOf(ZmtpException.class)
        .hasMessageStartingWith("curve: WELCOME: box does not open");
    assertWiped(c, "client");
  }

  @Test
  void client_errorFromServer_wipesItsSecrets() throws ZmtpException {
    CurveClient c = client();
    c.start();
    assertThatThrownBy(() -> c.onHandshakeCommand(CurveCodec.error("400")))
        .isInstanceOf(ZmtpException.class)
        .hasMessageContaining("authentication failure");
    assertWiped(c, "client");
  }

  @Test
  void wipe_afterTheHandshake_zeroesSessionKeysAndSealsNothing() throws ZmtpException {
    CurveClient c = client();
    CurveServer s = server();
    c.onHandshakeCommand(
        single(
            s.onHandshakeCommand(
                single(c.onHandshakeCommand(single(s.onHandshakeCommand(single(c.start()))))))));
    assertThat(c.done() && s.done()).isTrue();
    assertNotWiped(s, "server session");
    assertNotWiped(c, "client session");
    s.wipe(); // what the engine does when the connection closes
    c.wipe();
    assertWiped(s, "server");
    assertWiped(c, "client");
    Frame f = Frame.part("late".getBytes(US_ASCII), false);
    // a zeroed key is one everybody knows: sealing with it must be impossible
    assertThatThrownBy(() -> s.encode(f))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("curve: the keys are wiped (the connection is closed)");
    assertThatThrownBy(() -> c.encode(f)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void wipe_beforeHello_serverHasNothingToWipe() {
    CurveServer s = server();
    s.wipe();
    assertThat(s.secretsForTest()).isEmpty();
    assertThatThrownBy(() -> s.encode(Frame.part(new byte[1], false)))
        .isInstanceOf(IllegalStateException.class);
  }

  private static byte[] single(List<byte[]> l) {
    assertThat(l).hasSize(1);
    return l.get(0);
  }
}
