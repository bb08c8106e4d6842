package io.fluxdrm.dvm.bench;

import io.fluxdrm.dvm.core.DvmConfig;
import io.fluxdrm.dvm.exec.SimulatedExecutor;
import io.fluxdrm.dvm.service.DvmService;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.rpc.reactor.ManualEventLoop;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A simulated DVM on a {@link ManualEventLoop} driven by the benchmark's own thread: a request is
 * queued, the loop run until nothing is left, and the answer read. What is measured is the service
 * and the core (no socket, no thread hop, zero daemon latency).
 */
final class Bench {
  static final Client TOOL =
      new Client(new PmixProc("bench-tool", 0), 1000, 1000, Client.Kind.TOOL);
  static final App SLEEP = new App("/bin/sleep", List.of("/bin/sleep", "300"), 1, List.of());

  final ManualEventLoop loop = new ManualEventLoop();
  final DvmService dvm;
  final DvmPort port;

  Bench(int nodes, int slots) {
    List<DvmConfig.NodeSpec> n = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      n.add(new DvmConfig.NodeSpec("n" + i, slots));
    }
    dvm = DvmService.builder(DvmConfig.of(n, "bench-dvm", 1000), loop).start();
    loop.runPending();
    ((SimulatedExecutor) dvm.executor()).withoutRecording();
    CompletableFuture<DvmPort> p = dvm.connect(TOOL, "n0").toCompletableFuture();
    loop.runPending();
    port = p.join();
  }

  /** Runs the loop until idle and returns the answer, failing on anything but success. */
  <T> T done(CompletionStage<T> s) {
    loop.runPending();
    CompletableFuture<T> f = s.toCompletableFuture();
    if (!f.isDone()) {
      throw new IllegalStateException("not answered");
    }
    T v = f.join();
    if (v instanceof StatusInfos a && !a.succeeded()) {
      throw new IllegalStateException("answer: " + a);
    }
    return v;
  }

  static List<Info> instantiate(String hosts, boolean app) {
    List<Info> d = new ArrayList<>(4);
    d.add(Info.of(PmixKey.PMIX_SESSION_INSTANTIATE, true));
    d.add(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, hosts));
    if (app) {
      d.add(Info.of(PmixKey.PMIX_SESSION_APP, List.of(SLEEP)));
    }
    return d;
  }

  static final List<Info> TERMINATE = List.of(Info.of(PmixKey.PMIX_SESSION_TERMINATE, true));
  static final List<Info> PAUSE = List.of(Info.of(PmixKey.PMIX_SESSION_PAUSE, true));
  static final List<Info> RESUME = List.of(Info.of(PmixKey.PMIX_SESSION_RESUME, true));
}
