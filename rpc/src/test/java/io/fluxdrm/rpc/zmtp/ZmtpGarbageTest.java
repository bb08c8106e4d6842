package io.fluxdrm.rpc.zmtp;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.curve.CurveClient;
import io.fluxdrm.rpc.curve.CurveKeyPair;
import io.fluxdrm.rpc.curve.CurveServer;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Seeded random bytes thrown at every parser of the package: each either parses or refuses with a
 * {@link ZmtpException}, never another exception.
 */
class ZmtpGarbageTest {
  /** A parser under test. */
  private interface Parser {
    void parse(byte[] b) throws ZmtpException;
  }

  private static int refusals(String what, Parser p, long seed) {
    Random rnd = new Random(seed);
    int refused = 0;
    for (int round = 0; round < 3_000; round++) {
      byte[] b = new byte[rnd.nextInt(80)];
      rnd.nextBytes(b);
      if (b.length > 0 && rnd.nextBoolean()) {
        // a plausible name length makes the parsers go further
        b[0] = (byte) rnd.nextInt(Math.min(8, b.length));
      }
      try {
        p.parse(b);
      } catch (ZmtpException e) {
        refused++;
      } catch (RuntimeException e) {
        throw new AssertionError(what + ": seed " + seed + " round " + round + ": " + e, e);
      }
    }
    return refused;
  }

  @Test
  void parsers_seededRandomBytes_onlyZmtpExceptions() {
    long seed = System.nanoTime();
    System.out.println("ZmtpGarbageTest seed " + seed);
    assertThat(refusals("metadata", b -> Metadata.decode(b, 0, b.length), seed)).isPositive();
    assertThat(refusals("command name", Command::name, seed)).isPositive();
    assertThat(
            refusals(
                "error reason",
                b -> {
                  Command.name(b);
                  Command.errorReason(b);
                },
                seed))
        .isPositive();
    assertThat(refusals("ping", Ping::parse, seed)).isPositive();
    assertThat(
            refusals(
                "null handshake",
                b -> new NullMechanism(SocketType.ROUTER, new byte[0]).onHandshakeCommand(b),
                seed))
        .isPositive();
    assertThat(
            refusals(
                "greeting",
                b -> {
                  byte[] g = Greeting.encode("NULL", false);
                  System.arraycopy(b, 0, g, 0, Math.min(b.length, 64));
                  Greeting.parse(g);
                },
                seed))
        .isPositive();
  }

  @Test
  void curveMechanisms_seededRandomCommandsAndFrames_onlyZmtpExceptions() throws Exception {
    long seed = System.nanoTime();
    System.out.println("ZmtpGarbageTest curve seed " + seed);
    java.security.SecureRandom random = Seeded.random(seed);
    CurveKeyPair serverKeys = CurveKeyPair.generate(random);
    CurveKeyPair clientKeys = CurveKeyPair.generate(random);
    java.util.Map<String, byte[]> md =
        java.util.Map.of("Socket-Type", SocketType.DEALER.property());
    assertThat(
            refusals(
                "curve server handshake",
                b -> new CurveServer(serverKeys, k -> true, md, random).onHandshakeCommand(b),
                seed))
        .isPositive();
    assertThat(
            refusals(
                "curve client handshake",
                b -> {
                  CurveClient c = new CurveClient(serverKeys.publicKey(), clientKeys, md, random);
                  c.start();
                  c.onHandshakeCommand(b);
                },
                seed))
        .isPositive();
    CurveClient client = new CurveClient(serverKeys.publicKey(), clientKeys, md, random);
    CurveServer server = new CurveServer(serverKeys, k -> true, md, random);
    byte[] welcome = server.onHandshakeCommand(client.start().get(0)).get(0);
    byte[] ready = server.onHandshakeCommand(client.onHandshakeCommand(welcome).get(0)).get(0);
    client.onHandshakeCommand(ready);
    assertThat(client.done() && server.done()).isTrue();
    for (Mechanism m : java.util.List.of(client, server)) {
      assertThat(
              refusals(
                  "curve decode",
                  b -> {
                    m.decode(Frame.part(b, false));
                    m.decode(Frame.command(b));
                  },
                  seed))
          .isPositive();
    }
  }
}
