package io.fluxdrm.bridge.dvm;

import io.fluxdrm.bridge.alloc.PmixAllocator;
import io.fluxdrm.bridge.translate.PmixAnswer;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.SchedulerUpcalls;
import io.fluxdrm.rset.ResourceSet;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * The bridge as the scheduler of a DVM that is one Flux job, the one assembly {@code fluxdrm bridge
 * --dvm}, {@code fluxdrm bridge --pmix-scheduler} and the demo run (D374, D377): the {@link
 * FluxScheduler} over the DVM job's {@link PmixAllocator} (D9/D10 to {@code sched.realloc}, each
 * grant a session control toward the DVM on behalf of its requester, a rolled-back grow and a
 * granted release handed back through the facade once the DVM reports the nodes released,
 * D420–D424). The facade can be replaced: after the scheduler's hub restarted (D443) the job's
 * shell and facade are new, and the grants and hand-backs go through the new one, the sessions
 * kept. No lock: all of it runs on the loop of the DVM connection and the facade, which is one
 * loop.
 */
public final class DvmJobScheduler implements SchedulerUpcalls.Forwarding {
  private PmixAllocator allocator;
  private final FluxScheduler flux;
  private DvmPort down;

  /**
   * The scheduler over {@code allocator}, its own port to the DVM given once attached ({@link
   * #attached}); nodes Flux takes back on its own stay held (no tool port).
   */
  public DvmJobScheduler(PmixAllocator allocator) {
    this.allocator = allocator;
    this.flux = new FluxScheduler(this::request, handBack(() -> this.allocator), this::port);
  }

  private DvmJobScheduler(PmixAllocator allocator, Supplier<DvmPort> down, Supplier<DvmPort> self) {
    this.allocator = allocator;
    this.flux = new FluxScheduler(this::request, handBack(() -> this.allocator), down, self);
    allocator.onTakenBack(flux::takenBack);
  }

  /**
   * The scheduler over {@code allocator} that shrinks the DVM through {@code self} when Flux takes
   * resources back on its own (D13, D423), as {@code fluxdrm bridge --dvm} runs it.
   *
   * @param down the scheduler's own port to the DVM (the connection it attached on)
   * @param self a tool's port to the DVM, or null
   * @return the scheduler
   */
  public static DvmJobScheduler of(
      PmixAllocator allocator, Supplier<DvmPort> down, Supplier<DvmPort> self) {
    return new DvmJobScheduler(allocator, down, self);
  }

  /**
   * The hand-back through a job's facade: a refused grant's nodes released and given back, and the
   * DVM's report that nothing runs on released nodes any more.
   *
   * @param allocator the facade to use at each call (it may be replaced)
   * @return the hand-back
   */
  public static FluxScheduler.HandBack handBack(Supplier<PmixAllocator> allocator) {
    return new FluxScheduler.HandBack() {
      @Override
      public CompletionStage<PmixAnswer> handBack(String allocId, String nodeList) {
        return allocator.get().handBack(allocId, nodeList);
      }

      @Override
      public CompletionStage<Void> released(String nodeList) {
        return allocator.get().released(nodeList);
      }
    };
  }

  /**
   * What a restarted bridge's facade must know of the one before it (D521): each session's and each
   * pending grant's nodes, adopted under its {@code PMIX_ALLOC_ID}, so that a RELEASE of one finds
   * it.
   *
   * @param allocator the job's new facade
   * @param ledger the ledger the bridge before left
   * @param adopted told each session id (unsigned text) and what was adopted for it, when not empty
   */
  public static void adopt(
      PmixAllocator allocator, Ledger ledger, BiConsumer<String, ResourceSet> adopted) {
    ledger.sessions().forEach((sid, entries) -> adopt(allocator, sid, entries, adopted));
    ledger
        .pending()
        .forEach((sid, p) -> adopt(allocator, sid, List.of(p.nodes().split(",")), adopted));
  }

  private static void adopt(
      PmixAllocator allocator,
      long sid,
      List<String> entries,
      BiConsumer<String, ResourceSet> adopted) {
    List<String> hosts = entries.stream().map(SchedulerState::host).toList();
    String id = Long.toUnsignedString(sid);
    ResourceSet r = allocator.adopt(id, hosts);
    if (!r.isEmpty()) {
      adopted.accept(id, r);
    }
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
  public void attached(DvmPort port) {
    this.down = port;
  }

  /**
   * The DVM job's facade after its shell reconnected (the scheduler's hub restarted): grants and
   * hand-backs go through it from now on.
   */
  public void rebind(PmixAllocator facade) {
    this.allocator = facade;
  }

  /** The bridge's scheduler (its sessions, its ledger and the DVM's completion notices). */
  public FluxScheduler flux() {
    return flux;
  }

  /** Every upcall goes to the bridge's scheduler. */
  @Override
  public SchedulerUpcalls upcallsTarget() {
    return flux;
  }
}
