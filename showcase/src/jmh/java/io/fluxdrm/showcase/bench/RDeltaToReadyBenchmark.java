package io.fluxdrm.showcase.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.bridge.dvm.FluxScheduler;
import io.fluxdrm.bridge.translate.AnswerTranslator;
import io.fluxdrm.bridge.translate.JobView;
import io.fluxdrm.bridge.translate.PmixAnswer;
import io.fluxdrm.bridge.translate.RequestTranslator;
import io.fluxdrm.bridge.translate.Translation;
import io.fluxdrm.dvm.core.DvmConfig;
import io.fluxdrm.dvm.exec.DaemonPolicy;
import io.fluxdrm.dvm.service.DvmService;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.reactor.ManualEventLoop;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Issue 14: from R_delta_add to PMIX_DVM_IS_READY for a 64-node grow, zero simulated daemon
 * latency, in process on a {@link ManualEventLoop} (docs/performance.md "R delta to DVM ready").
 *
 * <p>Each invocation's setup builds an elastic reference DVM (its master alone), attaches the
 * bridge ({@link FluxScheduler}) as its scheduler, and has a tool ask for 64 nodes: the DVM
 * forwards the request and the bridge's allocation side holds it. The timed part starts when the
 * RFC 51 grant ({@code {alloc_id, type: SUCCESS, R_delta_add}} of 64 nodes of 4 cores) reaches the
 * bridge: its D10 translation, the session control INSTANTIATE over the 64 nodes, the grow
 * campaign, the 64 daemon reports, the requester's phase-one answer, and ends when the requester's
 * handler has PMIX_DVM_IS_READY.
 */
public class RDeltaToReadyBenchmark {
  static final int NODES = 64;

  /** One world per invocation, up to the grant's arrival. */
  @State(Scope.Thread)
  public static class World {
    Translation.Realloc request;
    ObjectNode grant;
    ManualEventLoop loop;
    DvmService dvm;
    CompletableFuture<PmixAnswer> pending;
    CompletableFuture<Void> ready;
    CompletionStage<?> answer;
    DvmPort schedPort;

    @Setup(Level.Trial)
    public void grant() {
      ResourceSet initial =
          ResourceSet.of(IdSet.of(0), IdSet.parse("0-3"), IdSet.empty(), Hostlist.parse("n0"));
      List<Info> ask =
          List.of(
              Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, (long) NODES),
              Info.of(PmixKey.PMIX_ALLOC_REQ_ID, "bench"));
      request =
          (Translation.Realloc)
              RequestTranslator.translate(AllocDirective.NEW, ask, JobView.of(1, initial));
      ResourceSet add =
          ResourceSet.of(
              IdSet.parse("1-" + NODES),
              IdSet.parse("0-3"),
              IdSet.empty(),
              Hostlist.parse("g[1-" + NODES + "]"));
      grant = Json.object().put("alloc_id", 5).put("type", 0);
      grant.set("R_delta_add", add.toJson());
    }

    @Setup(Level.Invocation)
    public void world() {
      loop = new ManualEventLoop();
      DvmConfig config =
          DvmConfig.of(List.of(new DvmConfig.NodeSpec("n0", 4)), "bench-dvm", 1000)
              .withElastic(true);
      dvm = DvmService.builder(config, loop).daemons(DaemonPolicy.immediate()).start();
      loop.runPending();
      FluxScheduler bridge =
          new FluxScheduler(
              (d, infos) -> {
                pending = new CompletableFuture<>();
                return pending;
              },
              new FluxScheduler.HandBack() {
                @Override
                public CompletionStage<PmixAnswer> handBack(String allocId, String nodeList) {
                  throw new IllegalStateException("nothing is handed back in this benchmark");
                }

                @Override
                public CompletionStage<Void> released(String nodeList) {
                  throw new IllegalStateException("nothing is released in this benchmark");
                }
              },
              () -> schedPort);
      CompletableFuture<DvmPort> s =
          dvm.attachScheduler(
                  new Client(new PmixProc("bridge", 0), 1000, 1000, Client.Kind.SCHEDULER), bridge)
              .toCompletableFuture();
      CompletableFuture<DvmPort> t =
          dvm.connect(new Client(new PmixProc("tool", 0), 1000, 1000, Client.Kind.TOOL), "n0")
              .toCompletableFuture();
      loop.runPending();
      schedPort = s.join();
      DvmPort tool = t.join();
      ready = new CompletableFuture<>();
      tool.registerEvents(List.of(PmixStatus.PMIX_DVM_IS_READY.code()), e -> ready.complete(null));
      loop.runPending();
      answer =
          tool.allocationRequest(
              AllocDirective.NEW, List.of(Info.of(PmixKey.PMIX_ALLOC_NUM_NODES, (long) NODES)));
      loop.runPending();
      if (pending == null || pending.isDone()) {
        throw new IllegalStateException("the request did not reach the bridge's allocator");
      }
    }
  }

  @Benchmark
  @BenchmarkMode(Mode.SampleTime)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public Object rDeltaAddToDvmReady(World w) {
    w.pending.complete(AnswerTranslator.answer(w.request, w.grant));
    w.loop.runPending();
    if (!w.ready.isDone() || !w.answer.toCompletableFuture().isDone()) {
      throw new IllegalStateException("no PMIX_DVM_IS_READY after the grant");
    }
    if (w.dvm.view().nodes().size() != NODES + 1) {
      throw new IllegalStateException(
          "the DVM did not grow by " + NODES + ": " + w.dvm.view().nodes().size());
    }
    return w.ready;
  }

  /** Runs it once (a check that the benchmark's world holds together). */
  public static void main(String[] args) {
    World w = new World();
    w.grant();
    w.world();
    new RDeltaToReadyBenchmark().rDeltaAddToDvmReady(w);
    List<String> hosts = new ArrayList<>();
    w.dvm.view().nodes().forEach(n -> hosts.add(n.host()));
    System.out.println("grown: " + hosts.size() + " nodes");
  }
}
