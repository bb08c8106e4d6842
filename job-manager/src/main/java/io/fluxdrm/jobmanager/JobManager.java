package io.fluxdrm.jobmanager;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.protocol.FluxPayloads;
import io.fluxdrm.protocol.ProtocolException;
import io.fluxdrm.protocol.ReallocResponseType;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.net.EventLoop;
import io.fluxdrm.rpc.net.FluxHandle;
import io.fluxdrm.rpc.net.MessageTap;
import io.fluxdrm.rpc.net.RpcCall;
import io.fluxdrm.rpc.net.Service;
import io.fluxdrm.rpc.net.ServiceRequest;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.rset.RsetException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.DoubleSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job manager's mediation of RFC 51 (seed 004) over RFC 27: it registers {@code job-manager}
 * and serves the scheduler's {@code sched-hello} (one response per job holding resources, with its
 * R, then ENODATA) and {@code sched-ready}; it submits jobs with {@code sched.alloc} as flux-core's
 * job manager does (matchtag 0; ANNOTATE, SUCCESS, DENY or CANCEL responses correlated by job id,
 * annotations merged and kept; an error response or the scheduler's disconnect takes the interface
 * down until the next hello); it passes the shell's {@code job-manager.realloc} on as {@code
 * sched.realloc}, applies the answer to the job's R and eventlog, and answers the shell; {@code
 * job-manager.release} after a granted shrink becomes {@code sched.free {final: false}}; {@link
 * #finish} becomes {@code sched.free {final: true}}.
 *
 * <p>Every change is written to the job's eventlog ({@code <dir>/<jobid>.eventlog}, decision D8)
 * before anyone is told about it; a job manager built on a directory with eventlogs starts from
 * them (crash recovery) and the scheduler re-synchronises through its next hello.
 *
 * <p>All state lives on the handle's loop: {@link #submit}, {@link #register} and {@link #finish}
 * may be called from any thread (the work runs on the loop); the accessors ({@link #jobR}, {@link
 * #releasing}, {@link #annotations}, {@link #pendingReallocs}, {@link #schedulerOnline}) read that
 * state and belong on the loop's thread, or to tests driving a manual loop.
 */
public final class JobManager {
  private static final Logger LOG = LoggerFactory.getLogger(JobManager.class);

  /** The service name. */
  public static final String SERVICE = "job-manager";

  /** The priority of every job the job manager submits (RFC 21 default urgency, no plugin). */
  static final long PRIORITY = 16;

  private static final Set<String> REALLOC_KEYS = Set.of("id", "spec_add", "spec_sub", "R");
  private static final Set<String> RELEASE_KEYS = Set.of("id", "ranks", "R", "final");

  private final Eventlog eventlog;
  private final DoubleSupplier clock;
  private final Map<Long, Job> jobs = new TreeMap<>(Long::compareUnsigned);
  private long nextId;
  private FluxHandle handle;
  private EventLoop loop;
  private boolean online;
  private MessageTap userTap;

  /** Submitted jobs whose caller waits for their alloc. */
  private final Map<Long, CompletableFuture<Long>> waiters = new LinkedHashMap<>();

  /** Jobs with a {@code sched.alloc} sent and no final answer yet (flux-core's alloc_pending). */
  private final Set<Long> allocPending = new LinkedHashSet<>();

  /** The sender of the scheduler's last hello: its disconnect takes the interface down. */
  private String schedSender;

  private final Map<ReqKey, Pending> pending = new LinkedHashMap<>();

  private record ReqKey(String sender, int matchtag) {}

  /** A {@code job-manager.realloc} waiting for the scheduler's answer. */
  private static final class Pending {
    final ServiceRequest req;
    final long jobId;
    final int schedTag;
    boolean cancelSent;

    Pending(ServiceRequest req, long jobId, int schedTag) {
      this.req = req;
      this.jobId = jobId;
      this.schedTag = schedTag;
    }
  }

  private JobManager(Eventlog eventlog, DoubleSupplier clock, long firstId) {
    this.eventlog = eventlog;
    Path dir = eventlog.dir();
    this.clock = clock;
    Map<Long, List<JobEvent>> logs = eventlog.readAll();
    long max = firstId - 1;
    for (Map.Entry<Long, List<JobEvent>> en : logs.entrySet()) {
      Job job = new Job(en.getKey());
      String file = Long.toUnsignedString(en.getKey()) + Eventlog.SUFFIX;
      int line = 1;
      for (JobEvent e : en.getValue()) {
        job.apply(e, file + ":" + line++);
      }
      jobs.put(job.id, job);
      if (Long.compareUnsigned(job.id, max) > 0) {
        max = job.id;
      }
    }
    this.nextId = max + 1;
    if (!logs.isEmpty()) {
      LOG.info("recovered {} job(s) from {}", logs.size(), dir);
    }
  }

  /**
   * A job manager keeping its eventlogs in {@code dir}; jobs found there are recovered.
   *
   * @param dir the state directory (created if missing)
   * @param clock seconds since the epoch, the timestamp of every event
   * @return a job manager, not started
   * @throws JobManagerException when the directory or an eventlog cannot be read
   */
  public static JobManager create(Path dir, DoubleSupplier clock) {
    return new JobManager(
        new Eventlog(Objects.requireNonNull(dir, "dir")), Objects.requireNonNull(clock), 1);
  }

  /** A job manager whose eventlogs live in memory only (replays). */
  public static JobManager inMemory(DoubleSupplier clock) {
    return new JobManager(Eventlog.inMemory(), clock, 1);
  }

  /**
   * Crash recovery: the jobs of {@code dir}'s eventlogs with their R (initial R ∪ grants −
   * releases) and their granted shrinks not released yet. Same as {@link #create}.
   */
  public static JobManager recover(Path dir, DoubleSupplier clock) {
    return create(dir, clock);
  }

  /** The state directory. */
  public Path stateDir() {
    return eventlog.dir();
  }

  // ---- lifecycle -------------------------------------------------------------------------------

  /**
   * Registers {@code job-manager} on {@code h}. The scheduler then says hello (with the R of every
   * job holding resources) and ready.
   */
  public CompletableFuture<Void> start(FluxHandle h) {
    attach(h);
    return h.register(service());
  }

  /**
   * Uses {@code h} for the requests the job manager sends ({@code sched.*}); the service of {@link
   * #service()} may then be registered on {@code h} and on other handles too (a replay's hub).
   */
  public void attach(FluxHandle h) {
    this.handle = h;
    this.loop = h.loop();
    h.tap(this::tapped);
    h.onResponse("sched.alloc", this::allocResponse);
  }

  /** Also shows every message of the handle to {@code t} (a transcript recorder); null removes. */
  public void tap(MessageTap t) {
    this.userTap = t;
  }

  private void tapped(MessageTap.Direction d, Message m) {
    MessageTap t = userTap;
    if (t != null) {
      t.onMessage(d, m);
    }
  }

  /** Whether the scheduler has said {@code sched-ready} since this job manager started. */
  public boolean schedulerOnline() {
    return online;
  }

  /** A {@code job-manager} service bound to this job manager (see {@link #attach}). */
  public Service service() {
    return Service.builder(SERVICE)
        .onStreaming("sched-hello", this::hello)
        .on("sched-ready", this::ready)
        .on("realloc", this::realloc)
        .on("realloc_cancel", this::reallocCancel)
        .on("release", this::release)
        .on("raise", this::raise)
        .onCancel(this::canceled)
        .onDisconnect(this::disconnected)
        .build();
  }

  private <T> CompletableFuture<T> onLoop(java.util.function.Supplier<CompletableFuture<T>> f) {
    if (loop == null) {
      return CompletableFuture.failedFuture(
          new JobManagerException("job manager: not started (expected: start first)"));
    }
    return loop.submit(f);
  }

  private static Throwable unwrap(Throwable t) {
    return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
  }

  // ---- jobs ------------------------------------------------------------------------------------

  /**
   * Submits a job: event {@code submit}, then, once the scheduler is online, {@code sched.alloc}
   * (RFC 27: matchtag 0, answered by job id); on SUCCESS the job's R is recorded (event {@code
   * alloc}). A job submitted while the scheduler is offline waits for its {@code sched-ready}.
   *
   * @return the job id once allocated; fails with {@link JobManagerException} on DENY or a bad
   *     answer; a CANCEL puts the job back in the queue (sent again at the next {@code
   *     sched-ready})
   */
  public CompletableFuture<Long> submit(JsonNode jobspec, int userid) {
    Objects.requireNonNull(jobspec, "jobspec");
    return onLoop(
        () -> {
          long id = nextId++;
          ObjectNode ctx = submitContext(userid);
          ctx.set("jobspec", jobspec.deepCopy());
          record(new Job(id), JobEvent.SUBMIT, ctx);
          CompletableFuture<Long> done = new CompletableFuture<>();
          waiters.put(id, done);
          if (online) {
            sendAlloc(jobs.get(id));
          }
          return done;
        });
  }

  /**
   * Registers a job whose initial R is known (events {@code submit} and {@code alloc}); only before
   * the scheduler's hello, which then reports it.
   */
  public CompletableFuture<Long> register(long jobId, int userid, ResourceSet r) {
    Objects.requireNonNull(r, "R");
    return onLoop(
        () -> {
          if (online) {
            return CompletableFuture.failedFuture(
                new JobManagerException(
                    "register "
                        + Long.toUnsignedString(jobId)
                        + ": scheduler already online (expected: register before its hello, or"
                        + " submit)"));
          }
          if (jobs.containsKey(jobId)) {
            return CompletableFuture.failedFuture(
                new JobManagerException(
                    "register "
                        + Long.toUnsignedString(jobId)
                        + ": job exists (expected: new id)"));
          }
          record(new Job(jobId), JobEvent.SUBMIT, submitContext(userid));
          record(jobs.get(jobId), JobEvent.ALLOC, Json.object().set("R", r.toJson()));
          if (Long.compareUnsigned(jobId, nextId) >= 0) {
            nextId = jobId + 1;
          }
          return CompletableFuture.completedFuture(jobId);
        });
  }

  /**
   * Ends a job: events {@code release {"ranks": all, "final": true}} and {@code free}, then {@code
   * sched.free {id, R, final: true}} of everything it still holds.
   */
  public CompletableFuture<Void> finish(long jobId) {
    return onLoop(
        () -> {
          Job job = jobs.get(jobId);
          if (job == null || !job.running()) {
            return CompletableFuture.failedFuture(
                new JobManagerException(
                    "finish "
                        + Long.toUnsignedString(jobId)
                        + ": "
                        + (job == null ? "unknown job" : "job holds no resources")
                        + " (expected: a running job)"));
          }
          ResourceSet held = job.r;
          ObjectNode rel = Json.object().put("ranks", held.ranks().toString()).put("final", true);
          record(job, JobEvent.RELEASE, rel);
          record(job, JobEvent.FREE, Json.object());
          handle.send("sched.free", FluxPayloads.free(jobId, held, true));
          LOG.info("free {}: {} (final)", Long.toUnsignedString(jobId), held.summary());
          return CompletableFuture.completedFuture(null);
        });
  }

  /** The job's current R (resources being released included), if it holds resources. */
  public Optional<ResourceSet> jobR(long jobId) {
    Job job = jobs.get(jobId);
    return job == null || !job.running() ? Optional.empty() : Optional.of(job.r);
  }

  /** What the job was granted to give back and has not released yet (empty if nothing). */
  public Optional<ResourceSet> releasing(long jobId) {
    Job job = jobs.get(jobId);
    return job == null || !job.running() ? Optional.empty() : Optional.of(job.releasing);
  }

  /** The number of {@code job-manager.realloc} requests waiting for the scheduler. */
  public int pendingReallocs() {
    return pending.size();
  }

  private static ObjectNode submitContext(int userid) {
    ObjectNode ctx = Json.object();
    ctx.put("urgency", PRIORITY);
    ctx.put("userid", Integer.toUnsignedLong(userid));
    ctx.put("flags", 0);
    ctx.put("version", 1);
    return ctx;
  }

  /** Writes an event to the job's eventlog, then applies it (the one way state changes). */
  private void record(Job job, String name, ObjectNode context) {
    JobEvent e = new JobEvent(clock.getAsDouble(), name, context);
    eventlog.append(job.id, e);
    job.apply(e, Long.toUnsignedString(job.id) + Eventlog.SUFFIX);
    jobs.putIfAbsent(job.id, job);
  }

  /** The job's annotations (RFC 27, merged from the scheduler's answers), if it has any. */
  public Optional<JsonNode> annotations(long jobId) {
    Job job = jobs.get(jobId);
    return job == null || job.annotations.isEmpty()
        ? Optional.empty()
        : Optional.of(job.annotations.deepCopy());
  }

  /** Sends {@code sched.alloc} as flux-core's job manager does: matchtag 0, answered by job id. */
  private void sendAlloc(Job job) {
    allocPending.add(job.id);
    ObjectNode p = Json.object();
    p.set("id", FluxPayloads.id(job.id));
    p.put("priority", PRIORITY);
    p.put("userid", Integer.toUnsignedLong(job.userid));
    p.put("t_submit", job.tSubmit);
    p.set("jobspec", job.jobspec);
    handle.sendUntracked("sched.alloc", p);
  }

  /**
   * Takes the scheduler interface down (RFC 27 §11): no alloc is pending any more, every waiting
   * job is sent again after the next {@code sched-ready}.
   */
  private void teardown(String why) {
    if (online || !allocPending.isEmpty()) {
      LOG.error("scheduler interface down until its next hello: {}", why);
    }
    online = false;
    allocPending.clear();
  }

  /** One response to a {@code sched.alloc}: matchtag 0, correlated by the job id it carries. */
  private void allocResponse(Message m) {
    if (m.errnum() != 0) {
      teardown("sched.alloc: " + Errno.name(m.errnum()) + " " + errorText(m));
      return;
    }
    long id;
    ObjectNode p;
    try {
      p = m.json();
      id = FluxPayloads.readId(p.get("id"), "sched.alloc: /id");
    } catch (RpcException | ProtocolException e) {
      LOG.error("sched.alloc: response ignored: {}", e.getMessage());
      return;
    }
    Job job = jobs.get(id);
    if (job == null || !allocPending.contains(id)) {
      LOG.warn(
          "sched.alloc: response for job {} ignored: {}",
          Long.toUnsignedString(id),
          job == null ? "unknown job" : "no alloc pending");
      return;
    }
    String where = "sched.alloc " + Long.toUnsignedString(id);
    JsonNode type = p.get("type");
    int t = type != null && type.isIntegralNumber() && type.canConvertToInt() ? type.asInt() : -1;
    try {
      switch (t) {
        case 0 -> allocSuccess(job, p, where);
        case 1 -> {
          JsonNode a = p.get("annotations");
          if (a == null || !a.isObject()) {
            throw new JobManagerException(
                where + ": /annotations: " + a + " (expected: an object on ANNOTATE)");
          }
          mergeAnnotations(job.annotations, (ObjectNode) a);
          LOG.debug("alloc {}: annotations {}", Long.toUnsignedString(id), job.annotations);
        }
        case 2 -> {
          allocPending.remove(id);
          job.annotations.removeAll();
          String note = p.path("note").asText("denied");
          ObjectNode ctx = Json.object().put("type", "alloc").put("severity", 0).put("note", note);
          record(job, JobEvent.EXCEPTION, ctx);
          LOG.info("alloc {}: denied: {}", Long.toUnsignedString(id), note);
          fail(id, new JobManagerException(where + ": denied: " + note));
        }
        case 3 -> {
          allocPending.remove(id);
          job.annotations.removeAll();
          LOG.info("alloc {}: canceled, back in the queue", Long.toUnsignedString(id));
        }
        default ->
            throw new JobManagerException(where + ": /type: " + type + " (expected: 0, 1, 2 or 3)");
      }
    } catch (JobManagerException e) {
      LOG.error("{}", e.getMessage());
      if (t != 1) {
        allocPending.remove(id);
        fail(id, e);
      }
    }
  }

  private static String errorText(Message m) {
    try {
      return m.has(io.fluxdrm.rpc.Flags.PAYLOAD) ? m.text() : "";
    } catch (RpcException e) {
      return "";
    }
  }

  private void allocSuccess(Job job, ObjectNode p, String where) {
    JsonNode r = p.get("R");
    if (r == null) {
      throw new JobManagerException(where + ": /R: missing (expected: R on SUCCESS)");
    }
    ResourceSet rs;
    try {
      rs = ResourceSet.fromJson(r);
    } catch (RsetException e) {
      throw new JobManagerException(where + ": /R: " + e.getMessage());
    }
    JsonNode a = p.get("annotations");
    if (a != null && !a.isObject()) {
      throw new JobManagerException(where + ": /annotations: " + a + " (expected: an object)");
    }
    allocPending.remove(job.id);
    if (a != null) {
      mergeAnnotations(job.annotations, (ObjectNode) a);
    }
    ObjectNode ctx = Json.object();
    if (!job.annotations.isEmpty()) {
      ctx.set("annotations", job.annotations.deepCopy());
    }
    ctx.set("R", rs.toJson());
    record(job, JobEvent.ALLOC, ctx);
    LOG.info("alloc {}: {}", Long.toUnsignedString(job.id), job.r.summary());
    CompletableFuture<Long> done = waiters.remove(job.id);
    if (done != null) {
      done.complete(job.id);
    }
  }

  private void fail(long id, Throwable e) {
    CompletableFuture<Long> done = waiters.remove(id);
    if (done != null) {
      done.completeExceptionally(e);
    }
  }

  /**
   * RFC 27's annotation merge: recursive by key, a JSON null deletes the key, an object left empty
   * is removed.
   */
  static void mergeAnnotations(ObjectNode into, ObjectNode update) {
    for (Map.Entry<String, JsonNode> en : update.properties()) {
      JsonNode v = en.getValue();
      JsonNode old = into.get(en.getKey());
      if (v.isNull()) {
        into.remove(en.getKey());
      } else if (v.isObject() && old != null && old.isObject()) {
        mergeAnnotations((ObjectNode) old, (ObjectNode) v);
        if (old.isEmpty()) {
          into.remove(en.getKey());
        }
      } else if (v.isObject()) {
        ObjectNode fresh = Json.object();
        mergeAnnotations(fresh, (ObjectNode) v);
        if (fresh.isEmpty()) {
          into.remove(en.getKey());
        } else {
          into.set(en.getKey(), fresh);
        }
      } else {
        into.set(en.getKey(), v.deepCopy());
      }
    }
  }

  // ---- RFC 27: the scheduler's side ------------------------------------------------------------

  private void hello(ServiceRequest req) {
    req.requireOwner("the scheduler");
    // a hello starts the scheduler's view afresh: allocs it had are gone, they are sent again
    online = false;
    allocPending.clear();
    schedSender = req.sender();
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
      req.respond(j);
      n++;
    }
    LOG.info("sched-hello: {} job(s) holding resources", n);
    req.end();
  }

  private void ready(ServiceRequest req) {
    req.requireOwner("the scheduler");
    ObjectNode p = req.json();
    String mode = p.path("mode").asText("");
    if (!mode.equals("unlimited")
        && !(mode.equals("limited")
            && p.path("limit").canConvertToInt()
            && p.get("limit").asInt() > 0)) {
      throw new RpcException(
          Errno.EPROTO,
          req.topic()
              + ": /mode: "
              + p.get("mode")
              + " (expected: unlimited, or limited with limit >= 1)");
    }
    online = true;
    List<Job> waiting = new ArrayList<>();
    for (Job job : jobs.values()) {
      if (!job.allocated() && !job.ended && job.jobspec != null && !allocPending.contains(job.id)) {
        waiting.add(job);
      }
    }
    req.respond(Json.object().put("count", waiting.size() + allocPending.size()));
    for (Job job : waiting) {
      LOG.info("sched-ready: alloc of job {} sent", Long.toUnsignedString(job.id));
      sendAlloc(job);
    }
  }

  private void raise(ServiceRequest req) {
    req.requireOwner("the scheduler");
    ObjectNode p = req.json();
    long id = jobId(req, p, "id");
    Job job = jobs.get(id);
    if (job == null) {
      throw new RpcException(
          Errno.ENOENT, req.topic() + ": job " + Long.toUnsignedString(id) + " unknown");
    }
    ObjectNode ctx = Json.object();
    ctx.put("type", p.path("type").asText("exception"));
    ctx.put("severity", p.path("severity").asInt(0));
    ctx.put("note", p.path("note").asText(""));
    LOG.warn("job {}: exception {}", Long.toUnsignedString(id), ctx);
    record(job, JobEvent.EXCEPTION, ctx);
    req.respond(Json.object());
  }

  // ---- RFC 51: the shell's side ----------------------------------------------------------------

  private static long jobId(ServiceRequest req, ObjectNode p, String key) {
    try {
      return FluxPayloads.readId(p.get(key), req.topic() + ": /" + key);
    } catch (ProtocolException e) {
      throw new RpcException(Errno.EPROTO, e.getMessage());
    }
  }

  private static ResourceSet rArg(ServiceRequest req, ObjectNode p) {
    JsonNode n = p.get("R");
    if (n == null) {
      return null;
    }
    try {
      return ResourceSet.fromJson(n);
    } catch (RsetException e) {
      throw new RpcException(Errno.EPROTO, req.topic() + ": /R: " + e.getMessage());
    }
  }

  /** The job, after the payload checks: ENOENT unknown or ended, EPERM not the caller's (D16). */
  private Job actingOn(ServiceRequest req, long id) {
    Job job = jobs.get(id);
    if (job == null || !job.running()) {
      throw new RpcException(
          Errno.ENOENT,
          req.topic()
              + ": job "
              + Long.toUnsignedString(id)
              + (job == null ? " unknown" : " holds no resources")
              + " (expected: a running job)");
    }
    if (!req.isOwner() && !req.mayActFor(job.userid)) {
      throw new RpcException(
          Errno.EPERM,
          req.topic()
              + ": user "
              + Integer.toUnsignedString(req.credentials().userid())
              + " may not act on job "
              + Long.toUnsignedString(id)
              + " (expected: its owner or the instance owner)");
    }
    return job;
  }

  private void realloc(ServiceRequest req) {
    ObjectNode p = req.json();
    ServiceRequest.requireOnlyKeys(req.topic(), p, REALLOC_KEYS);
    long id = jobId(req, p, "id");
    JsonNode add = p.get("spec_add");
    JsonNode sub = p.get("spec_sub");
    if (add == null && sub == null) {
      throw new RpcException(
          Errno.EPROTO, req.topic() + ": /: no spec_add and no spec_sub (expected: at least one)");
    }
    for (String k : List.of("spec_add", "spec_sub")) {
      if (p.has(k) && !p.get(k).isObject()) {
        throw new RpcException(
            Errno.EPROTO,
            req.topic()
                + ": /"
                + k
                + ": "
                + p.get(k).getNodeType().toString().toLowerCase(java.util.Locale.ROOT)
                + " (expected: a jobspec object)");
      }
    }
    ResourceSet r = rArg(req, p);
    if (!req.expectsResponse()) {
      throw new RpcException(
          Errno.EPROTO, req.topic() + ": sent without a response (expected: an RPC)");
    }
    Job job = actingOn(req, id);
    ReqKey key = new ReqKey(req.sender(), req.matchtag());
    if (pending.containsKey(key)) {
      throw new RpcException(
          Errno.EPROTO, req.topic() + ": matchtag " + req.matchtag() + " already pending");
    }
    ObjectNode out = Json.object();
    out.set("job_id", FluxPayloads.id(job.id));
    if (add != null) {
      out.set("spec_add", add);
    }
    if (sub != null) {
      out.set("spec_sub", sub);
    }
    if (r != null) {
      out.set("R", r.toJson());
    }
    // on the loop: the request is sent, and its matchtag known, when rpcCall returns
    RpcCall call = handle.rpcCall("sched.realloc", out, null);
    Pending pend = new Pending(req, job.id, call.matchtag().getNow(0));
    pending.put(key, pend);
    call.response()
        .whenComplete((m, err) -> reallocAnswered(key, pend, m, err == null ? null : unwrap(err)));
  }

  private void reallocAnswered(ReqKey key, Pending pend, Message m, Throwable err) {
    pending.remove(key, pend);
    ServiceRequest req = pend.req;
    Job job = jobs.get(pend.jobId);
    String job10 = Long.toUnsignedString(pend.jobId);
    if (err != null) {
      RpcException e = asRpc(err);
      if (e.errnum() == Errno.ENOSYS) {
        LOG.info("realloc {}: scheduler has no sched.realloc: UNSUPPORTED", job10);
        ObjectNode a =
            Json.object().put("alloc_id", 0).put("type", ReallocResponseType.UNSUPPORTED.code());
        a.put("note", "scheduler does not implement sched.realloc (RFC 27 only)");
        answer(req, job, a);
      } else {
        LOG.info("realloc {}: {} {}", job10, Errno.name(e.errnum()), e.getMessage());
        req.fail(e.errnum(), e.getMessage());
      }
      return;
    }
    ObjectNode a;
    try {
      a = m.json();
      int type = a.path("type").asInt(-1);
      if (ReallocResponseType.of(type).isEmpty() || !a.path("type").isIntegralNumber()) {
        throw new JobManagerException("/type: " + a.get("type") + " (expected: 0 to 3)");
      }
      FluxPayloads.readId(a.get("alloc_id"), "/alloc_id");
      if (type == ReallocResponseType.SUCCESS.code() && job != null && job.running()) {
        ResourceSet add = a.has("R_delta_add") ? ResourceSet.fromJson(a.get("R_delta_add")) : null;
        ResourceSet sub = a.has("R_delta_sub") ? ResourceSet.fromJson(a.get("R_delta_sub")) : null;
        if (add == null && sub == null) {
          throw new JobManagerException("SUCCESS without R_delta_add or R_delta_sub");
        }
        if (sub != null && !sub.diff(job.r.diff(job.releasing)).isEmpty()) {
          throw new JobManagerException(
              "/R_delta_sub: "
                  + sub.summary()
                  + " is not held by the job (expected: a subset of "
                  + job.r.summary()
                  + ")");
        }
        if (add != null && !add.intersect(job.r).isEmpty()) {
          throw new JobManagerException(
              "/R_delta_add: "
                  + add.summary()
                  + " overlaps the job's "
                  + job.r.summary()
                  + " (expected: new resources)");
        }
        if (add != null) {
          record(job, JobEvent.RESOURCE_UPDATE, Json.object().set("R_delta_add", add.toJson()));
        }
        if (sub != null) {
          record(job, JobEvent.RESOURCE_UPDATE, Json.object().set("R_delta_sub", sub.toJson()));
        }
        LOG.info(
            "realloc {} alloc_id={}: SUCCESS{}{} -> {}",
            job10,
            a.get("alloc_id"),
            add == null ? "" : " add " + add.summary(),
            sub == null ? "" : " sub " + sub.summary(),
            job.r.summary());
      } else {
        LOG.info(
            "realloc {}: {} {}",
            job10,
            ReallocResponseType.of(type).orElseThrow(),
            a.path("note").asText(""));
      }
    } catch (RpcException | ProtocolException | RsetException | JobManagerException e) {
      LOG.error("sched.realloc {}: bad answer: {}", job10, e.getMessage());
      req.fail(Errno.EPROTO, "sched.realloc: bad answer from the scheduler: " + e.getMessage());
      return;
    }
    answer(req, job, a);
  }

  private static void answer(ServiceRequest req, Job job, ObjectNode a) {
    if (job != null && job.running()) {
      a.set("R", job.r.toJson());
    }
    req.respond(a);
  }

  private void reallocCancel(ServiceRequest req) {
    ObjectNode p;
    try {
      p = req.json();
    } catch (RpcException e) {
      LOG.warn("{}: {}", req.topic(), e.getMessage());
      return;
    }
    JsonNode tag = p.get("matchtag");
    if (tag == null || !tag.canConvertToInt() || !tag.isIntegralNumber()) {
      LOG.warn("{}: /matchtag: {} (expected: an integer)", req.topic(), tag);
      return;
    }
    Pending pend = pending.get(new ReqKey(req.sender(), tag.asInt()));
    if (pend == null) {
      LOG.debug("{}: matchtag {} not pending, ignored", req.topic(), tag);
      return;
    }
    cancel(pend);
  }

  private void cancel(Pending pend) {
    if (pend.cancelSent || pend.schedTag == 0) {
      return; // canceled already, or the sched.realloc never left (its answer fails it)
    }
    pend.cancelSent = true;
    LOG.info(
        "realloc_cancel {}: sched matchtag {}", Long.toUnsignedString(pend.jobId), pend.schedTag);
    handle.send("sched.realloc_cancel", FluxPayloads.reallocCancel(pend.schedTag));
  }

  private void canceled(ServiceRequest req) {
    Pending pend = pending.get(new ReqKey(req.sender(), req.matchtag()));
    if (pend != null) {
      cancel(pend);
    } else {
      req.fail(Errno.ECANCELED, req.topic() + ": request canceled");
    }
  }

  private void disconnected(String sender) {
    if (sender.equals(schedSender)) {
      schedSender = null;
      teardown("the scheduler disconnected");
    }
    for (Pending pend : List.copyOf(pending.values())) {
      if (pend.req.sender().equals(sender)) {
        cancel(pend);
      }
    }
  }

  private void release(ServiceRequest req) {
    ObjectNode p = req.json();
    ServiceRequest.requireOnlyKeys(req.topic(), p, RELEASE_KEYS);
    long id = jobId(req, p, "id");
    JsonNode fin = p.get("final");
    if (fin != null && !fin.isBoolean()) {
      throw new RpcException(Errno.EPROTO, req.topic() + ": /final: " + fin + " (expected: bool)");
    }
    if (fin != null && fin.asBoolean()) {
      throw new RpcException(
          Errno.EINVAL, req.topic() + ": /final: true (expected: false; a job ends by finishing)");
    }
    if (p.has("ranks") == p.has("R")) {
      throw new RpcException(
          Errno.EPROTO,
          req.topic()
              + ": /: ranks and R: "
              + (p.has("R") ? "both" : "neither")
              + " given (expected: exactly one)");
    }
    IdSet ranks;
    ResourceSet r = rArg(req, p);
    if (r != null) {
      ranks = r.ranks();
    } else {
      JsonNode rk = p.get("ranks");
      try {
        ranks = IdSet.parse(rk.isTextual() ? rk.asText() : String.valueOf(rk));
      } catch (RsetException e) {
        throw new RpcException(Errno.EPROTO, req.topic() + ": /ranks: " + e.getMessage());
      }
    }
    Job job = actingOn(req, id);
    ResourceSet released = job.releasing.copyRanks(ranks);
    if (ranks.isEmpty() || !ranks.isSubsetOf(job.releasing.ranks())) {
      throw new RpcException(
          Errno.EINVAL,
          req.topic()
              + ": ranks "
              + ranks
              + " (expected: ranks the job was granted to release: "
              + (job.releasing.isEmpty() ? "none" : job.releasing.ranks().toString())
              + ")");
    }
    if (r != null && !(r.diff(released).isEmpty() && released.diff(r).isEmpty())) {
      throw new RpcException(
          Errno.EINVAL,
          req.topic()
              + ": /R: "
              + r.summary()
              + " (expected: everything being released on its ranks: "
              + released.summary()
              + ")");
    }
    record(job, JobEvent.RELEASE, Json.object().put("ranks", ranks.toString()).put("final", false));
    handle.send("sched.free", FluxPayloads.free(id, released, false));
    LOG.info(
        "release {}: {} -> {}", Long.toUnsignedString(id), released.summary(), job.r.summary());
    ObjectNode a = Json.object();
    a.set("R", job.r.toJson());
    req.respond(a);
  }

  private static RpcException asRpc(Throwable t) {
    return t instanceof RpcException r ? r : new RpcException(Errno.EIO, String.valueOf(t));
  }
}
