package io.fluxdrm.sched.service;

import io.fluxdrm.protocol.Rfc27Topics;
import io.fluxdrm.protocol.Rfc51Topics;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.service.RequestHandler;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.SchedEvent;
import io.fluxdrm.sched.SchedException;
import io.fluxdrm.sched.SchedulerCore;
import io.fluxdrm.sched.SchedulerOptions;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.DoubleSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.helpers.NOPLogger;

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
 * <p>This class is the wiring only: {@link Rfc27Handlers} and {@link Rfc51Handlers} decode the
 * requests, {@link DecisionRunner} carries out the core's decisions and holds the pending requests,
 * {@link JobManagerLink} runs the hello/ready handshake, {@link ResourceAcquisition} the {@code
 * resource.acquire} stream, and an {@link RStore} keeps the R documents ({@link KvsRStore}
 * attached, {@link StateStore} standalone).
 *
 * <p>{@link #start} may be called from any thread; everything else runs on the handle's loop (the
 * handlers, the futures' continuations) and is not thread-safe otherwise.
 */
public final class SchedService {
  private final Logger log;

  /** The feasibility service and its one method (flux-core's {@code feasibility.check}). */
  private static final String FEASIBILITY = "feasibility";

  /** How long the job manager may take to answer {@code job-manager.realloc_reset}. */
  private static final Duration RESET_TIMEOUT = Duration.ofSeconds(30);

  private static final String FEASIBILITY_CHECK_METHOD = "check";

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
  private final DecisionRunner runner;
  private final Rfc27Handlers rfc27;
  private final Rfc51Handlers rfc51;
  private final JobManagerLink link;
  private final ResourceAcquisition acquisition;

  private SchedService(Builder b) {
    this.mode = b.mode;
    this.options =
        b.options.withInstanceOwner(
            b.options.instanceOwner() >= 0 ? b.options.instanceOwner() : OWNER_ALIAS);
    StateStore store = b.store;
    SchedulerCore core =
        b.pool == null
            ? null
            : SchedulerCore.of(
                b.pool,
                store == null ? this.options : this.options.withFirstAllocId(store.nextAllocId()));
    this.log = b.silent ? NOPLogger.NOP_LOGGER : LoggerFactory.getLogger(SchedService.class);
    this.runner = new DecisionRunner(b.clock, store, core, log);
    this.rfc27 = new Rfc27Handlers(runner, log);
    this.rfc51 = new Rfc51Handlers(runner, options.instanceOwner());
    this.link = new JobManagerLink(runner, options, store, b.retryMin, b.retryMax, log);
    this.acquisition = new ResourceAcquisition(runner, link, options, log);
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
    private boolean silent;

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

    /**
     * Logs nothing: for a scheduler that is not the one users watch, such as {@link Rehearsal}'s.
     */
    public Builder silent() {
      this.silent = true;
      return this;
    }

    public SchedService build() {
      return new SchedService(this);
    }
  }

  // ---- accessors -------------------------------------------------------------------------------

  /** The core, or null while an attached scheduler has not acquired its resources. */
  public SchedulerCore core() {
    return runner.core();
  }

  public LinkState link() {
    return link.state();
  }

  /** The owner's {@code sched.watch} streams going on (D427, D520). */
  int watches() {
    return runner.watches();
  }

  /** Completes when the job manager answered {@code sched-ready} the first time. */
  public CompletableFuture<Void> online() {
    return link.online();
  }

  // ---- services --------------------------------------------------------------------------------

  /** The {@code sched} service (RFC 27 and RFC 51). */
  public Service schedService() {
    return Service.builder(Rfc27Topics.SCHED)
        .on(Rfc27Topics.ALLOC_METHOD, guard(rfc27::alloc))
        .on(Rfc27Topics.FREE_METHOD, quiet(rfc27::free))
        .on(Rfc27Topics.CANCEL_METHOD, quiet(rfc27::cancel))
        .on(Rfc27Topics.PRIORITIZE_METHOD, quiet(rfc27::prioritize))
        .on(Rfc27Topics.EXPIRATION_METHOD, guard(rfc27::expiration))
        .on(Rfc51Topics.REALLOC_METHOD, guard(rfc51::realloc))
        .on(Rfc51Topics.REALLOC_CANCEL_METHOD, quiet(rfc51::reallocCancel))
        .on(Rfc27Topics.RESOURCE_STATUS_METHOD, guard(rfc27::resourceStatus))
        .onStreaming(Watchers.METHOD, guard(runner::watch))
        .on(Watchers.CANCEL_METHOD, quiet(runner::watchCancel))
        .onDisconnect(this::disconnected)
        .build();
  }

  /** The {@code feasibility} service ({@code feasibility.check}). */
  public Service feasibilityService() {
    return Service.builder(FEASIBILITY).on(FEASIBILITY_CHECK_METHOD, guard(rfc27::check)).build();
  }

  /**
   * Registers both services on {@code h} and starts the handshake with the job manager. The future
   * completes once the services are registered and, when attached, the resources acquired and
   * {@code sched-ready} answered; it fails with the broker's error otherwise.
   */
  public CompletableFuture<Void> start(FluxHandle h) {
    RStore kvs = mode == Mode.ATTACHED ? new KvsRStore(h) : null;
    runner.attach(h, kvs);
    link.attach(h, kvs);
    CompletableFuture<Void> started = new CompletableFuture<>();
    (mode == Mode.ATTACHED ? resetReallocs(h) : CompletableFuture.<Void>completedFuture(null))
        .thenCompose(v -> h.register(schedService()))
        .thenCompose(v -> h.register(feasibilityService()))
        .whenComplete(
            (v, err) -> {
              if (err != null) {
                started.completeExceptionally(DecisionRunner.cause(err));
              } else if (mode == Mode.ATTACHED) {
                acquisition.acquire(h, started);
              } else {
                log.info(
                    "ready: pool {} queue-depth={} realloc={}",
                    runner.core().pool().all().summary(),
                    options.queueDepth(),
                    options.realloc() ? "on" : "off");
                link.watchJobManager()
                    .whenComplete(
                        (s, e) -> {
                          started.complete(null);
                          link.hello(false);
                        });
              }
            });
    return started;
  }

  /**
   * Attached, before {@code sched} is served (D473): the realloc jobtap plugin of flux-core's job
   * manager answers EAGAIN the requests it forwarded to the scheduler before this one, which are
   * lost. Without the plugin (ENOSYS) or on any error, the start goes on; the error is logged.
   */
  private CompletableFuture<Void> resetReallocs(FluxHandle h) {
    return h.rpc(Rfc51Topics.JOB_MANAGER_REALLOC_RESET, Json.object(), RESET_TIMEOUT)
        .handle(
            (m, err) -> {
              if (err == null) {
                int n = m.json().path("failed").asInt(0);
                if (n > 0) {
                  log.info(
                      "{}: {} request(s) lost with the last scheduler answered EAGAIN",
                      Rfc51Topics.JOB_MANAGER_REALLOC_RESET,
                      n);
                }
              } else {
                RpcException e = DecisionRunner.asRpc(DecisionRunner.cause(err));
                if (e.errnum() == Errno.ENOSYS) {
                  log.debug("no realloc plugin in the job manager: {}", e.getMessage());
                } else {
                  log.warn("{}: {}", Rfc51Topics.JOB_MANAGER_REALLOC_RESET, e.getMessage());
                }
              }
              return null;
            });
  }

  /** RFC 6 disconnect: the sender's reallocs go; a job manager's allocs too, and the link. */
  private void disconnected(String sender) {
    if (runner.core() == null) {
      return;
    }
    runner.disconnected(sender);
    if (rfc27.forgetJobManager(sender)) {
      log.warn("job manager {} disconnected", sender);
      runner.cancelAllocsOf(sender);
      link.jobManagerLeft();
    }
  }

  private RequestHandler guard(RequestHandler h) {
    return req -> {
      try {
        h.handle(req);
      } catch (RpcException e) {
        log.warn("{}: {}: {}", req.topic(), Errno.name(e.errnum()), e.getMessage());
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
        log.warn("{}: {}: {}", req.topic(), Errno.name(e.errnum()), e.getMessage());
      } finally {
        req.drop();
      }
    };
  }
}
