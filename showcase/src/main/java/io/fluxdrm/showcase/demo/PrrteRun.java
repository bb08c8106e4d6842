package io.fluxdrm.showcase.demo;

import static io.fluxdrm.showcase.demo.PrrteStory.pool;
import static io.fluxdrm.showcase.demo.PrrteStory.shortHostname;

import com.fasterxml.jackson.databind.JsonNode;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.Event;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.showcase.demo.PrrteStory.Config;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * What the parts of a {@link PrrteStory} share (decision D541): the configuration, the directory of
 * the processes' state and logs, the pool, the processes and the connections to them, the DVM's
 * job, the second phases awaited and the steps so far; how the scheduler's free set is read and how
 * a step is recorded (a step that differs stops the story).
 */
final class PrrteRun {
  final Config config;
  final Path dir;
  final boolean temporary;
  final String head;
  final Path uriFile;
  final ResourceSet pool;
  final PrrteProcesses procs;
  final Map<String, CompletableFuture<Event>> phase2 = new ConcurrentHashMap<>();
  final List<Step> steps = new ArrayList<>();
  private final Consumer<Step> sink;
  final ExecutorService toolLoop =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "fluxdrm-demo-tool");
            t.setDaemon(true);
            return t;
          });
  Reactor reactor;
  FluxHandle hub;
  DvmPort port;
  PrrteProcesses.Child sched;
  PrrteProcesses.Child bridge;
  PrrteProcesses.Child prte;
  long dvmJob;
  int freeNodes;
  long t0;
  StatusInfos lastGrow = StatusInfos.of(PmixStatus.PMIX_ERROR);

  PrrteRun(Config config, Consumer<Step> sink) throws IOException {
    this.config = config;
    this.sink = sink;
    this.temporary = config.dir() == null;
    this.dir =
        (temporary ? Files.createTempDirectory("fluxdrm-demo-prrte-") : config.dir())
            .toAbsolutePath();
    this.head = shortHostname();
    this.uriFile = dir.resolve("dvm.uri");
    this.pool = pool(head);
    this.procs =
        new PrrteProcesses(dir, config.prrtePrefix(), config.pmixPrefix(), config.mainClass());
  }

  /**
   * {@code sched.resource-status}: what the scheduler has free now. The scheduler's service is
   * registered a moment after its hub listens: {@code ENOSYS} is asked again for a while.
   */
  ResourceSet updateFree() {
    FluxHandle h = hub;
    if (h == null) {
      return pool;
    }
    long deadline = System.nanoTime() + Waits.STEP_TIMEOUT.toNanos();
    JsonNode o;
    while (true) {
      CompletableFuture<io.fluxdrm.rpc.Message> f =
          Waits.onLoop(reactor, () -> h.rpc("sched.resource-status", Json.object()));
      try {
        o = f.get(Waits.STEP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).json();
        break;
      } catch (java.util.concurrent.ExecutionException e) {
        if (e.getCause() instanceof RpcException r
            && r.errnum() == Errno.ENOSYS
            && System.nanoTime() < deadline) {
          PrrteProcesses.pause(50);
          continue;
        }
        throw new Waits.Stopped("sched.resource-status: " + e.getCause().getMessage());
      } catch (java.util.concurrent.TimeoutException e) {
        throw new Waits.Stopped(
            "sched.resource-status: no answer within " + Waits.STEP_TIMEOUT.toSeconds() + " s");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new Waits.Stopped("interrupted");
      }
    }
    ResourceSet free =
        ResourceSet.fromJson(o.get("all"))
            .diff(ResourceSet.fromJson(o.get("allocated")))
            .diff(ResourceSet.fromJson(o.get("down")));
    freeNodes = free.nnodes();
    return free;
  }

  void step(
      String name, String actor, String action, String outcome, String expected, String detail) {
    Step s =
        new Step(
            (System.nanoTime() - t0) / 1_000_000,
            name,
            actor,
            actor.equals("sched") || actor.equals("pool") ? 0 : dvmJob,
            action,
            outcome,
            expected,
            detail,
            freeNodes,
            pool.nnodes());
    steps.add(s);
    sink.accept(s);
    if (!s.ok()) {
      // each step stands on the ones before it: after a difference the rest would only wait
      throw new Waits.Stopped(name + " differs, the steps after it depend on it");
    }
  }

  String bin(String cmd) {
    return procs.bin(cmd);
  }
}
