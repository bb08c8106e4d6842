package io.fluxdrm.sched;

import io.fluxdrm.rset.ResourceSet;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What each job of a {@link ResourcePool} holds, and the part of it being released (granted in a
 * shrink, not yet named by {@code sched.free}: still the job's, never handed out, D7).
 */
final class Holdings {
  private final Map<Long, Holding> jobs = new JobIdMap<>();

  /** What one job holds, and the part of it being released. */
  private record Holding(ResourceSet held, ResourceSet releasing) {}

  /** What {@code job} holds, being released included; empty when it holds nothing. */
  Optional<ResourceSet> allocation(long job) {
    Holding h = jobs.get(job);
    return h == null ? Optional.empty() : Optional.of(h.held);
  }

  /** What {@code job} holds that a granted shrink is releasing; empty when nothing. */
  ResourceSet releasing(long job) {
    Holding h = jobs.get(job);
    return h == null ? ResourceSet.empty() : h.releasing;
  }

  /** The jobs that hold an allocation, in unsigned id order. */
  List<Long> jobs() {
    List<Long> ids = new ArrayList<>(jobs.keySet());
    ids.sort(Long::compareUnsigned);
    return Collections.unmodifiableList(ids);
  }

  /** Adds {@code r} (just granted) to what {@code job} holds. */
  void add(long job, ResourceSet r) {
    Holding h = jobs.get(job);
    jobs.put(
        job,
        h == null
            ? new Holding(r, ResourceSet.empty())
            : new Holding(h.held.union(r), h.releasing));
  }

  /** Marks {@code r} (within what {@code job} holds) as being released. */
  void markReleasing(long job, ResourceSet r) {
    Holding h = jobs.get(job);
    if (h == null || PoolR.notWithin(r, h.held) != null) {
      throw new IllegalStateException(
          "releasing for job " + Long.toUnsignedString(job) + ": not held");
    }
    jobs.put(job, new Holding(h.held, h.releasing.union(r)));
  }

  /** Takes {@code freed} out of what {@code job} holds, or forgets the job when {@code all}. */
  void released(long job, ResourceSet freed, boolean all) {
    if (all) {
      jobs.remove(job);
    } else {
      Holding h = jobs.get(job);
      jobs.put(job, new Holding(h.held.diff(freed), h.releasing.diff(freed)));
    }
  }

  /** Forgets every allocation. */
  void clear() {
    jobs.clear();
  }
}
