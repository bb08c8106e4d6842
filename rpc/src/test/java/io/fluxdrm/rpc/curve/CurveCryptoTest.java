package io.fluxdrm.rpc.curve;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.zmtp.Seeded;
import java.util.HexFormat;
import java.util.Random;
import org.bouncycastle.crypto.engines.Salsa20Engine;
import org.bouncycastle.crypto.engines.XSalsa20Engine;
import org.bouncycastle.crypto.params.KeyParameter;
import org.bouncycastle.crypto.params.ParametersWithIV;
import org.junit.jupiter.api.Test;
import zmq.io.mechanism.curve.Curve;

class CurveCryptoTest {
  private static final HexFormat HEX = HexFormat.of();

  @Test
  void hsalsa20_naclFirstKeyVector_matches() {
    // NaCl's tests/core1: the X25519 secret Alice shares with Bob, and HSalsa20 of it
    byte[] shared =
        HEX.parseHex("4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742");
    assertThat(HEX.formatHex(CurveCrypto.hsalsa20(shared, new byte[16])))
        .isEqualTo("1b27556473e985d462cd51197a9a46c76009549eac6474f206c4ee0844f68389");
  }

  @Test
  void hsalsa20_asXSalsa20Subkey_givesTheSameKeyStream() {
    long seed = Seeded.seed("hsalsa20_asXSalsa20Subkey_givesTheSameKeyStream");
    Random rnd = new Random(seed);
    for (int i = 0; i < 100; i++) {
      byte[] key = bytes(rnd, 32);
      byte[] nonce = bytes(rnd, 24);
      byte[] in = new byte[16];
      System.arraycopy(nonce, 0, in, 0, 16);
      byte[] tail = new byte[8];
      System.arraycopy(nonce, 16, tail, 0, 8);

      XSalsa20Engine x = new XSalsa20Engine();
      x.init(true, new ParametersWithIV(new KeyParameter(key), nonce));
      Salsa20Engine s = new Salsa20Engine();
      s.init(true, new ParametersWithIV(new KeyParameter(CurveCrypto.hsalsa20(key, in)), tail));
      byte[] a = new byte[64];
      byte[] b = new byte[64];
      x.processBytes(a, 0, 64, a, 0);
      s.processBytes(b, 0, 64, b, 0);
      assertThat(b).as("seed %d, round %d", seed, i).isEqualTo(a);
    }
  }

  @Test
  void publicKey_ofJeromqKeyPairs_matchesJeromq() {
    Curve jeromq = new Curve();
    for (int i = 0; i < 50; i++) {
      byte[][] pair = jeromq.keypair();
      assertThat(CurveCrypto.publicKey(pair[1])).isEqualTo(pair[0]);
    }
  }

  @Test
  void seal_randomInputs_matchesJeromqBoxAndOpens() {
    long seed = Seeded.seed("seal_randomInputs_matchesJeromqBoxAndOpens");
    Random rnd = new Random(seed);
    Curve jeromq = new Curve();
    for (int i = 0; i < 200; i++) {
      byte[][] alice = CurveCrypto.keyPair(Seeded.random(rnd.nextLong()));
      byte[][] bob = jeromq.keypair();
      byte[] nonce = bytes(rnd, 24);
      byte[] m = bytes(rnd, rnd.nextInt(300));

      // NaCl's form: 32 zero bytes before the plaintext, 16 zero bytes before the tag
      byte[] padded = new byte[32 + m.length];
      System.arraycopy(m, 0, padded, 32, m.length);
      byte[] c = new byte[padded.length];
      assertThat(jeromq.box(c, padded, padded.length, nonce, bob[0], alice[1])).isZero();
      byte[] expected = java.util.Arrays.copyOfRange(c, 16, c.length);

      byte[] key = CurveCrypto.beforenm(bob[0], alice[1]);
      byte[] sealed = CurveCrypto.seal(key, nonce, m, 0, m.length);
      assertThat(sealed).as("seed %d, round %d", seed, i).isEqualTo(expected);

      byte[] other = CurveCrypto.beforenm(alice[0], bob[1]);
      assertThat(CurveCrypto.open(other, nonce, sealed, 0, sealed.length)).isEqualTo(m);
    }
  }

  @Test
  void open_anyBitFlipped_refused() {
    long seed = Seeded.seed("open_anyBitFlipped_refused");
    Random rnd = new Random(seed);
    byte[] key = bytes(rnd, 32);
    byte[] nonce = bytes(rnd, 24);
    byte[] m = bytes(rnd, 40);
    byte[] sealed = CurveCrypto.seal(key, nonce, m, 0, m.length);
    for (int bit = 0; bit < sealed.length * 8; bit++) {
      byte[] bad = sealed.clone();
      bad[bit / 8] ^= (byte) (1 << (bit % 8));
      assertThat(CurveCrypto.open(key, nonce, bad, 0, bad.length)).as("bit %d", bit).isNull();
    }
    assertThat(CurveCrypto.open(key, nonce, sealed, 0, 15)).isNull();
  }

  @Test
  void beforenm_smallOrderPeerKey_refused() {
    byte[][] own = CurveCrypto.keyPair(Seeded.random(1));
    assertThat(CurveCrypto.beforenm(new byte[32], own[1])).isNull();
  }

  private static byte[] bytes(Random rnd, int n) {
    byte[] b = new byte[n];
    rnd.nextBytes(b);
    return b;
  }
}
