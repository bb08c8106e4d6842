package io.fluxdrm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fluxdrm.rpc.Credentials;
import org.junit.jupiter.api.Test;

/** The one rule of {@code --tcp-loopback-role} for every listening command (D330). */
class LoopbackRoleTest {
  private static final String TCP = "tcp://127.0.0.1:0";

  @Test
  void tcpWithoutCurve_peersAreGuestsByDefault() {
    Credentials c = LoopbackRole.credentials(null, TCP, false, 1000);
    assertThat(c).isEqualTo(Credentials.unknownGuest());
    assertThat(c.isOwner()).isFalse();
  }

  @Test
  void ownerOnlyWhenAskedFor() {
    assertThat(LoopbackRole.credentials("owner", TCP, false, 1000))
        .isEqualTo(Credentials.owner(1000));
    assertThat(LoopbackRole.credentials("guest", TCP, false, 1000))
        .isEqualTo(Credentials.unknownGuest());
  }

  @Test
  void listenersThatIdentifyTheirPeers_needNoCredentials() {
    assertThat(LoopbackRole.credentials(null, "unix:/tmp/x", false, 1000)).isNull();
    assertThat(LoopbackRole.credentials(null, TCP, true, 1000)).isNull();
  }

  @Test
  void optionWhereItMeansNothing_isRefused() {
    assertThatThrownBy(() -> LoopbackRole.credentials("owner", "unix:/tmp/x", false, 1000))
        .isInstanceOf(CliError.class)
        .hasMessageContaining("a Unix-socket hub knows each peer's uid");
    assertThatThrownBy(() -> LoopbackRole.credentials("owner", TCP, true, 1000))
        .isInstanceOf(CliError.class)
        .hasMessageContaining("the clients file gives each key its role");
    assertThatThrownBy(() -> LoopbackRole.credentials("admin", TCP, false, 1000))
        .isInstanceOf(CliError.class)
        .hasMessageContaining("(expected: guest or owner)");
  }
}
