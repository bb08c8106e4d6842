package io.fluxdrm.rpc.zmtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The NULL mechanism's handshake (RFC 37 "The NULL Security Mechanism"). */
class NullMechanismTest {
  private static final HexFormat HEX = HexFormat.of();

  private static byte[] ready(String type, String identity) {
    Map<String, byte[]> md = new LinkedHashMap<>();
    md.put("Socket-Type", type.getBytes(StandardCharsets.US_ASCII));
    md.put("Identity", identity.getBytes(StandardCharsets.US_ASCII));
    return Command.of("READY", Metadata.encode(md));
  }

  @Test
  void start_dealerWithIdentity_oneReadyWithSocketTypeAndIdentity() {
    NullMechanism m = new NullMechanism(SocketType.DEALER, "ab".getBytes(StandardCharsets.UTF_8));
    assertThat(m.name()).isEqualTo("NULL");
    assertThat(m.asServer()).isFalse();
    assertThat(m.start()).hasSize(1);
    assertThat(HEX.formatHex(m.start().get(0)))
        .isEqualTo(
            "055245414459"
                + "0b536f636b65742d54797065000000064445414c4552"
                + "084964656e74697479000000026162");
    assertThat(m.done()).isFalse();
    assertThat(m.peerMetadata()).isEmpty();
  }

  @Test
  void onHandshakeCommand_peerReady_doneWithItsMetadata() throws Exception {
    NullMechanism m = new NullMechanism(SocketType.ROUTER, new byte[0]);
    assertThat(m.onHandshakeCommand(ready("DEALER", "client-1"))).isEmpty();
    assertThat(m.done()).isTrue();
    assertThat(new String(Metadata.get(m.peerMetadata(), "identity"), StandardCharsets.US_ASCII))
        .isEqualTo("client-1");
    assertThat(m.peerKey()).isNull();
    Frame f = Frame.part(new byte[] {1}, true);
    assertThat(m.encode(f)).isSameAs(f);
    assertThat(m.decode(f)).isSameAs(f);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "05484f4c4c4f | NULL handshake: command HOLLO (expected: READY)",
        "054552524f52116e6f7420666f7220796f752c20736f7272 | peer refused the handshake: not"
            + " for you, sorr",
        "054552524f5205 | ERROR: reason of 5 bytes runs past the command (expected: within it)",
        "05524541445900 | metadata: property 0: empty name",
      })
  void onHandshakeCommand_unexpectedErrorOrMalformed_refused(String hex, String why) {
    NullMechanism m = new NullMechanism(SocketType.DEALER, new byte[0]);
    assertThatThrownBy(() -> m.onHandshakeCommand(HEX.parseHex(hex)))
        .isInstanceOf(ZmtpException.class)
        .hasMessage(why);
    assertThat(m.done()).isFalse();
  }

  @Test
  void onHandshakeCommand_secondReady_refused() throws Exception {
    NullMechanism m = new NullMechanism(SocketType.DEALER, new byte[0]);
    m.onHandshakeCommand(ready("ROUTER", ""));
    assertThatThrownBy(() -> m.onHandshakeCommand(ready("ROUTER", "")))
        .isInstanceOf(ZmtpException.class)
        .hasMessage("NULL handshake: a second READY (expected: one)");
  }

  @ParameterizedTest(name = "{0} talks to {1}: {2}")
  @CsvSource({
    "ROUTER, DEALER, true",
    "ROUTER, REQ, true",
    "ROUTER, ROUTER, true",
    "ROUTER, REP, false",
    "ROUTER, PUB, false",
    "DEALER, ROUTER, true",
    "DEALER, REP, true",
    "DEALER, DEALER, true",
    "DEALER, REQ, false",
    "DEALER, SUB, false",
  })
  void checkPeer_socketTypes_compatibleOnesOnly(SocketType self, String peer, boolean ok) {
    byte[] p = peer.getBytes(StandardCharsets.US_ASCII);
    if (ok) {
      org.assertj.core.api.Assertions.assertThatCode(() -> self.checkPeer(p))
          .doesNotThrowAnyException();
    } else {
      assertThatThrownBy(() -> self.checkPeer(p))
          .isInstanceOf(ZmtpException.class)
          .hasMessageStartingWith("socket type " + peer + " cannot talk to a " + self);
    }
  }

  @Test
  void checkPeer_missingSocketType_refused() {
    assertThatThrownBy(() -> SocketType.ROUTER.checkPeer(null))
        .isInstanceOf(ZmtpException.class)
        .hasMessage("READY: no Socket-Type property (expected: one of DEALER, REQ, ROUTER)");
  }
}
