package io.fluxdrm.pmix.nativ;

import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.bridge.dvm.FluxScheduler;
import io.fluxdrm.bridge.translate.PmixAnswer;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.StatusInfos;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * D475 and D476 without PRRTE: what {@link PrrteScheduler} answers to an EXTEND of the requester's
 * own session, and how it watches a grant through its agent's view of the DVM's pool (a scripted
 * {@link DvmPool}): a grant with a daemon on each node is kept (and its second phase relayed when
 * PRRTE sends none); one PRRTE did not take, or whose daemon never started, is handed back to Flux
 * once the grant timeout passed; one released meanwhile is not watched any more. Every wait is on a
 * call the scheduler makes.
 */
class GrantWatchTest {
  private static final PmixProc APP = new PmixProc("prte-vm@1", 0);
  private final ExecutorService reactor = Executors.newSingleThreadExecutor();

  /** Pools the agent answers, in turn (the last one repeats). */
  private final List<Map<String, Boolean>> pools = new ArrayList<>();

  private final LinkedBlockingQueue<String> calls = new LinkedBlockingQueue<>();

  @AfterEach
  void stop() {
    reactor.shutdownNow();
  }

  private final PrrteScheduler.Shrinker agent =
      new PrrteScheduler.Shrinker() {
        private int asked;

        @Override
        public CompletionStage<String> nspace() {
          return CompletableFuture.completedFuture("agent-ns");
        }

        @Override
        public CompletionStage<Integer> shrink(String reqId, String hosts) {
          return CompletableFuture.completedFuture(PmixStatus.PMIX_DVM_IS_READY.code());
        }

        @Override
        public void notify(PmixProc target, String reqId, int code) {
          calls.add("notify " + target.nspace() + " " + reqId + " " + code);
        }

        @Override
        public CompletionStage<Map<String, Boolean>> pool() {
          calls.add("pool");
          return CompletableFuture.completedFuture(pools.get(Math.min(asked++, pools.size() - 1)));
        }
      };

  private final FluxScheduler.HandBack handBack =
      new FluxScheduler.HandBack() {
        @Override
        public CompletionStage<PmixAnswer> handBack(String allocId, String nodeList) {
          calls.add("handBack " + allocId + " " + nodeList);
          return CompletableFuture.completedFuture(
              new PmixAnswer(PmixStatus.PMIX_SUCCESS, List.of(), ""));
        }

        @Override
        public CompletionStage<Void> released(String nodeList) {
          calls.add("released " + nodeList);
          return CompletableFuture.completedFuture(null);
        }
      };

