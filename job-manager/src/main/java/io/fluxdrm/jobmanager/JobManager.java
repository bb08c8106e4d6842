package io.fluxdrm.jobmanager;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.jobmanager.core.Decision;
import io.fluxdrm.jobmanager.core.Input;
import io.fluxdrm.jobmanager.core.Job;
import io.fluxdrm.jobmanager.core.JobManagerCore;
import io.fluxdrm.protocol.FluxPayloads;
import io.fluxdrm.protocol.Rfc27Topics;
import io.fluxdrm.protocol.Rfc51Topics;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Flags;
import io.fluxdrm.rpc.JobId;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.client.MessageTap;
import io.fluxdrm.rpc.reactor.EventLoop;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rpc.service.ServiceRequest;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.rset.RsetException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job manager service: binds the pure {@link JobManagerCore} to the message layer. It registers
 * {@code job-manager} and serves the scheduler's {@code sched-hello} and {@code sched-ready}, sends
 * {@code sched.alloc} (matchtag 0, answered by job id) and {@code sched.free}, passes the shell's
 * {@code job-manager.realloc} on as {@code sched.realloc} ({@link ReallocForwarder}), and writes
 * every eventlog entry the core decides ({@code <dir>/<jobid>.eventlog}, decision D8) before it
 * sends or answers anything; a job manager built on a directory with eventlogs starts from them
 * (crash recovery) and the scheduler re-synchronises through its next hello.
 *
 * <p>Each handler checks its payload's shape, hands the core one {@link Input} with the time read
 * from the clock, and carries out the decisions in order. All state lives on the handle's loop:
 * {@link #submit}, {@link #register} and {@link #finish} may be called from any thread (the work
 * runs on the loop); the accessors read that state and belong on the loop's thread, or to tests
 * driving a manual loop.
 */
public final class JobManager {
  private static final Logger LOG = LoggerFactory.getLogger(JobManager.class);

  /** The service name. */
  public static final String SERVICE = Rfc27Topics.JOB_MANAGER;

  private static final Set<String> RELEASE_KEYS = Set.of("id", "ranks", "R", "final");

  private final Eventlog eventlog;
  private final DoubleSupplier clock;
  private final JobManagerCore core;
  private final ReallocForwarder reallocs;
  private FluxHandle handle;
  private EventLoop loop;
  private MessageTap userTap;

  /** The sender of the scheduler's last hello: its disconnect takes the interface down. */
  private String schedSender;

  /** Submitted jobs whose caller waits for their alloc. */
  private final Map<Long, CompletableFuture<Long>> waiters = new LinkedHashMap<>();

  private JobManager(Eventlog eventlog, DoubleSupplier clock) {
    this.eventlog = eventlog;
    this.clock = clock;
    Map<Long, List<JobEvent>> logs = eventlog.readAll();
    this.core = JobManagerCore.recover(logs);
    this.reallocs = new ReallocForwarder(this);
    if (!logs.isEmpty()) {
      LOG.info("recovered {} job(s) from {}", logs.size(), eventlog.dir());
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
        new Eventlog(Objects.requireNonNull(dir, "dir")), Objects.requireNonNull(clock));
  }

  /** A job manager whose eventlogs live in memory only (replays). */
  public static JobManager inMemory(DoubleSupplier clock) {
    return new JobManager(Eventlog.inMemory(), clock);
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
    h.addTap(this::tapped);
    h.onResponse(Rfc27Topics.ALLOC, this::allocResponse);
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
    return core.online();
  }

  /** A {@code job-manager} service bound to this job manager (see {@link #attach}). */
  public Service service() {
    return Service.builder(SERVICE)
        .onStreaming(Rfc27Topics.SCHED_HELLO_METHOD, this::hello)
        .on(Rfc27Topics.SCHED_READY_METHOD, this::ready)
        .on(Rfc51Topics.REALLOC_METHOD, reallocs::realloc)
        .on(Rfc51Topics.REALLOC_CANCEL_METHOD, reallocs::reallocCancel)
        .on(Rfc51Topics.RELEASE_METHOD, this::release)
        .on(Rfc27Topics.RAISE_METHOD, this::raise)
        .onCancel(reallocs::canceled)
        .onDisconnect(this::disconnected)
        .build();
  }

