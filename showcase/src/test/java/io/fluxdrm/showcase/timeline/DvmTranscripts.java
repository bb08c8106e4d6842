package io.fluxdrm.showcase.timeline;

import io.fluxdrm.dvm.core.DvmConfig;
import io.fluxdrm.dvm.exec.DaemonPolicy;
import io.fluxdrm.dvm.service.DvmService;
import io.fluxdrm.dvm.wire.DvmHubService;
import io.fluxdrm.dvm.wire.HubDvmPort;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.reactor.ManualEventLoop;
import io.fluxdrm.rpc.transcript.TranscriptRecorder;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * A transcript of the DVM's endpoint on a hub, recorded from a real {@link DvmService} in elastic
 * mode with simulated daemons that take 50 ms to start and 30 ms to leave: a reservation of two
 * nodes (daemons start, PMIX_DVM_IS_READY), its extension by one (a daemon that fails: rolled back,
 * PMIX_ERR_DVM_MOD), another by one that succeeds, a request too large (refused), and the release
 * of a node (its daemon leaves, PMIX_DVM_IS_READY).
 */
public final class DvmTranscripts {
  private DvmTranscripts() {}

  /** The recorded lines, one JSON object each. */
  public static List<String> elasticStory() {
    ManualEventLoop loop = new ManualEventLoop();
    Hub hub = new Hub(loop);
    List<DvmConfig.NodeSpec> nodes = new ArrayList<>();
    nodes.add(new DvmConfig.NodeSpec("node0", 4, true));
    for (int i = 1; i < 6; i++) {
      nodes.add(new DvmConfig.NodeSpec("node" + i, 4, false));
    }
    DvmService dvm =
        DvmService.builder(DvmConfig.of(nodes, "dvm", 1000).withElastic(true), loop)
            .daemons(
                DaemonPolicy.immediate()
                    .withLatency(Duration.ofMillis(50), Duration.ofMillis(30))
                    .failing(java.util.Set.of("node3")))
            .start();
    StringWriter out = new StringWriter();
    var handle = hub.attach(Credentials.owner(1000));
    handle.tap(new TranscriptRecorder(out, loop.clock(Instant.parse("2026-01-01T00:00:00Z"))));
    DvmHubService front = new DvmHubService(dvm, "node0", handle, dvm::schedulerEvent);
    front.start();
    loop.runPending();
    HubDvmPort app = new HubDvmPort(hub.attach(Credentials.user(2000)), null);
    app.registerEvents(
        List.of(PmixStatus.PMIX_DVM_IS_READY.code(), PmixStatus.PMIX_ERR_DVM_MOD.code()), e -> {});
    settle(loop);
    StatusInfos a =
        done(
            loop,
            app.allocationRequest(
                AllocDirective.NEW,
                List.of(
                    Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "node1,node2"),
                    Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "grow-1"))));
    String id =
        a.infos().stream()
            .filter(i -> i.key().equals(PmixKey.PMIX_ALLOC_ID))
            .findFirst()
            .map(i -> String.valueOf(i.value()))
            .orElse("?");
    settle(loop);
    done(
        loop,
        app.allocationRequest(
            AllocDirective.EXTEND,
            List.of(
                Info.of(PmixKey.PMIX_ALLOC_ID, id),
                Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "node3"))));
    settle(loop);
    done(
        loop,
        app.allocationRequest(
            AllocDirective.EXTEND,
            List.of(
                Info.of(PmixKey.PMIX_ALLOC_ID, id),
                Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "node4"))));
    settle(loop);
    done(
        loop,
        app.allocationRequest(
            AllocDirective.NEW, List.of(Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, 40L))));
    settle(loop);
    done(
        loop,
        app.allocationRequest(
            AllocDirective.RELEASE,
            List.of(
                Info.of(PmixKey.PMIX_ALLOC_ID, id),
                Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "node2"))));
    settle(loop);
    return out.toString().lines().toList();
  }

  private static void settle(ManualEventLoop loop) {
    for (int i = 0; i < 20; i++) {
      loop.advance(Duration.ofMillis(10));
      loop.runPending();
    }
  }

  private static <T> T done(ManualEventLoop loop, CompletionStage<T> s) {
    loop.runPending();
    loop.advance(Duration.ofMillis(1));
    loop.runPending();
    return s.toCompletableFuture().join();
  }
}
