package io.fluxdrm.pmix.nativ;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixDataType;
import io.fluxdrm.pmix.PmixKey;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * PRRTE's proc table of its daemons ({@code PMIX_QUERY_PROC_TABLE}), as the binding reads it and
 * the agent passes it on: where a daemon runs.
 */
class DvmPoolTest {
  private static Info daemon(long rank, String host, int state) {
    return new Info(
        NativeKeys.PROC_INFO,
        PmixDataType.PMIX_DATA_ARRAY,
        List.of(
            new Info(PmixKey.PMIX_NSPACE, PmixDataType.PMIX_STRING, "prte-vm-7@0"),
            new Info(PmixKey.PMIX_RANK, PmixDataType.PMIX_PROC_RANK, rank),
            new Info(NativeKeys.HOSTNAME, PmixDataType.PMIX_STRING, host),
            new Info(NativeKeys.PROC_STATE_STATUS, PmixDataType.PMIX_UINT8, state)));
  }

  @Test
  void aHostHasADaemonWhenOneThereRuns_aLeftOrFailedOneIsNot() {
    List<Info> answer =
        List.of(
            new Info(
                NativeKeys.QUERY_PROC_TABLE,
                PmixDataType.PMIX_DATA_ARRAY,
                List.of(
                    daemon(0, "vm", DvmPool.STATE_RUNNING),
                    daemon(1, "node1", 20), // terminated: it left in a shrink
                    daemon(2, "node2", DvmPool.STATE_CONNECTED),
                    daemon(3, "node3", 51), // failed to start
                    daemon(4, "node1", DvmPool.STATE_RUNNING)))); // node1 grown again
    Map<String, Boolean> pool = DvmPool.of(answer);
    assertThat(pool)
        .containsExactly(
            Map.entry("vm", true),
            Map.entry("node1", true),
            Map.entry("node2", true),
            Map.entry("node3", false));
    assertThat(DvmPool.line(pool)).isEqualTo("vm:1,node1:1,node2:1,node3:0");
    assertThat(DvmPool.parse(DvmPool.line(pool))).isEqualTo(pool);
  }

  @Test
  void theDaemonsNamespace_isTheDvmsJobZero() {
    assertThat(DvmPool.daemonNspace("prte-vm-3603@3")).contains("prte-vm-3603@0");
    assertThat(DvmPool.daemonNspace("not-prrte")).isEmpty();
  }

  @Test
  void noProcTableInTheAnswer_emptyPool_andMalformedLineEntriesLeftOut() {
    assertThat(DvmPool.of(List.of())).isEmpty();
    assertThat(DvmPool.line(Map.of())).isEqualTo("-");
    assertThat(DvmPool.parse("-")).isEmpty();
    assertThat(DvmPool.parse("vm:1,bad,:1,node3:7,node4:0"))
        .containsExactly(Map.entry("vm", true), Map.entry("node4", false));
  }
}
