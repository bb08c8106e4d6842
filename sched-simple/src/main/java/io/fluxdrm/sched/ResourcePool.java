package io.fluxdrm.sched;

import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.PrimitiveIterator;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The allocation state of one scheduler: the pool R, which ranks are up, which cores and GPUs are
 * free, what each job holds, and what each job holds that is being released (granted in a shrink,
 * not yet named by {@code sched.free}: still the job's, never handed out, D7). It is the one
 * mutable class of the core; every query returns a new immutable {@link ResourceSet}.
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
 * <p>Why one class: the free sets, the per-job holdings, the releasing sets and the allocation
 * order are four views of one state that every change (allocate, grow, shrink, free, rank up or
 * down) must update together for those conservation rules to hold; split, each piece would expose
 * its internals to the others.
 */
public final class ResourcePool {

  /** Most cores (or GPUs) one rank may have: the width of a field of an {@link AllocMode} key. */
  static final int MAX_PER_RANK = (1 << 21) - 1;

  /**
   * The R acquired, as given; {@link #all} is derived from it after a shrink or property update.
   */
  private final ResourceSet acquired;

  private ResourceSet all;
  private final int[] ranks;
  private final String[] hosts;
  private final boolean hasNodelist;
  private final List<Set<String>> properties;

  /** Ranks removed from the instance (RFC 28 {@code shrink}): never up, never free again. */
  private final boolean[] removed;

  private double expiration;
  private final IdSet[] totalCores;
  private final IdSet[] totalGpus;
  private final IdSet[] freeCores;
  private final IdSet[] freeGpus;
  private final boolean[] up;
  private long coreCount;
  private long gpuCount;

  /** How ranks are chosen: the order of {@link #order}. */
  private final AllocMode mode;

  /** Up ranks by the mode's key; see {@link #key(int)}. */
  private final TreeSet<Long> order = new TreeSet<>();

  /** The pool's {@code scheduling} value on an R without targets, or null when it has none. */
  private final ResourceSet schedulingCarrier;

  private final Map<Long, Holding> jobs = new HashMap<>();

  /** What one job holds, and the part of it being released. */
  private record Holding(ResourceSet held, ResourceSet releasing) {}

  /** One rank's share of an allocation: position in the pool, cores and GPUs. */
  record Pick(int pos, IdSet cores, IdSet gpus) {}

  private ResourcePool(ResourceSet all, AllocMode mode) {
    this.mode = mode;
    this.acquired = all;
    this.all = all;
    this.expiration = all.expiration();
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
    List<Set<String>> props = new ArrayList<>(n);
    long cores = 0;
    long gpus = 0;
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
      props.add(new HashSet<>());
    }
    for (Map.Entry<String, IdSet> e : all.properties().entrySet()) {
      for (PrimitiveIterator.OfInt it = e.getValue().iterator(); it.hasNext(); ) {
        props.get(position(it.nextInt())).add(e.getKey());
      }
    }
    List<Set<String>> frozen = new ArrayList<>(n);
    for (Set<String> p : props) {
      frozen.add(p.isEmpty() ? Set.of() : Collections.unmodifiableSet(p));
    }
    properties = new ArrayList<>(frozen);
    coreCount = cores;
    gpuCount = gpus;
    boolean named = n > 0;
    for (String h : hosts) {
      named &= h != null;
    }
    hasNodelist = named;
    schedulingCarrier = all.scheduling() == null ? null : all.removeRanks(rs).withTimes(0, 0);
    for (int i = 0; i < n; i++) {
      up[i] = true;
      order.add(key(i));
    }
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
    return all;
  }

  /** The instance expiration (seconds since the epoch, 0 for none). */
  public double expiration() {
    return expiration;
  }

  /** The ranks removed from the instance by a shrink. */
  public IdSet removedRanks() {
    IdSet.Builder b = IdSet.builder();
    for (int i = 0; i < ranks.length; i++) {
      if (removed[i]) {
        b.add(ranks[i]);
      }
    }
    return b.build();
  }

  /** The free cores and GPUs, on up and down ranks alike. */
  public ResourceSet free() {
    List<Pick> picks = new ArrayList<>();
    for (int i = 0; i < ranks.length; i++) {
      if (!freeCores[i].isEmpty() || !freeGpus[i].isEmpty()) {
        picks.add(new Pick(i, freeCores[i], freeGpus[i]));
      }
    }
    return build(picks);
  }

  /** Everything some job holds (being released included). */
  public ResourceSet allocated() {
    List<Pick> picks = new ArrayList<>();
    for (int i = 0; i < ranks.length; i++) {
      IdSet c = totalCores[i].difference(freeCores[i]);
      IdSet g = totalGpus[i].difference(freeGpus[i]);
      if (!c.isEmpty() || !g.isEmpty()) {
        picks.add(new Pick(i, c, g));
      }
    }
    return build(picks);
  }

  /** The ranks that are down. */
  public IdSet downRanks() {
    IdSet.Builder b = IdSet.builder();
    for (int i = 0; i < ranks.length; i++) {
      if (!up[i]) {
        b.add(ranks[i]);
      }
    }
    return b.build();
  }

  /** The resources of the down ranks, as {@code sched.resource-status} reports them. */
  public ResourceSet down() {
    List<Pick> picks = new ArrayList<>();
    for (int i = 0; i < ranks.length; i++) {
      if (!up[i] && !removed[i]) {
        picks.add(new Pick(i, totalCores[i], totalGpus[i]));
      }
    }
    return build(picks);
  }

  /** What {@code job} holds, being released included; empty when it holds nothing. */
  public Optional<ResourceSet> allocation(long job) {
    Holding h = jobs.get(job);
    return h == null ? Optional.empty() : Optional.of(h.held);
  }

  /** What {@code job} holds that a granted shrink is releasing; empty when nothing. */
  public ResourceSet releasing(long job) {
    Holding h = jobs.get(job);
    return h == null ? ResourceSet.empty() : h.releasing;
  }

  /** The jobs that hold an allocation, in unsigned id order. */
  public List<Long> jobs() {
    List<Long> ids = new ArrayList<>(jobs.keySet());
    ids.sort(Long::compareUnsigned);
    return Collections.unmodifiableList(ids);
  }

  /** Total cores of the pool. */
  public long coreCount() {
    return coreCount;
  }

  /** Total GPUs of the pool. */
  public long gpuCount() {
    return gpuCount;
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
   * The keys of the up ranks an allocation of {@code needCores} cores per rank visits, in the
   * mode's order ({@link AllocMode#positionOfKey} gives each rank's position).
   */
  Iterator<Long> candidates(long needCores) {
    return mode.candidates(order, needCores);
  }

  private long key(int pos) {
    return mode.key(freeCores[pos].count(), freeGpus[pos].count(), pos);
  }

  // ---- building R ---------------------------------------------------------------------------

  /**
   * The R of some cores and GPUs of the pool: host names, the properties of those ranks without
   * instance-local ({@code +}) ones, and the pool's {@code scheduling} value; no times, no nslots.
   */
  ResourceSet build(List<Pick> picks) {
    if (picks.isEmpty()) {
      return ResourceSet.empty();
    }
    List<Pick> sorted = new ArrayList<>(picks);
    sorted.sort(Comparator.comparingInt(Pick::pos));
    Map<List<IdSet>, List<Pick>> groups = new LinkedHashMap<>();
    for (Pick p : sorted) {
      groups.computeIfAbsent(List.of(p.cores(), p.gpus()), k -> new ArrayList<>()).add(p);
    }
    ResourceSet r = null;
    Map<String, IdSet.Builder> props = new TreeMap<>();
    for (List<Pick> g : groups.values()) {
      IdSet.Builder rb = IdSet.builder();
      List<String> names = hasNodelist ? new ArrayList<>(g.size()) : null;
      for (Pick p : g) {
        rb.add(ranks[p.pos()]);
        if (names != null) {
          names.add(hosts[p.pos()]);
        }
        for (String prop : properties.get(p.pos())) {
          if (!prop.startsWith("+")) {
            props.computeIfAbsent(prop, k -> IdSet.builder()).add(ranks[p.pos()]);
          }
        }
      }
      ResourceSet part =
          ResourceSet.of(
              rb.build(),
              g.get(0).cores(),
              g.get(0).gpus(),
              names == null ? null : Hostlist.of(names));
      r = r == null ? part : r.append(part);
    }
    if (!props.isEmpty()) {
      Map<String, IdSet> p = new LinkedHashMap<>();
      props.forEach((k, v) -> p.put(k, v.build()));
      r = r.withProperties(p);
    }
    if (schedulingCarrier != null) {
      r = r.union(schedulingCarrier);
    }
    return r;
  }

  /**
   * The cores and GPUs {@code r} names, as picks; null with {@code why[0]} set when {@code r} names
   * a rank or a resource the pool does not have.
   */
  List<Pick> picksOf(ResourceSet r, String[] why) {
    List<Pick> picks = new ArrayList<>();
    for (PrimitiveIterator.OfInt it = r.ranks().iterator(); it.hasNext(); ) {
      int rank = it.nextInt();
      int pos = position(rank);
      if (pos < 0) {
        why[0] = "rank " + rank + " is not in the pool";
        return null;
      }
      IdSet c = r.resources(rank, "core");
      IdSet g = r.resources(rank, "gpu");
      if (!c.isSubsetOf(totalCores[pos])) {
        why[0] = "rank " + rank + " has no core " + c.difference(totalCores[pos]);
        return null;
      }
      if (!g.isSubsetOf(totalGpus[pos])) {
        why[0] = "rank " + rank + " has no gpu " + g.difference(totalGpus[pos]);
        return null;
      }
      if (!c.isEmpty() || !g.isEmpty()) {
        picks.add(new Pick(pos, c, g));
      }
    }
    return picks;
  }

  /**
   * Null when {@code inner}'s cores and GPUs are all in {@code outer}, else the first that is not.
   */
  static String notWithin(ResourceSet inner, ResourceSet outer) {
    for (PrimitiveIterator.OfInt it = inner.ranks().iterator(); it.hasNext(); ) {
      int rank = it.nextInt();
      for (String type : new String[] {"core", "gpu"}) {
        IdSet extra = inner.resources(rank, type).difference(outer.resources(rank, type));
        if (!extra.isEmpty()) {
          return "rank" + rank + "/" + type + extra.encode(IdSet.Style.BRACKETS);
        }
      }
    }
    return null;
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
   * Gives {@code picks} (all free) to {@code job}, and returns their R.
   *
   * @throws IllegalStateException when some pick is not free: a bug of the caller
   */
  ResourceSet grant(long job, List<Pick> picks) {
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
    ResourceSet r = build(picks);
    Holding h = jobs.get(job);
    jobs.put(
        job,
        h == null
            ? new Holding(r, ResourceSet.empty())
            : new Holding(h.held.union(r), h.releasing));
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
    grant(job, picks);
    return null;
  }

  /** Marks {@code r} (within what {@code job} holds) as being released. */
  void markReleasing(long job, ResourceSet r) {
    Holding h = jobs.get(job);
    if (h == null || notWithin(r, h.held) != null) {
      throw new IllegalStateException(
          "releasing for job " + Long.toUnsignedString(job) + ": not held");
    }
    jobs.put(job, new Holding(h.held, h.releasing.union(r)));
  }

  /**
   * Frees what {@code r} names of {@code job}'s resources, or everything it holds when {@code all};
   * returns what was freed. The caller has checked that {@code r} is within the holding.
   */
  ResourceSet release(long job, ResourceSet r, boolean all) {
    Holding h = jobs.get(job);
    if (h == null) {
      throw new IllegalStateException("release for job " + Long.toUnsignedString(job));
    }
    ResourceSet gone = all ? h.held : r;
    String[] why = new String[1];
    List<Pick> picks = picksOf(gone, why);
    if (picks == null) {
      throw new IllegalStateException("release: " + why[0]);
    }
    ResourceSet freed = build(picks);
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
    if (all) {
      jobs.remove(job);
    } else {
      jobs.put(job, new Holding(h.held.diff(freed), h.releasing.diff(freed)));
    }
    if (shrunk) {
      derive();
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
      derive();
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
      derive();
    }
  }

  /** Sets the instance expiration ({@code resource.acquire} {@code expiration}). */
  void expiration(double e) {
    expiration = e;
    all = all.withTimes(all.starttime(), e);
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
    for (Map<String, IdSet> props : List.of(remove, add)) {
      try {
        acquired.withProperties(props);
      } catch (io.fluxdrm.rset.RsetException e) {
        return new PropertyUpdate(e.getMessage(), () -> {});
      }
    }
    return new PropertyUpdate(
        null,
        () -> {
          if (!remove.isEmpty() || !add.isEmpty()) {
            change(remove, false);
            change(add, true);
            derive();
          }
        });
  }

  private void change(Map<String, IdSet> props, boolean add) {
    for (Map.Entry<String, IdSet> e : props.entrySet()) {
      for (PrimitiveIterator.OfInt it = e.getValue().iterator(); it.hasNext(); ) {
        int pos = position(it.nextInt());
        Set<String> next = new HashSet<>(properties.get(pos));
        if (add) {
          next.add(e.getKey());
        } else {
          next.remove(e.getKey());
        }
        properties.set(pos, next.isEmpty() ? Set.of() : Collections.unmodifiableSet(next));
      }
    }
  }

  /** Recomputes {@link #all}, the counts, from the acquired R, removals and properties. */
  private void derive() {
    IdSet.Builder gone = IdSet.builder();
    List<Pick> remnant = new ArrayList<>();
    long cores = 0;
    long gpus = 0;
    for (int i = 0; i < ranks.length; i++) {
      if (removed[i]) {
        gone.add(ranks[i]);
        if (!totalCores[i].isEmpty() || !totalGpus[i].isEmpty()) {
          remnant.add(new Pick(i, totalCores[i], totalGpus[i]));
        }
      }
      cores += totalCores[i].count();
      gpus += totalGpus[i].count();
    }
    coreCount = cores;
    gpuCount = gpus;
    ResourceSet r = acquired.removeRanks(gone.build());
    if (!remnant.isEmpty()) {
      r = r.union(build(remnant));
    }
    com.fasterxml.jackson.databind.JsonNode json = r.toJson().deepCopy();
    com.fasterxml.jackson.databind.node.ObjectNode exec =
        (com.fasterxml.jackson.databind.node.ObjectNode) json.get("execution");
    exec.remove("properties");
    Map<String, IdSet.Builder> props = new TreeMap<>();
    for (PrimitiveIterator.OfInt it = r.ranks().iterator(); it.hasNext(); ) {
      int rank = it.nextInt();
      for (String p : properties.get(position(rank))) {
        props.computeIfAbsent(p, k -> IdSet.builder()).add(rank);
      }
    }
    if (!props.isEmpty()) {
      com.fasterxml.jackson.databind.node.ObjectNode po = exec.putObject("properties");
      props.forEach((k, v) -> po.put(k, v.build().toString()));
    }
    all = ResourceSet.fromJson(json).withTimes(acquired.starttime(), expiration);
  }

  /** Null when every rank of {@code rs} is in the pool, else the first that is not. */
  String unknownRanks(IdSet rs) {
    IdSet.Builder b = IdSet.builder();
    for (PrimitiveIterator.OfInt it = rs.iterator(); it.hasNext(); ) {
      int r = it.nextInt();
      if (position(r) < 0) {
        b.add(r);
      }
    }
    IdSet missing = b.build();
    return missing.isEmpty() ? null : missing.toString();
  }

  /** Marks ranks up or down; all must be in the pool; removed ranks stay down. */
  void setUp(IdSet rs, boolean isUp) {
    for (PrimitiveIterator.OfInt it = rs.iterator(); it.hasNext(); ) {
      int pos = position(it.nextInt());
      if (up[pos] != isUp && !removed[pos]) {
        if (up[pos]) {
          order.remove(key(pos));
        }
        up[pos] = isUp;
        if (isUp) {
          order.add(key(pos));
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
    IdSet[] seenCores = freeCores.clone();
    IdSet[] seenGpus = freeGpus.clone();
    for (int i = 0; i < ranks.length; i++) {
      if (!freeCores[i].isSubsetOf(totalCores[i]) || !freeGpus[i].isSubsetOf(totalGpus[i])) {
        throw new IllegalStateException("rank " + ranks[i] + ": free resources outside the pool");
      }
    }
    for (Long job : jobs()) {
      Holding h = jobs.get(job);
      String id = Long.toUnsignedString(job);
      for (PrimitiveIterator.OfInt it = h.held.ranks().iterator(); it.hasNext(); ) {
        int rank = it.nextInt();
        int pos = position(rank);
        if (pos < 0) {
          throw new IllegalStateException(
              "job " + id + " holds rank " + rank + " outside the pool");
        }
        IdSet c = h.held.resources(rank, "core");
        IdSet g = h.held.resources(rank, "gpu");
        if (!c.isSubsetOf(totalCores[pos]) || !g.isSubsetOf(totalGpus[pos])) {
          throw new IllegalStateException(
              "job " + id + " holds resources of rank " + rank + " outside the pool");
        }
        if (c.intersects(seenCores[pos]) || g.intersects(seenGpus[pos])) {
          throw new IllegalStateException(
              "job "
                  + id
                  + " holds resources of rank "
                  + rank
                  + " that are free or held by another job");
        }
        seenCores[pos] = seenCores[pos].union(c);
        seenGpus[pos] = seenGpus[pos].union(g);
      }
      String outside = notWithin(h.releasing, h.held);
      if (outside != null) {
        throw new IllegalStateException(
            "job " + id + " is releasing " + outside + " that it does not hold");
      }
      for (PrimitiveIterator.OfInt it = h.releasing.ranks().iterator(); it.hasNext(); ) {
        int rank = it.nextInt();
        int pos = position(rank);
        if (h.releasing.resources(rank, "core").intersects(freeCores[pos])
            || h.releasing.resources(rank, "gpu").intersects(freeGpus[pos])) {
          throw new IllegalStateException(
              "job " + id + " is releasing resources of rank " + rank + " that are free");
        }
      }
    }
    for (int i = 0; i < ranks.length; i++) {
      if (!seenCores[i].equals(totalCores[i]) || !seenGpus[i].equals(totalGpus[i])) {
        throw new IllegalStateException(
            "rank " + ranks[i] + ": free and allocated resources do not make up the pool");
      }
    }
    for (int i = 0; i < ranks.length; i++) {
      if (removed[i] && (up[i] || !freeCores[i].isEmpty() || !freeGpus[i].isEmpty())) {
        throw new IllegalStateException("rank " + ranks[i] + " was removed but is up or free");
      }
      boolean listed = all.ranks().contains(ranks[i]);
      boolean has = !totalCores[i].isEmpty() || !totalGpus[i].isEmpty();
      if (removed[i] ? listed != has : !listed) {
        throw new IllegalStateException("rank " + ranks[i] + ": the pool R does not match");
      }
    }
    int ups = 0;
    for (int i = 0; i < ranks.length; i++) {
      if (up[i]) {
        ups++;
        if (!order.contains(key(i))) {
          throw new IllegalStateException(
              "rank " + ranks[i] + " missing from the " + mode + " order");
        }
      }
    }
    if (ups != order.size()) {
      throw new IllegalStateException("the " + mode + " order holds stale entries");
    }
  }
}
