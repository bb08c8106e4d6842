package io.fluxdrm.sched;

import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.PrimitiveIterator;
import java.util.Set;

/**
 * The allocation state of one scheduler: the pool R, which ranks are up, which cores and GPUs are
 * free, what each job holds, and what each job holds that is being released (granted in a shrink,
 * not yet named by {@code sched.free}: still the job's, never handed out, D7). It is the one
 * mutable class of the core (with the helpers it owns); every query returns a new immutable {@link
 * ResourceSet}.
 *
 * <p>The scheduler allocates cores and GPUs (as flux-core's sched-simple); other resource types of
 * the pool R are neither tracked nor handed out. Up ranks are kept in the order of the pool's
 * {@link AllocMode} (worst fit by default: most free cores, then most free GPUs, then rank) so that
 * an allocation visits only the ranks it may take, in the order it is to take them.
 *
 * <p>{@link #checkInvariants()} states the conservation rules: free ∪ allocated = pool, free ∩
 * allocated = ∅, no resource held by two jobs, each job's R within the pool, nothing being released
 * is free.
 *
 * <p>The per-rank state and the index of up ranks, which the allocation path reads rank by rank,
 * live here; the pool R and how picks are named as R live in {@link PoolR}, what each job holds in
 * {@link Holdings}, and the check of the conservation rules in {@link PoolInvariants}.
 */
public final class ResourcePool {

  /** Most cores (or GPUs) one rank may have: the width of a field of an {@link AllocMode} key. */
  static final int MAX_PER_RANK = (1 << 21) - 1;

  private final int[] ranks;
  private final String[] hosts;

  /** The properties of each rank, by position: {@link PoolR}'s list, which changes them. */
  private final List<Set<String>> properties;

  /** Ranks removed from the instance (RFC 28 {@code shrink}): never up, never free again. */
  private final boolean[] removed;

  private final IdSet[] totalCores;
  private final IdSet[] totalGpus;
  private final IdSet[] freeCores;
  private final IdSet[] freeGpus;
  private final boolean[] up;

  /** How ranks are chosen: the order of {@link #order}. */
  private final AllocMode mode;

  /** Up ranks by the mode's key; see {@link #key(int)}. */
  private final RankOrder order;

  private final Holdings jobs = new Holdings();

  /** How the pool names its resources as R. */
  private final PoolR names;

  /** One rank's share of an allocation: position in the pool, cores and GPUs. */
  record Pick(int pos, IdSet cores, IdSet gpus) {}

  private ResourcePool(ResourceSet all, AllocMode mode) {
    this.mode = mode;
    IdSet rs = all.ranks();
    int n = (int) rs.count();
    if (n > MAX_PER_RANK) {
      throw new SchedException("pool: " + n + " ranks (expected: at most " + MAX_PER_RANK + ")");
    }
    ranks = rs.stream().toArray();
    hosts = new String[n];
    totalCores = new IdSet[n];
    totalGpus = new IdSet[n];
    freeCores = new IdSet[n];
    freeGpus = new IdSet[n];
    up = new boolean[n];
    removed = new boolean[n];
    long cores = 0;
    long gpus = 0;
    long mostCores = 0; // of one rank
    long mostGpus = 0;
    for (int i = 0; i < n; i++) {
      int rank = ranks[i];
      hosts[i] = all.host(rank);
      totalCores[i] = all.resources(rank, "core");
      totalGpus[i] = all.resources(rank, "gpu");
      for (String type : new String[] {"core", "gpu"}) {
        long c = all.resources(rank, type).count();
        if (c > MAX_PER_RANK) {
          throw new SchedException(
              "pool: rank "
                  + rank
                  + " has "
                  + c
                  + " "
                  + type
                  + "s (expected: at most "
                  + MAX_PER_RANK
                  + ")");
        }
      }
      freeCores[i] = totalCores[i];
      freeGpus[i] = totalGpus[i];
      cores += totalCores[i].count();
      gpus += totalGpus[i].count();
      mostCores = Math.max(mostCores, totalCores[i].count());
      mostGpus = Math.max(mostGpus, totalGpus[i].count());
    }
    order = RankOrder.of(mode, n, mostCores, mostGpus);
    for (int i = 0; i < n; i++) {
      up[i] = true;
      order.add(key(i));
    }
    names = new PoolR(this, all, cores, gpus);
    properties = names.properties();
  }

