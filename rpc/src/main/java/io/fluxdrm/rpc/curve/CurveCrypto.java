package io.fluxdrm.rpc.curve;

import java.security.SecureRandom;
import java.util.Arrays;
import org.bouncycastle.crypto.engines.Salsa20Engine;
import org.bouncycastle.crypto.engines.XSalsa20Engine;
import org.bouncycastle.crypto.macs.Poly1305;
import org.bouncycastle.crypto.params.KeyParameter;
import org.bouncycastle.crypto.params.ParametersWithIV;
import org.bouncycastle.math.ec.rfc7748.X25519;

/**
 * NaCl's {@code crypto_box} (X25519, HSalsa20, XSalsa20-Poly1305) and {@code crypto_secretbox} as
 * CurveZMQ uses them, on Bouncy Castle's primitives. Boxes here are in their wire form: the 16-byte
 * Poly1305 tag then the ciphertext (NaCl's output without its 16 leading zero bytes); the input
 * needs no 32 zero bytes either.
 */
final class CurveCrypto {
  /** Length of keys, public or secret, and of a precomputed box key. */
  static final int KEY = 32;

  /** Length of a full nonce. */
  static final int NONCE = 24;

  /** Length a box adds to its plaintext (the Poly1305 tag). */
  static final int TAG = 16;

  private static final int[] SIGMA = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
  private static final byte[] ZERO_NONCE = new byte[16];

  private CurveCrypto() {}

  /** Returns a fresh key pair: {public, secret}. */
  static byte[][] keyPair(SecureRandom random) {
    byte[] secret = new byte[KEY];
    random.nextBytes(secret);
    return new byte[][] {publicKey(secret), secret};
  }

  /** Returns the public key of a secret key. */
  static byte[] publicKey(byte[] secret) {
    byte[] pub = new byte[KEY];
    X25519.scalarMultBase(secret, 0, pub, 0);
    return pub;
  }

  /**
   * Returns NaCl's {@code crypto_box_beforenm}: HSalsa20 of the X25519 shared secret, or null when
   * the peer's key is of small order (the shared secret is all zero).
   */
  static byte[] beforenm(byte[] peerPublic, byte[] ownSecret) {
    byte[] shared = new byte[KEY];
    if (!X25519.calculateAgreement(ownSecret, 0, peerPublic, 0, shared, 0)) {
      return null;
    }
    byte[] key = hsalsa20(shared, ZERO_NONCE);
    java.util.Arrays.fill(shared, (byte) 0);
    return key;
  }

  /** Returns HSalsa20 of a 32-byte key and a 16-byte input. */
  static byte[] hsalsa20(byte[] key, byte[] in) {
    int[] state = new int[16];
    state[0] = SIGMA[0];
    state[5] = SIGMA[1];
    state[10] = SIGMA[2];
    state[15] = SIGMA[3];
    for (int i = 0; i < 4; i++) {
      state[1 + i] = le32(key, 4 * i);
      state[11 + i] = le32(key, 16 + 4 * i);
      state[6 + i] = le32(in, 4 * i);
    }
    int[] x = new int[16];
    // salsaCore adds the input words back at the end; HSalsa20 takes the words before that step
    Salsa20Engine.salsaCore(20, state, x);
    int[] pick = {0, 5, 10, 15, 6, 7, 8, 9};
    byte[] out = new byte[KEY];
    for (int i = 0; i < pick.length; i++) {
      int w = x[pick[i]] - state[pick[i]];
      out[4 * i] = (byte) w;
      out[4 * i + 1] = (byte) (w >>> 8);
      out[4 * i + 2] = (byte) (w >>> 16);
      out[4 * i + 3] = (byte) (w >>> 24);
    }
    return out;
  }

  /**
   * Seals {@code len} bytes of {@code m} from {@code off} with a box key (precomputed, or a
   * secretbox key) and a 24-byte nonce; returns tag then ciphertext.
   */
  static byte[] seal(byte[] key, byte[] nonce, byte[] m, int off, int len) {
    XSalsa20Engine cipher = cipher(key, nonce);
    byte[] polyKey = new byte[KEY];
    cipher.processBytes(polyKey, 0, KEY, polyKey, 0);
    byte[] out = new byte[TAG + len];
    cipher.processBytes(m, off, len, out, TAG);
    Poly1305 mac = new Poly1305();
    mac.init(new KeyParameter(polyKey));
    mac.update(out, TAG, len);
    mac.doFinal(out, 0);
    return out;
  }

  /**
   * Opens {@code len} bytes of a box (tag then ciphertext) at {@code off} of {@code c}; returns the
   * plaintext, or null when the box does not open.
   */
  static byte[] open(byte[] key, byte[] nonce, byte[] c, int off, int len) {
    if (len < TAG) {
      return null;
    }
    XSalsa20Engine cipher = cipher(key, nonce);
    byte[] polyKey = new byte[KEY];
    cipher.processBytes(polyKey, 0, KEY, polyKey, 0);
    Poly1305 mac = new Poly1305();
    mac.init(new KeyParameter(polyKey));
    mac.update(c, off + TAG, len - TAG);
    byte[] tag = new byte[TAG];
    mac.doFinal(tag, 0);
    if (!org.bouncycastle.util.Arrays.constantTimeAreEqual(
        TAG, tag, 0, Arrays.copyOfRange(c, off, off + TAG), 0)) {
      return null;
    }
    byte[] m = new byte[len - TAG];
    cipher.processBytes(c, off + TAG, len - TAG, m, 0);
    return m;
  }

  /** Returns a 24-byte nonce: a prefix then a suffix (8 or 16 bytes long together 24). */
  static byte[] nonce(byte[] prefix, byte[] suffix) {
    byte[] n = new byte[NONCE];
    System.arraycopy(prefix, 0, n, 0, prefix.length);
    System.arraycopy(suffix, 0, n, prefix.length, suffix.length);
    return n;
  }

  /** Returns a 24-byte nonce: a 16-byte prefix then a big-endian 8-byte counter. */
  static byte[] nonce(byte[] prefix, long counter) {
    byte[] n = new byte[NONCE];
    System.arraycopy(prefix, 0, n, 0, 16);
    putLong(n, 16, counter);
    return n;
  }

  static void putLong(byte[] b, int off, long v) {
    for (int i = 0; i < 8; i++) {
      b[off + i] = (byte) (v >>> (56 - 8 * i));
    }
  }

  static long getLong(byte[] b, int off) {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (b[off + i] & 0xff);
    }
    return v;
  }

  private static XSalsa20Engine cipher(byte[] key, byte[] nonce) {
    XSalsa20Engine cipher = new XSalsa20Engine();
    cipher.init(true, new ParametersWithIV(new KeyParameter(key), nonce));
    return cipher;
  }

  private static int le32(byte[] b, int off) {
    return (b[off] & 0xff)
        | (b[off + 1] & 0xff) << 8
        | (b[off + 2] & 0xff) << 16
        | (b[off + 3] & 0xff) << 24;
  }
}
