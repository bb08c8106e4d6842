package io.fluxdrm.dvm.core;

import static io.fluxdrm.dvm.core.DvmHarness.info;
import static io.fluxdrm.dvm.core.DvmHarness.sleep;
import static io.fluxdrm.dvm.core.DvmHarness.tool;
import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.AllocInheritance;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.testkit.InvariantsExtension;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The node-reservation guarantees of PRRTE node-reservation spec, one test each (id in the name),
 * shown in elastic mode, where reservations now grow and shrink through campaigns: the elastic
 * invariants hold after every step besides issue 13's.
 */
class ReservationGuaranteesTest {
  @RegisterExtension final InvariantsExtension inv = new InvariantsExtension();

  final DvmHarness h =
      new DvmHarness(
          DvmConfig.of(List.of(new DvmConfig.NodeSpec("node1", 2)), "prte-dvm", 1000)
              .withElastic(true),
          inv);
  final Client t = tool("tool-a", 1000);

  static Info nodes(String list) {
    return Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, list);
  }

  /** A reservation of node2:2 for {@link #t}; its ALLOC_ID. */
  String reserve(Info... more) {
    Info[] infos = new Info[more.length + 2];
    infos[0] = nodes("node2:2");
    infos[1] = Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "r");
    System.arraycopy(more, 0, infos, 2, more.length);
    StatusInfos a = h.alloc(t, AllocDirective.NEW, infos).orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    return info(a, PmixKey.PMIX_ALLOC_ID).orElseThrow().stringValue();
  }

  @Test
  void g8_1_aJobsCandidateNodesAreItsSessionsNeverAnotherOwnersReservedNode() {
    String id = reserve();
    StatusInfos other = h.spawn(tool("prun", 2000), List.of(sleep(3))).orElseThrow();
    assertThat(other.status()).isEqualTo(PmixStatus.PMIX_ERR_OUT_OF_RESOURCE);
    StatusInfos mine =
        h.spawn(t, List.of(sleep(2)), Info.of(PmixKey.PMIX_SPAWN_TARGET, id)).orElseThrow();
    assertThat(mine.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(h.decisions(DvmDecision.LaunchJob.class))
        .singleElement()
        .satisfies(
            l ->
                assertThat(l.procs())
                    .extracting(DvmDecision.Placement::host)
                    .containsOnly("node2"));
  }

  @Test
  void g8_2_reservationsComeOnlyFromARequesterAttributeOrTheScheduler() {
    h.spawn(t, List.of(sleep(1)));
    assertThat(h.core.view().sessions()).isEmpty();
    reserve();
    assertThat(h.core.view().sessions()).singleElement();
  }

  @Test
  void g8_3_aRejectionHasNoPartialEffect() {
    reserve();
    String before = DvmHarness.snapshot(h.core.view());
    StatusInfos a = h.alloc(t, AllocDirective.RELEASE, nodes("node2,nowhere")).orElseThrow();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_ERR_NOT_FOUND);
    assertThat(DvmHarness.snapshot(h.core.view())).isEqualTo(before);
    assertThat(h.core.view().elastic().campaigns()).isEmpty();
  }

  @Test
  void g8_4_aReservationEndsOnlyOnAnUnconditionalTriggerNotWhenItsJobsEnd() {
    String id = reserve();
    StatusInfos s =
        h.spawn(t, List.of(sleep(1)), Info.of(PmixKey.PMIX_SPAWN_TARGET, id)).orElseThrow();
    h.exitAll(info(s, PmixKey.PMIX_NSPACE).orElseThrow().stringValue(), 0);
    assertThat(h.core.view().sessions()).singleElement();
    h.alloc(t, AllocDirective.RELEASE, Info.of(PmixKey.PMIX_ALLOC_ID, id));
    assertThat(h.core.view().sessions()).isEmpty();
  }

  @Test
  void g8_5_defaultInheritanceOnlyUnreservesNothingLeaves() {
    reserve();
    int stops = h.decisions(DvmDecision.StopDaemon.class).size();
    h.event(new DvmEvent.ClientGone(t.proc()));
    assertThat(h.core.view().pool()).contains("node2");
    assertThat(h.decisions(DvmDecision.StopDaemon.class)).hasSize(stops);
    assertThat(h.core.view().elastic().campaigns()).isEmpty();
  }

  @Test
  void g8_5_inheritanceNoneHandsTheNodesBackThroughARequesterlessShrink() {
    h.registerAll(t);
    reserve(Info.of(PmixKey.PMIX_ALLOC_INHERITANCE, AllocInheritance.NONE));
    int events = h.decisions(DvmDecision.Notify.class).size();
    h.autoDaemons = false;
    h.event(new DvmEvent.ClientGone(t.proc()));
    assertThat(h.core.view().node("node2")).isEmpty();
    assertThat(h.core.view().elastic().campaigns())
        .singleElement()
        .satisfies(c -> assertThat(c.requesters()).isZero());
    h.event(new DvmEvent.DaemonLeft("node2"));
    assertThat(h.core.view().elastic().fence()).isZero();
    assertThat(h.decisions(DvmDecision.Notify.class)).hasSize(events);
  }

  @Test
  void g8_6_aTimeoutWarningGoesOnlyToTheRequesterAndChangesNothing() {
    Client sched = DvmHarness.schedulerClient();
    h.event(new DvmEvent.SchedulerAttached(sched));
    long ref = h.registerAll(t);
    h.registerAll(tool("other", 1000));
    h.sessionControl(
        sched,
        "node1",
        7,
        Info.of(PmixKey.PMIX_SESSION_INSTANTIATE, true),
        Info.of(PmixKey.PMIX_ALLOC_ID, "s7"),
        nodes("node5"),
        Info.of(PmixKey.PMIX_REQUESTOR, t.proc()));
    int before = h.decisions(DvmDecision.Notify.class).size();
    String snap = DvmHarness.snapshot(h.core.view());
    h.event(
        new DvmEvent.SchedulerEvent(
            PmixStatus.PMIX_ALLOC_TIMEOUT_WARNING.code(),
            List.of(
                Info.of(PmixKey.PMIX_ALLOC_ID, "s7"), Info.of(PmixKey.PMIX_TIME_REMAINING, 30L))));
    List<DvmDecision.Notify> ns = h.decisions(DvmDecision.Notify.class);
    assertThat(ns).hasSize(before + 1);
    assertThat(ns.get(ns.size() - 1).handlers()).containsExactly(ref);
    assertThat(DvmHarness.snapshot(h.core.view())).isEqualTo(snap);
  }

  @Test
  void g8_7_withoutAnInheritanceGivenEveryReservationUsesDefault() {
    String id = reserve();
    assertThat(h.core.view().session(Long.parseLong(id)).orElseThrow().inheritance())
        .isEqualTo(AllocInheritance.DEFAULT);
    App onNode2 = new App("/bin/hostname", List.of("hostname"), 1, List.of());
    h.event(new DvmEvent.ClientGone(t.proc()));
    assertThat(h.spawn(tool("prun", 2000), List.of(onNode2)).orElseThrow().status())
        .isEqualTo(PmixStatus.PMIX_SUCCESS);
  }
}