  private <T> CompletableFuture<T> onLoop(Supplier<CompletableFuture<T>> f) {
    if (loop == null) {
      return CompletableFuture.failedFuture(
          new JobManagerException("job manager: not started (expected: start first)"));
    }
    return loop.submit(f);
  }

  FluxHandle handle() {
    return handle;
  }

  JobManagerCore core() {
    return core;
  }

  // ---- the core's decisions
  // ----------------------------------------------------------------------

  /**
   * Hands {@code in} to the core at the clock's time and carries out its decisions in order; those
   * that answer a request go to {@code req} (null outside a request).
   */
  void run(Input in, ServiceRequest req) {
    List<Decision> out = core.handle(in, clock.getAsDouble());
    for (Decision d : out) {
      if (d instanceof Decision.HelloJob h) {
        req.respond(h.payload());
      } else if (d instanceof Decision.Respond r) {
        req.respond(r.payload());
      } else if (d instanceof Decision.Fail f) {
        req.fail(f.errnum(), f.message());
      } else if (d instanceof Decision.Allocated a) {
        CompletableFuture<Long> done = waiters.remove(a.jobId());
        if (done != null) {
          done.complete(a.jobId());
        }
      } else if (d instanceof Decision.AllocFailed f) {
        CompletableFuture<Long> done = waiters.remove(f.jobId());
        if (done != null) {
          done.completeExceptionally(new JobManagerException(f.message()));
        }
      } else {
        carryOut(d);
      }
    }
  }

