package io.fluxdrm.jobmanager;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.rpc.Credentials;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.reactor.ManualEventLoop;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.SchedulerOptions;
import io.fluxdrm.sched.service.SchedService;
import io.fluxdrm.sched.service.StateStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

/**
 * The real standalone sched-simple scheduler and a job manager on one in-memory hub driven by a
 * {@link ManualEventLoop}: deterministic peers, time that moves only when a test says so.
 */
public final class JmFixture {
  public static final int OWNER = 100;
  public static final int ALICE = 1000;
  public static final int BOB = 1001;

  public final ManualEventLoop loop = new ManualEventLoop();
  private int nextPeer = 1;
  public final Hub hub = new Hub(loop, () -> "peer-" + nextPeer++);
  public final Path dir;
  public FluxHandle jmHandle;
  public JobManager jm;
  public SchedService sched;
  public final StateStore store = StateStore.inMemory();

  public JmFixture(Path dir) {
    this.dir = dir;
  }

  /** {@code n} nodes {@code node[0-(n-1)]} of {@code cores} cores. */
  public static ResourceSet pool(int n, int cores) {
    return ResourceSet.of(
        IdSet.range(0, n - 1),
        IdSet.range(0, cores - 1),
        IdSet.empty(),
        Hostlist.parse(n == 1 ? "node0" : "node[0-" + (n - 1) + "]"));
  }

  public double now() {
    return 1000 + loop.nanoTime() / 1e9;
  }

  /** Starts the job manager (recovering from the directory), then nothing else. */
  public JmFixture startJobManager() {
    jmHandle = hub.attach(Credentials.owner(OWNER));
    jm = JobManager.recover(dir, this::now);
    CompletableFuture<Void> f = jm.start(jmHandle);
    settle();
    assertThat(f).isCompleted();
    return this;
  }

  /** Starts the real scheduler over {@code pool}; it says hello and ready to the job manager. */
  public JmFixture startScheduler(ResourceSet pool, SchedulerOptions options) {
    sched =
        SchedService.standalone(pool)
            .options(options)
            .clock(this::now)
            .store(store)
            .retry(Duration.ofMillis(100), Duration.ofSeconds(1))
            .build();
    CompletableFuture<Void> f = sched.start(hub.attach(Credentials.owner(OWNER)));
    settle();
    assertThat(f).isCompleted();
    assertThat(jm.schedulerOnline()).isTrue();
    return this;
  }

  public static JmFixture started(Path dir, int nodes, int cores) {
    return new JmFixture(dir)
        .startJobManager()
        .startScheduler(pool(nodes, cores), SchedulerOptions.defaults());
  }

  public void settle() {
    loop.runPending();
  }

  public void advance(Duration d) {
    loop.advance(d);
    loop.runPending();
  }

  /** Submits a job of {@code n} whole nodes for {@code uid} and returns its id once allocated. */
  public long submitNodes(int n, int uid) {
    CompletableFuture<Long> f = jm.submit(nodes(n), uid);
    settle();
    assertThat(f).as("allocated").isCompleted();
    return f.join();
  }

  /** A V1 jobspec of {@code n} exclusive nodes. */
  public static ObjectNode nodes(int n) {
    ObjectNode slot = Json.object().put("type", "slot").put("count", 1).put("label", "task");
    slot.putArray("with").addObject().put("type", "core").put("count", 1);
    ObjectNode node = Json.object().put("type", "node").put("count", n).put("exclusive", true);
    node.putArray("with").add(slot);
    return jobspec(node);
  }

  /** A V1 jobspec of {@code n} slots of one core each. */
  public static ObjectNode cores(int n) {
    ObjectNode slot = Json.object().put("type", "slot").put("count", n).put("label", "task");
    slot.putArray("with").addObject().put("type", "core").put("count", 1);
    return jobspec(slot);
  }