  /**
   * A pool over the cores and GPUs of {@code r}, every rank up and everything free, allocated worst
   * fit.
   *
   * @throws SchedException when a rank has more cores or GPUs than the pool can index
   */
  public static ResourcePool of(ResourceSet r) {
    return of(r, AllocMode.WORST_FIT);
  }

  /**
   * A pool over the cores and GPUs of {@code r}, every rank up and everything free, whose ranks are
   * chosen in the order of {@code mode}.
   *
   * @throws SchedException when a rank has more cores or GPUs than the pool can index
   */
  public static ResourcePool of(ResourceSet r, AllocMode mode) {
    return new ResourcePool(Objects.requireNonNull(r, "r"), Objects.requireNonNull(mode, "mode"));
  }

  /** The order in which ranks are chosen. */
  public AllocMode allocMode() {
    return mode;
  }

  // ---- queries ------------------------------------------------------------------------------

  /**
   * The pool R: the R acquired, minus the ranks removed by a shrink except what jobs still hold of
   * them, with the current properties and expiration.
   */
  public ResourceSet all() {
    return names.all();
  }

  /** The instance expiration (seconds since the epoch, 0 for none). */
  public double expiration() {
    return names.expiration();
  }

  /** The ranks removed from the instance by a shrink. */
  public IdSet removedRanks() {
    return names.removedRanks();
  }

  /** The free cores and GPUs, on up and down ranks alike. */
  public ResourceSet free() {
    return names.free();
  }

  /** Everything some job holds (being released included). */
  public ResourceSet allocated() {
    return names.allocated();
  }

  /** The ranks that are down. */
  public IdSet downRanks() {
    return names.downRanks();
  }

  /** The resources of the down ranks, as {@code sched.resource-status} reports them. */
  public ResourceSet down() {
    return names.down();
  }

  /** What {@code job} holds, being released included; empty when it holds nothing. */
  public Optional<ResourceSet> allocation(long job) {
    return jobs.allocation(job);
  }

  /** What {@code job} holds that a granted shrink is releasing; empty when nothing. */
  public ResourceSet releasing(long job) {
    return jobs.releasing(job);
  }

  /** The jobs that hold an allocation, in unsigned id order. */
  public List<Long> jobs() {
    return jobs.jobs();
  }

  /** Total cores of the pool. */
  public long coreCount() {
    return names.coreCount();
  }

  /** Total GPUs of the pool. */
  public long gpuCount() {
    return names.gpuCount();
  }

  // ---- package-private access for the allocator -------------------------------------------

  int size() {
    return ranks.length;
  }

  int rank(int pos) {
    return ranks[pos];
  }

  String host(int pos) {
    return hosts[pos];
  }

  boolean isUp(int pos) {
    return up[pos];
  }

  boolean isRemoved(int pos) {
    return removed[pos];
  }

  IdSet totalCores(int pos) {
    return totalCores[pos];
  }

  IdSet totalGpus(int pos) {
    return totalGpus[pos];
  }

  IdSet freeCores(int pos) {
    return freeCores[pos];
  }

  IdSet freeGpus(int pos) {
    return freeGpus[pos];
  }

  /** Whether the rank at {@code rank} has property {@code name} (the RFC 31 matcher's view). */
  boolean hasProperty(int rank, String name) {
    int p = position(rank);
    return p >= 0 && properties.get(p).contains(name);
  }

  /** Position of {@code rank} in the pool, or -1. */
  int position(int rank) {
    int i = Arrays.binarySearch(ranks, rank);
    return i >= 0 ? i : -1;
  }

