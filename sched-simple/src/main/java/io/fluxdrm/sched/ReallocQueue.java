package io.fluxdrm.sched;

import static io.fluxdrm.sched.SchedulerCore.id;
import static io.fluxdrm.sched.SchedulerCore.reject;

import io.fluxdrm.protocol.JobAccess;
import io.fluxdrm.protocol.ReallocResponseType;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rset.ResourceSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The realloc FIFO of a {@link SchedulerCore} (RFC 51): the pending {@code sched.realloc} requests
 * by sender and matchtag, in arrival order, each with the {@code alloc_id} it was given, and how
 * each is decided against the pool (D4, D7, D142). It reads the core's running jobs and pending
 * allocs, which the core owns.
 */
final class ReallocQueue {
  private final ResourcePool pool;
  private final SchedulerOptions options;
  private final Map<Long, Running> running;
  private final Map<Long, PendingAlloc> pendingById;
  private final LinkedHashMap<ReallocKey, PendingRealloc> reallocs = new LinkedHashMap<>();
  private long nextAllocId;

  private record ReallocKey(String sender, long matchtag) {}

  private record PendingRealloc(SchedEvent.Realloc request, long allocId) {}

  ReallocQueue(
      ResourcePool pool,
      SchedulerOptions options,
      Map<Long, Running> running,
      Map<Long, PendingAlloc> pendingById) {
    this.pool = pool;
    this.options = options;
    this.running = running;
    this.pendingById = pendingById;
    this.nextAllocId = options.firstAllocId();
  }

  /** Number of pending reallocs. */
  int size() {
    return reallocs.size();
  }

  /** The next {@code alloc_id} to hand out. */
  long nextAllocId() {
    return nextAllocId;
  }

  /** Drops every pending realloc (a hello). */
  void clear() {
    reallocs.clear();
  }

  /** Drops the pending reallocs of {@code sender} (a disconnect); true when there were some. */
  boolean disconnect(String sender) {
    return reallocs.keySet().removeIf(k -> k.sender().equals(sender));
  }

  /** DENIES the pending reallocs of job {@code jobId}, which no longer holds resources. */
  void jobFreed(long jobId, List<Decision> out) {
    for (Iterator<PendingRealloc> it = reallocs.values().iterator(); it.hasNext(); ) {
      PendingRealloc p = it.next();
      if (p.request().jobId() == jobId) {
        it.remove();
        out.add(reallocDeny(p, "job " + id(jobId) + " no longer holds resources"));
      }
    }
  }

  /** CANCELs the pending reallocs of job {@code jobId}; true when there were some. */
  boolean cancel(long jobId, List<Decision> out) {
    boolean changed = false;
    for (Iterator<PendingRealloc> it = reallocs.values().iterator(); it.hasNext(); ) {
      PendingRealloc r = it.next();
      if (r.request().jobId() == jobId) {
        it.remove();
        out.add(response(r, ReallocResponseType.CANCEL, null, null, null));
        changed = true;
      }
    }
    return changed;
  }

  boolean realloc(SchedEvent.Realloc e, List<Decision> out) {
    if (!options.realloc()) {
      out.add(
          new Decision.ReallocResponse(
              e.jobId(),
              e.matchtag(),
              e.sender(),
              nextAllocId++,
              ReallocResponseType.UNSUPPORTED,
              null,
              null,
              null));
      return false;
    }
    ReallocKey key = new ReallocKey(e.sender(), e.matchtag());
    String job = id(e.jobId());
    if (reallocs.containsKey(key)) {
      out.add(
          reject(
              e.jobId(),
              e,
              Errno.EPROTO,
              "realloc: matchtag "
                  + id(e.matchtag())
                  + " is already pending from this sender (expected: one request per matchtag)"));
      return false;
    }
    if (e.specAdd() == null && e.specSub() == null) {
      out.add(
          reject(
              e.jobId(),
              e,
              Errno.EPROTO,
              "realloc: neither spec_add nor spec_sub (expected: at least one)"));
      return false;
    }
    Running r = running.get(e.jobId());
    if (r == null) {
      out.add(
          pendingById.containsKey(e.jobId())
              ? reject(
                  e.jobId(),
                  e,
                  Errno.EINVAL,
                  "realloc: job " + job + " is not running (its alloc is pending)")
              : reject(e.jobId(), e, Errno.ENOENT, "realloc: unknown job " + job));
      return false;
    }
    // D16: the job's user or the instance owner
    if (!JobAccess.mayAct(e.userid() == options.instanceOwner(), e.userid(), r.userid)) {
      out.add(
          reject(
              e.jobId(),
              e,
              Errno.EPERM,
              JobAccess.refusalText("realloc", e.userid(), job) + " of user " + r.userid));
      return false;
    }
    reallocs.put(key, new PendingRealloc(e, nextAllocId++));
    return true;
  }