  private static ObjectNode jobspec(ObjectNode top) {
    ObjectNode js = Json.object().put("version", 1);
    js.putArray("resources").add(top);
    ObjectNode task = js.putArray("tasks").addObject();
    task.putArray("command").add("true");
    task.put("slot", "task");
    task.putObject("count").put("per_slot", 1);
    js.putObject("attributes").putObject("system").put("duration", 0);
    return js;
  }

  /**
   * A scheduler sched-simple cannot play: the payloads of {@code sched.free} go to {@code frees},
   * {@code sched.realloc} is answered with what {@code realloc} returns for the request's payload
   * (EPROTO when it returns null), or not served at all when {@code realloc} is null (an RFC
   * 27-only scheduler).
   */
  public static Service fakeScheduler(
      Function<ObjectNode, ObjectNode> realloc, List<ObjectNode> frees) {
    Service.Builder b = Service.builder("sched").on("free", req -> frees.add(req.json()));
    if (realloc != null) {
      b.on(
          "realloc",
          req -> {
            ObjectNode a = realloc.apply(req.json());
            if (a == null) {
              req.fail(Errno.EPROTO, "fake scheduler: no answer for " + req.json());
            } else {
              req.respond(a);
            }
          });
    }
    return b.build();
  }

  /**
   * Answers whatever is asked with the head of {@code answers}, which it consumes (null once they
   * are used up): the same requests in the same order get the same answers from the same script.
   */
  public static Function<ObjectNode, ObjectNode> inTurn(List<ObjectNode> answers) {
    return p -> answers.isEmpty() ? null : answers.remove(0);
  }

  /** A shell-like client of user {@code uid}. */
  public FluxHandle shell(int uid) {
    return hub.attach(Credentials.user(uid));
  }

  public static CompletableFuture<Message> realloc(
      FluxHandle shell, long id, JsonNode add, JsonNode sub, ResourceSet r) {
    ObjectNode p = Json.object().put("id", id);
    if (add != null) {
      p.set("spec_add", add);
    }
    if (sub != null) {
      p.set("spec_sub", sub);
    }
    if (r != null) {
      p.set("R", r.toJson());
    }
    return shell.rpc("job-manager.realloc", p);
  }

  public static CompletableFuture<Message> release(FluxHandle shell, long id, IdSet ranks) {
    ObjectNode p = Json.object().put("id", id).put("ranks", ranks.toString()).put("final", false);
    return shell.rpc("job-manager.release", p);
  }

  public static ObjectNode answer(CompletableFuture<Message> f) {
    assertThat(f).as("answered").isCompleted();
    return f.join().json();
  }

  public static RpcException error(CompletableFuture<?> f) {
    assertThat(f).as("answered").isCompletedExceptionally();
    try {
      f.join();
    } catch (CompletionException e) {
      return (RpcException) e.getCause();
    }
    throw new AssertionError("not failed");
  }

  /** The names of the job's eventlog entries, read from disk. */
  public List<String> eventNames(long id) {
    return events(id).stream().map(JobEvent::name).toList();
  }

  public List<JobEvent> events(long id) {
    try {
      return Eventlog.read(dir.resolve(Long.toUnsignedString(id) + Eventlog.SUFFIX));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  public String eventlogText(long id) {
    try {
      return Files.readString(dir.resolve(Long.toUnsignedString(id) + Eventlog.SUFFIX));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /** What the scheduler thinks the job holds. */
  public ResourceSet schedView(long id) {
    return sched.core().pool().allocation(id).orElse(ResourceSet.empty());
  }

  public static boolean sameResources(ResourceSet a, ResourceSet b) {
    return a.diff(b).isEmpty() && b.diff(a).isEmpty();
  }

  /** Job manager and scheduler agree on the job's R; the pool's conservation holds. */
  public void checkAgree(long id) {
    sched.core().pool().checkInvariants();
    ResourceSet mine = jm.jobR(id).orElse(ResourceSet.empty());
    assertThat(sameResources(mine, schedView(id)))
        .as("job %d: job manager %s, scheduler %s", id, mine.summary(), schedView(id).summary())
        .isTrue();
  }
}
