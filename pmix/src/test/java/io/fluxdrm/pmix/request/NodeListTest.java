package io.fluxdrm.pmix.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixRegex;
import io.fluxdrm.pmix.PmixStatus;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Chars;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

/** The one PMIx node list: PRRTE's --host syntax with RFC 29 ranges (D352, D503, D544). */
class NodeListTest {
  private static final String NL = PmixKey.PMIX_ALLOC_NODE_LIST;

  private static List<NodeList.Entry> entries(String text) {
    return NodeList.parse(NL, text, true).entries();
  }

  @Test
  void namesSlotsAndHostlistsAreRead() {
    assertThat(entries("node3:2,node4:2"))
        .containsExactly(
            new NodeList.Entry("node3", Optional.of(2)),
            new NodeList.Entry("node4", Optional.of(2)));
    assertThat(entries("n[1-3]:4"))
        .extracting(NodeList.Entry::host)
        .containsExactly("n1", "n2", "n3");
    assertThat(entries("n[1,3],n5"))
        .extracting(NodeList.Entry::host)
        .containsExactly("n1", "n3", "n5");
    assertThat(entries("n[08-10]"))
        .extracting(NodeList.Entry::host)
        .containsExactly("n08", "n09", "n10");
    assertThat(entries("a")).containsExactly(new NodeList.Entry("a", Optional.empty()));
    assertThat(entries(" a , b ")).extracting(NodeList.Entry::host).containsExactly("a", "b");
  }

  @Test
  void aHostNamedTwiceIsKeptOnceWithTheLaterSlotsAndEverySuffixAsWritten() {
    NodeList l = NodeList.parse(NL, "a:1,b,a:3", true);
    assertThat(l.entries())
        .containsExactly(
            new NodeList.Entry("a", Optional.of(3)), new NodeList.Entry("b", Optional.empty()));
    assertThat(l.slotsGiven()).containsExactly(1, 3);
    assertThat(NodeList.parse(NL, "n[5-6],n5", true).hosts()).containsExactly("n5", "n6");
  }

  @Test
  void badListsAreBadParamsLocatedAtTheKey() {
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
            "n[3-1]",
            "n]",
            "n[1]x[2]",
            "+all",
            "a=b",
            "a:1234567")) {
      assertThatThrownBy(() -> NodeList.parse(NL, bad, true))
          .as(bad)
          .isInstanceOfSatisfying(
              RequestException.class,
              e -> {
                assertThat(e.status()).isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM);
                assertThat(e.key()).isEqualTo(NL);
                assertThat(e.problem()).startsWith("\"" + bad + "\": ");
              })
          .hasMessageStartingWith("PMIX_ALLOC_NODE_LIST \"" + bad + "\": ");
    }
    assertThatThrownBy(() -> NodeList.parse(NL, "n[3-", true))
        .hasMessage(
            "PMIX_ALLOC_NODE_LIST \"n[3-\": entry \"n[3-\": an unclosed '[' (expected: balanced"
                + " brackets)");
    assertThatThrownBy(() -> NodeList.parse(PmixKey.PMIX_HOST, "a:4", false))
        .hasMessage(
            "PMIX_HOST \"a:4\": entry \"a:4\" has a slot count (expected: host names only)");
    assertThatThrownBy(() -> NodeList.parse(NL, "n5:x", true))
        .isInstanceOfSatisfying(
            RequestException.class,
            e ->
                assertThat(e.labelled("pmix.alloc.nlist"))
                    .isEqualTo(
                        "pmix.alloc.nlist \"n5:x\": entry \"n5:x\": slots \"x\" (expected: an"
                            + " integer >= 1)"));
    assertThatThrownBy(() -> NodeList.parse(NL, "n5:1234567", true))
        .hasMessageEndingWith("slots \"1234567\" (expected: at most 999999)");
    assertThatThrownBy(() -> NodeList.parse(NL, "n[1-5000]", true))
        .hasMessageContaining("more than 4096 hosts");
    assertThatThrownBy(() -> NodeList.parse(NL, "n[1-3000],m[1-3000]", true))
        .hasMessageContaining("more than 4096 hosts");
  }

  @Test
  void aRegexValueIsExpandedFirstAndABadOneIsLocated() {
    Info regex =
        new Info(NL, io.fluxdrm.pmix.PmixDataType.PMIX_REGEX2, PmixRegex.raw("n1:2,n[2-3]"));
    assertThat(NodeList.parse(regex, true).text()).isEqualTo("n1:2,n[2-3]");
    Info broken =
        new Info(
            NL,
            io.fluxdrm.pmix.PmixDataType.PMIX_REGEX2,
            PmixRegex.regex2("zstd", new byte[] {1, 2, 3}));
    assertThatThrownBy(() -> NodeList.parse(broken, true))
        .isInstanceOf(RequestException.class)
        .hasMessageStartingWith("PMIX_ALLOC_NODE_LIST (PMIX_REGEX2): ");
  }

  @Property(tries = 500)
  void anyTextParsesAndWritesBackOrIsRefusedNeverThrowsOtherwise(
      @ForAll
          @StringLength(max = 24)
          @Chars({'a', 'n', '1', '9', '0', ':', ',', '[', ']', '-', '+', '=', ' '})
          String text) {
    try {
      NodeList l = NodeList.parse(NL, text, true);
      assertThat(l.entries()).isNotEmpty().allMatch(e -> !e.host().isEmpty());
      assertThat(NodeList.parse(NL, l.text(), true).entries()).isEqualTo(l.entries());
    } catch (RequestException e) {
      assertThat(e.status()).isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM);
    }
  }
}