  boolean reallocCancel(SchedEvent.ReallocCancel e, List<Decision> out) {
    PendingRealloc p = reallocs.remove(new ReallocKey(e.sender(), e.matchtag()));
    if (p == null) {
      return false;
    }
    out.add(response(p, ReallocResponseType.CANCEL, null, null, null));
    return true;
  }

  static Decision.ReallocResponse response(
      PendingRealloc p, ReallocResponseType type, ResourceSet add, ResourceSet sub, String note) {
    SchedEvent.Realloc e = p.request();
    return new Decision.ReallocResponse(
        e.jobId(), e.matchtag(), e.sender(), p.allocId(), type, add, sub, note);
  }

  static Decision.ReallocResponse reallocDeny(PendingRealloc p, String note) {
    return response(p, ReallocResponseType.DENY, null, null, note);
  }

  /** The decision on the realloc, or null when it must wait. */
  private Decision decideRealloc(PendingRealloc p, double now) {
    SchedEvent.Realloc e = p.request();
    Running job = running.get(e.jobId());
    if (job == null) {
      return reallocDeny(p, "job " + id(e.jobId()) + " no longer holds resources");
    }
    ResourceSet held = pool.allocation(e.jobId()).orElseThrow();
    List<ResourcePool.Pick> sub = null;
    if (e.specSub() != null) {
      ResourceSet releasable = held.diff(pool.releasing(e.jobId()));
      if (e.r() != null) {
        String outside = PoolR.notWithin(e.r(), releasable);
        if (outside != null) {
          return reallocDeny(
              p,
              "spec_sub: R names "
                  + outside
                  + " that job "
                  + id(e.jobId())
                  + " does not hold or is already releasing (expected: a subset of its resources)");
        }
        releasable = releasable.diff(releasable.diff(e.r()));
      }
      Allocator.Removal rm = Allocator.selectRemoval(pool, releasable, held, e.specSub());
      if (rm.note() != null) {
        return reallocDeny(p, rm.note());
      }
      sub = rm.picks();
    }
    AllocOutcome.Allocated add = null;
    if (e.specAdd() != null) {
      ResourceSet mask = e.specSub() == null ? e.r() : null;
      if (mask != null) {
        String[] why = new String[1];
        if (pool.picksOf(mask, why) == null) {
          return reallocDeny(p, "spec_add: R names resources outside the pool: " + why[0]);
        }
      }
      Allocator.Scope scope = new Allocator.Scope(mask, held.ranks());
      AllocOutcome outcome = Allocator.allocate(pool, e.specAdd(), scope);
      if (outcome instanceof AllocOutcome.Infeasible inf) {
        return reallocDeny(p, inf.note());
      }
      if (outcome instanceof AllocOutcome.InsufficientNow) {
        return null;
      }
      add = (AllocOutcome.Allocated) outcome;
    }
    ResourceSet addR = null;
    if (add != null) {
      pool.grant(e.jobId(), add.picks(), add.r());
      addR = add.r().withNslots(add.nslots()).withTimes(now, job.expiration);
    }
    ResourceSet subR = null;
    if (sub != null) {
      subR = pool.build(sub);
      pool.markReleasing(e.jobId(), subR);
    }
    return response(p, ReallocResponseType.SUCCESS, addR, subR, null);
  }

  /**
   * Serves the realloc FIFO; false when its head must wait. Behind a waiting head, requests that
   * only shrink are decided at once (D142): they take nothing from the pool, so they cannot get
   * ahead of anyone, and holding them back could keep the waiting grow from ever getting the
   * resources they give up.
   */
  boolean serve(double now, List<Decision> out) {
    while (!reallocs.isEmpty()) {
      Map.Entry<ReallocKey, PendingRealloc> head = reallocs.entrySet().iterator().next();
      Decision d = decideRealloc(head.getValue(), now);
      if (d == null) {
        serveShrinksBehindWaitingHead(now, out);
        return false;
      }
      reallocs.remove(head.getKey());
      out.add(d);
    }
    return true;
  }

  private void serveShrinksBehindWaitingHead(double now, List<Decision> out) {
    for (Iterator<PendingRealloc> it = reallocs.values().iterator(); it.hasNext(); ) {
      PendingRealloc p = it.next();
      if (p.request().specAdd() != null) {
        continue;
      }
      Decision d = decideRealloc(p, now);
      if (d == null) {
        throw new IllegalStateException("a shrink cannot wait");
      }
      it.remove();
      out.add(d);
    }
  }
}