  /**
   * The up ranks an allocation of {@code needCores} cores per rank visits, in the mode's order: the
   * index's one cursor, valid until the next visit; nothing may change the pool during the visit.
   */
  RankOrder.Cursor candidates(long needCores) {
    return order.visit(mode.startKey(needCores));
  }

  /** The key of the rank at {@code pos} in the index, from its current free counts. */
  long key(int pos) {
    return mode.key(freeCores[pos].count(), freeGpus[pos].count(), pos);
  }

  /** The index of up ranks, for {@link PoolInvariants}. */
  RankOrder order() {
    return order;
  }

  // ---- building R ---------------------------------------------------------------------------

  /**
   * The R of some cores and GPUs of the pool: host names, the properties of those ranks without
   * instance-local ({@code +}) ones, and the pool's {@code scheduling} value; no times, no nslots.
   */
  ResourceSet build(List<Pick> picks) {
    return names.build(picks);
  }

  /**
   * The cores and GPUs {@code r} names, as picks; null with {@code why[0]} set when {@code r} names
   * a rank or a resource the pool does not have.
   */
  List<Pick> picksOf(ResourceSet r, String[] why) {
    return names.picksOf(r, why);
  }

  // ---- mutations (the core's) ---------------------------------------------------------------

  private void setFree(int pos, IdSet cores, IdSet gpus) {
    if (up[pos]) {
      order.remove(key(pos));
    }
    freeCores[pos] = cores;
    freeGpus[pos] = gpus;
    if (up[pos]) {
      order.add(key(pos));
    }
  }

  /**
   * Gives {@code picks} (all free) to {@code job}, and returns their R: {@code built} when the
   * caller built it already in the same decision (an allocation outcome's), else built here.
   *
   * @throws IllegalStateException when some pick is not free: a bug of the caller
   */
  ResourceSet grant(long job, List<Pick> picks, ResourceSet built) {
    for (Pick p : picks) {
      if (!p.cores().isSubsetOf(freeCores[p.pos()]) || !p.gpus().isSubsetOf(freeGpus[p.pos()])) {
        throw new IllegalStateException(
            "grant to job "
                + Long.toUnsignedString(job)
                + ": rank "
                + ranks[p.pos()]
                + " not free");
      }
    }
    for (Pick p : picks) {
      setFree(
          p.pos(),
          freeCores[p.pos()].difference(p.cores()),
          freeGpus[p.pos()].difference(p.gpus()));
    }
    ResourceSet r = built != null ? built : build(picks);
    jobs.add(job, r);
    return r;
  }

  /**
   * Marks {@code r} allocated to {@code job} (hello: a running job's R), or says why it cannot: a
   * rank or resource outside the pool, or one that is not free.
   */
  String claim(long job, ResourceSet r) {
    String[] why = new String[1];
    List<Pick> picks = picksOf(r, why);
    if (picks == null) {
      return why[0];
    }
    for (Pick p : picks) {
      IdSet busyCores = p.cores().difference(freeCores[p.pos()]);
      IdSet busyGpus = p.gpus().difference(freeGpus[p.pos()]);
      if (!busyCores.isEmpty() || !busyGpus.isEmpty()) {
        return "rank "
            + ranks[p.pos()]
            + ": "
            + (busyCores.isEmpty() ? "gpu " + busyGpus : "core " + busyCores)
            + " already allocated";
      }
    }
    grant(job, picks, null);
    return null;
  }

  /** Marks {@code r} (within what {@code job} holds) as being released. */
  void markReleasing(long job, ResourceSet r) {
    jobs.markReleasing(job, r);
  }

