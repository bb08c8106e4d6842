package io.fluxdrm.rpc.hub;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.curve.CurveKeyPair;
import io.fluxdrm.rpc.curve.Z85;
import io.fluxdrm.rpc.reactor.MemoryBudget;
import io.fluxdrm.rpc.zmtp.Seeded;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 31, scope 5: the ZeroMQ listener's admission policy without a socket: the connection cap,
 * the allowed CURVE keys and their credentials, the reserved identity byte, the cap per key and the
 * memory budgets per key.
 */
class ZmqAdmissionTest {
  private static final Credentials ALICE = Credentials.user(1001);
  private static final Credentials BOB = Credentials.owner(1002);

  private CurveKeyPair server;
  private CurveKeyPair alice;
  private CurveKeyPair bob;
  private CurveKeyPair stranger;

  @BeforeEach
  void keys() {
    SecureRandom random = Seeded.random(Seeded.seed("ZmqAdmissionTest"));
    server = CurveKeyPair.generate(random);
    alice = CurveKeyPair.generate(random);
    bob = CurveKeyPair.generate(random);
    stranger = CurveKeyPair.generate(random);
  }

  private static ZmqHubSettings.Limits limits(int total, int perKey) {
    return new ZmqHubSettings.Limits(
        total, perKey, 1 << 20, 1 << 16, Duration.ofSeconds(10), 1 << 20);
  }

  private ZmqAdmission curve(int total, int perKey) {
    ZmqHubSettings.Curve c =
        new ZmqHubSettings.Curve(
            Z85.encode(server.publicKey()),
            Z85.encode(server.secretKey()),
            Map.of(Z85.encode(alice.publicKey()), ALICE, Z85.encode(bob.publicKey()), BOB));
    return new ZmqAdmission(ZmqHubSettings.Options.curve(c).withLimits(limits(total, perKey)));
  }

  private static ZmqAdmission.Admitted admitted(ZmqAdmission.Decision d) {
    assertThat(d).isInstanceOf(ZmqAdmission.Admitted.class);
    return (ZmqAdmission.Admitted) d;
  }

  private static String refused(ZmqAdmission.Decision d) {
    assertThat(d).isInstanceOf(ZmqAdmission.Refused.class);
    return ((ZmqAdmission.Refused) d).reason();
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  @Test
  void connectionCap_atAccept() {
    ZmqAdmission a = curve(3, 2);
    assertThat(a.roomFor(0)).isTrue();
    assertThat(a.roomFor(2)).isTrue();
    assertThat(a.roomFor(3)).isFalse();
    assertThat(a.roomFor(4)).isFalse();
  }

  @Test
  void curve_onlyMappedKeysPass_eachWithItsCredentials() {
    ZmqAdmission a = curve(10, 10);
    assertThat(a.allows(alice.publicKey())).isTrue();
    assertThat(a.allows(bob.publicKey())).isTrue();
    assertThat(a.allows(stranger.publicKey())).isFalse();
    assertThat(a.allows(server.publicKey())).isFalse();

    ZmqAdmission.Admitted x = admitted(a.admit(alice.publicKey(), ascii("x"), 1));
    assertThat(x.credentials()).isEqualTo(ALICE);
    assertThat(x.key()).isEqualTo(Z85.encode(alice.publicKey()));
    assertThat(x.client()).isEqualTo(x.key());
    ZmqAdmission.Admitted y = admitted(a.admit(bob.publicKey(), null, 2));
    assertThat(y.credentials()).isEqualTo(BOB);
    assertThat(refused(a.admit(stranger.publicKey(), null, 3)))
        .isEqualTo("no credentials for the peer");
    assertThat(refused(a.admit(null, null, 4))).isEqualTo("no credentials for the peer");
  }

  @Test
  void identityWithTheReservedByte_refused_beforeItCounts() {
    ZmqAdmission a = curve(10, 10);
    assertThat(refused(a.admit(alice.publicKey(), new byte[] {0, 'a'}, 1)))
        .isEqualTo(
            "identity starts with the reserved byte 0x00 (expected: a client's identity starts"
                + " with another byte)");
    assertThat(a.open(Z85.encode(alice.publicKey()))).isZero();
    admitted(a.admit(alice.publicKey(), new byte[0], 2));
    admitted(a.admit(alice.publicKey(), new byte[] {1, 0}, 3));
  }

  @Test
  void capPerKey_refusesTheNextUntilOneIsReleased() {
    ZmqAdmission a = curve(10, 2);
    String key = admitted(a.admit(alice.publicKey(), null, 1)).key();
    admitted(a.admit(alice.publicKey(), null, 2));
    assertThat(refused(a.admit(alice.publicKey(), null, 3)))
        .isEqualTo("2 connections of key " + key + " open, the limit");
    admitted(a.admit(bob.publicKey(), null, 4)); // another key has its own count
    a.release(key);
    assertThat(a.open(key)).isEqualTo(1);
    admitted(a.admit(alice.publicKey(), null, 5));
    assertThat(a.open(key)).isEqualTo(2);
  }

  @Test
  void withoutCurve_everyConnectionIsAKeyOfItsOwn_withTheLoopbackCredentials() {
    ZmqAdmission a =
        new ZmqAdmission(ZmqHubSettings.Options.loopbackGuests().withLimits(limits(10, 1)));
    assertThat(a.allows(alice.publicKey())).isFalse();
    ZmqAdmission.Admitted one = admitted(a.admit(null, ascii("same"), 1));
    ZmqAdmission.Admitted two = admitted(a.admit(null, ascii("same"), 2));
    assertThat(one.credentials()).isEqualTo(Credentials.unknownGuest());
    assertThat(one.key()).isEqualTo("connection 1");
    assertThat(two.key()).isEqualTo("connection 2");
    assertThat(one.client()).isEmpty();
  }

  @Test
  void memory_sharedByAKeysConnections_forgottenOnceTheKeyIsGone() {
    ZmqAdmission a = curve(10, 10);
    assertThat(a.handshakeBudgets()).hasSize(1);
    MemoryBudget listener = a.handshakeBudgets().get(0);
    ZmqAdmission.Admitted x = admitted(a.admit(alice.publicKey(), null, 1));
    ZmqAdmission.Admitted y = admitted(a.admit(alice.publicKey(), null, 2));
    assertThat(x.budgets()).hasSize(2).startsWith(listener);
    MemoryBudget own = x.budgets().get(1);
    assertThat(y.budgets().get(1)).isSameAs(own);
    assertThat(own.limit()).isEqualTo(1 << 16);
    assertThat(own.reserve(1000)).isTrue();
    assertThat(listener.reserve(1000)).isTrue();
    assertThat(a.frameMemoryOf(x.key())).isEqualTo(1000);
    assertThat(a.frameMemory()).isEqualTo(1000);
    a.release(x.key());
    a.release(y.key());
    assertThat(a.frameMemoryOf(x.key())).as("kept while it holds memory").isEqualTo(1000);
    own.release(1000);
    admitted(a.admit(alice.publicKey(), null, 3));
    a.release(x.key());
    assertThat(a.frameMemoryOf(x.key())).isZero();
    assertThat(admitted(a.admit(alice.publicKey(), null, 4)).budgets().get(1))
        .as("a fresh budget once the key was gone")
        .isNotSameAs(own);
  }
}
