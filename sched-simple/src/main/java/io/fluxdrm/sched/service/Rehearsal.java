package io.fluxdrm.sched.service;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.endpoint.Connectors;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.hub.LocalHubListener;
import io.fluxdrm.rpc.reactor.Reactor;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.QueueDepth;
import io.fluxdrm.sched.SchedulerOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A rehearsal of the per-job path before a scheduler serves its instance (D570): a silent
 * scheduler, attached through a local connector to a private hub that plays the broker ({@code
 * resource.acquire}, {@code kvs.commit}) and the job manager ({@code sched-hello}, {@code
 * sched-ready}), is sent {@code jobs} {@code sched.alloc} requests and each granted R's final
 * {@code sched.free}. Everything a job costs the first time (class loading, schema compilation, the
 * JIT compiling the alloc and free paths) is then paid before the real scheduler starts, not by the
 * first jobs of an instance that restarted its scheduler under load.
 *
 * <p>Nothing of it is shared with the real scheduler: its own reactor, hub, socket directory
 * (removed afterwards) and pool ({@value #NODES} nodes of {@value #CORES} cores).
 */
public final class Rehearsal {
  /** The rehearsal pool: as many nodes of as many cores as the smallest benchmark instance. */
  static final int NODES = 64;

  static final int CORES = 4;

  /** Whole nodes of the rehearsal's biggest jobs: more than half the pool, so two cannot run. */
  static final int BIG = 40;

  /** Allocs in flight at once, as a job manager with a queue of waiting jobs keeps them. */
  static final int WINDOW = 16;

  /** The most jobs one rehearsal may run. */
  public static final int MAX_JOBS = 100_000;

  /**
   * What a rehearsal did.
   *
   * @param jobs jobs granted and freed
   * @param elapsed from start to the last free
   */
  public record Result(int jobs, Duration elapsed) {}

  private Rehearsal() {}

  /**
   * Runs {@code jobs} alloc/free pairs through a silent attached scheduler with {@code options}.
   *
   * @throws IllegalArgumentException when {@code jobs} is not 1 to {@value #MAX_JOBS}
   * @throws RpcException ETIMEDOUT when they are not done within {@code limit}; another error of
   *     the private hub as it is
   */
  public static Result run(SchedulerOptions options, int jobs, Duration limit)
      throws InterruptedException {
    return run(options, jobs, limit, false);
  }

  /**
   * As {@link #run(SchedulerOptions, int, Duration)}; with {@code logged}, the rehearsing scheduler
   * logs its lines as a serving one does, so that the logging path is warm too (issue 32): the
   * caller keeps them from the user (the jobs they name do not exist).
   */
  public static Result run(SchedulerOptions options, int jobs, Duration limit, boolean logged)
      throws InterruptedException {
    if (jobs < 1 || jobs > MAX_JOBS) {
      throw new IllegalArgumentException(
          "rehearsal: " + jobs + " jobs (expected: 1 to " + MAX_JOBS + ")");
    }
    long t0 = System.nanoTime();
    Path dir;
    try {
      dir = Files.createTempDirectory("fluxdrm-rehearsal");
    } catch (IOException e) {
      throw new UncheckedIOException("rehearsal: a socket directory: " + e.getMessage(), e);
    }
    Reactor reactor = Reactor.start("fluxdrm-sched-rehearsal");
    try {
      Hub hub = new Hub(reactor);
      LocalHubListener listener =
          LocalHubListener.start(hub, reactor, dir, LocalHubListener.Options.defaults());
      try {
        FluxHandle broker = hub.attach(Credentials.owner(0));
        CompletableFuture<Void> played = new CompletableFuture<>();
        reactor.execute(() -> playBroker(broker).whenComplete(done(played)));
        await(played, limit, "the broker's services");
        FluxHandle h = Connectors.openLocal(reactor, listener.uri(), limit);
        SchedService.Builder b =
            SchedService.attached().options(options.withQueueDepth(QueueDepth.unlimited()));
        SchedService svc = (logged ? b : b.silent()).build();
        CompletableFuture<Void> started = new CompletableFuture<>();
        reactor.execute(() -> svc.start(h).whenComplete(done(started)));
        await(started, limit, "the scheduler's start");
        CompletableFuture<Void> all = new CompletableFuture<>();
        reactor.execute(() -> new Driver(broker, jobs, all).start());
        await(all, limit, jobs + " jobs");
        h.close();
        broker.close();
      } finally {
        listener.close();
      }
    } finally {
      reactor.close();
      deleteQuietly(dir);
    }
    return new Result(jobs, Duration.ofNanos(System.nanoTime() - t0));
  }

  /** The broker's and the job manager's side of the private hub. */
  private static CompletableFuture<Void> playBroker(FluxHandle b) {
    ResourceSet pool =
        ResourceSet.of(
            IdSet.range(0, NODES - 1),
            IdSet.range(0, CORES - 1),
            IdSet.empty(),
            Hostlist.parse("rehearsal[0-" + (NODES - 1) + "]"));
    ObjectNode acquired = Json.object();
    acquired.set("resources", pool.toJson());
    acquired.put("up", "0-" + (NODES - 1));
    return b.register(
            Service.builder("resource").onStreaming("acquire", r -> r.respond(acquired)).build())
        .thenCompose(
            v ->
                b.register(
                    Service.builder("kvs").on("commit", r -> r.respond(Json.object())).build()))
        .thenCompose(
            v ->
                b.register(
                    Service.builder("job-manager")
                        .onStreaming("sched-hello", r -> r.end())
                        .on("sched-ready", r -> r.respond(Json.object().put("count", 0)))
                        .build()));
  }

  /** Keeps {@link #WINDOW} allocs in flight and frees each grant, until {@code jobs} are done. */
  private static final class Driver {
    private final FluxHandle h;
    private final int jobs;
    private final CompletableFuture<Void> all;
    private final ObjectNode[] jobspecs = {jobspec(0), jobspec(1), jobspec(3), jobspec(BIG)};
    private int issued;
    private int freed;

    Driver(FluxHandle h, int jobs, CompletableFuture<Void> all) {
      this.h = h;
      this.jobs = jobs;
      this.all = all;
    }

    void start() {
      for (int i = 0; i < WINDOW && issued < jobs; i++) {
        next();
      }
    }

    private void next() {
      int n = ++issued;
      // as a job manager's: FLUIDs of two jobs a millisecond (RFC 19: timestamp over sequence),
      // times of submission in seconds since the epoch to the microsecond, so that the first real
      // jobs meet the paths these take (D570, issue 32)
      long id = (1000L + n / 2) << 24 | (n % 2);
      ObjectNode p = Json.object().put("id", id).put("priority", 16).put("userid", 0);
      p.put("t_submit", 1_796_000_000.123_456_7 + n * 0.001_234_567);
      // two jobs in sixteen, one after the other, take BIG whole nodes, so that the second waits
      // for the first's free and the allocs behind it wait too (the pending queue, a blocked
      // pass, grants made in a free); one in sixteen takes three whole nodes, one in eight a
      // whole node, the others one core: every path of the pool and of R's encoding. One in four
      // has a jobspec of its own, which the scheduler has not read before (the full path, D585)
      ObjectNode js = jobspecs[n % 16 < 2 ? 3 : n % 8 == 0 ? 2 : n % 4 == 0 ? 1 : 0];
      if (n % 4 == 2) {
        js = js.deepCopy();
        ((ObjectNode) js.get("attributes").get("system")).put("cwd", "/tmp/rehearsal-" + n);
      }
      p.set("jobspec", js);
      h.rpc("sched.alloc", p)
          .whenComplete(
              (Message m, Throwable e) -> {
                if (e != null) {
                  all.completeExceptionally(e);
                  return;
                }
                // in the order of flux-core's job manager, which SentGrants recognizes (D584)
                ObjectNode free = Json.object().put("id", id);
                free.set("R", m.json().get("R"));
                h.send("sched.free", free.put("final", true));
                if (++freed == jobs) {
                  all.complete(null);
                } else if (issued < jobs) {
                  next();
                }
              });
    }

    /** A jobspec of version 1: one core ({@code nodes} 0), or as many whole nodes. */
    private static ObjectNode jobspec(int nodes) {
      boolean node = nodes > 0;
      ObjectNode slot = Json.object().put("type", "slot").put("count", 1).put("label", "task");
      slot.putArray("with").addObject().put("type", "core").put("count", node ? CORES : 1);
      ObjectNode js = Json.object().put("version", 1);
      ArrayNode resources = js.putArray("resources");
      if (node) {
        ObjectNode n = resources.addObject().put("type", "node").put("count", nodes);
        n.put("exclusive", true);
        n.putArray("with").add(slot);
      } else {
        resources.add(slot);
      }
      ObjectNode task = js.putArray("tasks").addObject().put("slot", "task");
      task.putArray("command").add("true");
      task.putObject("count").put("per_slot", 1);
      // the system attributes flux submit writes
      ObjectNode system = js.putObject("attributes").putObject("system");
      system.put("duration", 0).put("cwd", "/tmp");
      ObjectNode rlimit =
          system.putObject("shell").putObject("options").putObject("rlimit").put("cpu", -1);
      rlimit.put("stack", 8_388_608).put("core", 0).put("nofile", 20_000).put("nproc", 96_367);
      system.putObject("exec").putObject("test").put("run_duration", "0.01s");
      return js;
    }
  }

  private static <T> java.util.function.BiConsumer<T, Throwable> done(CompletableFuture<Void> f) {
    return (v, e) -> {
      if (e != null) {
        f.completeExceptionally(e);
      } else {
        f.complete(null);
      }
    };
  }

  private static void await(CompletableFuture<Void> f, Duration limit, String what)
      throws InterruptedException {
    try {
      f.get(limit.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new RpcException(
          io.fluxdrm.rpc.Errno.ETIMEDOUT, "rehearsal: " + what + ": not done in " + limit);
    } catch (ExecutionException e) {
      Throwable c = DecisionRunner.cause(e.getCause());
      throw c instanceof RpcException r
          ? r
          : new RpcException(io.fluxdrm.rpc.Errno.EIO, "rehearsal: " + what + ": " + c);
    }
  }

  private static void deleteQuietly(Path dir) {
    try (var s = Files.walk(dir)) {
      s.sorted(java.util.Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.deleteIfExists(p);
                } catch (IOException e) {
                  // best effort: a temporary directory of this process
                }
              });
    } catch (IOException e) {
      // best effort
    }
  }
}
