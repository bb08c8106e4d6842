package io.fluxdrm.rpc.curve;

import static io.fluxdrm.rpc.curve.CurveCodec.command;

import io.fluxdrm.rpc.zmtp.Frame;
import io.fluxdrm.rpc.zmtp.Mechanism;
import io.fluxdrm.rpc.zmtp.Metadata;
import io.fluxdrm.rpc.zmtp.ZmtpException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What both sides of CURVE share: the long-term and short-term keys, the metadata this side sends,
 * the peer's metadata once received, and the MESSAGE sealing that takes over after the handshake.
 */
abstract sealed class CurveMechanism implements Mechanism permits CurveClient, CurveServer {
  static final byte[] HELLO = command("HELLO");
  static final byte[] WELCOME = command("WELCOME");
  static final byte[] INITIATE = command("INITIATE");
  static final byte[] READY = command("READY");
  static final byte[] ERROR = command("ERROR");

  final CurveKeyPair keys;
  final byte[] metadata;
  final SecureRandom random;
  byte[] shortPublic;
  byte[] shortSecret;
  long lastPeerNonce;
  Map<String, byte[]> peerMetadata = Map.of();
  CurveCodec codec;
  private boolean wiped;

  /**
   * Keeps this side's long-term keys and encodes its metadata; the short-term key pair is drawn by
   * {@link #drawShortKeys} when this side needs it (a server: once HELLO has arrived).
   *
   * @throws IllegalArgumentException when a metadata name is invalid
   */
  CurveMechanism(CurveKeyPair keys, Map<String, byte[]> metadata, SecureRandom random) {
    this.keys = Objects.requireNonNull(keys, "keys");
    this.metadata = Metadata.encode(metadata);
    this.random = Objects.requireNonNull(random, "random");
  }

  /** Draws this side's short-term key pair. */
  final void drawShortKeys() {
    byte[][] shortKeys = CurveCrypto.keyPair(random);
    shortPublic = shortKeys[0];
    shortSecret = shortKeys[1];
  }

  /**
   * Zeroes the short-term secret key, once the session key is derived (RFC 26: short-term keys
   * serve one connection; nothing needs the secret after the handshake).
   */
  final void forgetShortSecret() {
    if (shortSecret != null) {
      Arrays.fill(shortSecret, (byte) 0);
    }
  }

  /** Zeroes {@code secret} when there is one (a key, or a copy of one, no longer needed). */
  static void zero(byte[] secret) {
    if (secret != null) {
      Arrays.fill(secret, (byte) 0);
    }
  }

  /**
   * Wipes every secret of this side (RFC 26: the short-term keys serve one connection only): the
   * short-term secret, the keys of the handshake and the session key. Called when the handshake
   * fails part-way, when the server refuses the client, and by the engine when the connection
   * closes; from then on nothing is sealed or opened and every handshake command is refused.
   */
  @Override
  public final void wipe() {
    wiped = true;
    forgetShortSecret();
    wipeHandshakeKeys();
    if (codec != null) {
      codec.wipe();
    }
  }

  /** Zeroes the keys only one side holds during the handshake. */
  abstract void wipeHandshakeKeys();

  /** Returns whether {@link #wipe} has run. */
  final boolean wiped() {
    return wiped;
  }

  /**
   * Returns the secret arrays this side holds, themselves, not copies: the short-term secret, the
   * handshake keys and the session key, each once it exists (for tests of their wiping).
   */
  final List<byte[]> secretsForTest() {
    List<byte[]> l = new ArrayList<>();
    if (shortSecret != null) {
      l.add(shortSecret);
    }
    l.addAll(handshakeKeysForTest());
    if (codec != null) {
      l.add(codec.keyForTest());
    }
    return l;
  }

  /** Returns the handshake keys this side holds (for {@link #secretsForTest}). */
  abstract List<byte[]> handshakeKeysForTest();

  /** Returns whether a short-term key pair exists (for tests). */
  final boolean hasShortKeys() {
    return shortPublic != null;
  }

  /** Returns the short-term secret key itself, not a copy (for tests of its zeroing). */
  final byte[] shortSecretForTest() {
    return shortSecret;
  }

  @Override
  public final String name() {
    return "CURVE";
  }

  @Override
  public final Map<String, byte[]> peerMetadata() {
    return peerMetadata;
  }

  /**
   * Seals a frame in a MESSAGE command (a message part without MORE; the frame's MORE and COMMAND
   * flags travel inside the box).
   *
   * @throws IllegalStateException before the handshake is done
   */
  @Override
  public final Frame encode(Frame plain) {
    return codec().encode(plain);
  }

  /**
   * Opens a MESSAGE command from the peer.
   *
   * @throws ZmtpException when the frame is not a MESSAGE, its box does not open, or its nonce is
   *     not above the last one
   * @throws IllegalStateException before the handshake is done
   */
  @Override
  public final Frame decode(Frame wire) throws ZmtpException {
    return codec().decode(wire);
  }

  private CurveCodec codec() {
    if (wiped) {
      // a zeroed key would seal with a key everybody knows: never use it
      throw new IllegalStateException("curve: the keys are wiped (the connection is closed)");
    }
    if (codec == null) {
      throw new IllegalStateException("curve: the handshake is not done");
    }
    return codec;
  }
}
