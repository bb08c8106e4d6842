package io.fluxdrm.sched;

import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.ResourcePool.Pick;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PrimitiveIterator;
import java.util.Set;
import java.util.TreeMap;

/**
 * The pool R of a {@link ResourcePool} (the R acquired, what a shrink or a property update derives
 * from it, the expiration, the totals) and how the pool names its cores and GPUs as R (host names,
 * properties, its {@code scheduling} value) and reads an R back into picks. It reads the pool's
 * per-rank state through the pool's package-private view; the per-rank properties are kept here.
 */
final class PoolR {
  private final ResourcePool pool;

  /**
   * The R acquired, as given; {@link #all} is derived from it after a shrink or property update.
   */
  private final ResourceSet acquired;

  private ResourceSet all;
  private double expiration;
  private long coreCount;
  private long gpuCount;

  /** The properties of each rank, by position; the pool reads them. */
  private final List<Set<String>> properties;

  private final boolean hasNodelist;

  /** The pool's {@code scheduling} value on an R without targets, or null when it has none. */
  private final ResourceSet schedulingCarrier;

  /** Names the resources of {@code pool}, whose ranks are set already, acquired as {@code all}. */
  PoolR(ResourcePool pool, ResourceSet all, long cores, long gpus) {
    this.pool = pool;
    this.acquired = all;
    this.all = all;
    this.expiration = all.expiration();
    this.coreCount = cores;
    this.gpuCount = gpus;
    int n = pool.size();
    List<Set<String>> props = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      props.add(new HashSet<>());
    }
    for (Map.Entry<String, IdSet> e : all.properties().entrySet()) {
      for (PrimitiveIterator.OfInt it = e.getValue().iterator(); it.hasNext(); ) {
        props.get(pool.position(it.nextInt())).add(e.getKey());
      }
    }
    List<Set<String>> frozen = new ArrayList<>(n);
    for (Set<String> p : props) {
      frozen.add(p.isEmpty() ? Set.of() : Collections.unmodifiableSet(p));
    }
    properties = new ArrayList<>(frozen);
    boolean named = n > 0;
    for (int i = 0; i < n; i++) {
      named &= pool.host(i) != null;
    }
    hasNodelist = named;
    schedulingCarrier =
        all.scheduling() == null ? null : all.removeRanks(all.ranks()).withTimes(0, 0);
  }

  /** The pool R; see {@link ResourcePool#all}. */
  ResourceSet all() {
    return all;
  }

  /** The instance expiration (seconds since the epoch, 0 for none). */
  double expiration() {
    return expiration;
  }

  /** Sets the instance expiration ({@code resource.acquire} {@code expiration}). */
  void expiration(double e) {
    expiration = e;
    all = all.withTimes(all.starttime(), e);
  }

  /** Total cores of the pool. */
  long coreCount() {
    return coreCount;
  }

  /** Total GPUs of the pool. */
  long gpuCount() {
    return gpuCount;
  }

  /** The properties of each rank, by position (the pool reads them, this class changes them). */
  List<Set<String>> properties() {
    return properties;
  }

  /** The free cores and GPUs, on up and down ranks alike. */
  ResourceSet free() {
    List<Pick> picks = new ArrayList<>();
    for (int i = 0; i < pool.size(); i++) {
      if (!pool.freeCores(i).isEmpty() || !pool.freeGpus(i).isEmpty()) {
        picks.add(new Pick(i, pool.freeCores(i), pool.freeGpus(i)));
      }
    }
    return build(picks);
  }

  /** Everything some job holds (being released included). */
  ResourceSet allocated() {
    List<Pick> picks = new ArrayList<>();
    for (int i = 0; i < pool.size(); i++) {
      IdSet c = pool.totalCores(i).difference(pool.freeCores(i));
      IdSet g = pool.totalGpus(i).difference(pool.freeGpus(i));
      if (!c.isEmpty() || !g.isEmpty()) {
        picks.add(new Pick(i, c, g));
      }
    }
    return build(picks);
  }

  /** The ranks removed from the instance by a shrink. */
  IdSet removedRanks() {
    IdSet.Builder b = IdSet.builder();
    for (int i = 0; i < pool.size(); i++) {
      if (pool.isRemoved(i)) {
        b.add(pool.rank(i));
      }
    }
    return b.build();
  }

  /** The ranks that are down. */
  IdSet downRanks() {
    IdSet.Builder b = IdSet.builder();
    for (int i = 0; i < pool.size(); i++) {
      if (!pool.isUp(i)) {
        b.add(pool.rank(i));
      }
    }
    return b.build();
  }

  /** The resources of the down ranks, as {@code sched.resource-status} reports them. */
  ResourceSet down() {
    List<Pick> picks = new ArrayList<>();
    for (int i = 0; i < pool.size(); i++) {
      if (!pool.isUp(i) && !pool.isRemoved(i)) {
        picks.add(new Pick(i, pool.totalCores(i), pool.totalGpus(i)));
      }
    }
    return build(picks);
  }

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
        rb.add(pool.rank(p.pos()));
        if (names != null) {
          names.add(pool.host(p.pos()));
        }
        for (String prop : properties.get(p.pos())) {
          if (!prop.startsWith("+")) {
            props.computeIfAbsent(prop, k -> IdSet.builder()).add(pool.rank(p.pos()));
          }
        }
      }
      ResourceSet part =
          ResourceSet.ofHostNames(
              rb.build(),
              g.get(0).cores(),
              g.get(0).gpus(),
              names); // the pool's own host names: no hostlist made of them
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
      int pos = pool.position(rank);
      if (pos < 0) {
        why[0] = "rank " + rank + " is not in the pool";
        return null;
      }
      IdSet c = r.resources(rank, "core");
      IdSet g = r.resources(rank, "gpu");
      if (!c.isSubsetOf(pool.totalCores(pos))) {
        why[0] = "rank " + rank + " has no core " + c.difference(pool.totalCores(pos));
        return null;
      }
      if (!g.isSubsetOf(pool.totalGpus(pos))) {
        why[0] = "rank " + rank + " has no gpu " + g.difference(pool.totalGpus(pos));
        return null;
      }
      if (!c.isEmpty() || !g.isEmpty()) {
        picks.add(new Pick(pos, c, g));
      }
    }
    return picks;
  }

  /**
   * Checks a {@code property-remove} and a {@code property-add} (names as RFC 20 allows them, ranks
   * of the pool); the update removes, then adds.
   */
  ResourcePool.PropertyUpdate checkProperties(Map<String, IdSet> remove, Map<String, IdSet> add) {
    for (Map<String, IdSet> props : List.of(remove, add)) {
      try {
        acquired.withProperties(props);
      } catch (io.fluxdrm.rset.RsetException e) {
        return new ResourcePool.PropertyUpdate(e.getMessage(), () -> {});
      }
    }
    return new ResourcePool.PropertyUpdate(
        null,
        () -> {
          if (!remove.isEmpty() || !add.isEmpty()) {
            change(remove, false);
            change(add, true);
            derive();
          }
        });
  }

  void change(Map<String, IdSet> props, boolean add) {
    for (Map.Entry<String, IdSet> e : props.entrySet()) {
      for (PrimitiveIterator.OfInt it = e.getValue().iterator(); it.hasNext(); ) {
        int pos = pool.position(it.nextInt());
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
  void derive() {
    IdSet.Builder gone = IdSet.builder();
    List<Pick> remnant = new ArrayList<>();
    long cores = 0;
    long gpus = 0;
    for (int i = 0; i < pool.size(); i++) {
      if (pool.isRemoved(i)) {
        gone.add(pool.rank(i));
        if (!pool.totalCores(i).isEmpty() || !pool.totalGpus(i).isEmpty()) {
          remnant.add(new Pick(i, pool.totalCores(i), pool.totalGpus(i)));
        }
      }
      cores += pool.totalCores(i).count();
      gpus += pool.totalGpus(i).count();
    }
    coreCount = cores;
    gpuCount = gpus;
    ResourceSet r = acquired.removeRanks(gone.build());
    if (!remnant.isEmpty()) {
      r = r.union(build(remnant));
    }
    all = named(r, expiration);
  }

  /**
   * {@code r} (the acquired R less removals, plus what jobs hold of removed ranks) with the current
   * properties of its ranks, the acquired start time and {@code expiration}.
   */
  private ResourceSet named(ResourceSet r, double expiration) {
    com.fasterxml.jackson.databind.JsonNode json = r.toJson().deepCopy();
    com.fasterxml.jackson.databind.node.ObjectNode exec =
        (com.fasterxml.jackson.databind.node.ObjectNode) json.get("execution");
    exec.remove("properties");
    Map<String, IdSet.Builder> props = new TreeMap<>();
    for (PrimitiveIterator.OfInt it = r.ranks().iterator(); it.hasNext(); ) {
      int rank = it.nextInt();
      for (String p : properties.get(pool.position(rank))) {
        props.computeIfAbsent(p, k -> IdSet.builder()).add(rank);
      }
    }
    if (!props.isEmpty()) {
      com.fasterxml.jackson.databind.node.ObjectNode po = exec.putObject("properties");
      props.forEach((k, v) -> po.put(k, v.build().toString()));
    }
    return ResourceSet.fromJson(json).withTimes(acquired.starttime(), expiration);
  }

  /** Null when every rank of {@code rs} is in the pool, else the first that is not. */
  String unknownRanks(IdSet rs) {
    IdSet.Builder b = IdSet.builder();
    for (PrimitiveIterator.OfInt it = rs.iterator(); it.hasNext(); ) {
      int r = it.nextInt();
      if (pool.position(r) < 0) {
        b.add(r);
      }
    }
    IdSet missing = b.build();
    return missing.isEmpty() ? null : missing.toString();
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
}
