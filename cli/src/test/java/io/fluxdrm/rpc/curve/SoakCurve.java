package io.fluxdrm.rpc.curve;

import io.fluxdrm.rpc.zmtp.Frame;
import java.security.SecureRandom;

/**
 * For the hub soak (cli tests): the CURVE commands of issue 12 finding 12 that a correct client
 * never builds, made with the package's own box primitives (RFC 26).
 */
public final class SoakCurve {
  private SoakCurve() {}

  /**
   * A HELLO to {@code serverKey} (RFC 26 §HELLO: 72 zero padding bytes, the signature box of 64
   * zero bytes); {@code badPadding} sets a padding byte, otherwise the signature's last byte is 1.
   */
  public static byte[] badHello(byte[] serverKey, boolean badPadding, SecureRandom random) {
    byte[][] shortKeys = CurveCrypto.keyPair(random);
    byte[] key = CurveCrypto.beforenm(serverKey, shortKeys[1]);
    byte[] signature = new byte[64];
    if (!badPadding) {
      signature[63] = 1;
    }
    byte[] box =
        CurveCrypto.seal(key, CurveCrypto.nonce(CurveCodec.HELLO_PREFIX, 1), signature, 0, 64);
    byte[] hello = new byte[200];
    System.arraycopy(CurveMechanism.HELLO, 0, hello, 0, CurveMechanism.HELLO.length);
    hello[6] = 1;
    if (badPadding) {
      hello[8 + random.nextInt(72)] = 7;
    }
    System.arraycopy(shortKeys[0], 0, hello, 80, 32);
    CurveCrypto.putLong(hello, 112, 1);
    System.arraycopy(box, 0, hello, 120, 80);
    return hello;
  }

  /**
   * A MESSAGE sealed with {@code client}'s session key whose inner flags byte is {@code flags} (RFC
   * 26 §MESSAGE: only MORE 0x01 and COMMAND 0x02 are defined), at {@code nonce}, which must be
   * above every nonce the client used.
   */
  public static Frame reservedFlagsMessage(CurveClient client, int flags, long nonce)
      throws ReflectiveOperationException {
    java.lang.reflect.Field f = CurveCodec.class.getDeclaredField("key");
    f.setAccessible(true);
    byte[] key = (byte[]) f.get(client.codec);
    byte[] inner = {(byte) flags, 'x'};
    byte[] box =
        CurveCrypto.seal(
            key, CurveCrypto.nonce(CurveCodec.CLIENT_MESSAGE_PREFIX, nonce), inner, 0, 2);
    byte[] name = CurveCodec.command("MESSAGE");
    byte[] wire = new byte[name.length + 8 + box.length];
    System.arraycopy(name, 0, wire, 0, name.length);
    CurveCrypto.putLong(wire, name.length, nonce);
    System.arraycopy(box, 0, wire, name.length + 8, box.length);
    return Frame.part(wire, false);
  }
}