  /**
   * Frees what {@code r} names of {@code job}'s resources, or everything it holds when {@code all};
   * returns what was freed. The caller has checked that {@code r} is within the holding.
   */
  ResourceSet release(long job, ResourceSet r, boolean all) {
    ResourceSet held =
        jobs.allocation(job)
            .orElseThrow(() -> new IllegalStateException("release: " + Long.toUnsignedString(job)));
    ResourceSet gone = all ? held : r;
    String[] why = new String[1];
    List<Pick> picks = picksOf(gone, why);
    if (picks == null) {
      throw new IllegalStateException("release: " + why[0]);
    }
    ResourceSet freed = all ? gone : build(picks); // all: as held, not built again (D584)
    boolean shrunk = false;
    for (Pick p : picks) {
      if (removed[p.pos()]) {
        // a removed rank: what the job gives back leaves the pool instead of becoming free
        totalCores[p.pos()] = totalCores[p.pos()].difference(p.cores());
        totalGpus[p.pos()] = totalGpus[p.pos()].difference(p.gpus());
        shrunk = true;
      } else {
        setFree(p.pos(), freeCores[p.pos()].union(p.cores()), freeGpus[p.pos()].union(p.gpus()));
      }
    }
    jobs.released(job, freed, all);
    if (shrunk) {
      names.derive();
    }
    return freed;
  }

  /** Forgets every allocation (hello rebuilds them). */
  void reset() {
    jobs.clear();
    boolean shrunk = false;
    for (int i = 0; i < ranks.length; i++) {
      if (removed[i]) {
        shrunk |= !totalCores[i].isEmpty() || !totalGpus[i].isEmpty();
        totalCores[i] = IdSet.empty();
        totalGpus[i] = IdSet.empty();
      } else {
        setFree(i, totalCores[i], totalGpus[i]);
      }
    }
    if (shrunk) {
      names.derive();
    }
  }

  /**
   * Removes {@code rs} (all in the pool) from the instance: they go down for good, their free cores
   * and GPUs leave the pool, and what jobs hold of them stays theirs until {@code sched.free} names
   * it, then leaves the pool too.
   */
  void shrink(IdSet rs) {
    boolean changed = false;
    for (PrimitiveIterator.OfInt it = rs.iterator(); it.hasNext(); ) {
      int pos = position(it.nextInt());
      if (removed[pos]) {
        continue;
      }
      if (up[pos]) {
        order.remove(key(pos));
        up[pos] = false;
      }
      removed[pos] = true;
      totalCores[pos] = totalCores[pos].difference(freeCores[pos]);
      totalGpus[pos] = totalGpus[pos].difference(freeGpus[pos]);
      freeCores[pos] = IdSet.empty();
      freeGpus[pos] = IdSet.empty();
      changed = true;
    }
    if (changed) {
      names.derive();
    }
  }

  /** Sets the instance expiration ({@code resource.acquire} {@code expiration}). */
  void expiration(double e) {
    names.expiration(e);
  }

  /** A checked property update: {@link #error} is null when {@link #apply} may run. */
  record PropertyUpdate(String error, Runnable change) {
    void apply() {
      change.run();
    }
  }

  /**
   * Checks a {@code property-remove} and a {@code property-add} (names as RFC 20 allows them, ranks
   * of the pool); the update removes, then adds.
   */
  PropertyUpdate checkProperties(Map<String, IdSet> remove, Map<String, IdSet> add) {
    return names.checkProperties(remove, add);
  }

  /** Null when every rank of {@code rs} is in the pool, else the first that is not. */
  String unknownRanks(IdSet rs) {
    return names.unknownRanks(rs);
  }

  /** Marks ranks up or down; all must be in the pool; removed ranks stay down. */
  void setUp(IdSet rs, boolean isUp) {
    for (PrimitiveIterator.OfInt it = rs.iterator(); it.hasNext(); ) {
      int pos = position(it.nextInt());
      if (up[pos] != isUp && !removed[pos]) {
        up[pos] = isUp;
        if (isUp) {
          order.add(key(pos));
        } else {
          order.remove(key(pos));
        }
      }
    }
  }

  // ---- invariants ---------------------------------------------------------------------------

  /**
   * Checks the conservation rules and the internal index.
   *
   * @throws IllegalStateException naming the first rule broken
   */
  public void checkInvariants() {
    PoolInvariants.check(this);
  }
}