  /** Flux grants node5:2 as allocation 7 to any NEW or EXTEND, and any RELEASE. */
  private final FluxScheduler.Allocator flux =
      (directive, infos) ->
          CompletableFuture.completedFuture(
              directive == AllocDirective.RELEASE
                  ? new PmixAnswer(
                      PmixStatus.PMIX_SUCCESS,
                      List.of(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "node5:2")),
                      "")
                  : new PmixAnswer(
                      PmixStatus.PMIX_SUCCESS,
                      List.of(
                          Info.of(PmixKey.PMIX_ALLOC_ID, "7"),
                          Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "node5:2")),
                      ""));

  private PrrteScheduler scheduler() {
    return new PrrteScheduler(flux, handBack, agent, () -> null, reactor, Duration.ofSeconds(1));
  }

  private StatusInfos ask(PrrteScheduler s, AllocDirective d, List<Info> infos) throws Exception {
    CompletableFuture<StatusInfos> f = new CompletableFuture<>();
    reactor.execute(
        () ->
            s.allocate(APP, d, infos)
                .whenComplete(
                    (a, e) -> f.complete(a == null ? StatusInfos.of(PmixStatus.PMIX_ERROR) : a)));
    return f.get(30, TimeUnit.SECONDS);
  }

  private String next(String prefix) throws InterruptedException {
    for (; ; ) {
      String c = calls.poll(30, TimeUnit.SECONDS);
      assertThat(c).as("a call starting with \"%s\"", prefix).isNotNull();
      if (c.startsWith(prefix)) {
        return c;
      }
    }
  }

  private static List<Info> requested(Info... extra) {
    List<Info> l = new ArrayList<>(List.of(Info.of(PmixKey.PMIX_ALLOC_NUM_CPUS, 2L)));
    l.addAll(List.of(extra));
    l.add(Info.of(PmixKey.PMIX_REQUESTOR, APP));
    return l;
  }

  @Test
  void extendNamingNoReservation_answeredShared_andItsSecondPhaseRelayedOnceTheDaemonIsUp()
      throws Exception {
    pools.add(Map.of("head", true, "node5", false));
    pools.add(Map.of("head", true, "node5", true));
    PrrteScheduler s = scheduler();
    StatusInfos a =
        ask(s, AllocDirective.EXTEND, requested(Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "r1")));
    assertThat(a.status()).isEqualTo(PmixStatus.PMIX_SUCCESS);
    assertThat(a.infos()).contains(Info.of(PmixKey.PMIX_ALLOC_SHARE, true));
    assertThat(next("notify"))
        .isEqualTo("notify prte-vm@1 r1 " + PmixStatus.PMIX_DVM_IS_READY.code());
    assertThat(s.grants()).containsEntry("7", "node5:2");
    assertThat(s.dropped()).isEmpty();
  }

  @Test
  void extendNamingAReservation_notShared_andPrrteTellsItsRequesterItself() throws Exception {
    pools.add(Map.of("head", true, "node5", true));
    PrrteScheduler s = scheduler();
    StatusInfos a = ask(s, AllocDirective.EXTEND, requested(Info.of(PmixKey.PMIX_ALLOC_ID, "7")));
    assertThat(a.infos()).extracting(Info::key).doesNotContain(PmixKey.PMIX_ALLOC_SHARE);
    next("pool");
    // applied: nothing relayed, nothing handed back
    reactor.submit(() -> null).get(30, TimeUnit.SECONDS);
    assertThat(calls).noneMatch(c -> c.startsWith("notify") || c.startsWith("handBack"));
    assertThat(PrrteScheduler.extendsOwnSession(AllocDirective.NEW, requested())).isFalse();
    assertThat(
            PrrteScheduler.extendsOwnSession(
                AllocDirective.EXTEND, requested(Info.of(PmixKey.PMIX_ALLOC_SHARE, false))))
        .isFalse();
  }

  @Test
  void aGrantPrrteNeverTook_handedBackAfterTheTimeout_andNoEventForItsRequester() throws Exception {
    pools.add(Map.of("head", true));
    PrrteScheduler s = scheduler();
    ask(s, AllocDirective.NEW, requested());
    assertThat(next("handBack")).isEqualTo("handBack 7 node5:2");
    reactor.submit(() -> null).get(30, TimeUnit.SECONDS);
    assertThat(s.dropped()).containsExactly("node5:2");
    assertThat(s.grants()).isEmpty();
    assertThat(calls).noneMatch(c -> c.startsWith("notify"));
  }

  @Test
  void aDaemonThatNeverStarted_handedBack_andTheRelayedRequesterToldDvmMod() throws Exception {
    pools.add(Map.of("head", true, "node5", false));
    PrrteScheduler s = scheduler();
    // a requester on another node: its daemon added a PMIX_REQUESTOR before the head's
    List<Info> viaDaemon = requested(Info.of(PmixKey.PMIX_REQUESTOR, APP));
    assertThat(PrrteScheduler.viaAnotherDaemon(viaDaemon)).isTrue();
    assertThat(PrrteScheduler.viaAnotherDaemon(requested())).isFalse();
    ask(s, AllocDirective.NEW, viaDaemon);
    assertThat(next("notify"))
        .isEqualTo("notify prte-vm@1 null " + PmixStatus.PMIX_ERR_DVM_MOD.code());
    assertThat(next("handBack")).isEqualTo("handBack 7 node5:2");
  }

  @Test
  void aGrantReleasedMeanwhile_isNotWatchedAnyMore() throws Exception {
    pools.add(Map.of("head", true));
    PrrteScheduler s = scheduler();
    ask(s, AllocDirective.NEW, requested());
    // a release naming a node with no daemon is freed at once, and leaves the grant
    ask(s, AllocDirective.RELEASE, requested(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "node5")));
    assertThat(s.grants()).isEmpty();
    // the watch's next look finds nothing left to check and ends without handing anything back
    for (int i = 0; i < 300 && reactor.submit(s::watching).get(30, TimeUnit.SECONDS) > 0; i++) {
      next("pool");
    }
    assertThat(reactor.submit(s::watching).get(30, TimeUnit.SECONDS)).isZero();
    assertThat(calls).noneMatch(c -> c.startsWith("handBack"));
  }
}
