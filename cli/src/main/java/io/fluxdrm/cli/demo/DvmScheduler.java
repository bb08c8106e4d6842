package io.fluxdrm.cli.demo;

import io.fluxdrm.bridge.alloc.PmixAllocator;
import io.fluxdrm.bridge.dvm.FluxScheduler;
import io.fluxdrm.bridge.translate.PmixAnswer;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.AllocInheritance;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.Registration;
import io.fluxdrm.pmix.port.SchedulerUpcalls;
import io.fluxdrm.pmix.port.SpawnResult;
import io.fluxdrm.pmix.port.StatusInfos;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DVM's scheduler in the story: the bridge's {@link FluxScheduler} over the DVM job's {@link
 * PmixAllocator} (D9/D10 to {@code sched.realloc}, each grant a session control toward the DVM),
 * with what issue 14 scope 6 gives the bridge and the bridge does not do yet (decision D441):
 *
 * <ul>
 *   <li>a grant's session control ({@code INSTANTIATE} or {@code EXTEND}) names the request's
 *       requester ({@code PMIX_REQUESTOR}, and its {@code PMIX_ALLOC_REQ_ID}), so that the DVM's
 *       grow campaign directs its second-phase event ({@code PMIX_DVM_IS_READY} or {@code
 *       PMIX_ERR_DVM_MOD}) to the application that asked, not to the bridge (D12);
 *   <li>a granted session is instantiated with {@code PMIX_ALLOC_INHERIT_NONE}, so that when the
 *       application releases it the DVM's daemons there leave (a shrink campaign) before the bridge
 *       hands the nodes back on the DVM's {@code PMIX_SESSION_COMPLETE};
 *   <li>a grow the DVM rolled back ({@code PMIX_ERR_DVM_MOD}) hands the grant back to the scheduler
 *       ({@link #growFailed}, through {@link PmixAllocator#handBack}).
 * </ul>
 *
 * Everything else is the bridge's as it is. No lock: all of it runs on the loop of the DVM
 * connection and the facade, which is one loop.
 */
final class DvmScheduler implements SchedulerUpcalls {
  private static final Logger LOG = LoggerFactory.getLogger(DvmScheduler.class);

  /** A grant this scheduler passed to the DVM: who asked, with which label, for which nodes. */
  private record Grant(PmixProc requester, Optional<String> reqId, String nodeList) {}

  private PmixAllocator allocator;
  private final FluxScheduler flux;
  private final Map<String, Grant> grants = new HashMap<>();
  private DvmPort down;
  private PmixProc asking;
  private Optional<String> askingReqId = Optional.empty();

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
    this.flux = new FluxScheduler(this::request, back, () -> new Named(down));
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
    // FluxScheduler calls request() before it returns: the requester is known there
    asking = requester;
    askingReqId = string(infos, PmixKey.PMIX_ALLOC_REQ_ID);
    try {
      return flux.allocate(requester, directive, infos);
    } finally {
      asking = null;
      askingReqId = Optional.empty();
    }
  }

  @Override
  public CompletionStage<StatusInfos> sessionControl(
      PmixProc requester, long sessionId, List<Info> directives) {
    return flux.sessionControl(requester, sessionId, directives);
  }

  private CompletionStage<PmixAnswer> request(AllocDirective directive, List<Info> infos) {
    PmixProc who = asking;
    Optional<String> reqId = askingReqId;
    return allocator
        .allocationRequest(directive, infos)
        .thenApply(
            a -> {
              Optional<String> id = string(a.infos(), PmixKey.PMIX_ALLOC_ID);
              Optional<String> nodes = string(a.infos(), PmixKey.PMIX_ALLOC_NODE_LIST);
              if (a.status() == PmixStatus.PMIX_SUCCESS
                  && (directive == AllocDirective.NEW || directive == AllocDirective.EXTEND)
                  && id.isPresent()
                  && nodes.isPresent()
                  && who != null) {
                grants.put(id.get(), new Grant(who, reqId, nodes.get()));
              }
              return a;
            });
  }

  /**
   * The DVM rolled back the grow of grant {@code allocId} ({@code PMIX_ERR_DVM_MOD}): its nodes go
   * back to the scheduler ({@code sched.free final:false}).
   *
   * @return the hand-back's answer, or empty when no such grant is known
   */
  CompletableFuture<Optional<PmixAnswer>> growFailed(String allocId) {
    Grant g = grants.remove(allocId);
    if (g == null) {
      return CompletableFuture.completedFuture(Optional.empty());
    }
    LOG.info("grow of grant {} rolled back by the DVM: {} back to the scheduler", allocId, g);
    return allocator.handBack(allocId, g.nodeList()).thenApply(Optional::of);
  }

  private static Optional<String> string(List<Info> infos, String key) {
    return infos.stream()
        .filter(i -> i.key().equals(key) && i.value() instanceof String)
        .map(Info::stringValue)
        .findFirst();
  }

  /** The port down, naming the requester of a grant in its session control. */
  private final class Named implements DvmPort {
    private final DvmPort port;

    Named(DvmPort port) {
      if (port == null) {
        throw new IllegalStateException("no DVM attached");
      }
      this.port = port;
    }

    @Override
    public CompletionStage<StatusInfos> sessionControl(long sessionId, List<Info> directives) {
      Grant g = grants.get(Long.toUnsignedString(sessionId));
      boolean instantiate = has(directives, PmixKey.PMIX_SESSION_INSTANTIATE);
      if (g == null || !instantiate && !has(directives, PmixKey.PMIX_SESSION_EXTEND)) {
        return port.sessionControl(sessionId, directives);
      }
      List<Info> d = new ArrayList<>(directives);
      d.add(Info.of(PmixKey.PMIX_REQUESTOR, g.requester()));
      if (instantiate) {
        g.reqId().ifPresent(q -> d.add(Info.of(PmixKey.PMIX_ALLOC_REQ_ID, q)));
        d.add(Info.of(PmixKey.PMIX_ALLOC_INHERITANCE, AllocInheritance.NONE));
      }
      return port.sessionControl(sessionId, d);
    }

    private static boolean has(List<Info> d, String key) {
      return d.stream().anyMatch(i -> i.key().equals(key) && Boolean.TRUE.equals(i.value()));
    }

    @Override
    public CompletionStage<StatusInfos> allocationRequest(
        AllocDirective directive, List<Info> infos) {
      return port.allocationRequest(directive, infos);
    }

    @Override
    public CompletionStage<SpawnResult> spawn(List<App> apps, List<Info> jobInfos) {
      return port.spawn(apps, jobInfos);
    }

    @Override
    public CompletionStage<Registration> registerEvents(List<Integer> codes, EventHandler handler) {
      return port.registerEvents(codes, handler);
    }

    @Override
    public CompletionStage<StatusInfos> deregisterEvents(long ref) {
      return port.deregisterEvents(ref);
    }

    @Override
    public CompletionStage<StatusInfos> disconnect() {
      return port.disconnect();
    }
  }
}
