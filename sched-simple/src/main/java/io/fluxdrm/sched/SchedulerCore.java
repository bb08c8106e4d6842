package io.fluxdrm.sched;

import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The scheduler as a pure function of events: {@link #handle} takes one decoded request and the
 * time, updates the {@link ResourcePool} and returns the decisions (responses, facts to log).
 *
 * <p>RFC 27: pending allocs are kept in the order of the options' {@link SchedulingPolicy}; each
 * scheduling pass tries them in that order, and the policy says whether one that must wait ends the
 * pass. The default, {@link FifoPolicy}, orders by priority (descending) then job id (ascending)
 * and serves the head until it must wait (head-of-line blocking, no backfill). A request the pool
 * could never satisfy is DENIED with a note when a pass tries it. RFC 51: reallocs of running jobs
 * form one FIFO, served before the allocs by default (D4); a grow takes ranks nobody holds, a
 * shrink names resources the job holds, which stay allocated until {@code sched.free} names them
 * (D7). A pass runs after every event that was not refused.
 *
 * <p>The realloc FIFO and its decisions live in {@link ReallocQueue}, the pending allocs are {@link
 * PendingAlloc}s, the running jobs {@link Running}s; the pool's own bookkeeping lives in {@link
 * ResourcePool}.
 *
 * <p>Not thread-safe: one thread (the service's reactor) owns a core.
 */
public final class SchedulerCore {

  /** The note of a hello job whose R cannot be allocated again, in flux-core's words. */
  public static final String RESTART_NOTE = "failed to reallocate R for running job";

  /** The exception type raised on such a job. */
  public static final String RESTART_TYPE = "scheduler-restart";

  private static final long MAX_PRIORITY = 4294967295L;

  private final ResourcePool pool;
  private final SchedulerOptions options;
  private final SchedulingPolicy policy;

  /** Pending allocs, in the order they are served (the policy's). */
  private final TreeSet<PendingAlloc> queue;

  private final Map<Long, PendingAlloc> pendingById = new JobIdMap<>();
  private final Map<Long, Running> running = new JobIdMap<>();
  private final ReallocQueue reallocs;

  private SchedulerCore(ResourcePool pool, SchedulerOptions options) {
    this.pool = pool;
    this.options = options;
    this.policy = options.policy();
    this.queue = new TreeSet<>(policy.order());
    this.reallocs = new ReallocQueue(pool, options, running, pendingById);
  }

  /**
   * A core over a fresh pool of {@code r} (every rank up, nothing allocated, ranks chosen in the
   * options' {@link AllocMode}) with {@code options}; running jobs come back with a {@link
   * SchedEvent.Hello}.
   */
  public static SchedulerCore of(ResourceSet r, SchedulerOptions options) {
    return new SchedulerCore(ResourcePool.of(r, options.allocMode()), options);
  }

  public ResourcePool pool() {
    return pool;
  }

  public SchedulerOptions options() {
    return options;
  }

  /** Ids of the pending allocs, in the order they will be served. */
  public List<Long> pendingAllocs() {
    List<Long> out = new ArrayList<>(queue.size());
    for (PendingAlloc p : queue) {
      out.add(p.id);
    }
    return Collections.unmodifiableList(out);
  }

  /** Number of pending reallocs. */
  public int pendingReallocs() {
    return reallocs.size();
  }

  /** Whether {@code id} holds an allocation. */
  public boolean isRunning(long id) {
    return running.containsKey(id);
  }

  /** The next {@code alloc_id} this core will hand out (to persist across restarts). */
  public long nextAllocId() {
    return reallocs.nextAllocId();
  }

  /**
   * {@code feasibility.check}: empty when the whole pool could satisfy {@code request}, else the
   * note (answered with EOVERFLOW).
   */
  public Optional<String> feasibility(ResourceRequest request) {
    return Optional.ofNullable(Allocator.infeasibility(pool, request, Allocator.Scope.ALL));
  }

  /**
   * Acts on one event at time {@code now} (seconds since the epoch, the reactor's time) and returns
   * the decisions in the order they are to be carried out.
   */
  public List<Decision> handle(SchedEvent event, double now) {
    List<Decision> out = new ArrayList<>(2);
    boolean changed;
    if (event instanceof SchedEvent.Alloc e) {
      changed = alloc(e, out);
    } else if (event instanceof SchedEvent.Free e) {
      changed = free(e, out);
    } else if (event instanceof SchedEvent.Cancel e) {
      changed = cancel(e, out);
    } else if (event instanceof SchedEvent.Prioritize e) {
      changed = prioritize(e);
    } else if (event instanceof SchedEvent.Expiration e) {
      expiration(e, out);
      changed = false;
    } else if (event instanceof SchedEvent.Hello e) {
      hello(e, out);
      changed = true;
    } else if (event instanceof SchedEvent.Realloc e) {
      changed = reallocs.realloc(e, out);
    } else if (event instanceof SchedEvent.ReallocCancel e) {
      changed = reallocs.reallocCancel(e, out);
    } else if (event instanceof SchedEvent.Disconnect e) {
      changed = reallocs.disconnect(e.sender());
    } else if (event instanceof SchedEvent.ResourceUpdate e) {
      changed = resourceUpdate(e, out);
    } else {
      throw new IllegalArgumentException("unknown event " + event);
    }
    if (changed) {
      schedule(now, out);
      if (options.annotatePending()) {
        annotate(out);
      }
    }
    return out;
  }

  // ---- RFC 27 --------------------------------------------------------------------------------

  static String id(long id) {
    return Long.toUnsignedString(id);
  }

  private boolean alloc(SchedEvent.Alloc e, List<Decision> out) {
    if (e.priority() < 0 || e.priority() > MAX_PRIORITY) {
      out.add(
          reject(
              e.id(),
              e,
              Errno.EPROTO,
              "alloc: priority " + e.priority() + " (expected: 0 to " + MAX_PRIORITY + ")"));
      return false;
    }
    if (pendingById.containsKey(e.id())) {
      out.add(
          reject(
              e.id(),
              e,
              Errno.EPROTO,
              "alloc: job " + id(e.id()) + " already has a pending alloc request"));
      return false;
    }
    if (running.containsKey(e.id())) {
      out.add(
          reject(e.id(), e, Errno.EPROTO, "alloc: job " + id(e.id()) + " already holds resources"));
      return false;
    }
    QueueDepth depth = options.queueDepth();
    if (!depth.isUnlimited() && pendingById.size() >= depth.limit()) {
      out.add(
          reject(
              e.id(),
              e,
              Errno.EINVAL,
              "alloc: job "
                  + id(e.id())
                  + " would be pending request "
                  + (pendingById.size() + 1)
                  + " (expected: at most queue-depth "
                  + depth.limit()
                  + ")"));
      return false;
    }
    PendingAlloc p = new PendingAlloc(e.id(), e.priority(), e.userid(), e.tSubmit(), e.request());
    pendingById.put(p.id, p);
    queue.add(p);
    return true;
  }

  private boolean free(SchedEvent.Free e, List<Decision> out) {
    if (!running.containsKey(e.id())) {
      out.add(
          pendingById.containsKey(e.id())
              ? reject(
                  e.id(),
                  e,
                  Errno.EINVAL,
                  "free: job " + id(e.id()) + " holds no resources (its alloc is pending)")
              : reject(e.id(), e, Errno.ENOENT, "free: unknown job " + id(e.id())));
      return false;
    }
    ResourceSet held = pool.allocation(e.id()).orElseThrow();
    String outside = PoolR.notWithin(e.r(), held);
    if (outside != null) {
      out.add(
          reject(
              e.id(),
              e,
              Errno.EINVAL,
              "free: R names "
                  + outside
                  + " that job "
                  + id(e.id())
                  + " does not hold (expected: a subset of its allocation)"));
      return false;
    }
    ResourceSet freed = pool.release(e.id(), e.r(), e.isFinal());
    out.add(new Decision.Freed(e.id(), freed, e.isFinal()));
    if (e.isFinal()) {
      running.remove(e.id());
      reallocs.jobFreed(e.id(), out);
    }
    return true;
  }

  /**
   * Answers the job's pending alloc with CANCEL; and, as RFC 51 words the realloc CANCEL type
   * ("canceled by a {@code sched.cancel} request"), the running job's pending reallocs too.
   */
  private boolean cancel(SchedEvent.Cancel e, List<Decision> out) {
    boolean changed = false;
    PendingAlloc p = pendingById.remove(e.id());
    if (p != null) {
      queue.remove(p);
      out.add(new Decision.AllocCancel(e.id()));
      changed = true;
    }
    if (reallocs.cancel(e.id(), out)) {
      changed = true;
    }
    return changed;
  }

  private boolean prioritize(SchedEvent.Prioritize e) {
    boolean changed = false;
    for (SchedEvent.JobPriority jp : e.jobs()) {
      PendingAlloc p = pendingById.get(jp.id());
      if (p != null && jp.priority() >= 0 && jp.priority() <= MAX_PRIORITY) {
        queue.remove(p);
        p.priority = jp.priority();
        queue.add(p);
        changed = true;
      }
    }
    return changed;
  }

  private void expiration(SchedEvent.Expiration e, List<Decision> out) {
    if (!(e.expiration() >= 0) || Double.isInfinite(e.expiration())) {
      out.add(
          reject(
              e.id(),
              e,
              Errno.EINVAL,
              "expiration: " + e.expiration() + " (expected: finite, >= 0)"));
      return;
    }
    Running r = running.get(e.id());
    if (r == null) {
      out.add(reject(e.id(), e, Errno.ENOENT, "expiration: job " + id(e.id()) + " is not running"));
      return;
    }
    r.expiration = e.expiration();
    out.add(new Decision.ExpirationSet(e.id(), e.expiration()));
  }

  private void hello(SchedEvent.Hello e, List<Decision> out) {
    pool.reset();
    running.clear();
    queue.clear();
    pendingById.clear();
    reallocs.clear();
    for (SchedEvent.RunningJob j : e.jobs()) {
      ResourceSet r = j.free().isEmpty() ? j.r() : j.r().removeRanks(j.free());
      String why = running.containsKey(j.id()) ? "job listed twice" : pool.claim(j.id(), r);
      if (why == null) {
        running.put(j.id(), new Running(j.userid(), j.r().expiration()));
        out.add(new Decision.Restored(j.id(), pool.allocation(j.id()).orElseThrow()));
      } else {
        out.add(new Decision.JobException(j.id(), RESTART_TYPE, RESTART_NOTE, why));
      }
    }
  }

  private boolean resourceUpdate(SchedEvent.ResourceUpdate e, List<Decision> out) {
    String unknown = pool.unknownRanks(e.up().union(e.down()).union(e.shrink()));
    if (unknown != null) {
      out.add(
          reject(0, e, Errno.EINVAL, "resource update: ranks " + unknown + " are not in the pool"));
      return false;
    }
    IdSet both = e.up().intersection(e.down().union(e.shrink()));
    if (!both.isEmpty()) {
      out.add(
          reject(
              0,
              e,
              Errno.EINVAL,
              "resource update: ranks "
                  + both
                  + " both up and down or removed (expected: one or the other)"));
      return false;
    }
    IdSet revived = e.up().intersection(pool.removedRanks());
    if (!revived.isEmpty()) {
      out.add(
          reject(
              0,
              e,
              Errno.EINVAL,
              "resource update: ranks "
                  + revived
                  + " were removed from the instance (expected: not up again)"));
      return false;
    }
    double exp = e.expiration();
    if (!Double.isNaN(exp) && (exp < 0 || Double.isInfinite(exp))) {
      out.add(
          reject(0, e, Errno.EINVAL, "resource update: expiration " + exp + " (expected: >= 0)"));
      return false;
    }
    // properties are checked (and applied) first: a refused name changes nothing
    ResourcePool.PropertyUpdate props = pool.checkProperties(e.propertyRemove(), e.propertyAdd());
    if (props.error() != null) {
      out.add(reject(0, e, Errno.EINVAL, "resource update: " + props.error()));
      return false;
    }
    props.apply();
    pool.shrink(e.shrink());
    pool.setUp(e.up(), true);
    pool.setUp(e.down().difference(e.shrink()), false);
    if (!Double.isNaN(exp)) {
      pool.expiration(exp);
    }
    if (!e.shrink().isEmpty() || !e.propertyAdd().isEmpty() || !e.propertyRemove().isEmpty()) {
      for (PendingAlloc p : queue) {
        p.feasibilityKnown = false;
      }
    }
    return true;
  }

  // ---- scheduling pass -----------------------------------------------------------------------

  private void schedule(double now, List<Decision> out) {
    switch (options.reallocOrder()) {
      case REALLOC_FIRST:
        reallocs.serve(now, out);
        serveAllocs(now, out);
        break;
      case REALLOC_FIRST_BLOCKING:
        if (reallocs.serve(now, out)) {
          serveAllocs(now, out);
        }
        break;
      case ALLOC_FIRST:
        serveAllocs(now, out);
        reallocs.serve(now, out);
        break;
      default:
        throw new IllegalStateException("unknown order " + options.reallocOrder());
    }
  }

  /**
   * Tries the pending allocs in the policy's order: each is allocated, DENIED when the pool could
   * never satisfy it, or left waiting; the policy says whether a waiting one ends the pass.
   */
  private void serveAllocs(double now, List<Decision> out) {
    for (Iterator<PendingAlloc> it = queue.iterator(); it.hasNext(); ) {
      PendingAlloc p = it.next();
      AllocOutcome.Allocated a = Allocator.tryAllocate(pool, p.request, Allocator.Scope.ALL);
      if (a == null) {
        if (!p.feasibilityKnown) {
          String note = Allocator.infeasibility(pool, p.request, Allocator.Scope.ALL);
          if (note != null) {
            it.remove();
            pendingById.remove(p.id);
            out.add(new Decision.AllocDeny(p.id, note));
            continue;
          }
          p.feasibilityKnown = true;
        }
        if (policy.blocks(p)) {
          return;
        }
        continue;
      }
      it.remove();
      pendingById.remove(p.id);
      pool.grant(p.id, a.picks(), a.r());
      double duration = p.request.duration();
      double expiration = duration > 0 ? now + duration : pool.expiration();
      running.put(p.id, new Running(p.userid, expiration));
      out.add(
          new Decision.AllocSuccess(
              p.id, a.r().withNslots(a.nslots()).withTimes(now, expiration), p.annotated >= 0));
    }
  }

  /** The reason a pending alloc gives in its annotation, in flux-core's words. */
  public static final String REASON_PENDING = "insufficient resources";

  /** Annotates each alloc left pending whose place in the queue changed since it was last sent. */
  private void annotate(List<Decision> out) {
    long ahead = 0;
    for (PendingAlloc p : queue) {
      if (p.annotated != ahead) {
        p.annotated = ahead;
        out.add(new Decision.AllocAnnotate(p.id, REASON_PENDING, ahead));
      }
      ahead++;
    }
  }

  static Decision.Rejected reject(long job, SchedEvent e, int errnum, String message) {
    return new Decision.Rejected(job, e, errnum, message);
  }
}
