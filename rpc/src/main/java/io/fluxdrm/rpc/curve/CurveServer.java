package io.fluxdrm.rpc.curve;

import static io.fluxdrm.rpc.curve.CurveCodec.is;
import static io.fluxdrm.rpc.curve.CurveCodec.nameOf;

import io.fluxdrm.rpc.zmtp.Metadata;
import io.fluxdrm.rpc.zmtp.ZmtpException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The server side of CURVE (ZeroMQ RFC 26, CurveZMQ, as ZMTP 3.x runs it): takes HELLO and answers
 * WELCOME (its short-term key and a cookie sealed with a key of this connection only), takes
 * INITIATE (checks the cookie, the vouch and whether the client's long-term key is allowed) and
 * answers READY with its metadata; after that it seals every frame in a MESSAGE command. Byte for
 * byte what libzmq 4.3 and JeroMQ 0.6.0 send: WELCOME 168 bytes, READY 30 bytes plus the metadata.
 *
 * <p><b>A refused client.</b> When the client's long-term key is not allowed, {@link
 * #onHandshakeCommand} returns one command, ERROR with reason {@code 400} (the ZAP status code
 * libzmq and JeroMQ send, which their clients report as an authentication failure), and from then
 * on {@link #refusal()} says why, {@link #done()} stays false, and another call of {@link
 * #onHandshakeCommand} throws a {@link ZmtpException}. The engine writes the ERROR, then closes the
 * connection once it is flushed: it checks {@link #refusal()} after every {@link
 * #onHandshakeCommand}, or, equivalently for any mechanism, closes after writing a command whose
 * name is ERROR.
 */
public final class CurveServer extends CurveMechanism {
  private enum State {
    EXPECT_HELLO,
    EXPECT_INITIATE,
    DONE,
    REFUSED,
    FAILED
  }

  /** The ERROR reason sent to a client whose key is not allowed: ZAP's authentication failure. */
  static final String REFUSED_STATUS = "400";

  private static final int HELLO_SIZE = 200;
  private static final int MIN_INITIATE = 257;

  private final Predicate<byte[]> allowed;
  private State state = State.EXPECT_HELLO;
  private byte[] clientShort;
  private byte[] cookieKey;
  private byte[] clientKey;
  private String refusal;

  /**
   * Creates the server of one connection.
   *
   * @param keys this server's long-term key pair
   * @param allowed whether a client's long-term public key (32 bytes, a copy) may connect
   * @param metadata the properties sent in READY, e.g. {@code Socket-Type}, in their map order
   * @param random the source of the short-term key pair, the cookie key and the nonces
   * @throws IllegalArgumentException when a metadata name is invalid
   */
  public CurveServer(
      CurveKeyPair keys,
      Predicate<byte[]> allowed,
      Map<String, byte[]> metadata,
      SecureRandom random) {
    super(keys, metadata, random);
    this.allowed = Objects.requireNonNull(allowed, "allowed");
  }

  @Override
  public boolean asServer() {
    return true;
  }

  /** Returns nothing: the client speaks first. */
  @Override
  public List<byte[]> start() {
    return List.of();
  }

  /**
   * Takes HELLO (answers WELCOME) or INITIATE (answers READY, or ERROR when the client key is not
   * allowed: see the class comment).
   *
   * @throws ZmtpException when the command is malformed, out of order, its box, cookie or vouch
   *     does not open, or the handshake was already refused
   */
  @Override
  public List<byte[]> onHandshakeCommand(byte[] body) throws ZmtpException {
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
    switch (state) {
      case EXPECT_HELLO:
        if (!is(body, HELLO)) {
          throw new ZmtpException("curve: got " + nameOf(body) + " (expected: HELLO)");
        }
        return List.of(onHello(body));
      case EXPECT_INITIATE:
        if (!is(body, INITIATE)) {
          throw new ZmtpException("curve: got " + nameOf(body) + " (expected: INITIATE)");
        }
        return List.of(onInitiate(body));
      case REFUSED:
        throw new ZmtpException("curve: got " + nameOf(body) + " after refusing: " + refusal);
      case FAILED:
        throw new ZmtpException("curve: got " + nameOf(body) + " after a failed handshake");
      default:
        throw new ZmtpException("curve: got " + nameOf(body) + " after the handshake");
    }
  }

  private byte[] onHello(byte[] body) throws ZmtpException {
    if (body.length != HELLO_SIZE) {
      throw new ZmtpException(
          "curve: HELLO: " + body.length + " bytes (expected: " + HELLO_SIZE + ")");
    }
    if (body[6] != 1 || body[7] != 0) {
      throw new ZmtpException(
          "curve: HELLO: version "
              + (body[6] & 0xff)
              + "."
              + (body[7] & 0xff)
              + " (expected: 1.0)");
    }
    // RFC 26, HELLO: 72 bytes of anti-amplification padding, all zero (the server SHALL validate
    // all fields)
    for (int i = 8; i < 80; i++) {
      if (body[i] != 0) {
        throw new ZmtpException(
            "curve: HELLO: padding byte " + (i - 8) + " is not zero (expected: 72 zero bytes)");
      }
    }
    byte[] cShort = Arrays.copyOfRange(body, 80, 112);
    long n = CurveCrypto.getLong(body, 112);
    CurveCodec.checkNonce("HELLO", n, 0);
    byte[] longSecret = keys.secretKey();
    byte[] helloKey = CurveCrypto.beforenm(cShort, longSecret);
    zero(longSecret); // a copy: wipe it
    if (helloKey == null) {
      throw new ZmtpException("curve: HELLO: client short-term key is of small order");
    }
    try {
      return welcome(body, n, cShort, helloKey);
    } finally {
      zero(helloKey); // WELCOME is sealed, or the HELLO failed: the key is needed no more
    }
  }

  private byte[] welcome(byte[] body, long n, byte[] cShort, byte[] helloKey) throws ZmtpException {
    byte[] plain =
        CurveCrypto.open(helloKey, CurveCrypto.nonce(CurveCodec.HELLO_PREFIX, n), body, 120, 80);
    if (plain == null) {
      throw new ZmtpException("curve: HELLO: box does not open (is the client using our key?)");
    }
    // RFC 26, HELLO: the signature box holds 64 zero bytes
    for (byte b : plain) {
      if (b != 0) {
        throw new ZmtpException("curve: HELLO: signature box is not 64 zero bytes");
      }
    }
    clientShort = cShort;
    drawShortKeys(); // only now: a connection that never says HELLO costs no key pair
    lastPeerNonce = n;

    cookieKey = new byte[CurveCrypto.KEY];
    random.nextBytes(cookieKey);
    byte[] cookiePlain = new byte[64];
    System.arraycopy(clientShort, 0, cookiePlain, 0, 32);
    System.arraycopy(shortSecret, 0, cookiePlain, 32, 32);
    byte[] cookieSuffix = new byte[16];
    random.nextBytes(cookieSuffix);
    byte[] cookieBox;
    try {
      cookieBox =
          CurveCrypto.seal(
              cookieKey,
              CurveCrypto.nonce(CurveCodec.COOKIE_PREFIX, cookieSuffix),
              cookiePlain,
              0,
              64);
    } finally {
      zero(cookiePlain); // holds the short-term secret
    }

    byte[] welcomePlain = new byte[128];
    System.arraycopy(shortPublic, 0, welcomePlain, 0, 32);
    System.arraycopy(cookieSuffix, 0, welcomePlain, 32, 16);
    System.arraycopy(cookieBox, 0, welcomePlain, 48, 80);
    byte[] welcomeSuffix = new byte[16];
    random.nextBytes(welcomeSuffix);
    byte[] box =
        CurveCrypto.seal(
            helloKey,
            CurveCrypto.nonce(CurveCodec.WELCOME_PREFIX, welcomeSuffix),
            welcomePlain,
            0,
            128);

    byte[] welcome = new byte[168];
    System.arraycopy(WELCOME, 0, welcome, 0, WELCOME.length);
    System.arraycopy(welcomeSuffix, 0, welcome, 8, 16);
    System.arraycopy(box, 0, welcome, 24, box.length);
    state = State.EXPECT_INITIATE;
    return welcome;
  }

  private byte[] onInitiate(byte[] body) throws ZmtpException {
    if (body.length < MIN_INITIATE) {
      throw new ZmtpException(
          "curve: INITIATE: " + body.length + " bytes (expected: at least " + MIN_INITIATE + ")");
    }
    byte[] cookie = null;
    byte[] sessionKey = null;
    byte[] vouchKey = null;
    try {
      byte[] cookieNonce =
          CurveCrypto.nonce(CurveCodec.COOKIE_PREFIX, Arrays.copyOfRange(body, 9, 25));
      cookie = CurveCrypto.open(cookieKey, cookieNonce, body, 25, 80);
      if (cookie == null) {
        throw new ZmtpException("curve: INITIATE: cookie does not open");
      }
      if (!Arrays.equals(cookie, 0, 32, clientShort, 0, 32)
          || !Arrays.equals(cookie, 32, 64, shortSecret, 0, 32)) {
        throw new ZmtpException("curve: INITIATE: cookie is for another connection");
      }
      long n = CurveCrypto.getLong(body, 105);
      CurveCodec.checkNonce("INITIATE", n, lastPeerNonce);
      sessionKey = CurveCrypto.beforenm(clientShort, shortSecret);
      byte[] plain =
          CurveCrypto.open(
              sessionKey,
              CurveCrypto.nonce(CurveCodec.INITIATE_PREFIX, n),
              body,
              113,
              body.length - 113);
      if (plain == null) {
        throw new ZmtpException("curve: INITIATE: box does not open");
      }
      byte[] client = Arrays.copyOfRange(plain, 0, 32);
      vouchKey = CurveCrypto.beforenm(client, shortSecret);
      if (vouchKey == null) {
        throw new ZmtpException("curve: INITIATE: client key is of small order");
      }
      byte[] vouchNonce =
          CurveCrypto.nonce(CurveCodec.VOUCH_PREFIX, Arrays.copyOfRange(plain, 32, 48));
      byte[] vouch = CurveCrypto.open(vouchKey, vouchNonce, plain, 48, 80);
      if (vouch == null) {
        throw new ZmtpException("curve: INITIATE: vouch does not open");
      }
      if (!Arrays.equals(vouch, 0, 32, clientShort, 0, 32)
          || !Arrays.equals(vouch, 32, 64, keys.publicKey(), 0, 32)) {
        throw new ZmtpException("curve: INITIATE: vouch is for another connection or server");
      }
      Map<String, byte[]> props;
      try {
        props = Metadata.decode(plain, 128, plain.length - 128);
      } catch (ZmtpException e) {
        throw new ZmtpException("curve: INITIATE: " + e.getMessage());
      }
      lastPeerNonce = n;
      // the session key is derived: the short-term secret and the cookie key serve no more
      wipeHandshakeKeys();
      forgetShortSecret();

      if (!allowed.test(client.clone())) {
        refusal = "client key " + Z85.encode(client) + " is not allowed";
        state = State.REFUSED;
        wipe(); // nothing of this connection is used again
        return CurveCodec.error(REFUSED_STATUS);
      }

      long readyNonce = 1;
      byte[] box =
          CurveCrypto.seal(
              sessionKey,
              CurveCrypto.nonce(CurveCodec.READY_PREFIX, readyNonce),
              metadata,
              0,
              metadata.length);
      byte[] ready = new byte[READY.length + 8 + box.length];
      System.arraycopy(READY, 0, ready, 0, READY.length);
      CurveCrypto.putLong(ready, 6, readyNonce);
      System.arraycopy(box, 0, ready, 14, box.length);

      clientKey = client;
      peerMetadata = props;
      codec = new CurveCodec(sessionKey, false, readyNonce + 1, lastPeerNonce);
      sessionKey = null; // the codec's now, wiped when the connection closes
      state = State.DONE;
      return ready;
    } finally {
      // the cookie holds our short-term secret; the vouch key and an unused session key are
      // temporary: wiped whether INITIATE passed, was refused or failed part-way
      zero(cookie);
      zero(vouchKey);
      zero(sessionKey);
    }
  }

  @Override
  void wipeHandshakeKeys() {
    zero(cookieKey);
  }

  @Override
  List<byte[]> handshakeKeysForTest() {
    return cookieKey == null ? List.of() : List.of(cookieKey);
  }

  /**
   * Returns why this server refused the client (its key is not allowed), once it has returned the
   * ERROR command that tells the client; empty otherwise. The engine closes the connection after
   * writing that ERROR.
   */
  public Optional<String> refusal() {
    return Optional.ofNullable(refusal);
  }

  @Override
  public boolean done() {
    return state == State.DONE;
  }

  /** Returns the client's long-term public key (a copy) once the handshake is done, else null. */
  @Override
  public byte[] peerKey() {
    return clientKey == null ? null : clientKey.clone();
  }

  /** Returns the exception for an ERROR command received from the server during the handshake. */
  static ZmtpException refusedBy(byte[] body) {
    if (body.length < ERROR.length + 1) {
      return new ZmtpException(
          "curve: ERROR: "
              + body.length
              + " bytes (expected: at least "
              + (ERROR.length + 1)
              + ")");
    }
    int len = body[ERROR.length] & 0xff;
    int found = body.length - ERROR.length - 1;
    if (len != found) {
      return new ZmtpException("curve: ERROR: reason of " + len + " bytes (found: " + found + ")");
    }
    String reason =
        new String(body, ERROR.length + 1, len, StandardCharsets.US_ASCII)
            .replaceAll("[^\\x20-\\x7e]", "?");
    String meaning =
        switch (reason) {
          case "300" -> " (temporary error)";
          case "400" -> " (authentication failure)";
          case "500" -> " (internal error)";
          default -> "";
        };
    if (reason.isEmpty()) {
      return new ZmtpException("curve: server refused the handshake (no reason given)");
    }
    return new ZmtpException("curve: server refused the handshake: " + reason + meaning);
  }
}
