package io.fluxdrm.sched.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.protocol.ReallocResponseType;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Flags;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.net.EventLoop;
import io.fluxdrm.rpc.net.FluxHandle;
import io.fluxdrm.rpc.net.Hub;
import io.fluxdrm.rpc.net.RequestHandler;
import io.fluxdrm.rpc.net.Service;
import io.fluxdrm.rpc.net.ServiceRequest;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.rset.RsetException;
import io.fluxdrm.sched.Decision;
import io.fluxdrm.sched.JobspecRequests;
import io.fluxdrm.sched.ResourceRequest;
import io.fluxdrm.sched.SchedEvent;
import io.fluxdrm.sched.SchedException;
import io.fluxdrm.sched.SchedulerCore;
import io.fluxdrm.sched.SchedulerOptions;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.DoubleSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The FIFO scheduler on the message layer: it registers {@code sched} and {@code feasibility},
 * decodes each RFC 27 / RFC 51 request into a {@link SchedEvent}, hands it to a {@link
 * SchedulerCore} and carries out the decisions: responses (never to {@code sched.free}, {@code
 * sched.cancel}, {@code sched.prioritize} or {@code sched.realloc_cancel}), the KVS commit of a
 * job's R before its alloc SUCCESS when attached to a Flux broker, job exceptions, one log line
 * each.
 *
 * <p>Startup (01-rfc27-sched-protocol.md §3): {@code service.add} of both services; when attached,
 * {@code resource.acquire} (the first response gives the pool); {@code job-manager.sched-hello}
 * with {@code partial-ok} (each job's R from {@code kvs.lookup} when attached, from the {@link
 * StateStore} when standalone), then {@code job-manager.sched-ready}. Standalone, the job manager
 * is whichever client registers {@code job-manager}: the hello is retried until it is there, and
 * sent again at once when the hub's {@link Hub#SERVICE_REMOVED} event says {@code job-manager} is
 * gone (or when the hub reports the disconnect of a job manager that sent {@code sched.*}
 * requests).
 *
 * <p>{@link #start} may be called from any thread; everything else runs on the handle's loop (the
 * handlers, the futures' continuations) and is not thread-safe otherwise.
 */
public final class SchedService {
  private static final Logger LOG = LoggerFactory.getLogger(SchedService.class);

  /** The user id the core sees for a request with the owner role (outside the u32 range). */
  static final long OWNER_ALIAS = 1L << 32;

  /** Where the pool and the running jobs' R come from. */
  public enum Mode {
    /** Pool from options; R of running jobs from the {@link StateStore}. */
    STANDALONE,
    /** Pool from {@code resource.acquire}; R from and to the KVS. */
    ATTACHED
  }

  /** The job manager interface, as the scheduler sees it. */
  public enum LinkState {
    OFFLINE,
    HELLO,
    ONLINE
  }

  private final Mode mode;
  private final SchedulerOptions options;
  private final DoubleSupplier clock;
  private final StateStore store;
  private final Duration retryMin;
  private final Duration retryMax;
  private SchedulerCore core;
  private FluxHandle handle;
  private EventLoop loop;
  private LinkState link = LinkState.OFFLINE;
  private Duration retry;
  private final Map<Long, ServiceRequest> allocs = new HashMap<>();
  private final Map<ReallocKey, ServiceRequest> reallocs = new HashMap<>();
  private final Set<String> jobManagers = new HashSet<>();
  private final CompletableFuture<Void> online = new CompletableFuture<>();

  /** The next hello, when one is waiting for its back-off. */
  private EventLoop.Cancellable retryTimer;

  /**
   * Counts the link attempts given up: the answers of a hello or ready sent before the job manager
   * left are ignored (they may never come, the hub does not fail requests to a departed peer).
   */
  private int linkGeneration;

  private record ReallocKey(String sender, long matchtag) {}

  private SchedService(Builder b) {
    this.mode = b.mode;
    this.options =
        b.options.withInstanceOwner(
            b.options.instanceOwner() >= 0 ? b.options.instanceOwner() : OWNER_ALIAS);
    this.clock = b.clock;
    this.store = b.store;
    this.retryMin = b.retryMin;
    this.retryMax = b.retryMax;
    this.retry = b.retryMin;
    if (b.pool != null) {
      this.core =
          SchedulerCore.of(
              b.pool,
              store == null ? this.options : this.options.withFirstAllocId(store.nextAllocId()));
    }
  }

  /** A standalone scheduler over {@code pool}. */
  public static Builder standalone(ResourceSet pool) {
    return new Builder(Mode.STANDALONE, Objects.requireNonNull(pool, "pool"));
  }

  /** A scheduler attached to a Flux broker: the pool comes from {@code resource.acquire}. */
  public static Builder attached() {
    return new Builder(Mode.ATTACHED, null);
  }

  /** Builds a {@link SchedService}. */
  public static final class Builder {
    private final Mode mode;
    private final ResourceSet pool;
    private SchedulerOptions options = SchedulerOptions.defaults();
    private DoubleSupplier clock = () -> System.currentTimeMillis() / 1000.0;
    private StateStore store;
    private Duration retryMin = Duration.ofMillis(100);
    private Duration retryMax = Duration.ofSeconds(2);

    private Builder(Mode mode, ResourceSet pool) {
      this.mode = mode;
      this.pool = pool;
      this.store = mode == Mode.STANDALONE ? StateStore.inMemory() : null;
    }

    public Builder options(SchedulerOptions o) {
      this.options = Objects.requireNonNull(o, "options");
      return this;
    }

    /** Seconds since the epoch, the time of every decision. */
    public Builder clock(DoubleSupplier c) {
      this.clock = Objects.requireNonNull(c, "clock");
      return this;
    }

    /** Where a standalone scheduler remembers running jobs (in memory by default). */
    public Builder store(StateStore s) {
      if (mode != Mode.STANDALONE) {
        throw new SchedException("state store: only a standalone scheduler keeps one");
      }
      this.store = Objects.requireNonNull(s, "store");
      return this;
    }

    /** The first and the longest wait before a hello is tried again. */
    public Builder retry(Duration min, Duration max) {
      this.retryMin = min;
      this.retryMax = max;
      return this;
    }

    public SchedService build() {
      return new SchedService(this);
    }
  }

  // ---- accessors -------------------------------------------------------------------------------

  /** The core, or null while an attached scheduler has not acquired its resources. */
  public SchedulerCore core() {
    return core;
  }

  public LinkState link() {
    return link;
  }

  /** Completes when the job manager answered {@code sched-ready} the first time. */
  public CompletableFuture<Void> online() {
    return online;
  }

  // ---- services --------------------------------------------------------------------------------

  /** The {@code sched} service (RFC 27 and RFC 51). */
  public Service schedService() {
    return Service.builder("sched")
        .on("alloc", guard(this::alloc))
        .on("free", quiet(this::free))
        .on("cancel", quiet(this::cancel))
        .on("prioritize", quiet(this::prioritize))
        .on("expiration", guard(this::expiration))
        .on("realloc", guard(this::realloc))
        .on("realloc_cancel", quiet(this::reallocCancel))
        .on("resource-status", guard(this::resourceStatus))
        .onDisconnect(this::disconnected)
        .build();
  }

  /** The {@code feasibility} service ({@code feasibility.check}). */
  public Service feasibilityService() {
    return Service.builder("feasibility").on("check", guard(this::check)).build();
  }

  /**
   * Registers both services on {@code h} and starts the handshake with the job manager. The future
   * completes once the services are registered and, when attached, the resources acquired and
   * {@code sched-ready} answered; it fails with the broker's error otherwise.
   */
  public CompletableFuture<Void> start(FluxHandle h) {
    this.handle = h;
    this.loop = h.loop();
    CompletableFuture<Void> started = new CompletableFuture<>();
    h.register(schedService())
        .thenCompose(v -> h.register(feasibilityService()))
        .whenComplete(
            (v, err) -> {
              if (err != null) {
                started.completeExceptionally(cause(err));
              } else if (mode == Mode.ATTACHED) {
                acquire(started);
              } else {
                LOG.info(
                    "ready: pool {} queue-depth={} realloc={}",
                    core.pool().all().summary(),
                    options.queueDepth(),
                    options.realloc() ? "on" : "off");
                watchJobManager()
                    .whenComplete(
                        (s, e) -> {
                          started.complete(null);
                          hello(false);
                        });
              }
            });
    return started;
  }

  private RequestHandler guard(RequestHandler h) {
    return req -> {
      try {
        h.handle(req);
      } catch (RpcException e) {
        LOG.warn("{}: {}: {}", req.topic(), Errno.name(e.errnum()), e.getMessage());
        req.fail(e.errnum(), e.getMessage());
      }
    };
  }

  /**
   * For the messages RFC 27 and RFC 51 never answer ({@code sched.free}, {@code sched.cancel},
   * {@code sched.prioritize}, {@code sched.realloc_cancel}): a bad one is logged, not answered,
   * even when it was sent without NORESPONSE (flux-core sends {@code sched.free} that way), and the
   * request is dropped so that the dispatcher does not keep it until its sender disconnects.
   */
  private RequestHandler quiet(RequestHandler h) {
    return req -> {
      try {
        h.handle(req);
      } catch (RpcException e) {
        LOG.warn("{}: {}: {}", req.topic(), Errno.name(e.errnum()), e.getMessage());
      } finally {
        req.drop();
      }
    };
  }

  private static boolean answered(SchedEvent e) {
    return !(e instanceof SchedEvent.Free
        || e instanceof SchedEvent.Cancel
        || e instanceof SchedEvent.Prioritize
        || e instanceof SchedEvent.ReallocCancel);
  }

  private static Throwable cause(Throwable t) {
    return t instanceof java.util.concurrent.CompletionException && t.getCause() != null
        ? t.getCause()
        : t;
  }

  private SchedulerCore requireCore(String topic) {
    if (core == null) {
      throw new RpcException(Errno.ENOSYS, topic + ": resources not acquired yet");
    }
    return core;
  }

  // ---- RFC 27 handlers -------------------------------------------------------------------------

  private void alloc(ServiceRequest req) {
    req.requireOwner("the job manager");
    ObjectNode p = req.json();
    Payloads.check(req.topic(), "sched.alloc-request", p);
    SchedulerCore c = requireCore(req.topic());
    jobManagers.add(req.sender());
    long id = Payloads.u64(p.get("id"));
    ResourceRequest request;
    try {
      request = JobspecRequests.of(p.get("jobspec"));
    } catch (SchedException e) {
      if (allocs.containsKey(id) || c.isRunning(id)) {
        throw new RpcException(
            Errno.EPROTO,
            "alloc: job "
                + Long.toUnsignedString(id)
                + (c.isRunning(id)
                    ? " already holds resources"
                    : " already has a pending alloc request"));
      }
      Decision.AllocDeny deny = new Decision.AllocDeny(id, e.getMessage());
      LOG.info("alloc {}: denied: {}", Ids.f58(id), deny.note());
      req.respond(Payloads.allocDeny(deny));
      return;
    }
    SchedEvent.Alloc e =
        new SchedEvent.Alloc(
            id,
            p.get("priority").asLong(),
            p.get("userid").asLong(),
            p.path("t_submit").asDouble(0),
            request);
    boolean mine = allocs.putIfAbsent(id, req) == null;
    run(e, req, mine ? () -> allocs.remove(id, req) : () -> {});
  }

  private void free(ServiceRequest req) {
    req.requireOwner("the job manager");
    ObjectNode p = req.json();
    Payloads.check(req.topic(), "sched.free-request", p);
    requireCore(req.topic());
    jobManagers.add(req.sender());
    ResourceSet r = Payloads.r(req.topic(), "R", p.get("R"));
    run(
        new SchedEvent.Free(Payloads.u64(p.get("id")), r, p.path("final").asBoolean(false)),
        req,
        () -> {});
  }

  private void cancel(ServiceRequest req) {
    req.requireOwner("the job manager");
    ObjectNode p = req.json();
    Payloads.check(req.topic(), "sched.cancel-request", p);
    requireCore(req.topic());
    jobManagers.add(req.sender());
    run(new SchedEvent.Cancel(Payloads.u64(p.get("id"))), req, () -> {});
  }

  private void prioritize(ServiceRequest req) {
    req.requireOwner("the job manager");
    ObjectNode p = req.json();
    Payloads.check(req.topic(), "sched.prioritize-request", p);
    requireCore(req.topic());
    jobManagers.add(req.sender());
    List<SchedEvent.JobPriority> jobs = new ArrayList<>();
    for (JsonNode pair : p.get("jobs")) {
      jobs.add(new SchedEvent.JobPriority(Payloads.u64(pair.get(0)), pair.get(1).asLong()));
    }
    run(new SchedEvent.Prioritize(jobs), req, () -> {});
  }

  private void expiration(ServiceRequest req) {
    req.requireOwner("the job manager");
    ObjectNode p = req.json();
    JsonNode exp = p.get("expiration");
    if (exp != null && exp.isNumber() && exp.asDouble() < 0) {
      // a negative expiration is well formed: the core answers it EINVAL, as flux-core does (D83)
      Payloads.check(req.topic(), "sched.expiration-request", p.deepCopy().put("expiration", 0));
    } else {
      Payloads.check(req.topic(), "sched.expiration-request", p);
    }
    requireCore(req.topic());
    jobManagers.add(req.sender());
    run(new SchedEvent.Expiration(Payloads.u64(p.get("id")), exp.asDouble()), req, () -> {});
  }

  private void resourceStatus(ServiceRequest req) {
    SchedulerCore c = requireCore(req.topic());
    req.respond(Payloads.status(c.pool().all(), c.pool().allocated(), c.pool().down()));
  }

  private void check(ServiceRequest req) {
    ObjectNode p = req.json();
    JsonNode jobspec = p.get("jobspec");
    if (jobspec == null || !jobspec.isObject()) {
      throw new RpcException(
          Errno.EPROTO, req.topic() + ": /jobspec: " + kind(jobspec) + " (expected: an object)");
    }
    SchedulerCore c = requireCore(req.topic());
    ResourceRequest request;
    try {
      request = JobspecRequests.of(jobspec);
    } catch (SchedException e) {
      boolean unsat = e.getMessage().startsWith(JobspecRequests.UNSATISFIABLE_PREFIX);
      throw new RpcException(
          unsat ? io.fluxdrm.sched.Errno.EOVERFLOW.code() : Errno.EINVAL, e.getMessage());
    }
    String note = c.feasibility(request).orElse(null);
    if (note != null) {
      throw new RpcException(io.fluxdrm.sched.Errno.EOVERFLOW.code(), note);
    }
    req.respond(Json.object());
  }

  private static String kind(JsonNode n) {
    return n == null ? "missing" : n.getNodeType().toString().toLowerCase(java.util.Locale.ROOT);
  }

  // ---- RFC 51 handlers -------------------------------------------------------------------------

  private void realloc(ServiceRequest req) {
    ObjectNode p = req.json();
    Payloads.check(req.topic(), "sched.realloc-request", p);
    requireCore(req.topic());
    if (!req.expectsResponse()) {
      throw new RpcException(
          Errno.EPROTO, req.topic() + ": sent without a response (expected: an RPC, D2)");
    }
    ResourceRequest add = spec(req.topic(), "spec_add", p);
    ResourceRequest sub = spec(req.topic(), "spec_sub", p);
    ResourceSet r = p.has("R") ? Payloads.r(req.topic(), "R", p.get("R")) : null;
    long matchtag = Integer.toUnsignedLong(req.matchtag());
    long userid =
        req.isOwner()
            ? options.instanceOwner()
            : Integer.toUnsignedLong(req.credentials().userid());
    SchedEvent.Realloc e =
        new SchedEvent.Realloc(
            Payloads.u64(p.get("job_id")), matchtag, req.sender(), userid, add, sub, r);
    ReallocKey key = new ReallocKey(req.sender(), matchtag);
    boolean mine = reallocs.putIfAbsent(key, req) == null;
    run(e, req, mine ? () -> reallocs.remove(key, req) : () -> {});
  }

  private static ResourceRequest spec(String topic, String key, ObjectNode p) {
    JsonNode n = p.get(key);
    if (n == null) {
      return null;
    }
    try {
      return JobspecRequests.of(n);
    } catch (SchedException e) {
      throw new RpcException(Errno.EINVAL, topic + ": /" + key + ": " + e.getMessage());
    }
  }

  private void reallocCancel(ServiceRequest req) {
    ObjectNode p = req.json();
    Payloads.check(req.topic(), "sched.realloc_cancel-request", p);
    requireCore(req.topic());
    run(new SchedEvent.ReallocCancel(req.sender(), p.get("matchtag").asLong()), req, () -> {});
  }

  private void disconnected(String sender) {
    if (core == null) {
      return;
    }
    reallocs.keySet().removeIf(k -> k.sender().equals(sender));
    execute(core.handle(new SchedEvent.Disconnect(sender), clock.getAsDouble()), null, null);
    if (jobManagers.remove(sender)) {
      LOG.warn("job manager {} disconnected", sender);
      for (Iterator<Map.Entry<Long, ServiceRequest>> it = allocs.entrySet().iterator();
          it.hasNext(); ) {
        Map.Entry<Long, ServiceRequest> en = it.next();
        if (en.getValue().sender().equals(sender)) {
          it.remove();
          execute(core.handle(new SchedEvent.Cancel(en.getKey()), clock.getAsDouble()), null, null);
        }
      }
      if (link != LinkState.HELLO && handle != null) {
        link = LinkState.OFFLINE;
        retryLater();
      }
    }
  }

  // ---- executing decisions ---------------------------------------------------------------------

  /**
   * Hands an event to the core and carries out the decisions; {@code unclaim} runs when the request
   * was refused (it did not become pending).
   */
  private void run(SchedEvent e, ServiceRequest req, Runnable unclaim) {
    List<Decision> out = core.handle(e, clock.getAsDouble());
    execute(out, e, req, unclaim);
  }

  private void execute(List<Decision> out, SchedEvent e, ServiceRequest req) {
    execute(out, e, req, () -> {});
  }

  private void execute(List<Decision> out, SchedEvent e, ServiceRequest req, Runnable unclaim) {
    for (Decision d : out) {
      if (d instanceof Decision.AllocSuccess s) {
        granted(s);
      } else if (d instanceof Decision.AllocAnnotate x) {
        annotateAlloc(x);
      } else if (d instanceof Decision.AllocDeny x) {
        LOG.info("alloc {}: denied: {}", Ids.f58(x.jobId()), x.note());
        answerAlloc(x.jobId(), Payloads.allocDeny(x));
      } else if (d instanceof Decision.AllocCancel x) {
        LOG.info("alloc {}: canceled", Ids.f58(x.jobId()));
        answerAlloc(x.jobId(), Payloads.allocCancel(x));
      } else if (d instanceof Decision.ReallocResponse x) {
        reallocAnswered(x);
      } else if (d instanceof Decision.Rejected x) {
        rejected(x, e, req, unclaim);
      } else if (d instanceof Decision.Freed x) {
        LOG.info(
            "free {}: {}{}", Ids.f58(x.jobId()), x.r().summary(), x.isFinal() ? " (final)" : "");
        sync(x.jobId());
      } else if (d instanceof Decision.Restored x) {
        LOG.info("hello {}: {}", Ids.f58(x.jobId()), x.r().summary());
        sync(x.jobId());
      } else if (d instanceof Decision.JobException x) {
        raise(x);
      } else if (d instanceof Decision.ExpirationSet x) {
        LOG.info("expiration {}: {}", Ids.f58(x.jobId()), x.expiration());
        if (req != null) {
          req.respond(Json.object());
        }
      }
    }
    if (store != null) {
      store.nextAllocId(core.nextAllocId());
    }
  }

  private void rejected(Decision.Rejected x, SchedEvent e, ServiceRequest req, Runnable unclaim) {
    String job = x.jobId() == 0 ? "" : " " + Ids.f58(x.jobId());
    LOG.warn("{}{}: {} {}", topicOf(x.request()), job, x.errno(), x.message());
    if (req != null && x.request() == e) {
      unclaim.run();
      if (answered(e)) {
        req.fail(x.errno().code(), x.message());
      }
    }
  }

  private static String topicOf(SchedEvent e) {
    if (e instanceof SchedEvent.Alloc) {
      return "sched.alloc";
    } else if (e instanceof SchedEvent.Free) {
      return "sched.free";
    } else if (e instanceof SchedEvent.Expiration) {
      return "sched.expiration";
    } else if (e instanceof SchedEvent.Realloc) {
      return "sched.realloc";
    } else if (e instanceof SchedEvent.ResourceUpdate) {
      return "resource.acquire";
    }
    return "sched";
  }

  private void granted(Decision.AllocSuccess s) {
    long id = s.jobId();
    LOG.info("alloc {}: {}", Ids.f58(id), s.resourceSummary());
    sync(id);
    ObjectNode answer = Payloads.allocSuccess(s);
    if (mode == Mode.ATTACHED && handle != null) {
      ServiceRequest req = allocs.remove(id);
      commit(id, s.r())
          .whenComplete(
              (m, err) -> {
                if (req == null) {
                  return;
                }
                if (err != null) {
                  RpcException ex = asRpc(cause(err));
                  LOG.error(
                      "alloc {}: kvs.commit {}: {}", Ids.f58(id), Ids.rKey(id), ex.getMessage());
                  req.fail(Errno.EIO, "alloc: kvs.commit of " + Ids.rKey(id) + " failed");
                } else {
                  req.respond(answer);
                }
              });
    } else {
      answerAlloc(id, answer);
    }
  }

  /**
   * Sends an ANNOTATE on a pending alloc: a response that does not finish the request (RFC 27
   * §4.1), sent as a raw response since {@code sched.alloc} is not a streaming method.
   */
  private void annotateAlloc(Decision.AllocAnnotate x) {
    ServiceRequest req = allocs.get(x.jobId());
    LOG.debug("alloc {}: pending, jobs_ahead={}", Ids.f58(x.jobId()), x.jobsAhead());
    if (req != null && req.expectsResponse() && handle != null) {
      handle.sendRaw(Message.response(req.message(), 0, Json.encode(Payloads.allocAnnotate(x))));
    }
  }

  private void answerAlloc(long id, ObjectNode answer) {
    ServiceRequest req = allocs.remove(id);
    if (req != null) {
      req.respond(answer);
    } else {
      LOG.debug("alloc {}: its request is gone, answer dropped", Ids.f58(id));
    }
  }

  private void reallocAnswered(Decision.ReallocResponse x) {
    LOG.info(
        "realloc {} alloc_id={}: {}{}{}{}",
        Ids.f58(x.jobId()),
        Long.toUnsignedString(x.allocId()),
        x.type(),
        x.rDeltaAdd() == null ? "" : " add " + x.rDeltaAdd().summary(),
        x.rDeltaSub() == null ? "" : " sub " + x.rDeltaSub().summary(),
        x.note() == null ? "" : ": " + x.note());
    if (x.type() == ReallocResponseType.SUCCESS) {
      sync(x.jobId());
    }
    ServiceRequest req = reallocs.remove(new ReallocKey(x.sender(), x.matchtag()));
    if (mode == Mode.ATTACHED && handle != null && x.rDeltaAdd() != null) {
      commitGrow(x, req);
    } else if (req != null) {
      req.respond(Payloads.realloc(x));
    }
  }

  /**
   * Attached, a grant that adds resources is written into {@code job.<id>.R} before it is answered,
   * as an alloc's R is (D147): a restarted scheduler rebuilds each running job from that key, and
   * the grown ranks must not look free then. The key's R keeps its start time, expiration and slot
   * count grows by the grant's. A failed lookup or commit is logged and answered EIO; the grant
   * stays with the job, as an alloc's does when its commit fails, until the job frees it.
   */
  private void commitGrow(Decision.ReallocResponse x, ServiceRequest req) {
    long id = x.jobId();
    lookup(id)
        .thenCompose(
            cur -> {
              ResourceSet grown =
                  cur.union(x.rDeltaAdd())
                      .withTimes(cur.starttime(), cur.expiration())
                      .withNslots(cur.nslots() + x.rDeltaAdd().nslots());
              return commit(id, grown);
            })
        .whenComplete(
            (m, err) -> {
              if (err != null) {
                RpcException ex = asRpc(cause(err));
                LOG.error(
                    "realloc {}: kvs.commit {}: {}", Ids.f58(id), Ids.rKey(id), ex.getMessage());
                if (req != null) {
                  req.fail(Errno.EIO, "realloc: kvs.commit of " + Ids.rKey(id) + " failed");
                }
              } else if (req != null) {
                req.respond(Payloads.realloc(x));
              }
            });
  }

  private void sync(long id) {
    if (store == null) {
      return;
    }
    if (core.isRunning(id)) {
      core.pool().allocation(id).ifPresent(r -> store.put(id, r));
    } else {
      store.remove(id);
    }
  }

  private void raise(Decision.JobException x) {
    LOG.warn(
        "hello {}: raising {} exception: {} ({})",
        Ids.f58(x.jobId()),
        x.type(),
        x.note(),
        x.reason());
    if (handle == null) {
      return;
    }
    ObjectNode p = Json.object();
    Payloads.putU64(p, "id", x.jobId());
    p.put("severity", 0);
    p.put("type", x.type());
    p.put("note", x.note());
    handle
        .rpc("job-manager.raise", p)
        .whenComplete(
            (m, err) -> {
              if (err != null) {
                LOG.error(
                    "job-manager.raise {}: {}", Ids.f58(x.jobId()), asRpc(cause(err)).getMessage());
              }
            });
  }

  private static RpcException asRpc(Throwable t) {
    return t instanceof RpcException r ? r : new RpcException(Errno.EIO, String.valueOf(t));
  }

  // ---- KVS (attached) --------------------------------------------------------------------------

  private CompletableFuture<Message> commit(long id, ResourceSet r) {
    ObjectNode p = Json.object();
    p.put("namespace", "primary");
    p.put("flags", 0);
    ObjectNode op = p.putArray("ops").addObject();
    op.put("key", Ids.rKey(id));
    op.put("flags", 0);
    ObjectNode dirent = op.putObject("dirent");
    dirent.put("ver", 1);
    dirent.put("type", "val");
    dirent.put(
        "data", Base64.getEncoder().encodeToString(r.toString().getBytes(StandardCharsets.UTF_8)));
    return handle.rpc("kvs.commit", p);
  }

  private CompletableFuture<ResourceSet> lookup(long id) {
    ObjectNode p = Json.object();
    p.put("key", Ids.rKey(id));
    p.put("namespace", "primary");
    p.put("flags", 0);
    return handle
        .rpc("kvs.lookup", p)
        .thenApply(
            m -> {
              JsonNode data = m.json().path("val").path("data");
              if (!data.isTextual()) {
                throw new RpcException(
                    Errno.EPROTO, "kvs.lookup " + Ids.rKey(id) + ": /val/data: (expected: base64)");
              }
              try {
                return ResourceSet.parse(
                    new String(Base64.getDecoder().decode(data.asText()), StandardCharsets.UTF_8));
              } catch (IllegalArgumentException e) {
                throw new RpcException(
                    Errno.EPROTO, "kvs.lookup " + Ids.rKey(id) + ": " + e.getMessage());
              }
            });
  }

  // ---- startup and the job manager link --------------------------------------------------------

  private void acquire(CompletableFuture<Void> started) {
    boolean[] first = {true};
    handle.stream(
            "resource.acquire",
            null,
            m -> {
              try {
                acquired(m.json(), first[0]);
              } catch (RuntimeException e) {
                LOG.error("resource.acquire: {}", e.getMessage());
                if (first[0]) {
                  started.completeExceptionally(e);
                }
                return;
              }
              if (first[0]) {
                first[0] = false;
                hello(true);
                online.whenComplete(
                    (v, err) -> {
                      if (err != null) {
                        started.completeExceptionally(err);
                      } else {
                        started.complete(null);
                      }
                    });
              }
            },
            null)
        .done()
        .whenComplete(
            (v, err) -> {
              if (err != null) {
                LOG.error("resource.acquire ended: {}", asRpc(cause(err)).getMessage());
                started.completeExceptionally(cause(err));
              }
            });
  }

  private void acquired(ObjectNode p, boolean first) {
    String t = "resource.acquire";
    IdSet up = p.has("up") ? Payloads.idset(t, "up", p.get("up")) : IdSet.empty();
    IdSet down = p.has("down") ? Payloads.idset(t, "down", p.get("down")) : IdSet.empty();
    IdSet shrink = p.has("shrink") ? Payloads.idset(t, "shrink", p.get("shrink")) : IdSet.empty();
    Map<String, IdSet> add = Payloads.properties(t, "property-add", p.get("property-add"));
    Map<String, IdSet> remove = Payloads.properties(t, "property-remove", p.get("property-remove"));
    double expiration = Double.NaN;
    if (p.has("expiration")) {
      JsonNode e = p.get("expiration");
      if (!e.isNumber()) {
        throw new RpcException(
            Errno.EPROTO, t + ": /expiration: " + kind(e) + " (expected: a number)");
      }
      expiration = e.asDouble();
    }
    if (first) {
      JsonNode resources = p.get("resources");
      if (resources == null) {
        throw new RpcException(Errno.EPROTO, t + ": /resources: missing (expected: R)");
      }
      ResourceSet all = Payloads.r(t, "resources", resources);
      core = SchedulerCore.of(all, options);
      // everything down first, then up (RFC 28 as flux-core's schedulers read it)
      down = all.ranks().difference(up);
      LOG.info("resource.acquire: pool {} up {}", all.summary(), up);
    } else {
      LOG.info(
          "resource.acquire: up {} down {} shrink {} property-add {} property-remove {}{}",
          up,
          down,
          shrink,
          add.keySet(),
          remove.keySet(),
          Double.isNaN(expiration) ? "" : " expiration " + expiration);
    }
    execute(
        core.handle(
            new SchedEvent.ResourceUpdate(up, down, shrink, add, remove, expiration),
            clock.getAsDouble()),
        null,
        null);
  }

  private void retryLater() {
    Duration wait = retry;
    retry = retry.multipliedBy(2).compareTo(retryMax) > 0 ? retryMax : retry.multipliedBy(2);
    if (retryTimer != null) {
      retryTimer.cancel();
    }
    retryTimer =
        loop.schedule(
            wait,
            () -> {
              retryTimer = null;
              hello(false);
            });
  }

  /**
   * Sends {@code job-manager.sched-hello}, rebuilds running allocations from the answers, then
   * {@code sched-ready}. {@code fatal}: a failure fails {@link #online()} instead of retrying.
   */
  private void hello(boolean fatal) {
    if (link != LinkState.OFFLINE || handle == null || handle.isClosed()) {
      return;
    }
    if (retryTimer != null) {
      retryTimer.cancel();
      retryTimer = null;
    }
    link = LinkState.HELLO;
    int gen = linkGeneration;
    List<ObjectNode> jobs = new ArrayList<>();
    ObjectNode req = Json.object().put("partial-ok", true);
    handle.stream("job-manager.sched-hello", req, m -> jobs.add(m.json()), null)
        .done()
        .whenComplete(
            (v, err) -> {
              if (gen != linkGeneration) {
                LOG.debug("hello to a job manager that left: answer ignored");
              } else if (err != null) {
                linkFailed("job-manager.sched-hello", cause(err), fatal);
              } else {
                rebuild(jobs, fatal, gen);
              }
            });
  }

  private void linkFailed(String what, Throwable err, boolean fatal) {
    RpcException e = asRpc(err);
    link = LinkState.OFFLINE;
    if (fatal) {
      LOG.error("{}: {}", what, e.getMessage());
      online.completeExceptionally(e);
      return;
    }
    if (e.errnum() == Errno.ENOSYS) {
      LOG.debug("{}: no job manager yet, retrying in {} ms", what, retry.toMillis());
    } else {
      LOG.warn("{}: {}, retrying in {} ms", what, e.getMessage(), retry.toMillis());
    }
    retryLater();
  }

  /**
   * Standalone: subscribes to the hub's {@link Hub#SERVICE_REMOVED}, which tells when {@code
   * job-manager} goes away, even a job manager that never sent a request (D121). A hub that refuses
   * the subscription leaves only the disconnect reports (logged).
   */
  private CompletableFuture<?> watchJobManager() {
    return handle
        .subscribe(Hub.SERVICE_REMOVED, this::serviceRemoved)
        .whenComplete(
            (s, err) -> {
              if (err != null) {
                LOG.warn(
                    "event.subscribe {}: {}; a job manager that leaves before any request will"
                        + " not be noticed",
                    Hub.SERVICE_REMOVED,
                    asRpc(cause(err)).getMessage());
              }
            });
  }

  private void serviceRemoved(Message ev) {
    String name;
    try {
      name = ev.json().path("service").asText("");
    } catch (RpcException e) {
      LOG.warn("{}: {}", Hub.SERVICE_REMOVED, e.getMessage());
      return;
    }
    if (!name.equals("job-manager") || (ev.rolemask() & Flags.ROLE_OWNER) == 0) {
      return;
    }
    if (link == LinkState.OFFLINE && retryTimer == null) {
      return; // no hello sent nor waiting: nothing to start again
    }
    LOG.warn("job manager left ({} {}), hello again", Hub.SERVICE_REMOVED, name);
    linkGeneration++;
    link = LinkState.OFFLINE;
    retry = retryMin;
    hello(false);
  }

  private void rebuild(List<ObjectNode> jobs, boolean fatal, int gen) {
    List<CompletableFuture<SchedEvent.RunningJob>> found = new ArrayList<>();
    List<Decision> failed = new ArrayList<>();
    for (ObjectNode j : jobs) {
      try {
        Payloads.check("job-manager.sched-hello", "job-manager.sched-hello-response", j);
      } catch (RpcException e) {
        LOG.error("{}", e.getMessage());
        continue;
      }
      long id = Payloads.u64(j.get("id"));
      IdSet free =
          j.has("free")
              ? Payloads.idset("job-manager.sched-hello", "free", j.get("free"))
              : IdSet.empty();
      LOG.info(
          "hello: id={} priority={} userid={} t_submit={}",
          Ids.f58(id),
          j.get("priority").asLong(),
          j.get("userid").asLong(),
          j.get("t_submit").asDouble());
      found.add(
          rOf(id, j)
              .handle(
                  (r, err) -> {
                    if (err != null) {
                      failed.add(
                          new Decision.JobException(
                              id,
                              SchedulerCore.RESTART_TYPE,
                              SchedulerCore.RESTART_NOTE,
                              asRpc(cause(err)).getMessage()));
                      return null;
                    }
                    return new SchedEvent.RunningJob(
                        id,
                        j.get("priority").asLong(),
                        j.get("userid").asLong(),
                        j.get("t_submit").asDouble(),
                        r,
                        free);
                  }));
    }
    CompletableFuture.allOf(found.toArray(CompletableFuture[]::new))
        .whenComplete(
            (v, err) -> {
              if (gen != linkGeneration) {
                return;
              }
              List<SchedEvent.RunningJob> running = new ArrayList<>();
              for (CompletableFuture<SchedEvent.RunningJob> f : found) {
                SchedEvent.RunningJob rj = f.join();
                if (rj != null) {
                  running.add(rj);
                }
              }
              allocs.clear();
              reallocs.clear();
              execute(failed, null, null);
              execute(core.handle(new SchedEvent.Hello(running), clock.getAsDouble()), null, null);
              ready(fatal, gen);
            });
  }

  private CompletableFuture<ResourceSet> rOf(long id, ObjectNode j) {
    if (mode == Mode.ATTACHED) {
      return lookup(id);
    }
    ResourceSet r = store.get(id).orElse(null);
    if (r == null && j.has("R")) {
      try {
        r = ResourceSet.fromJson(j.get("R"));
      } catch (RsetException e) {
        return CompletableFuture.failedFuture(
            new RpcException(Errno.EPROTO, "job-manager.sched-hello: /R: " + e.getMessage()));
      }
    }
    if (r == null) {
      return CompletableFuture.failedFuture(
          new RpcException(Errno.ENOENT, "no R known for job " + Ids.f58(id)));
    }
    return CompletableFuture.completedFuture(r);
  }

  private void ready(boolean fatal, int gen) {
    ObjectNode p = Json.object().put("mode", options.queueDepth().mode());
    if (!options.queueDepth().isUnlimited()) {
      p.put("limit", options.queueDepth().limit());
    }
    handle
        .rpc("job-manager.sched-ready", p)
        .whenComplete(
            (m, err) -> {
              if (gen != linkGeneration) {
                return;
              }
              if (err != null) {
                linkFailed("job-manager.sched-ready", cause(err), fatal);
                return;
              }
              link = LinkState.ONLINE;
              retry = retryMin;
              LOG.info(
                  "ready: {} queue-depth={} count={}",
                  mode == Mode.ATTACHED ? "attached" : "standalone",
                  options.queueDepth(),
                  m.json().path("count").asInt());
              online.complete(null);
            });
  }
}
