package io.fluxdrm.showcase.replay;

import static io.fluxdrm.showcase.replay.ElasticWorld.info;
import static io.fluxdrm.showcase.replay.ElasticWorld.nodes;
import static io.fluxdrm.showcase.replay.ElasticWorld.reqId;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.dvm.core.DvmView.JobState;
import io.fluxdrm.dvm.exec.DaemonPolicy;
import io.fluxdrm.jobmanager.JmFixture;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.SpawnResult;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14 scope 6 end to end: R deltas from the real sched-simple, through the job manager and the
 * bridge, drive the elastic reference DVM's grow and shrink campaigns. After every step the
 * three-way invariant ({@link ThreeWayInvariant}) and the chain's and the DVM's invariants hold.
 * Scenario ids are those of docs/scenarios.md.
 */
class ElasticBridgeEndToEndTest {
  @TempDir Path dir;

  private static final String READY = "PMIX_DVM_IS_READY";
  private static final String MOD = "PMIX_ERR_DVM_MOD";

  /** D2 / E7: a grant's R_delta_add grows the DVM; SUCCESS, then exactly one IS_READY. */
  @Test
  void grow_d2_grantGrowsTheDvm_successThenOneIsReadyWithAllocIdAndReqId() {
    ElasticWorld w = new ElasticWorld(dir, DaemonPolicy.immediate());
    StatusInfos a = w.ask(AllocDirective.NEW, nodes(2), reqId("g1")).join();
    w.check();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    String id = info(a, PmixKey.PMIX_ALLOC_ID);
    assertThat(info(a, PmixKey.PMIX_ALLOC_NODE_LIST)).isEqualTo("node2:4,node3:4");
    assertThat(w.timeline)
        .containsExactly(
            "answer PMIX_SUCCESS {pmix.alloc.id="
                + id
                + ",pmix.alloc.nlist=node2:4,node3:4,pmix.alloc.reqid=g1}",
            "event " + READY + " {pmix.alloc.id=" + id + ",pmix.alloc.reqid=g1}");
    // the DVM spans exactly the granted nodes, with the slots of R_lite's cores
    assertThat(w.dvmHosts()).containsExactly("node0", "node2", "node3");
    assertThat(w.dvm.view().node("node2").orElseThrow().slots()).isEqualTo(4);
    assertThat(w.dvm.view().session(Long.parseLong(id)).orElseThrow().hosts())
        .containsExactlyInAnyOrder("node2", "node3");
    assertThat(w.schedHosts()).containsExactly("node0", "node2", "node3");
    assertThat(w.dvm.view().elastic().fence()).isZero();
  }

  /** D16: a grant whose daemon fails to start: rolled back, ERR_DVM_MOD, the nodes free again. */
  @Test
  void grow_d16_daemonFailsToStart_rolledBackErrDvmModAndTheSchedulerHasTheNodesBack() {
    ElasticWorld w =
        new ElasticWorld(
            dir,
            DaemonPolicy.immediate()
                .withLatency(Duration.ZERO, Duration.ofSeconds(5))
                .failing(Set.of("node3")));
    assertThat(w.freeHosts()).containsExactly("node2", "node3");
    StatusInfos a = w.ask(AllocDirective.NEW, nodes(2), reqId("bad")).join();
    w.check();
    // node3's daemon never started: back at once; node2's is leaving: still held in the scheduler
    assertThat(w.dvm.departing()).containsExactly("node2");
    assertThat(w.freeHosts()).containsExactly("node3");
    w.advance(Duration.ofSeconds(5));
    w.check();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    String id = info(a, PmixKey.PMIX_ALLOC_ID);
    assertThat(w.timeline).hasSize(2);
    assertThat(w.timeline.get(0)).startsWith("answer PMIX_SUCCESS");
    assertThat(w.timeline.get(1))
        .isEqualTo(
            "event "
                + MOD
                + " {pmix.alloc.id="
                + id
                + ",pmix.alloc.reqid=bad,pmix.job.term.status="
                + PmixStatus.PMIX_ERR_PROC_FAILED_TO_START.code()
                + "}");
    // rolled back: the DVM is its master again, Flux holds node0 only, node2 and node3 are free
    assertThat(w.dvmHosts()).containsExactly("node0");
    assertThat(w.dvm.departing()).isEmpty();
    assertThat(w.schedHosts()).containsExactly("node0");
    assertThat(w.freeHosts()).containsExactly("node2", "node3");
    assertThat(w.c.f.jm.jobR(w.a.id).orElseThrow().summary()).isEqualTo("rank0/core[0-3]");
    assertThat(w.a.pmix.reservations()).isEmpty();
    assertThat(w.c.jmTranscript()).contains("\"final\":false");
  }

