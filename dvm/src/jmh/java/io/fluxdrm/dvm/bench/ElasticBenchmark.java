package io.fluxdrm.dvm.bench;

import io.fluxdrm.dvm.core.DvmConfig;
import io.fluxdrm.dvm.core.DvmCore;
import io.fluxdrm.dvm.core.DvmDecision;
import io.fluxdrm.dvm.core.DvmEvent;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Issue 14's elastic-DVM benchmarks on the pure core (docs/performance.md "elastic"), zero
 * simulated daemon latency: the core is fed the daemons' reports at once.
 *
 * <ul>
 *   <li>{@link #grow64ToReady}: a schedulerless grow of 64 nodes, from the request to the
 *       requester's PMIX_DVM_IS_READY (the 64 daemon reports included), on a DVM of {@code size}
 *       nodes; the previous grow is shrunk away in the invocation's setup. Run at 256, 1,024 and
 *       4,096 nodes it shows the cost per campaign against the DVM's size.
 *   <li>{@link #shrink64ToReady}: a schedulerless release of 64 nodes by node list, from the
 *       request to the requester's PMIX_DVM_IS_READY (the 64 departures and the completion hook
 *       included), on a DVM of {@code size} nodes that runs {@code size} one-process jobs; the 64
 *       nodes are grown back in the invocation's setup.
 *   <li>{@link #fenceRelease}: 100 concurrent single-node grows over a DVM of {@code size} nodes
 *       with 10,000 one-process jobs held; the last daemon report, which drops the fence to 0 and
 *       releases (maps) every held job. The DVM has 16,384 slots whatever its size (4 per node at
 *       4,096 nodes, the acceptance's case; 16 at 1,024; 64 at 256), so every job is mapped. Each
 *       shot starts after a full GC, on a JVM that ran the release ten times in the trial's setup.
 * </ul>
 */
public class ElasticBenchmark {
  static final Client TOOL =
      new Client(new PmixProc("bench-tool", 0), 1000, 1000, Client.Kind.TOOL);

  static DvmCore dvm(int size) {
    return dvm(size, 4);
  }

  static DvmCore dvm(int size, int slots) {
    List<DvmConfig.NodeSpec> nodes = new ArrayList<>();
    for (int i = 1; i <= size; i++) {
      nodes.add(new DvmConfig.NodeSpec("n" + i, slots));
    }
    DvmCore core = DvmCore.of(DvmConfig.of(nodes, "bench-dvm", 1000).withElastic(true));
    for (DvmDecision d : core.start()) {
      if (d instanceof DvmDecision.StartDaemon s) {
        core.handle(new DvmEvent.DaemonStarted(s.host()));
      }
    }
    core.handle(new DvmEvent.RegisterEvents(1, TOOL, "n1", List.of()));
    return core;
  }

  /** Feeds the daemon reports of {@code ds} back at once; returns every decision. */
  static List<DvmDecision> settle(DvmCore core, List<DvmDecision> ds) {
    List<DvmDecision> all = new ArrayList<>(ds);
    for (int i = 0; i < all.size(); i++) {
      DvmDecision d = all.get(i);
      if (d instanceof DvmDecision.StartDaemon s) {
        all.addAll(core.handle(new DvmEvent.DaemonStarted(s.host())));
      } else if (d instanceof DvmDecision.StopDaemon s) {
        all.addAll(core.handle(new DvmEvent.DaemonLeft(s.host())));
      } else if (d instanceof DvmDecision.MapComplete m) {
        all.addAll(core.handle(new DvmEvent.LaunchApps(m.nspace())));
      } else if (d instanceof DvmDecision.LaunchJob l) {
        all.addAll(core.handle(new DvmEvent.JobLaunched(l.nspace())));
      }
    }
    return all;
  }

  /** A DVM of {@code size} nodes and a 64-node grow list. */
  @State(Scope.Thread)
  public static class Grow {
    @Param({"256", "1024", "4096"})
    int size;

    DvmCore core;
    long request = 10;
    String list;
    boolean grown;

    @Setup(Level.Trial)
    public void setup() {
      core = dvm(size);
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < 64; i++) {
        sb.append(i == 0 ? "" : ",").append("g").append(i);
      }
      list = sb.toString();
    }

    @Setup(Level.Invocation)
    public void shrinkPrevious() {
      if (grown) {
        settle(
            core,
            core.handle(
                new DvmEvent.AllocationRequest(
                    request++,
                    TOOL,
                    "n1",
                    AllocDirective.RELEASE,
                    List.of(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, list)))));
        grown = false;
      }
    }
  }

  @Benchmark
  @BenchmarkMode(Mode.SampleTime)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public Object grow64ToReady(Grow g) {
    List<DvmDecision> ds =
        settle(
            g.core,
            g.core.handle(
                new DvmEvent.AllocationRequest(
                    g.request++,
                    TOOL,
                    "n1",
                    AllocDirective.NEW,
                    List.of(
                        Info.of(PmixKey.PMIX_ALLOC_SHARE, true),
                        Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, g.list)))));
    g.grown = true;
    if (!(ds.get(ds.size() - 1) instanceof DvmDecision.Notify)) {
      throw new IllegalStateException("the grow did not end with its event: " + ds);
    }
    return ds;
  }

  /**
   * A DVM of {@code size} nodes running {@code size} one-process jobs (a quarter of its slots, on
   * its first nodes), into which 64 nodes are grown before each invocation.
   */
  @State(Scope.Thread)
  public static class Shrink {
    @Param({"256", "1024", "4096"})
    int size;

    DvmCore core;
    long request = 10;
    String list;

    @Setup(Level.Trial)
    public void setup() {
      core = dvm(size);
      App app = new App("/bin/sleep", List.of("sleep", "300"), 1, List.of());
      for (int j = 0; j < size; j++) {
        settle(
            core, core.handle(new DvmEvent.Spawn(request++, TOOL, "n1", List.of(app), List.of())));
      }
      if (core.view().jobs().size() != size) {
        throw new IllegalStateException("not " + size + " running jobs");
      }
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < 64; i++) {
        sb.append(i == 0 ? "" : ",").append("g").append(i);
      }
      list = sb.toString();
    }

    @Setup(Level.Invocation)
    public void growBack() {
      settle(
          core,
          core.handle(
              new DvmEvent.AllocationRequest(
                  request++,
                  TOOL,
                  "n1",
                  AllocDirective.NEW,
                  List.of(
                      Info.of(PmixKey.PMIX_ALLOC_SHARE, true),
                      Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, list)))));
    }
  }

  @Benchmark
  @BenchmarkMode(Mode.SampleTime)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public Object shrink64ToReady(Shrink s) {
    List<DvmDecision> ds =
        settle(
            s.core,
            s.core.handle(
                new DvmEvent.AllocationRequest(
                    s.request++,
                    TOOL,
                    "n1",
                    AllocDirective.RELEASE,
                    List.of(Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, s.list)))));
    if (!(ds.get(ds.size() - 1) instanceof DvmDecision.Notify n)
        || n.event().status() != PmixStatus.PMIX_DVM_IS_READY.code()) {
      throw new IllegalStateException("the shrink did not end with its event: " + ds);
    }
    return ds;
  }

  /** {@code size} nodes (16,384 slots), 100 open single-node grows, 10,000 held jobs. */
  @State(Scope.Thread)
  public static class Held {
    @Param({"256", "1024", "4096"})
    int size;

    DvmCore core;
    String last;

    /**
     * A single-shot benchmark gets as many warm-up calls as warm-up iterations (2 on the usual
     * command line), too few for the JIT to compile the release path; ten releases here first, so
     * that the shots measure compiled code, not the compiler.
     */
    @Setup(Level.Trial)
    public void warmUp() {
      for (int i = 0; i < 10; i++) {
        build();
        release(this);
      }
    }

    @Setup(Level.Invocation)
    public void setup() {
      build();
      // the built DVM is live when the shot starts: collect the previous one's garbage first
      System.gc();
    }

    private void build() {
      core = dvm(size, 16_384 / size);
      long req = 10;
      for (int c = 0; c < 100; c++) {
        core.handle(
            new DvmEvent.AllocationRequest(
                req++,
                TOOL,
                "n1",
                AllocDirective.NEW,
                List.of(
                    Info.of(PmixKey.PMIX_ALLOC_SHARE, true),
                    Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "x" + c))));
      }
      App app = new App("/bin/true", List.of("true"), 1, List.of());
      for (int j = 0; j < 10_000; j++) {
        core.handle(new DvmEvent.Spawn(req++, TOOL, "n1", List.of(app), List.of()));
      }
      for (int c = 0; c < 99; c++) {
        core.handle(new DvmEvent.DaemonStarted("x" + c));
      }
      if (core.view().elastic().heldAtMap().size() != 10_000) {
        throw new IllegalStateException("not 10,000 held jobs");
      }
      last = "x99";
    }
  }

  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public Object fenceRelease(Held s) {
    return release(s);
  }

  static List<DvmDecision> release(Held s) {
    List<DvmDecision> ds = s.core.handle(new DvmEvent.DaemonStarted(s.last));
    int mapped = 0;
    for (DvmDecision d : ds) {
      if (d instanceof DvmDecision.MapComplete) {
        mapped++;
      }
    }
    if (mapped != 10_000) {
      throw new IllegalStateException(mapped + " of the 10,000 held jobs mapped");
    }
    return ds;
  }
}
