package io.fluxdrm.rpc.curve;

import java.security.SecureRandom;
import java.util.Arrays;
import javax.security.auth.Destroyable;

/**
 * A CURVE long-term key pair (X25519): a 32-byte public key and its 32-byte secret key. The arrays
 * are copied in and out; {@link #toString()} shows only the public key, in Z85. {@link #destroy()}
 * zeroes the pair's own copy of the secret key once its holder is done with it (a listener when it
 * closes, {@code fluxdrm keygen} once the certificate is written; issue 12, finding 13, decision
 * D331); a secret key of zeros is therefore refused as one that was wiped.
 *
 * @param publicKey the public key, 32 bytes
 * @param secretKey the secret key, 32 bytes
 */
public record CurveKeyPair(byte[] publicKey, byte[] secretKey) implements Destroyable {
  /**
   * Checks the lengths and that the public key is the secret key's.
   *
   * @throws IllegalArgumentException when a key is not 32 bytes, the secret key is all zeros (a
   *     wiped key) or the keys do not belong together
   */
  public CurveKeyPair {
    if (publicKey.length != CurveCrypto.KEY) {
      throw new IllegalArgumentException(
          "curve key pair: public key of " + publicKey.length + " bytes (expected: 32)");
    }
    if (secretKey.length != CurveCrypto.KEY) {
      throw new IllegalArgumentException(
          "curve key pair: secret key of " + secretKey.length + " bytes (expected: 32)");
    }
    if (isZero(secretKey)) {
      throw new IllegalArgumentException(
          "curve key pair: secret key of zeros (expected: a key, not a wiped one)");
    }
    publicKey = publicKey.clone();
    secretKey = secretKey.clone();
    if (!Arrays.equals(publicKey, CurveCrypto.publicKey(secretKey))) {
      throw new IllegalArgumentException(
          "curve key pair: public key " + Z85.encode(publicKey) + " is not the secret key's");
    }
  }

  /** Returns a fresh key pair drawn from {@code random}. */
  public static CurveKeyPair generate(SecureRandom random) {
    byte[][] keys = CurveCrypto.keyPair(random);
    try {
      return new CurveKeyPair(keys[0], keys[1]);
    } finally {
      Arrays.fill(keys[1], (byte) 0); // the pair keeps its own copy
    }
  }

  /**
   * Returns the key pair of a secret key.
   *
   * @throws IllegalArgumentException when the secret key is not 32 bytes
   */
  public static CurveKeyPair fromSecret(byte[] secretKey) {
    if (secretKey.length != CurveCrypto.KEY) {
      throw new IllegalArgumentException(
          "curve key pair: secret key of " + secretKey.length + " bytes (expected: 32)");
    }
    return new CurveKeyPair(CurveCrypto.publicKey(secretKey), secretKey);
  }

  /** Returns a copy of the public key. */
  @Override
  public byte[] publicKey() {
    return publicKey.clone();
  }

  /**
   * Returns a copy of the secret key, which its caller zeroes once used.
   *
   * @throws IllegalStateException once the pair is destroyed
   */
  @Override
  public byte[] secretKey() {
    if (isDestroyed()) {
      throw new IllegalStateException("curve key pair: the secret key is wiped");
    }
    return secretKey.clone();
  }

  /** Zeroes this pair's copy of the secret key; the public key stays. */
  @Override
  public void destroy() {
    Arrays.fill(secretKey, (byte) 0);
  }

  /** Returns whether {@link #destroy()} has run: the pair's secret key is all zeros. */
  @Override
  public boolean isDestroyed() {
    return isZero(secretKey);
  }

  private static boolean isZero(byte[] b) {
    int or = 0;
    for (byte x : b) {
      or |= x;
    }
    return or == 0;
  }

  /** Compares both keys by content. */
  @Override
  public boolean equals(Object o) {
    return o instanceof CurveKeyPair k
        && Arrays.equals(publicKey, k.publicKey)
        && Arrays.equals(secretKey, k.secretKey);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(publicKey);
  }

  /** Shows the public key in Z85, never the secret key. */
  @Override
  public String toString() {
    return "CurveKeyPair[publicKey=" + Z85.encode(publicKey) + "]";
  }
}