  private String grownId;

  /**
   * A world whose daemons take 5 s to leave, grown by a granted NEW of two nodes (node2, node3; its
   * PMIX_ALLOC_ID in {@link #grownId}), the timeline cleared.
   */
  private ElasticWorld grownWithSlowStops() {
    ElasticWorld w =
        new ElasticWorld(
            dir, DaemonPolicy.immediate().withLatency(Duration.ZERO, Duration.ofSeconds(5)));
    StatusInfos g = w.ask(AllocDirective.NEW, nodes(2), reqId("g")).join();
    grownId = info(g, PmixKey.PMIX_ALLOC_ID);
    w.check();
    assertThat(w.dvmHosts()).containsExactly("node0", "node2", "node3");
    w.timeline.clear();
    return w;
  }

  /**
   * B11 / E3: a RELEASE by node list is granted as R_delta_sub, the DVM's shrink campaign stops the
   * daemon, and only once it has left does the scheduler get the node back.
   */
  @Test
  void shrink_b11_releaseByNodeList_freedInTheSchedulerOnlyAfterTheDaemonLeft() {
    ElasticWorld w = grownWithSlowStops();
    String id = grownId;

    StatusInfos r =
        w.ask(AllocDirective.RELEASE, Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "node3"), reqId("r"))
            .join();
    w.check();
    assertThat(r.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(w.timeline).containsExactly("answer PMIX_SUCCESS " + ElasticWorld.infos(r.infos()));
    // the daemon is leaving: the scheduler still holds node3, nothing freed
    assertThat(w.dvm.departing()).containsExactly("node3");
    assertThat(w.bridge.departing()).containsExactly("node3");
    assertThat(w.schedHosts()).contains("node3");
    assertThat(w.freeHosts()).doesNotContain("node3");
    assertThat(w.c.jmTranscript()).doesNotContain("sched.free");
    assertThat(w.dvm.view().elastic().fence()).isEqualTo(1);

    w.advance(Duration.ofSeconds(5));
    w.check();
    assertThat(w.dvm.departing()).isEmpty();
    assertThat(w.timeline)
        .containsExactly(
            "answer PMIX_SUCCESS " + ElasticWorld.infos(r.infos()),
            "event " + READY + " {pmix.alloc.reqid=r}");
    assertThat(w.freeHosts()).containsExactly("node3");
    assertThat(w.schedHosts()).containsExactly("node0", "node2");
    assertThat(w.dvmHosts()).containsExactly("node0", "node2");
    assertThat(w.dvm.view().session(Long.parseLong(id)).orElseThrow().hosts())
        .containsExactly("node2");
    assertThat(w.c.jmTranscript()).contains("sched.free").contains("\"final\":false");
  }

  /** The messages of the job manager's transcript on {@code topic}, requests it sent, in order. */
  private static List<com.fasterxml.jackson.databind.JsonNode> sent(ElasticWorld w, String topic) {
    List<com.fasterxml.jackson.databind.JsonNode> l = new ArrayList<>();
    for (String line : w.c.jmTranscript().split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      try {
        com.fasterxml.jackson.databind.JsonNode m = Json.mapper().readTree(line);
        if (m.path("topic").asText().equals(topic)
            && m.path("type").asText().equals("request")
            && m.path("direction").asText().equals("out")) {
          l.add(m.path("payload"));
        }
      } catch (java.io.IOException e) {
        throw new AssertionError("transcript line: " + line, e);
      }
    }
    return l;
  }

