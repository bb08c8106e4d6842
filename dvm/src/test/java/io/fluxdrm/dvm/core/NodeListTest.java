package io.fluxdrm.dvm.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fluxdrm.pmix.PmixStatus;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Chars;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

/** PRRTE's --host syntax as the DVM reads node lists (D352). */
class NodeListTest {

  @Test
  void namesSlotsAndHostlistsAreRead() {
    assertThat(NodeList.parse("L", "node3:2,node4:2", true))
        .containsExactly(
            new NodeList.Entry("node3", Optional.of(2)),
            new NodeList.Entry("node4", Optional.of(2)));
    assertThat(NodeList.parse("L", "n[1-3]:4", true))
        .extracting(NodeList.Entry::host)
        .containsExactly("n1", "n2", "n3");
    assertThat(NodeList.parse("L", "n[1,3],n5", true))
        .extracting(NodeList.Entry::host)
        .containsExactly("n1", "n3", "n5");
    assertThat(NodeList.parse("L", "a", true))
        .containsExactly(new NodeList.Entry("a", Optional.empty()));
    // a host named twice: the later slots win
    assertThat(NodeList.parse("L", "a:1,a:3", true))
        .containsExactly(new NodeList.Entry("a", Optional.of(3)));
  }

  @Test
  void badListsAreBadParamsNamingTheEntry() {
    for (String bad :
        List.of(
            "",
            " ",
            ":1",
            "[]",
            "a,,b",
            "a:",
            "a:0",
            "a:x",
            "a:-1",
            "n[1-",
            "+all",
            "a=b",
            "a:1234567")) {
      assertThatThrownBy(() -> NodeList.parse("PMIX_ALLOC_NODE_LIST", bad, true))
          .as(bad)
          .isInstanceOf(Refused.class)
          .satisfies(
              e -> assertThat(((Refused) e).status()).isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM))
          .hasMessageStartingWith("PMIX_ALLOC_NODE_LIST");
    }
    assertThatThrownBy(() -> NodeList.parse("PMIX_HOST", "a:4", false))
        .hasMessageContaining("a slot count is not accepted here");
    assertThatThrownBy(() -> NodeList.parse("L", "n[1-5000]", true))
        .hasMessageContaining("more than 4096 hosts");
  }

  @Property(tries = 500)
  void anyTextParsesOrIsRefusedNeverThrowsOtherwise(
      @ForAll
          @StringLength(max = 24)
          @Chars({'a', 'n', '1', '9', '0', ':', ',', '[', ']', '-', '+', '=', ' '})
          String text) {
    try {
      List<NodeList.Entry> l = NodeList.parse("L", text, true);
      assertThat(l).isNotEmpty().allMatch(e -> !e.host().isEmpty());
    } catch (Refused e) {
      assertThat(e.status()).isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM);
    }
  }
}
