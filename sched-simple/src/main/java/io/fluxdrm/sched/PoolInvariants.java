package io.fluxdrm.sched;

import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import java.util.PrimitiveIterator;

/**
 * The conservation rules of a {@link ResourcePool} and its index, checked from outside through the
 * pool's package-private view: free ∪ allocated = pool, free ∩ allocated = ∅, no resource held by
 * two jobs, each job's R within the pool, nothing being released is free, a removed rank is never
 * up nor free, and the index lists exactly the up ranks with their current keys.
 */
final class PoolInvariants {
  private PoolInvariants() {}

  /**
   * Checks the conservation rules and the internal index of {@code pool}.
   *
   * @throws IllegalStateException naming the first rule broken
   */
  static void check(ResourcePool pool) {
    int n = pool.size();
    IdSet[] seenCores = new IdSet[n];
    IdSet[] seenGpus = new IdSet[n];
    for (int i = 0; i < n; i++) {
      seenCores[i] = pool.freeCores(i);
      seenGpus[i] = pool.freeGpus(i);
    }
    for (int i = 0; i < n; i++) {
      if (!pool.freeCores(i).isSubsetOf(pool.totalCores(i))
          || !pool.freeGpus(i).isSubsetOf(pool.totalGpus(i))) {
        throw new IllegalStateException(
            "rank " + pool.rank(i) + ": free resources outside the pool");
      }
    }
    for (Long job : pool.jobs()) {
      ResourceSet held = pool.allocation(job).orElseThrow();
      ResourceSet releasing = pool.releasing(job);
      String id = Long.toUnsignedString(job);
      for (PrimitiveIterator.OfInt it = held.ranks().iterator(); it.hasNext(); ) {
        int rank = it.nextInt();
        int pos = pool.position(rank);
        if (pos < 0) {
          throw new IllegalStateException(
              "job " + id + " holds rank " + rank + " outside the pool");
        }
        IdSet c = held.resources(rank, "core");
        IdSet g = held.resources(rank, "gpu");
        if (!c.isSubsetOf(pool.totalCores(pos)) || !g.isSubsetOf(pool.totalGpus(pos))) {
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
      String outside = PoolR.notWithin(releasing, held);
      if (outside != null) {
        throw new IllegalStateException(
            "job " + id + " is releasing " + outside + " that it does not hold");
      }
      for (PrimitiveIterator.OfInt it = releasing.ranks().iterator(); it.hasNext(); ) {
        int rank = it.nextInt();
        int pos = pool.position(rank);
        if (releasing.resources(rank, "core").intersects(pool.freeCores(pos))
            || releasing.resources(rank, "gpu").intersects(pool.freeGpus(pos))) {
          throw new IllegalStateException(
              "job " + id + " is releasing resources of rank " + rank + " that are free");
        }
      }
    }
    for (int i = 0; i < n; i++) {
      if (!seenCores[i].equals(pool.totalCores(i)) || !seenGpus[i].equals(pool.totalGpus(i))) {
        throw new IllegalStateException(
            "rank " + pool.rank(i) + ": free and allocated resources do not make up the pool");
      }
    }
    for (int i = 0; i < n; i++) {
      if (pool.isRemoved(i)
          && (pool.isUp(i) || !pool.freeCores(i).isEmpty() || !pool.freeGpus(i).isEmpty())) {
        throw new IllegalStateException("rank " + pool.rank(i) + " was removed but is up or free");
      }
      boolean listed = pool.all().ranks().contains(pool.rank(i));
      boolean has = !pool.totalCores(i).isEmpty() || !pool.totalGpus(i).isEmpty();
      if (pool.isRemoved(i) ? listed != has : !listed) {
        throw new IllegalStateException("rank " + pool.rank(i) + ": the pool R does not match");
      }
    }
    checkOrder(pool);
  }

  /**
   * The index holds the up ranks under their current keys and nothing else, and a visit from the
   * least key comes through all of them in ascending key order.
   */
  private static void checkOrder(ResourcePool pool) {
    RankOrder order = pool.order();
    int ups = 0;
    for (int i = 0; i < pool.size(); i++) {
      if (pool.isUp(i)) {
        ups++;
        if (!order.contains(pool.key(i))) {
          throw new IllegalStateException(
              "rank " + pool.rank(i) + " missing from the " + pool.allocMode() + " order");
        }
      }
    }
    if (ups != order.size()) {
      throw new IllegalStateException("the " + pool.allocMode() + " order holds stale entries");
    }
    int visited = 0;
    long last = -1;
    for (RankOrder.Cursor it = order.visit(0); it.next(); visited++) {
      if (it.key() <= last || !pool.isUp(it.pos()) || it.key() != pool.key(it.pos())) {
        throw new IllegalStateException(
            "the "
                + pool.allocMode()
                + " order visits rank "
                + pool.rank(it.pos())
                + " out of order or under a stale key");
      }
      last = it.key();
    }
    if (visited != ups) {
      throw new IllegalStateException(
          "the " + pool.allocMode() + " order visits " + visited + " of " + ups + " up ranks");
    }
  }
}
