package io.fluxdrm.dvm.sidebyside;

import io.fluxdrm.dvm.core.DaemonState;
import io.fluxdrm.dvm.core.DvmConfig;
import io.fluxdrm.dvm.core.DvmView;
import io.fluxdrm.dvm.exec.SimulatedExecutor;
import io.fluxdrm.dvm.service.DvmService;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.Event;
import io.fluxdrm.pmix.port.SchedulerUpcalls;
import io.fluxdrm.pmix.port.SpawnResult;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.rpc.reactor.ManualEventLoop;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BooleanSupplier;

/**
 * The reference DVM as a {@link World}: a {@link DvmService} in simulated mode on a manual loop,
 * elastic (but in {@link World.Group#ELASTIC_OFF}), with the nodes PRRTE's world has ({@code head}
 * and {@code node1}; with a scheduler, the head only, as with ras/pmix). Everything completes when
 * the loop has run. The tool's jobs end as the programs the scenarios spawn would (D462): a job of
 * {@code /bin/true} once launched, one of {@code /bin/sleep N} when N seconds of the loop's clock
 * have passed ({@link #elapse}, {@link #eventually}); so do the jobs a session's INSTANTIATE
 * launched with its apps.
 */
public final class ReferenceWorld implements World {
  static final String HEAD = "head";
  static final Client TOOL = new Client(new PmixProc("tool", 0), 0, 0, Client.Kind.TOOL);
  static final Client SCHED = new Client(new PmixProc("sched", 0), 0, 0, Client.Kind.SCHEDULER);

  private final ManualEventLoop loop = new ManualEventLoop();
  private final DvmService dvm;
  private final DvmPort tool;
  private final List<Event> events = new ArrayList<>();
  private final Map<String, String> memo = new HashMap<>();

  /** Before a scenario sets its script: refuses everything. */
  private SchedulerUpcalls script = SchedulerUpcalls.refusing(PmixStatus.PMIX_ERR_NOT_SUPPORTED);

  private int tools = 1;
  private DvmPort schedPort;

  /** Starts the DVM of {@code group} and connects the tool. */
  public ReferenceWorld(Group group) {
    List<DvmConfig.NodeSpec> nodes = new ArrayList<>();
    nodes.add(new DvmConfig.NodeSpec(HEAD, 2));
    if (group != Group.SCHEDULER) {
      nodes.add(new DvmConfig.NodeSpec("node1", 2));
    }
    dvm =
        DvmService.builder(
                DvmConfig.of(nodes, "dvm", 0).withElastic(group != Group.ELASTIC_OFF), loop)
            .checked()
            .start();
    loop.runPending();
    if (group == Group.SCHEDULER) {
      schedPort =
          ending(await(dvm.attachScheduler(SCHED, SchedulerUpcalls.delegating(() -> script))));
    }
    tool = ending(await(dvm.connect(TOOL, HEAD)));
    await(
        tool.registerEvents(
            List.of(PmixStatus.PMIX_DVM_IS_READY.code(), PmixStatus.PMIX_ERR_DVM_MOD.code()),
            events::add));
  }

  /** The port, its spawned jobs ending as their programs would. */
  private DvmPort ending(DvmPort p) {
    return new ForwardingPort(p) {
      @Override
      public CompletionStage<StatusInfos> sessionControl(long sessionId, List<Info> directives) {
        return p.sessionControl(sessionId, directives)
            .thenApply(
                a -> {
                  List<App> apps = new ArrayList<>();
                  directives.stream()
                      .filter(i -> i.key().equals(PmixKey.PMIX_SESSION_APP))
                      .forEach(i -> ((List<?>) i.value()).forEach(x -> apps.add((App) x)));
                  a.infos().stream()
                      .filter(i -> i.key().equals(PmixKey.PMIX_NSPACE))
                      .findFirst()
                      .ifPresent(ns -> ends(ns.stringValue(), apps));
                  return a;
                });
      }

      @Override
      public CompletionStage<SpawnResult> spawn(List<App> apps, List<Info> jobInfos) {
        return p.spawn(apps, jobInfos)
            .thenApply(
                r -> {
                  r.nspace().ifPresent(ns -> ends(ns, apps));
                  return r;
                });
      }
    };
  }

  /**
   * When a launched job's processes end by themselves: {@code /bin/true} at once, {@code /bin/sleep
   * N} after N seconds (a simulated process otherwise runs until signalled).
   */
  private void ends(String nspace, List<App> apps) {
    if (apps.isEmpty()) {
      return;
    }
    if (apps.stream().allMatch(a -> a.cmd().equals("/bin/true"))) {
      loop.execute(() -> exitAll(nspace));
    } else if (apps.stream().allMatch(a -> a.cmd().equals("/bin/sleep") && a.argv().size() == 2)) {
      long secs = Long.parseLong(apps.get(0).argv().get(1));
      if (apps.stream().allMatch(a -> a.argv().get(1).equals(Long.toString(secs)))) {
        loop.schedule(Duration.ofSeconds(secs), () -> exitAll(nspace));
      }
    }
  }

  private void exitAll(String nspace) {
    SimulatedExecutor sim = (SimulatedExecutor) dvm.executor();
    for (long rank = 0; rank < 4096; rank++) {
      sim.exit(nspace, rank, 0);
    }
  }

  @Override
  public String master() {
    return HEAD;
  }

  @Override
  public DvmPort tool() {
    return tool;
  }

  @Override
  public DvmPort newTool(boolean withEvents) {
    Client c = new Client(new PmixProc("tool" + (++tools), 0), 0, 0, Client.Kind.TOOL);
    DvmPort p = ending(await(dvm.connect(c, HEAD)));
    if (withEvents) {
      await(
          p.registerEvents(
              List.of(PmixStatus.PMIX_DVM_IS_READY.code(), PmixStatus.PMIX_ERR_DVM_MOD.code()),
              events::add));
    }
    return p;
  }

  @Override
  public DvmPort schedulerPort() {
    if (schedPort == null) {
      throw new IllegalStateException("no scheduler in this world");
    }
    return schedPort;
  }

  @Override
  public PmixProc toolProc() {
    return TOOL.proc();
  }

  @Override
  public <T> T await(CompletionStage<T> stage) {
    loop.runPending();
    CompletableFuture<T> f = stage.toCompletableFuture();
    if (!f.isDone()) {
      throw new IllegalStateException("not answered once the loop ran");
    }
    return f.join();
  }

  @Override
  public List<Event> events(int atLeast) {
    loop.runPending();
    List<Event> out = List.copyOf(events);
    events.clear();
    return out;
  }

  @Override
  public List<String> daemons() {
    loop.runPending();
    return dvm.view().nodes().stream()
        .filter(n -> n.daemon() == DaemonState.UP && n.sessionId() == DvmView.DEFAULT_SESSION)
        .map(n -> n.host())
        .sorted()
        .toList();
  }

  @Override
  public void script(SchedulerUpcalls s) {
    script = s;
  }

  @Override
  public Map<String, String> memo() {
    return memo;
  }

  @Override
  public boolean eventually(BooleanSupplier condition) {
    for (int i = 0; i < 30; i++) {
      loop.runPending();
      if (condition.getAsBoolean()) {
        return true;
      }
      loop.advance(Duration.ofSeconds(1));
    }
    return false;
  }

  @Override
  public void elapse(Duration d) {
    loop.advance(d);
    loop.runPending();
  }

  @Override
  public void close() {
    dvm.close();
    loop.runPending();
  }
}
