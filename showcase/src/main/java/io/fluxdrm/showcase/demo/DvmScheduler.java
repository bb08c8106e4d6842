package io.fluxdrm.showcase.demo;

import io.fluxdrm.bridge.alloc.PmixAllocator;
import io.fluxdrm.bridge.dvm.FluxScheduler;
import io.fluxdrm.bridge.translate.PmixAnswer;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.SchedulerUpcalls;
import io.fluxdrm.pmix.port.StatusInfos;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * The DVM's scheduler in the story: the bridge's {@link FluxScheduler} over the DVM job's {@link
 * PmixAllocator}, as {@code fluxdrm bridge --dvm} runs it (D9/D10 to {@code sched.realloc}, each
 * grant a session control toward the DVM on behalf of its requester, a rolled-back grow and a
 * granted release handed back once the DVM reports the nodes released, D420–D424). What this class
 * adds is only that the facade can be replaced: after the scheduler's hub restarted (D443) the
 * job's shell and facade are new, and the bridge's grants and hand-backs go through the new one,
 * the bridge's sessions kept. No lock: all of it runs on the loop of the DVM connection and the
 * facade, which is one loop.
 */
final class DvmScheduler implements SchedulerUpcalls {
  private PmixAllocator allocator;
  private final FluxScheduler flux;
  private DvmPort down;

  DvmScheduler(PmixAllocator allocator) {
    this.allocator = allocator;
    FluxScheduler.HandBack back =
        new FluxScheduler.HandBack() {
          @Override
          public CompletionStage<PmixAnswer> handBack(String allocId, String nodeList) {
            return DvmScheduler.this.allocator.handBack(allocId, nodeList);
          }

          @Override
          public CompletionStage<Void> released(String nodeList) {
            return DvmScheduler.this.allocator.released(nodeList);
          }
        };
    this.flux = new FluxScheduler(this::request, back, this::port);
  }

  private CompletionStage<PmixAnswer> request(AllocDirective directive, List<Info> infos) {
    return allocator.allocationRequest(directive, infos);
  }

  private DvmPort port() {
    if (down == null) {
      throw new IllegalStateException("no DVM attached");
    }
    return down;
  }

  /** The scheduler's own port to the DVM, once attached. */
  void attached(DvmPort port) {
    this.down = port;
  }

  /**
   * The DVM job's facade after its shell reconnected (the scheduler's hub restarted): grants and
   * hand-backs go through it from now on.
   */
  void rebind(PmixAllocator facade) {
    this.allocator = facade;
  }

  /** The bridge's scheduler (its sessions and the DVM's completion notices). */
  FluxScheduler flux() {
    return flux;
  }

  @Override
  public CompletionStage<StatusInfos> allocate(
      PmixProc requester, AllocDirective directive, List<Info> infos) {
    return flux.allocate(requester, directive, infos);
  }

  @Override
  public CompletionStage<StatusInfos> sessionControl(
      PmixProc requester, long sessionId, List<Info> directives) {
    return flux.sessionControl(requester, sessionId, directives);
  }

  @Override
  public CompletionStage<Void> nodesReleased(List<String> hosts) {
    return flux.nodesReleased(hosts);
  }
}