  private static void log(Decision.Log l) {
    switch (l.level()) {
      case DEBUG -> LOG.debug("{}", l.text());
      case INFO -> LOG.info("{}", l.text());
      case WARN -> LOG.warn("{}", l.text());
      default -> LOG.error("{}", l.text());
    }
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
          List<Decision> out = core.handle(new Input.Submit(jobspec, userid), clock.getAsDouble());
          CompletableFuture<Long> done = new CompletableFuture<>();
          for (Decision d : out) {
            if (d instanceof Decision.Submitted s) {
              waiters.put(s.jobId(), done);
            }
          }
          carryOut(out);
          return done;
        });
  }

  /** The decisions of a call outside a request: no Respond or Fail among them. */
  private void carryOut(List<Decision> out) {
    for (Decision d : out) {
      carryOut(d);
    }
  }

  /**
   * Carries out a decision that answers no request: an eventlog entry (written before this returns,
   * D8), a message to the scheduler, a log line; {@code Submitted} is taken by {@link #submit}.
   */
  private void carryOut(Decision d) {
    if (d instanceof Decision.Append a) {
      eventlog.append(a.jobId(), a.entry());
    } else if (d instanceof Decision.SendAlloc s) {
      handle.sendUntracked(Rfc27Topics.ALLOC, s.payload());
    } else if (d instanceof Decision.SendFree f) {
      handle.send(Rfc27Topics.FREE, FluxPayloads.free(f.jobId(), f.r(), f.isFinal()));
    } else if (d instanceof Decision.Log l) {
      log(l);
    } else if (!(d instanceof Decision.Submitted)) {
      throw new IllegalStateException("decision outside a request: " + d);
    }
  }

  /**
   * Registers a job whose initial R is known (events {@code submit} and {@code alloc}); only before
   * the scheduler's hello, which then reports it.
   */
  public CompletableFuture<Long> register(long jobId, int userid, ResourceSet r) {
    Objects.requireNonNull(r, "R");
    return onLoop(
        () -> {
          try {
            carryOut(core.handle(new Input.Register(jobId, userid, r), clock.getAsDouble()));
          } catch (JobManagerException e) {
            return CompletableFuture.failedFuture(e);
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
          try {
            carryOut(core.handle(new Input.Finish(jobId), clock.getAsDouble()));
          } catch (JobManagerException e) {
            return CompletableFuture.failedFuture(e);
          }
          return CompletableFuture.completedFuture(null);
        });
  }

  /** The job's current R (resources being released included), if it holds resources. */
  public Optional<ResourceSet> jobR(long jobId) {
    return core.job(jobId).filter(Job::running).map(Job::r);
  }

  /** The ids of the running jobs (those that hold resources), in ascending order. */
  public java.util.List<Long> runningJobs() {
    return core.jobs().stream().filter(Job::running).map(Job::id).sorted().toList();
  }

  /** The user of a running job, if it is one. */
  public java.util.OptionalInt jobUser(long jobId) {
    return core.job(jobId)
        .filter(Job::running)
        .map(j -> java.util.OptionalInt.of(j.userid()))
        .orElse(java.util.OptionalInt.empty());
  }

  /** What the job was granted to give back and has not released yet (empty if nothing). */
  public Optional<ResourceSet> releasing(long jobId) {
    return core.job(jobId).filter(Job::running).map(Job::releasing);
  }

  /** The number of {@code job-manager.realloc} requests waiting for the scheduler. */
  public int pendingReallocs() {
    return reallocs.size();
  }

  /** The job's annotations (RFC 27, merged from the scheduler's answers), if it has any. */
  public Optional<JsonNode> annotations(long jobId) {
    return core.job(jobId).map(Job::annotations).filter(a -> !a.isEmpty()).map(a -> a);
  }

  // ---- RFC 27: the scheduler's side ------------------------------------------------------------

  /** One response to a {@code sched.alloc}: matchtag 0, correlated by the job id it carries. */
  private void allocResponse(Message m) {
    if (m.errnum() != 0) {
      // RFC 27 digest §11: an error response takes the interface down
      run(
          new Input.SchedulerDown(
              Rfc27Topics.ALLOC + ": " + Errno.name(m.errnum()) + " " + errorText(m)),
          null);
      return;
    }
    long id;
    ObjectNode p;
    try {
      p = m.json();
      id = JobId.read(p.get("id"), Rfc27Topics.ALLOC + ": /id");
    } catch (RpcException e) {
      LOG.error("{}: response ignored: {}", Rfc27Topics.ALLOC, e.getMessage());
      return;
    }
    run(new Input.AllocResponse(id, p), null);
  }

  private static String errorText(Message m) {
    try {
      return m.has(Flags.PAYLOAD) ? m.text() : "";
    } catch (RpcException e) {
      return "";
    }
  }

  private void hello(ServiceRequest req) {
    req.requireOwner("the scheduler");
    schedSender = req.sender();
    run(new Input.Hello(), req);
    req.end();
  }

  private void ready(ServiceRequest req) {
    req.requireOwner("the scheduler");
    ObjectNode p = req.json();
    String mode = p.path("mode").asText("");
    // RFC 27 digest §3.2: mode unlimited, or limited with a limit of at least one
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
    run(new Input.Ready(), req);
  }

  private void raise(ServiceRequest req) {
    req.requireOwner("the scheduler");
    ObjectNode p = req.json();
    long id = jobId(req, p, "id");
    run(
        new Input.Raise(
            id,
            p.path("type").asText("exception"),
            p.path("severity").asInt(0),
            p.path("note").asText("")),
        req);
  }

  private void disconnected(String sender) {
    if (sender.equals(schedSender)) {
      schedSender = null;
      run(new Input.SchedulerDown("the scheduler disconnected"), null);
    }
    reallocs.disconnected(sender);
  }

  // ---- RFC 51: the shell's side ----------------------------------------------------------------

  static long jobId(ServiceRequest req, ObjectNode p, String key) {
    return JobId.read(p.get(key), req.topic() + ": /" + key);
  }

  static ResourceSet rArg(ServiceRequest req, ObjectNode p) {
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
  Job actingOn(ServiceRequest req, long id) {
    return core.actingOn(req.topic(), id, req.isOwner(), req.credentials().userid());
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
    actingOn(req, id);
    run(new Input.Release(req.topic(), id, ranks, r), req);
  }
}
