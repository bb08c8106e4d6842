package io.fluxdrm.jobmanager.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.jobmanager.JobEvent;
import io.fluxdrm.jobmanager.JobManagerException;
import io.fluxdrm.jobmanager.core.Decision.Level;
import io.fluxdrm.protocol.FluxPayloads;
import io.fluxdrm.protocol.JobAccess;
import io.fluxdrm.protocol.ProtocolException;
import io.fluxdrm.protocol.ReallocResponseType;
import io.fluxdrm.protocol.Rfc27Topics;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.JobId;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.rset.RsetException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The job manager's state and rules, as flux-core's job-manager splits them (alloc, annotate,
 * event, restart, realloc, release): the job table, built only from eventlog entries, and the
 * scheduler interface's state (online, allocs pending). Events in, decisions out: {@link #handle}
 * takes one {@link Input} and the time it happens at, and returns what to do; it reads no clock,
 * opens no socket, starts no thread and takes no lock (it runs on the service's reactor).
 *
 * <p>Bad input is refused with an {@link RpcException} (a request the service answers with its
 * error) or a {@link JobManagerException} (a call outside an RPC), thrown before any state changes.
 */
public final class JobManagerCore {

  /** The priority of every job the job manager submits (RFC 21 default urgency, no plugin). */
  public static final long PRIORITY = 16;

  private final Map<Long, Job> jobs = new TreeMap<>(Long::compareUnsigned);
  private long nextId;
  private boolean online;

  /** Jobs with a {@code sched.alloc} sent and no final answer yet (flux-core's alloc_pending). */
  private final Set<Long> allocPending = new LinkedHashSet<>();

  private List<Decision> out;
  private double now;

  private JobManagerCore(long firstId) {
    this.nextId = firstId;
  }

  /**
   * flux-core's restart: the jobs of these eventlogs, rebuilt by applying every entry in order, so
   * R = initial R ∪ every {@code R_delta_add} − every release (decision D8).
   *
   * @param logs each job's entries, by job id
   * @throws JobManagerException locating the first entry that cannot be applied
   */
  public static JobManagerCore recover(Map<Long, List<JobEvent>> logs) {
    JobManagerCore core = new JobManagerCore(1);
    long max = 0;
    for (Map.Entry<Long, List<JobEvent>> en : logs.entrySet()) {
      Job job = new Job(en.getKey());
      String file = Long.toUnsignedString(en.getKey()) + ".eventlog";
      int line = 1;
      for (JobEvent e : en.getValue()) {
        job.apply(e, file + ":" + line++);
      }
      core.jobs.put(job.id, job);
      if (Long.compareUnsigned(job.id, max) > 0) {
        max = job.id;
      }
    }
    core.nextId = max + 1;
    return core;
  }

  /** The job, if known. */
  public Optional<Job> job(long id) {
    return Optional.ofNullable(jobs.get(id));
  }

  /** Every known job, by id (a view). */
  public Collection<Job> jobs() {
    return Collections.unmodifiableCollection(jobs.values());
  }

  /** Whether the scheduler has said {@code sched-ready} since its last hello. */
  public boolean online() {
    return online;
  }

  /** The jobs with a {@code sched.alloc} in flight. */
  public Set<Long> allocPending() {
    return Collections.unmodifiableSet(allocPending);
  }

  /**
   * Handles one input at time {@code now} (seconds since the epoch, the timestamp of any entry).
   *
   * @return what to do, in order
   * @throws RpcException or {@link JobManagerException} for bad input; nothing has changed then
   */
  public List<Decision> handle(Input in, double now) {
    this.out = new ArrayList<>();
    this.now = now;
    if (in instanceof Input.Submit s) {
      submit(s);
    } else if (in instanceof Input.Register r) {
      register(r);
    } else if (in instanceof Input.Finish f) {
      finish(f.jobId());
    } else if (in instanceof Input.AllocResponse a) {
      AllocRules.response(this, a.jobId(), a.payload());
    } else if (in instanceof Input.SchedulerDown d) {
      teardown(d.why());
    } else if (in instanceof Input.Hello) {
      hello();
    } else if (in instanceof Input.Ready) {
      ready();
    } else if (in instanceof Input.Raise r) {
      raise(r);
    } else if (in instanceof Input.ReallocAnswer a) {
      ReallocRules.answer(this, a.jobId(), a.answer());
    } else if (in instanceof Input.ReallocFailed f) {
      ReallocRules.failed(this, f);
    } else if (in instanceof Input.Release r) {
      ReallocRules.release(this, r);
    } else {
      throw new IllegalArgumentException("unknown input: " + in);
    }
    List<Decision> done = out;
    out = null;
    return done;
  }

  // ---- the parts shared by the rules -----------------------------------------------------------

  void emit(Decision d) {
    out.add(d);
  }

  void log(Level level, String text) {
    out.add(new Decision.Log(level, text));
  }

  Job jobOrNull(long id) {
    return jobs.get(id);
  }

  boolean allocPending(long id) {
    return allocPending.contains(id);
  }

  void allocDone(long id) {
    allocPending.remove(id);
  }

  /** Appends an entry to the job's eventlog and applies it (the one way a job changes). */
  void record(Job job, String name, ObjectNode context) {
    JobEvent e = new JobEvent(now, name, context);
    job.apply(e, Long.toUnsignedString(job.id) + ".eventlog");
    jobs.putIfAbsent(job.id, job);
    out.add(new Decision.Append(job.id, e));
  }

  // ---- submit, register, finish
  // ------------------------------------------------------------------

  private static ObjectNode submitContext(int userid) {
    ObjectNode ctx = Json.object();
    ctx.put("urgency", PRIORITY);
    ctx.put("userid", Integer.toUnsignedLong(userid));
    ctx.put("flags", 0);
    ctx.put("version", 1);
    return ctx;
  }

  private void submit(Input.Submit s) {
    long id = nextId++;
    ObjectNode ctx = submitContext(s.userid());
    ctx.set("jobspec", s.jobspec().deepCopy());
    record(new Job(id), JobEvent.SUBMIT, ctx);
    emit(new Decision.Submitted(id));
    if (online) {
      sendAlloc(jobs.get(id));
    }
  }

  private void register(Input.Register r) {
    long jobId = r.jobId();
    if (online) {
      throw new JobManagerException(
          "register "
              + Long.toUnsignedString(jobId)
              + ": scheduler already online (expected: register before its hello, or submit)");
    }
    if (jobs.containsKey(jobId)) {
      throw new JobManagerException(
          "register " + Long.toUnsignedString(jobId) + ": job exists (expected: new id)");
    }
    record(new Job(jobId), JobEvent.SUBMIT, submitContext(r.userid()));
    record(jobs.get(jobId), JobEvent.ALLOC, Json.object().set("R", r.r().toJson()));
    if (Long.compareUnsigned(jobId, nextId) >= 0) {
      nextId = jobId + 1;
    }
  }

  private void finish(long jobId) {
    Job job = jobs.get(jobId);
    if (job == null || !job.running()) {
      throw new JobManagerException(
          "finish "
              + Long.toUnsignedString(jobId)
              + ": "
              + (job == null ? "unknown job" : "job holds no resources")
              + " (expected: a running job)");
    }
    ResourceSet held = job.r;
    // RFC 27 digest §7: the last free carries everything the job holds, final:true
    ObjectNode rel = Json.object().put("ranks", held.ranks().toString()).put("final", true);
    record(job, JobEvent.RELEASE, rel);
    record(job, JobEvent.FREE, Json.object());
    emit(new Decision.SendFree(jobId, held, true));
    log(Level.INFO, "free " + JobId.f58(jobId) + ": " + held.summary() + " (final)");
  }

  // ---- the scheduler interface (RFC 27 §3, §11)
  // ----------------------------------------------------

  /** RFC 27 digest §4: sched.alloc as flux-core's job manager sends it, answered by job id. */
  void sendAlloc(Job job) {
    allocPending.add(job.id);
    ObjectNode p = Json.object();
    p.set("id", FluxPayloads.id(job.id));
    p.put("priority", PRIORITY);
    p.put("userid", Integer.toUnsignedLong(job.userid));
    p.put("t_submit", job.tSubmit);
    p.set("jobspec", job.jobspec);
    emit(new Decision.SendAlloc(job.id, p));
  }

  /**
   * RFC 27 digest §11: the interface goes down, no alloc is pending any more, every waiting job is
   * sent again after the next {@code sched-ready}.
   */
  private void teardown(String why) {
    if (online || !allocPending.isEmpty()) {
      log(Level.ERROR, "scheduler interface down until its next hello: " + why);
    }
    online = false;
    allocPending.clear();
  }

  private void hello() {
    // RFC 27 digest §3.1: a hello starts the scheduler's view afresh; its allocs are sent again
    online = false;
    allocPending.clear();
    int n = 0;
    for (Job job : jobs.values()) {
      if (!job.running()) {
        continue;
      }
      ObjectNode j = Json.object();
      j.set("id", FluxPayloads.id(job.id));
      j.put("priority", PRIORITY);
      j.put("userid", Integer.toUnsignedLong(job.userid));
      j.put("t_submit", job.tSubmit);
      j.set("R", job.r.toJson());
      emit(new Decision.HelloJob(j));
      n++;
    }
    log(Level.INFO, "sched-hello: " + n + " job(s) holding resources");
  }

  private void ready() {
    // RFC 27 digest §3.2: answered with the count of jobs the scheduler will see allocs for
    online = true;
    List<Job> waiting = new ArrayList<>();
    for (Job job : jobs.values()) {
      if (!job.allocated() && !job.ended && job.jobspec != null && !allocPending.contains(job.id)) {
        waiting.add(job);
      }
    }
    emit(new Decision.Respond(Json.object().put("count", waiting.size() + allocPending.size())));
    for (Job job : waiting) {
      log(Level.INFO, "sched-ready: alloc of job " + JobId.f58(job.id) + " sent");
      sendAlloc(job);
    }
  }

  private void raise(Input.Raise r) {
    Job job = jobs.get(r.jobId());
    if (job == null) {
      throw new RpcException(
          Errno.ENOENT,
          Rfc27Topics.RAISE + ": job " + Long.toUnsignedString(r.jobId()) + " unknown");
    }
    ObjectNode ctx = Json.object();
    ctx.put("type", r.type());
    ctx.put("severity", r.severity());
    ctx.put("note", r.note());
    log(Level.WARN, "job " + JobId.f58(r.jobId()) + ": exception " + ctx);
    record(job, JobEvent.EXCEPTION, ctx);
    emit(new Decision.Respond(Json.object()));
  }

  /**
   * The job a shell's request acts on: ENOENT unknown or ended, EPERM not the caller's (D16, {@link
   * JobAccess}).
   *
   * @param owner whether the caller is the instance owner
   * @param callerUid the caller's uid
   */
  public Job actingOn(String topic, long id, boolean owner, int callerUid) {
    Job job = jobs.get(id);
    if (job == null || !job.running()) {
      throw new RpcException(
          Errno.ENOENT,
          topic
              + ": job "
              + Long.toUnsignedString(id)
              + (job == null ? " unknown" : " holds no resources")
              + " (expected: a running job)");
    }
    long caller = Integer.toUnsignedLong(callerUid);
    if (!JobAccess.mayAct(owner, caller, Integer.toUnsignedLong(job.userid))) {
      throw JobAccess.refused(
          topic, caller, Long.toUnsignedString(id), "its owner or the instance owner");
    }
    return job;
  }

  /** RFC 27's annotation merge (see {@link AllocRules}): null deletes, empty objects go. */
  public static void mergeAnnotations(ObjectNode into, ObjectNode update) {
    AllocRules.mergeAnnotations(into, update);
  }

  /** Reads a realloc answer's {@code alloc_id}, as the scheduler sends it. */
  static void readAllocId(JsonNode n) throws ProtocolException {
    FluxPayloads.readId(n, "/alloc_id");
  }

  /** The type code of an RFC 51 realloc answer, or -1. */
  static int reallocType(JsonNode type) {
    int t = type == null ? -1 : type.asInt(-1);
    return type != null && type.isIntegralNumber() && ReallocResponseType.of(t).isPresent()
        ? t
        : -1;
  }

  static ResourceSet rOf(JsonNode n) throws RsetException {
    return n == null ? null : ResourceSet.fromJson(n);
  }
}
