package io.fluxdrm.sched;

import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import java.util.ArrayList;
import java.util.List;

/**
 * flux-core sched-simple's node choice: candidates are up ranks with enough free cores and GPUs
 * that match the constraint, visited in the order of the pool's {@link AllocMode} (worst fit by
 * default: most free cores, then most free GPUs, then rank); lowest-numbered free cores and GPUs
 * are taken; slots never span ranks. Feasibility is judged against the whole pool (up or down, free
 * or not), whatever the mode.
 *
 * <p>A {@link Scope} narrows the search for RFC 51 grows: to the resources an R names, and away
 * from ranks the job already holds.
 */
final class Allocator {

  private Allocator() {}

  /**
   * Where an allocation may look.
   *
   * @param mask only resources this R names, or null for the whole pool
   * @param excluded ranks never to choose
   */
  record Scope(ResourceSet mask, IdSet excluded) {
    static final Scope ALL = new Scope(null, IdSet.empty());
  }

  /** What to take back from a job for a shrink, or why it cannot be done. */
  record Removal(List<ResourcePool.Pick> picks, String note) {}

  /** Allocates, or says whether the request must wait or can never be satisfied. */
  static AllocOutcome allocate(ResourcePool pool, ResourceRequest req, Scope scope) {
    AllocOutcome.Allocated a = tryAllocate(pool, req, scope);
    if (a != null) {
      return a;
    }
    String note = infeasibility(pool, req, scope);
    return note == null ? new AllocOutcome.InsufficientNow() : new AllocOutcome.Infeasible(note);
  }

  /** The allocation from free resources of up ranks, or null when there are not enough now. */
  static AllocOutcome.Allocated tryAllocate(ResourcePool pool, ResourceRequest req, Scope scope) {
    ResourceRequest.Count nodes = req.effectiveNodes();
    List<ResourcePool.Pick> picks = new ArrayList<>();
    long nslots;
    if (nodes != null) {
      int spn = req.effectiveSlotsPerNode();
      long needCores = (long) spn * req.slotSize();
      long needGpus = (long) spn * req.gpusPerSlot();
      AllocMode mode = pool.allocMode();
      // the pool is changed only after the visit: the caller grants the picks
      for (RankOrder.Cursor it = pool.candidates(needCores);
          picks.size() < nodes.max() && it.next(); ) {
        int pos = it.pos();
        if (pool.freeCores(pos).count() < needCores) {
          if (mode.endsAtShortRank()) {
            break; // worst fit: ranks come by free cores, most first: none further has enough
          }
          continue;
        }
        if (!eligible(pool, req, scope, pos)) {
          continue;
        }
        IdSet cores = available(pool.freeCores(pos), scope, pool.rank(pos), "core");
        IdSet gpus = available(pool.freeGpus(pos), scope, pool.rank(pos), "gpu");
        if (cores.count() < needCores || gpus.count() < needGpus) {
          continue;
        }
        if (req.exclusive()) {
          if (cores.equals(pool.totalCores(pos)) && gpus.equals(pool.totalGpus(pos))) {
            picks.add(new ResourcePool.Pick(pos, cores, gpus));
          }
        } else {
          picks.add(new ResourcePool.Pick(pos, cores.first(needCores), gpus.first(needGpus)));
        }
      }
      if (picks.size() < nodes.min()) {
        return null;
      }
      nslots = (long) picks.size() * spn;
    } else {
      ResourceRequest.Count slots = req.slots();
      long want = slots.bounded() ? slots.max() : Long.MAX_VALUE;
      long got = 0;
      AllocMode mode = pool.allocMode();
      for (RankOrder.Cursor it = pool.candidates(req.slotSize()); got < want && it.next(); ) {
        int pos = it.pos();
        if (pool.freeCores(pos).count() < req.slotSize()) {
          if (mode.endsAtShortRank()) {
            break;
          }
          continue;
        }
        if (!eligible(pool, req, scope, pos)) {
          continue;
        }
        IdSet cores = available(pool.freeCores(pos), scope, pool.rank(pos), "core");
        IdSet gpus = available(pool.freeGpus(pos), scope, pool.rank(pos), "gpu");
        long k = Math.min(slotsOn(cores, gpus, req), want - got);
        if (k > 0) {
          picks.add(
              new ResourcePool.Pick(
                  pos, cores.first(k * req.slotSize()), gpus.first(k * req.gpusPerSlot())));
          got += k;
        }
      }
      if (got < slots.min()) {
        return null;
      }
      nslots = got;
    }
    return new AllocOutcome.Allocated(pool.build(picks), nslots, picks);
  }

