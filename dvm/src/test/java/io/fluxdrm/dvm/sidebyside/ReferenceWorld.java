package io.fluxdrm.dvm.sidebyside;

import io.fluxdrm.dvm.core.DaemonState;
import io.fluxdrm.dvm.core.DvmConfig;
import io.fluxdrm.dvm.core.DvmView;
import io.fluxdrm.dvm.service.DvmService;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.Client;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.Event;
import io.fluxdrm.pmix.port.SchedulerUpcalls;
import io.fluxdrm.pmix.port.StatusInfos;
import io.fluxdrm.rpc.reactor.ManualEventLoop;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BooleanSupplier;

/**
 * The reference DVM as a {@link World}: a {@link DvmService} in simulated mode on a manual loop,
 * elastic, with the nodes PRRTE's world has ({@code head} and {@code node1}; with a scheduler, the
 * head only, as with ras/pmix). Everything completes when the loop has run.
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
  private SchedulerUpcalls script = new Refusing();

  /** Starts the DVM of {@code group} and connects the tool. */
  public ReferenceWorld(Group group) {
    List<DvmConfig.NodeSpec> nodes = new ArrayList<>();
    nodes.add(new DvmConfig.NodeSpec(HEAD, 2));
    if (group == Group.SCHEDULERLESS) {
      nodes.add(new DvmConfig.NodeSpec("node1", 2));
    }
    dvm =
        DvmService.builder(DvmConfig.of(nodes, "dvm", 0).withElastic(true), loop).checked().start();
    loop.runPending();
    if (group == Group.SCHEDULER) {
      await(
          dvm.attachScheduler(
              SCHED,
              new SchedulerUpcalls() {
                @Override
                public CompletionStage<StatusInfos> allocate(
                    PmixProc requester, AllocDirective directive, List<Info> infos) {
                  return script.allocate(requester, directive, infos);
                }

                @Override
                public CompletionStage<StatusInfos> sessionControl(
                    PmixProc requester, long sessionId, List<Info> directives) {
                  return script.sessionControl(requester, sessionId, directives);
                }
              }));
    }
    tool = await(dvm.connect(TOOL, HEAD));
    await(
        tool.registerEvents(
            List.of(PmixStatus.PMIX_DVM_IS_READY.code(), PmixStatus.PMIX_ERR_DVM_MOD.code()),
            events::add));
  }

  /** Before a scenario sets its script: refuses everything. */
  static final class Refusing implements SchedulerUpcalls {
    @Override
    public CompletionStage<StatusInfos> allocate(
        PmixProc requester, AllocDirective directive, List<Info> infos) {
      return CompletableFuture.completedFuture(StatusInfos.of(PmixStatus.PMIX_ERR_NOT_SUPPORTED));
    }

    @Override
    public CompletionStage<StatusInfos> sessionControl(
        PmixProc requester, long sessionId, List<Info> directives) {
      return CompletableFuture.completedFuture(StatusInfos.of(PmixStatus.PMIX_ERR_NOT_SUPPORTED));
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
    for (int i = 0; i < 10; i++) {
      loop.runPending();
      if (condition.getAsBoolean()) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void close() {
    dvm.close();
    loop.runPending();
  }
}
