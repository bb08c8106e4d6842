package io.fluxdrm.pmix.nativ;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixDataType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** PRRTE's answer to {@code PMIX_QUERY_ALLOCATION}, as the agent reads it and passes it on. */
class DvmPoolTest {
  private static Info node(String host, boolean topology) {
    List<Info> f =
        topology
            ? List.of(
                new Info(NativeKeys.HOSTNAME, PmixDataType.PMIX_STRING, host),
                new Info("pmix.num.slots", PmixDataType.PMIX_UINT32, 2L),
                new Info(NativeKeys.TOPOLOGY_INDEX, PmixDataType.PMIX_INT, 0))
            : List.of(
                new Info(NativeKeys.HOSTNAME, PmixDataType.PMIX_STRING, host),
                new Info("pmix.num.slots", PmixDataType.PMIX_UINT32, 2L));
    return new Info(NativeKeys.NODE_INFO, PmixDataType.PMIX_DATA_ARRAY, f);
  }

  @Test
  void aNodeHasADaemonOnceItsTopologyIsKnown_inPrrtesOrder() {
    List<Info> answer =
        List.of(
            new Info(
                NativeKeys.QUERY_ALLOCATION,
                PmixDataType.PMIX_DATA_ARRAY,
                List.of(node("vm", true), node("node1", false), node("node2", true))),
            new Info("pmix.hwlocxml2", PmixDataType.PMIX_STRING, "<topology/>"));
    Map<String, Boolean> pool = DvmPool.of(answer);
    assertThat(pool)
        .containsExactly(
            Map.entry("vm", true), Map.entry("node1", false), Map.entry("node2", true));
    assertThat(DvmPool.line(pool)).isEqualTo("vm:1,node1:0,node2:1");
    assertThat(DvmPool.parse(DvmPool.line(pool))).isEqualTo(pool);
  }

  @Test
  void noAllocationInTheAnswer_emptyPool_andMalformedLineEntriesLeftOut() {
    assertThat(DvmPool.of(List.of())).isEmpty();
    assertThat(DvmPool.line(Map.of())).isEqualTo("-");
    assertThat(DvmPool.parse("-")).isEmpty();
    assertThat(DvmPool.parse("vm:1,bad,:1,node3:7,node4:0"))
        .containsExactly(Map.entry("vm", true), Map.entry("node4", false));
  }
}