  /**
   * Null when the whole pool (within the scope) could satisfy the request, else the note of the
   * DENY, word for word flux-core 0.88's sched-simple ({@code Rv1Pool._check_feasibility}, D394):
   * {@code unsatisfiable request: need 1 slot(s) of 3 core(s), only 0 such slot(s) available (total
   * cores: 2)}. Every count is over the ranks the request may use: not removed, matching the
   * constraint, within the scope; up or down, free or not.
   */
  static String infeasibility(ResourcePool pool, ResourceRequest req, Scope scope) {
    ResourceRequest.Count nodes = req.effectiveNodes();
    if (nodes != null) {
      return nodeInfeasibility(pool, req, scope, nodes.min());
    }
    long need = req.slots().min();
    long coreSlots = 0;
    long gpuSlots = 0;
    long cores = 0;
    long gpus = 0;
    for (int pos = 0; pos < pool.size(); pos++) {
      if (eligible(pool, req, scope, pos)) {
        IdSet c = available(pool.totalCores(pos), scope, pool.rank(pos), "core");
        IdSet g = available(pool.totalGpus(pos), scope, pool.rank(pos), "gpu");
        coreSlots += c.count() / req.slotSize();
        gpuSlots += slotsOn(c, g, req);
        cores += c.count();
        gpus += g.count();
        if (coreSlots >= need && (req.gpusPerSlot() == 0 || gpuSlots >= need)) {
          // feasible: the totals only go into a DENY's note, so the rest of the pool is not
          // counted (a request that waits for resources is asked this at every scheduling pass)
          return null;
        }
      }
    }
    // Rv1Pool.py _check_feasibility: slots fit within one rank, cores checked first
    if (coreSlots < need) {
      return "unsatisfiable request: need "
          + need
          + " slot(s) of "
          + req.slotSize()
          + " core(s), only "
          + coreSlots
          + " such slot(s) available (total cores: "
          + cores
          + ")";
    }
    // Rv1Pool.py _check_feasibility: then GPUs, when a slot has any
    if (req.gpusPerSlot() > 0 && gpuSlots < need) {
      return "unsatisfiable request: need "
          + need
          + " slot(s) with "
          + req.gpusPerSlot()
          + " GPU(s) each, only "
          + gpuSlots
          + " available (total GPUs: "
          + gpus
          + ")";
    }
    return null;
  }

  /** {@link #infeasibility} of a request with a node count (or exclusive slots). */
  private static String nodeInfeasibility(
      ResourcePool pool, ResourceRequest req, Scope scope, long need) {
    int spn = req.effectiveSlotsPerNode();
    long needCores = (long) spn * req.slotSize();
    long needGpus = (long) spn * req.gpusPerSlot();
    long wholeFit = 0; // exclusive: whole nodes with one slot's cores and GPUs, as 0.88 counts
    long fit = 0; // nodes the allocator could ever choose
    for (int pos = 0; pos < pool.size(); pos++) {
      if (!eligible(pool, req, scope, pos)) {
        continue;
      }
      IdSet cores = available(pool.totalCores(pos), scope, pool.rank(pos), "core");
      IdSet gpus = available(pool.totalGpus(pos), scope, pool.rank(pos), "gpu");
      boolean whole = cores.equals(pool.totalCores(pos)) && gpus.equals(pool.totalGpus(pos));
      if (req.exclusive() && !whole) {
        continue;
      }
      if (cores.count() >= req.slotSize() && gpus.count() >= req.gpusPerSlot()) {
        wholeFit++;
      }
      if (cores.count() >= needCores && gpus.count() >= needGpus) {
        fit++;
      }
      if (fit >= need && (!req.exclusive() || wholeFit >= need)) {
        return null; // feasible: the counts only go into a DENY's note
      }
    }
    // Rv1Pool.py _check_feasibility: an exclusive request counts whole nodes holding one slot
    if (req.exclusive() && wholeFit < need) {
      return "unsatisfiable request: need "
          + need
          + " exclusive node(s), only "
          + wholeFit
          + " eligible";
    }
    // Rv1Pool.py _check_feasibility: nodes with the cores and GPUs of all their slots; fluxdrm
    // asks this of an exclusive request too, as its allocator never oversubscribes a node (D394)
    if (fit < need) {
      return "unsatisfiable request: need "
          + need
          + " node(s) with "
          + needCores
          + " cores"
          + (needGpus > 0 ? " and " + needGpus + " GPUs" : "")
          + " each, only "
          + fit
          + " eligible";
    }
    return null;
  }

