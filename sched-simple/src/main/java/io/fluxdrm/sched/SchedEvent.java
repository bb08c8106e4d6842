package io.fluxdrm.sched;

import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A request or notice the scheduler core acts on: one per RFC 27 / RFC 51 message a service
 * receives, already decoded. Job ids, alloc ids and matchtags are unsigned 64-bit values carried in
 * a {@code long}.
 */
public sealed interface SchedEvent {

  /** {@code sched.alloc}: a job asks for resources. */
  record Alloc(long id, long priority, long userid, double tSubmit, ResourceRequest request)
      implements SchedEvent {
    public Alloc {
      Objects.requireNonNull(request, "request");
    }
  }

  /**
   * {@code sched.free}: resources come back; {@code isFinal} ends the job's allocation and frees
   * everything it still holds.
   */
  record Free(long id, ResourceSet r, boolean isFinal) implements SchedEvent {
    public Free {
      Objects.requireNonNull(r, "r");
    }
  }

  /** {@code sched.cancel}: a pending alloc is withdrawn. */
  record Cancel(long id) implements SchedEvent {}

  /** One {@code [id, priority]} pair of {@code sched.prioritize}. */
  record JobPriority(long id, long priority) {}

  /** {@code sched.prioritize}: pending jobs get new priorities. */
  record Prioritize(List<JobPriority> jobs) implements SchedEvent {
    public Prioritize {
      jobs = List.copyOf(jobs);
    }
  }

  /** {@code sched.expiration}: a running job's expiration changes. */
  record Expiration(long id, double expiration) implements SchedEvent {}

  /**
   * One running job of the {@code job-manager.sched-hello} stream, with its R as the job manager
   * knows it now (a grown job's R includes what it was granted).
   *
   * @param free ranks already released (the response's {@code free} idset), empty when absent
   */
  record RunningJob(
      long id, long priority, long userid, double tSubmit, ResourceSet r, IdSet free) {
    public RunningJob {
      Objects.requireNonNull(r, "r");
      Objects.requireNonNull(free, "free");
    }
  }

  /**
   * The whole hello stream: allocations are rebuilt from these jobs, every pending alloc and
   * realloc is forgotten (the job manager sends them again after {@code sched-ready}).
   */
  record Hello(List<RunningJob> jobs) implements SchedEvent {
    public Hello {
      jobs = List.copyOf(jobs);
    }
  }

  /**
   * {@code sched.realloc} (RFC 51): at least one of {@code specAdd} (grow) and {@code specSub}
   * (shrink), optionally an R the request applies to.
   *
   * @param sender the requester's identity (route), used with {@code matchtag} to cancel
   * @param userid the requester's user id, from the transport
   * @param specAdd what to add, or null
   * @param specSub what to remove, or null
   * @param r with {@code specSub}: the resources to remove from; with only {@code specAdd}: the
   *     resources to add from; or null
   */
  record Realloc(
      long jobId,
      long matchtag,
      String sender,
      long userid,
      ResourceRequest specAdd,
      ResourceRequest specSub,
      ResourceSet r)
      implements SchedEvent {
    public Realloc {
      Objects.requireNonNull(sender, "sender");
    }
  }

  /** {@code sched.realloc_cancel}: cancels the sender's pending realloc with that matchtag. */
  record ReallocCancel(String sender, long matchtag) implements SchedEvent {
    public ReallocCancel {
      Objects.requireNonNull(sender, "sender");
    }
  }

  /** A client went away: its pending reallocs are dropped unanswered. */
  record Disconnect(String sender) implements SchedEvent {
    public Disconnect {
      Objects.requireNonNull(sender, "sender");
    }
  }

  /**
   * {@code resource.acquire} update (RFC 28): ranks come up, go down, or are removed from the
   * instance ({@code shrink}, which wins over {@code down}); properties are added or removed; the
   * instance expiration changes (NaN: unchanged).
   */
  record ResourceUpdate(
      IdSet up,
      IdSet down,
      IdSet shrink,
      Map<String, IdSet> propertyAdd,
      Map<String, IdSet> propertyRemove,
      double expiration)
      implements SchedEvent {
    public ResourceUpdate {
      Objects.requireNonNull(up, "up");
      Objects.requireNonNull(down, "down");
      Objects.requireNonNull(shrink, "shrink");
      propertyAdd = Map.copyOf(propertyAdd);
      propertyRemove = Map.copyOf(propertyRemove);
    }

    /** Only up and down. */
    public ResourceUpdate(IdSet up, IdSet down) {
      this(up, down, IdSet.empty(), Map.of(), Map.of(), Double.NaN);
    }
  }
}