  /**
   * E3 through the real components in their order: the RELEASE of node3 goes to Flux as a
   * sched.realloc whose spec_sub and R name node3; Flux's R_delta_sub makes the DVM shrink; the
   * requester's PMIX_DVM_IS_READY comes once the daemon has left, and only then does {@code
   * sched.free} leave for node3's part alone, {@code final: false}. Nothing is freed while the
   * daemon is leaving; the bridge learns it has gone from the DVM's shrink-complete hook, which
   * runs just before the event (PRRTE elastic-DVM spec, launch fence and campaigns), and the order
   * is checked where the event arrives: at that moment no sched.free has been sent.
   */
  @Test
  void e3_releaseByNodeList_schedFreeLeavesOnlyAfterDvmIsReady() {
    ElasticWorld w = grownWithSlowStops();
    List<Boolean> freeSentWhenReady = new ArrayList<>();
    w.tool.registerEvents(
        List.of(PmixStatus.PMIX_DVM_IS_READY.code()),
        e -> freeSentWhenReady.add(!sent(w, "sched.free").isEmpty()));
    w.c.f.settle();

    StatusInfos r =
        w.ask(AllocDirective.RELEASE, Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "node3"), reqId("r"))
            .join();
    w.check();
    assertThat(r.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    com.fasterxml.jackson.databind.JsonNode realloc =
        sent(w, "sched.realloc").get(sent(w, "sched.realloc").size() - 1);
    assertThat(realloc.has("spec_sub")).isTrue();
    assertThat(realloc.path("spec_sub").toString()).contains("\"hostlist\":[\"node3\"]");
    assertThat(ResourceSet.fromJson(realloc.path("R")).nodelist().expand())
        .containsExactly("node3");
    // the daemon is leaving: no event yet, nothing freed
    assertThat(w.dvm.departing()).containsExactly("node3");
    assertThat(freeSentWhenReady).isEmpty();
    assertThat(sent(w, "sched.free")).isEmpty();

    w.advance(Duration.ofSeconds(5));
    w.check();
    assertThat(w.dvm.departing()).isEmpty();
    assertThat(freeSentWhenReady)
        .as("sched.free sent when IS_READY arrived")
        .containsExactly(false);
    assertThat(sent(w, "sched.free"))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.path("final").asBoolean(true)).isFalse();
              assertThat(ResourceSet.fromJson(f.path("R")).nodelist().expand())
                  .containsExactly("node3");
            });
  }

  /**
   * B10 / E3: a RELEASE of a whole reservation by PMIX_ALLOC_ID terminates its session in the DVM;
   * on COMPLETE its nodes, their daemons still up, are shrunk out, and the scheduler gets them back
   * only once those daemons have left (D450). The requester gets SUCCESS and no DVM event.
   */
  @Test
  void shrink_b10_releaseByAllocId_freedInTheSchedulerOnlyAfterTheDaemonsLeft() {
    ElasticWorld w = grownWithSlowStops();
    String id = grownId;

    StatusInfos r = w.ask(AllocDirective.RELEASE, Info.of(PmixKey.PMIX_ALLOC_ID, id)).join();
    w.check();
    assertThat(r.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(w.dvm.view().session(Long.parseLong(id))).isEmpty();
    // the session is complete, its daemons are leaving: Flux still holds both nodes
    assertThat(w.dvm.departing()).containsExactlyInAnyOrder("node2", "node3");
    assertThat(w.bridge.departing()).containsExactlyInAnyOrder("node2", "node3");
    assertThat(w.schedHosts()).contains("node2", "node3");
    assertThat(w.freeHosts()).doesNotContain("node2", "node3");
    assertThat(w.c.jmTranscript()).doesNotContain("sched.free");

    w.advance(Duration.ofSeconds(5));
    w.check();
    assertThat(w.dvm.departing()).isEmpty();
    assertThat(w.bridge.departing()).isEmpty();
    assertThat(w.dvmHosts()).containsExactly("node0");
    assertThat(w.freeHosts()).containsExactly("node2", "node3");
    assertThat(w.schedHosts()).containsExactly("node0");
    assertThat(w.c.jmTranscript()).contains("sched.free").contains("\"final\":false");
    assertThat(w.timeline).containsExactly("answer PMIX_SUCCESS " + ElasticWorld.infos(r.infos()));
  }

  /** D13 / guarantee 7.1: a job submitted during a grow is held, then lands on the grown nodes. */
  @Test
  void grow_d13_jobSubmittedDuringTheGrow_heldThenMappedOntoTheGrownNodes() {
    ElasticWorld w =
        new ElasticWorld(
            dir, DaemonPolicy.immediate().withLatency(Duration.ofSeconds(5), Duration.ZERO));
    StatusInfos g = w.ask(AllocDirective.NEW, nodes(2), reqId("g")).join();
    w.check();
    String id = info(g, PmixKey.PMIX_ALLOC_ID);
    assertThat(w.timeline).hasSize(1); // phase one only: the daemons are starting
    assertThat(w.dvm.view().elastic().fence()).isEqualTo(2);

    CompletableFuture<SpawnResult> spawn =
        w.tool
            .spawn(
                List.of(new App("/bin/true", List.of("/bin/true"), 8, List.of())),
                List.of(Info.of(PmixKey.PMIX_ALLOC_ID, id)))
            .toCompletableFuture();
    w.check();
    assertThat(spawn).isNotDone();
    assertThat(w.dvm.view().jobs()).hasSize(1);
    assertThat(w.dvm.view().jobs().get(0).state()).isEqualTo(JobState.WAITING_FOR_DAEMONS);
    assertThat(w.dvm.view().elastic().heldAtMap()).hasSize(1);

    w.advance(Duration.ofSeconds(5));
    w.check();
    assertThat(spawn).isCompleted();
    assertThat(spawn.join().status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(w.timeline.get(1))
        .isEqualTo("event " + READY + " {pmix.alloc.id=" + id + ",pmix.alloc.reqid=g}");
    Map<String, Integer> map = w.dvm.view().jobs().get(0).procsPerNode();
    assertThat(map).containsOnlyKeys("node2", "node3");
    assertThat(map.values()).containsExactly(4, 4);
  }

  /** B19 / E4: Flux denies: the requester gets OUT_OF_RESOURCE, no event, the DVM unchanged. */
  @Test
  void grow_denied_outOfResourceNoEventDvmUnchanged() {
    ElasticWorld w = new ElasticWorld(dir, DaemonPolicy.immediate());
    StatusInfos a = w.ask(AllocDirective.NEW, nodes(4), reqId("huge")).join();
    w.check();
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_ERR_OUT_OF_RESOURCE);
    assertThat(w.timeline).hasSize(1);
    assertThat(w.events).isEmpty();
    assertThat(w.dvmHosts()).containsExactly("node0");
    assertThat(w.dvm.view().sessions()).isEmpty();
    assertThat(w.dvm.view().elastic().campaigns()).isEmpty();
    assertThat(w.bridge.sessions()).isEmpty();
    assertThat(w.schedHosts()).containsExactly("node0");
  }

  /** An EXTEND of the reservation: its own REQ_ID names its event (D2 twice, D5). */
  @Test
  void grow_d5_extendOfTheReservation_successThenIsReadyWithTheExtensionsReqId() {
    ElasticWorld w = new ElasticWorld(dir, DaemonPolicy.immediate());
    StatusInfos g = w.ask(AllocDirective.NEW, nodes(1), reqId("first")).join();
    w.check();
    String id = info(g, PmixKey.PMIX_ALLOC_ID);
    w.timeline.clear();
    StatusInfos e =
        w.ask(AllocDirective.EXTEND, Info.of(PmixKey.PMIX_ALLOC_ID, id), nodes(1), reqId("more"))
            .join();
    w.check();
    assertThat(e.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(w.timeline)
        .containsExactly(
            "answer PMIX_SUCCESS " + ElasticWorld.infos(e.infos()),
            "event " + READY + " {pmix.alloc.id=" + id + ",pmix.alloc.reqid=more}");
    assertThat(w.dvm.view().session(Long.parseLong(id)).orElseThrow().hosts())
        .containsExactlyInAnyOrder("node2", "node3");
  }

  /** A fake scheduler's answer: SUCCESS with the given deltas (ranks of the pool, or null). */
  private static ObjectNode success(long allocId, String add, String sub) {
    ObjectNode o = Json.object().put("alloc_id", allocId).put("type", 0);
    ResourceSet pool = JmFixture.pool(4, 4);
    if (add != null) {
      o.set("R_delta_add", pool.copyRanks(IdSet.parse(add)).toJson());
    }
    if (sub != null) {
      o.set("R_delta_sub", pool.copyRanks(IdSet.parse(sub)).toJson());
    }
    return o;
  }

  /**
   * D13 (scheduler-initiated shrink): Flux answers a grow by taking node3 back; the bridge shrinks
   * the DVM through its own release, and {@code sched.free final:false} follows the departure.
   */
  @Test
  void shrink_d13_schedulerTakesBackOnItsOwn_dvmShrunkThenFreedAfterDeparture() {
    List<ObjectNode> frees = new ArrayList<>();
    List<ObjectNode> script =
        new ArrayList<>(List.of(success(7, "2-3", null), success(8, null, "3")));
    JmFixture f = new JmFixture(dir).startJobManager();
    ChainFixture.register(f);
    CompletableFuture<Void> up =
        f.hub
            .attach(Credentials.owner(JmFixture.OWNER))
            .register(JmFixture.fakeScheduler(JmFixture.inTurn(script), frees));
    f.settle();
    assertThat(up).isCompleted();
    ElasticWorld w =
        new ElasticWorld(
            new ChainFixture(f),
            DaemonPolicy.immediate().withLatency(Duration.ZERO, Duration.ofSeconds(5)));
    StatusInfos g = w.ask(AllocDirective.NEW, nodes(2), reqId("g")).join();
    w.check();
    assertThat(g.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(w.dvmHosts()).containsExactly("node0", "node2", "node3");
    w.timeline.clear();

    // a grow Flux answers only by taking node3 back (D134 for the requester)
    StatusInfos t =
        w.ask(AllocDirective.EXTEND, Info.of(PmixKey.PMIX_ALLOC_ID, "7"), nodes(1), reqId("x"))
            .join();
    w.check();
    assertThat(t.status()).isEqualTo(PmixStatus.PMIX_ERR_OUT_OF_RESOURCE);
    assertThat(w.timeline).hasSize(1);
    assertThat(w.dvm.departing()).containsExactly("node3");
    assertThat(w.bridge.departing()).containsExactly("node3");
    assertThat(frees).as("nothing freed while the daemon runs").isEmpty();

    w.advance(Duration.ofSeconds(5));
    w.check();
    assertThat(w.dvm.departing()).isEmpty();
    assertThat(w.dvmHosts()).containsExactly("node0", "node2");
    assertThat(frees).hasSize(1);
    assertThat(frees.get(0).get("final").asBoolean()).isFalse();
    assertThat(ResourceSet.fromJson(frees.get(0).get("R")).summary()).isEqualTo("rank3/core[0-3]");
    // the requester-less change (our own release) sent the requester nothing
    assertThat(w.timeline).hasSize(1);
    assertThat(script).isEmpty();
  }
}