  /**
   * What to take back from a job for a shrink ({@code spec_sub}), choosing from {@code releasable}
   * (what it holds and is not already releasing), highest ranks first. A node count takes every
   * resource the job holds on each chosen rank ({@code held} says what that is); a slot count takes
   * whole slots, highest-numbered cores and GPUs first.
   */
  static Removal selectRemoval(
      ResourcePool pool, ResourceSet releasable, ResourceSet held, ResourceRequest sub) {
    int[] ranks = releasable.ranks().stream().toArray();
    List<ResourcePool.Pick> picks = new ArrayList<>();
    ResourceRequest.Count nodes = sub.effectiveNodes();
    if (nodes != null) {
      int spn = sub.effectiveSlotsPerNode();
      long needCores = (long) spn * sub.slotSize();
      long needGpus = (long) spn * sub.gpusPerSlot();
      for (int i = ranks.length - 1; i >= 0 && picks.size() < nodes.min(); i--) {
        int rank = ranks[i];
        int pos = pool.position(rank);
        IdSet cores = releasable.resources(rank, "core");
        IdSet gpus = releasable.resources(rank, "gpu");
        if (pos < 0
            || !sub.matches(rank, pool.host(pos), pool::hasProperty)
            || !cores.equals(held.resources(rank, "core"))
            || !gpus.equals(held.resources(rank, "gpu"))
            || cores.count() < needCores
            || gpus.count() < needGpus) {
          continue;
        }
        picks.add(new ResourcePool.Pick(pos, cores, gpus));
      }
      if (picks.size() < nodes.min()) {
        return new Removal(
            null,
            "spec_sub: need "
                + nodes.min()
                + " node(s) with "
                + spn
                + " slot(s) of "
                + sub.slotSize()
                + " core(s)"
                + (sub.gpusPerSlot() > 0 ? " and " + sub.gpusPerSlot() + " gpu(s)" : "")
                + " held whole by the job, only "
                + picks.size()
                + " such node(s) (expected: a subset of the job's resources)");
      }
      return new Removal(picks, null);
    }
    long need = sub.slots().min();
    long got = 0;
    for (int i = ranks.length - 1; i >= 0 && got < need; i--) {
      int rank = ranks[i];
      int pos = pool.position(rank);
      if (pos < 0 || !sub.matches(rank, pool.host(pos), pool::hasProperty)) {
        continue;
      }
      IdSet cores = releasable.resources(rank, "core");
      IdSet gpus = releasable.resources(rank, "gpu");
      long k = Math.min(slotsOn(cores, gpus, sub), need - got);
      if (k > 0) {
        picks.add(
            new ResourcePool.Pick(
                pos, highest(cores, k * sub.slotSize()), highest(gpus, k * sub.gpusPerSlot())));
        got += k;
      }
    }
    if (got < need) {
      return new Removal(
          null,
          "spec_sub: need "
              + need
              + " slot(s) of "
              + sub.slotSize()
              + " core(s)"
              + (sub.gpusPerSlot() > 0 ? " and " + sub.gpusPerSlot() + " gpu(s)" : "")
              + ", the job holds only "
              + got
              + " (expected: a subset of the job's resources)");
    }
    return new Removal(picks, null);
  }

  private static IdSet highest(IdSet s, long n) {
    return n >= s.count() ? s : s.difference(s.first(s.count() - n));
  }

  private static long slotsOn(IdSet cores, IdSet gpus, ResourceRequest req) {
    long k = cores.count() / req.slotSize();
    if (req.gpusPerSlot() > 0) {
      k = Math.min(k, gpus.count() / req.gpusPerSlot());
    }
    return k;
  }

  private static boolean eligible(ResourcePool pool, ResourceRequest req, Scope scope, int pos) {
    int rank = pool.rank(pos);
    if (pool.isRemoved(pos) || scope.excluded().contains(rank)) {
      return false;
    }
    return req.matches(rank, pool.host(pos), pool::hasProperty);
  }

  private static IdSet available(IdSet have, Scope scope, int rank, String type) {
    return scope.mask() == null ? have : have.intersection(scope.mask().resources(rank, type));
  }
}
