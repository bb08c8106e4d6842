package io.fluxdrm.dvm.core;

import static io.fluxdrm.dvm.core.DvmHarness.sleep;
import static io.fluxdrm.dvm.core.DvmHarness.tool;
import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.testkit.InvariantsExtension;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Scenario D21 of docs/scenarios.md: with elastic mode off nothing of PRRTE's elastic-DVM spec
 * happens (§1).
 */
class ElasticModeOffTest {
  @RegisterExtension final InvariantsExtension inv = new InvariantsExtension();

  final DvmHarness h =
      new DvmHarness(
          DvmConfig.of(List.of(new DvmConfig.NodeSpec("node1", 2)), "prte-dvm", 1000), inv);
  final Client t = tool("tool-a", 1000);

  @Test
  void d21_withElasticModeOffAGrowIsAnsweredAndLaunchedWithoutAnEvent() {
    assertThat(h.core.config().elastic()).isFalse();
    h.registerAll(t);
    assertThat(
            h.alloc(
                    t,
                    AllocDirective.NEW,
                    Info.of(PmixKey.PMIX_ALLOC_SHARE, true),
                    Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "node2"),
                    Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "g"))
                .orElseThrow()
                .status())
        .isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(h.core.view().node("node2").orElseThrow().daemon()).isEqualTo(DaemonState.UP);
    h.spawn(t, List.of(sleep(1)));
    assertThat(h.decisions(DvmDecision.Notify.class)).isEmpty();
    assertThat(h.decisions(DvmDecision.MapComplete.class)).isEmpty();
    assertThat(h.decisions(DvmDecision.LaunchJob.class)).hasSize(1);
    assertThat(h.core.view().elastic())
        .isEqualTo(new DvmView.ElasticView(0, List.of(), List.of(), List.of(), 0));
  }

  @Test
  void d20_withElasticModeOffAStopNotSentKeepsTheNodeAndRaisesNoEvent() {
    h.registerAll(t);
    h.alloc(
        t,
        AllocDirective.NEW,
        Info.of(PmixKey.PMIX_ALLOC_SHARE, true),
        Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "node2"));
    h.unsendableStops.add("node2");
    assertThat(
            h.alloc(t, AllocDirective.RELEASE, Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "node2"))
                .orElseThrow()
                .status())
        .isEqualTo(PmixStatus.PMIX_SUCCESS);
    // fire and forget (PRRTE elastic-DVM spec, prte_elastic_mode): the daemon never got the stop,
    // so node2 stays, no event
    assertThat(h.core.view().node("node2").orElseThrow().daemon()).isEqualTo(DaemonState.UP);
    assertThat(h.core.view().pool()).containsExactly("node1", "node2");
    assertThat(h.decisions(DvmDecision.Notify.class)).isEmpty();
    h.spawn(t, List.of(sleep(3)));
    assertThat(h.decisions(DvmDecision.LaunchJob.class))
        .singleElement()
        .satisfies(
            l -> assertThat(l.procs()).extracting(DvmDecision.Placement::host).contains("node2"));
  }
}
