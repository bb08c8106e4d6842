package io.fluxdrm.rpc.curve;

import static io.fluxdrm.rpc.curve.CurveCodec.is;
import static io.fluxdrm.rpc.curve.CurveCodec.nameOf;

import io.fluxdrm.rpc.zmtp.Metadata;
import io.fluxdrm.rpc.zmtp.ZmtpException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The client side of CURVE (ZeroMQ RFC 26, CurveZMQ, as ZMTP 3.x runs it): sends HELLO, takes the
 * server's WELCOME and answers INITIATE (its long-term key, the vouch and its metadata), then takes
 * READY; after that it seals every frame in a MESSAGE command. Byte for byte what libzmq 4.3 and
 * JeroMQ 0.6.0 send: HELLO 200 bytes, INITIATE 257 bytes plus the metadata.
 *
 * <p>An ERROR from the server (a refused key: libzmq and JeroMQ send a ZAP status code such as
 * {@code 400}) makes {@link #onHandshakeCommand} throw a {@link ZmtpException} that says so. JeroMQ
 * 0.6.0 servers read at most 256 bytes of INITIATE metadata: keep it under that with them.
 */
public final class CurveClient extends CurveMechanism {
  private enum State {
    NEW,
    EXPECT_WELCOME,
    EXPECT_READY,
    DONE,
    FAILED
  }

  private static final int WELCOME_SIZE = 168;
  private static final int MIN_READY = READY.length + 8 + CurveCrypto.TAG;

  private final byte[] serverKey;
  private final byte[] helloKey;
  private long nextNonce = 1;
  private State state = State.NEW;
  private byte[] sessionKey;

  /**
   * Creates the client of one connection.
   *
   * @param serverKey the server's long-term public key, 32 bytes
   * @param keys this client's long-term key pair
   * @param metadata the properties sent in INITIATE, e.g. {@code Socket-Type} and {@code Identity},
   *     in their map order
   * @param random the source of the short-term key pair and the vouch nonce
   * @throws IllegalArgumentException when the server key is not 32 bytes or not a usable X25519
   *     public key, or a metadata name is invalid
   */
  public CurveClient(
      byte[] serverKey, CurveKeyPair keys, Map<String, byte[]> metadata, SecureRandom random) {
    super(keys, metadata, random);
    drawShortKeys(); // the client speaks first: HELLO carries its short-term key
    if (serverKey.length != CurveCrypto.KEY) {
      throw new IllegalArgumentException(
          "curve: server key of " + serverKey.length + " bytes (expected: 32)");
    }
    this.serverKey = serverKey.clone();
    this.helloKey = CurveCrypto.beforenm(this.serverKey, shortSecret);
    if (helloKey == null) {
      forgetShortSecret();
      throw new IllegalArgumentException(
          "curve: server key " + Z85.encode(this.serverKey) + " is not a usable public key");
    }
  }

  @Override
  public boolean asServer() {
    return false;
  }

  /**
   * Returns HELLO: the name, version 1.0, 72 bytes of zero padding, the short-term public key, the
   * short nonce and the box of 64 zero bytes.
   *
   * @throws IllegalStateException when called twice
   */
  @Override
  public List<byte[]> start() {
    if (state != State.NEW) {
      throw new IllegalStateException("curve: HELLO was already sent");
    }
    long n = nextNonce++;
    byte[] box =
        CurveCrypto.seal(
            helloKey, CurveCrypto.nonce(CurveCodec.HELLO_PREFIX, n), new byte[64], 0, 64);
    byte[] hello = new byte[200];
    System.arraycopy(HELLO, 0, hello, 0, HELLO.length);
    hello[6] = 1;
    hello[7] = 0;
    System.arraycopy(shortPublic, 0, hello, 80, 32);
    CurveCrypto.putLong(hello, 112, n);
    System.arraycopy(box, 0, hello, 120, box.length);
    state = State.EXPECT_WELCOME;
    return List.of(hello);
  }

  /**
   * Takes WELCOME (answers INITIATE) or READY (answers nothing; the handshake is done).
   *
   * @throws ZmtpException when the command is malformed, out of order, does not open (a WELCOME box
   *     that does not open means the server key is wrong), or is an ERROR from the server
   * @throws IllegalStateException when {@link #start()} was not called
   */
  @Override
  public List<byte[]> onHandshakeCommand(byte[] body) throws ZmtpException {
    if (state == State.NEW) {
      throw new IllegalStateException("curve: a command before HELLO was sent");
    }
    try {
      return handshakeCommand(body);
    } catch (ZmtpException | RuntimeException e) {
      // the engine closes: keys of a handshake that failed part-way serve nothing any more
      state = State.FAILED;
      wipe();
      throw e;
    }
  }

  private List<byte[]> handshakeCommand(byte[] body) throws ZmtpException {
    if (state == State.FAILED) {
      throw new ZmtpException("curve: got " + nameOf(body) + " after a failed handshake");
    }
    if (is(body, ERROR) && state != State.DONE) {
      throw CurveServer.refusedBy(body);
    }
    switch (state) {
      case EXPECT_WELCOME:
        if (!is(body, WELCOME)) {
          throw new ZmtpException("curve: got " + nameOf(body) + " (expected: WELCOME)");
        }
        return List.of(onWelcome(body));
      case EXPECT_READY:
        if (!is(body, READY)) {
          throw new ZmtpException("curve: got " + nameOf(body) + " (expected: READY)");
        }
        onReady(body);
        return List.of();
      default:
        throw new ZmtpException("curve: got " + nameOf(body) + " after the handshake");
    }
  }

  private byte[] onWelcome(byte[] body) throws ZmtpException {
    if (body.length != WELCOME_SIZE) {
      throw new ZmtpException(
          "curve: WELCOME: " + body.length + " bytes (expected: " + WELCOME_SIZE + ")");
    }
    byte[] nonce = CurveCrypto.nonce(CurveCodec.WELCOME_PREFIX, Arrays.copyOfRange(body, 8, 24));
    byte[] plain = CurveCrypto.open(helloKey, nonce, body, 24, 144);
    zero(helloKey); // WELCOME is the only box sealed with it
    if (plain == null) {
      throw new ZmtpException("curve: WELCOME: box does not open (is the server key right?)");
    }
    byte[] serverShort = Arrays.copyOfRange(plain, 0, 32);
    byte[] cookie = Arrays.copyOfRange(plain, 32, 128);
    byte[] longSecret = keys.secretKey();
    byte[] vouchKey = CurveCrypto.beforenm(serverShort, longSecret);
    zero(longSecret); // a copy: wipe it
    sessionKey = CurveCrypto.beforenm(serverShort, shortSecret);
    forgetShortSecret(); // the session key is derived: the short-term secret is needed no more
    try {
      return initiate(cookie, vouchKey);
    } finally {
      zero(vouchKey); // the vouch is sealed, or WELCOME failed
    }
  }

  private byte[] initiate(byte[] cookie, byte[] vouchKey) throws ZmtpException {
    if (vouchKey == null || sessionKey == null) {
      throw new ZmtpException("curve: WELCOME: server short-term key is of small order");
    }

    byte[] vouchPlain = new byte[64];
    System.arraycopy(shortPublic, 0, vouchPlain, 0, 32);
    System.arraycopy(serverKey, 0, vouchPlain, 32, 32);
    byte[] vouchSuffix = new byte[16];
    random.nextBytes(vouchSuffix);
    byte[] vouch =
        CurveCrypto.seal(
            vouchKey, CurveCrypto.nonce(CurveCodec.VOUCH_PREFIX, vouchSuffix), vouchPlain, 0, 64);

    byte[] plainInit = new byte[32 + 16 + vouch.length + metadata.length];
    System.arraycopy(keys.publicKey(), 0, plainInit, 0, 32);
    System.arraycopy(vouchSuffix, 0, plainInit, 32, 16);
    System.arraycopy(vouch, 0, plainInit, 48, vouch.length);
    System.arraycopy(metadata, 0, plainInit, 48 + vouch.length, metadata.length);
    long n = nextNonce++;
    byte[] box =
        CurveCrypto.seal(
            sessionKey,
            CurveCrypto.nonce(CurveCodec.INITIATE_PREFIX, n),
            plainInit,
            0,
            plainInit.length);

    byte[] initiate = new byte[INITIATE.length + 96 + 8 + box.length];
    System.arraycopy(INITIATE, 0, initiate, 0, INITIATE.length);
    System.arraycopy(cookie, 0, initiate, 9, 96);
    CurveCrypto.putLong(initiate, 105, n);
    System.arraycopy(box, 0, initiate, 113, box.length);
    state = State.EXPECT_READY;
    return initiate;
  }

  private void onReady(byte[] body) throws ZmtpException {
    if (body.length < MIN_READY) {
      throw new ZmtpException(
          "curve: READY: " + body.length + " bytes (expected: at least " + MIN_READY + ")");
    }
    long n = CurveCrypto.getLong(body, 6);
    CurveCodec.checkNonce("READY", n, lastPeerNonce);
    byte[] plain =
        CurveCrypto.open(
            sessionKey, CurveCrypto.nonce(CurveCodec.READY_PREFIX, n), body, 14, body.length - 14);
    if (plain == null) {
      throw new ZmtpException("curve: READY: box does not open");
    }
    Map<String, byte[]> props;
    try {
      props = Metadata.decode(plain, 0, plain.length);
    } catch (ZmtpException e) {
      throw new ZmtpException("curve: READY: " + e.getMessage());
    }
    lastPeerNonce = n;
    peerMetadata = props;
    codec = new CurveCodec(sessionKey, true, nextNonce, lastPeerNonce);
    state = State.DONE;
  }

  @Override
  void wipeHandshakeKeys() {
    zero(helloKey);
    if (codec == null) {
      zero(sessionKey); // once the codec exists it holds this array and wipes it
    }
  }

  @Override
  List<byte[]> handshakeKeysForTest() {
    return sessionKey == null || codec != null ? List.of(helloKey) : List.of(helloKey, sessionKey);
  }

  @Override
  public boolean done() {
    return state == State.DONE;
  }

  /** Returns null: the client authenticates the server by the key it was given. */
  @Override
  public byte[] peerKey() {
    return null;
  }
}
