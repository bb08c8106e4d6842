package io.fluxdrm.pmix.port;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fluxdrm.pmix.PmixException;
import io.fluxdrm.pmix.PmixProc;
import org.junit.jupiter.api.Test;

class ClientTest {
  static final PmixProc P = new PmixProc("sessionctrl", 0);

  @Test
  void aClientCarriesItsIdentityAndKind() {
    Client c = new Client(P, 1000, 100, Client.Kind.TOOL);
    assertThat(c.proc()).isEqualTo(P);
    assertThat(c.uid()).isEqualTo(1000);
    assertThat(c.kind()).isEqualTo(Client.Kind.TOOL);
    assertThat(new Client(P, 0xFFFF_FFFFL, 0, Client.Kind.SCHEDULER).uid()).isEqualTo(4294967295L);
  }

  @Test
  void aClientRefusesIdsOutOfRangeAndNulls() {
    assertThatThrownBy(() -> new Client(P, -1, 0, Client.Kind.TOOL))
        .isInstanceOf(PmixException.class)
        .hasMessage("client: uid -1 (expected: 0 to 4294967295)");
    assertThatThrownBy(() -> new Client(P, 0, 1L << 32, Client.Kind.TOOL))
        .hasMessage("client: gid 4294967296 (expected: 0 to 4294967295)");
    assertThatThrownBy(() -> new Client(null, 0, 0, Client.Kind.TOOL))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("proc");
    assertThatThrownBy(() -> new Client(P, 0, 0, null)).hasMessage("kind");
  }
}
