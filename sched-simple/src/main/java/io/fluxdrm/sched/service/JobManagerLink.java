package io.fluxdrm.sched.service;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.protocol.Rfc27Topics;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Flags;
import io.fluxdrm.rpc.JobId;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.hub.Hub;
import io.fluxdrm.rpc.reactor.EventLoop;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.rset.RsetException;
import io.fluxdrm.sched.Decision;
import io.fluxdrm.sched.SchedEvent;
import io.fluxdrm.sched.SchedulerCore;
import io.fluxdrm.sched.SchedulerOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;

/**
 * The scheduler's link to the job manager (01-rfc27-sched-protocol.md §3): {@code
 * job-manager.sched-hello} with {@code partial-ok}, the running jobs rebuilt from the answers and
 * their R read from the {@link RStore}, then {@code job-manager.sched-ready}. Standalone, the hello
 * is retried with a doubling back-off until a job manager is there, sent at once when the hub's
 * {@link Hub#SERVICE_ADDED} says one registered (a job manager that starts after this scheduler
 * waits for no back-off step, D499), and sent again at once when the hub's {@link
 * Hub#SERVICE_REMOVED} says it left (D121) or when a job manager disconnects.
 *
 * <p>Runs on the handle's loop; it takes no lock.
 */
final class JobManagerLink {
  private final Logger log;

  private final DecisionRunner runner;
  private final SchedulerOptions options;
  private final boolean attached;
  private final StateStore state;
  private final Duration retryMin;
  private final Duration retryMax;
  private final CompletableFuture<Void> online = new CompletableFuture<>();
  private FluxHandle handle;
  private EventLoop loop;
  private RStore kvs;
  private SchedService.LinkState link = SchedService.LinkState.OFFLINE;
  private Duration retry;

  /** The next hello, when one is waiting for its back-off. */
  private EventLoop.Cancellable retryTimer;

  /**
   * Counts the link attempts given up: the answers of a hello or ready sent before the job manager
   * left are ignored (they may never come, the hub does not fail requests to a departed peer).
   */
  private int linkGeneration;

  JobManagerLink(
      DecisionRunner runner,
      SchedulerOptions options,
      StateStore state,
      Duration retryMin,
      Duration retryMax,
      Logger log) {
    this.log = log;
    this.runner = runner;
    this.options = options;
    this.attached = state == null;
    this.state = state;
    this.retryMin = retryMin;
    this.retryMax = retryMax;
    this.retry = retryMin;
  }

  void attach(FluxHandle h, RStore kvsStore) {
    this.handle = h;
    this.loop = h.loop();
    this.kvs = kvsStore;
  }

  SchedService.LinkState state() {
    return link;
  }

  CompletableFuture<Void> online() {
    return online;
  }

  /** A job manager that sent requests disconnected: hello again after the back-off. */
  void jobManagerLeft() {
    if (link != SchedService.LinkState.HELLO && handle != null) {
      link = SchedService.LinkState.OFFLINE;
      retryLater();
    }
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
  void hello(boolean fatal) {
    if (link != SchedService.LinkState.OFFLINE || handle == null || handle.isClosed()) {
      return;
    }
    if (retryTimer != null) {
      retryTimer.cancel();
      retryTimer = null;
    }
    link = SchedService.LinkState.HELLO;
    int gen = linkGeneration;
    List<ObjectNode> jobs = new ArrayList<>();
    ObjectNode req = Json.object().put("partial-ok", true);
    handle.stream(Rfc27Topics.SCHED_HELLO, req, m -> jobs.add(m.json()), null)
        .done()
        .whenComplete(
            (v, err) -> {
              if (gen != linkGeneration) {
                log.debug("hello to a job manager that left: answer ignored");
              } else if (err != null) {
                linkFailed(Rfc27Topics.SCHED_HELLO, DecisionRunner.cause(err), fatal);
              } else {
                rebuild(jobs, fatal, gen);
              }
            });
  }

  private void linkFailed(String what, Throwable err, boolean fatal) {
    RpcException e = DecisionRunner.asRpc(err);
    link = SchedService.LinkState.OFFLINE;
    if (fatal) {
      log.error("{}: {}", what, e.getMessage());
      online.completeExceptionally(e);
      return;
    }
    if (e.errnum() == Errno.ENOSYS) {
      log.debug("{}: no job manager yet, retrying in {} ms", what, retry.toMillis());
    } else {
      log.warn("{}: {}, retrying in {} ms", what, e.getMessage(), retry.toMillis());
    }
    retryLater();
  }

  /**
   * Standalone: subscribes to the hub's {@link Hub#SERVICE_REMOVED}, which tells when {@code
   * job-manager} goes away, even a job manager that never sent a request (D121), and to its {@link
   * Hub#SERVICE_ADDED}, which tells when one registers (D499). A hub that refuses a subscription (a
   * Flux broker publishes neither event) leaves the disconnect reports and the back-off (logged).
   */
  CompletableFuture<?> watchJobManager() {
    return CompletableFuture.allOf(
        watch(
            Hub.SERVICE_REMOVED,
            this::serviceRemoved,
            "a job manager that leaves before any request will not be noticed"),
        watch(
            Hub.SERVICE_ADDED,
            this::serviceAdded,
            "a job manager that starts later is found by the hello's back-off"));
  }

  private CompletableFuture<?> watch(
      String topic, java.util.function.Consumer<Message> on, String without) {
    return handle
        .subscribe(topic, on)
        .handle(
            (s, err) -> {
              if (err != null) {
                log.warn(
                    "event.subscribe {}: {}; {}",
                    topic,
                    DecisionRunner.asRpc(DecisionRunner.cause(err)).getMessage(),
                    without);
              }
              return null;
            });
  }

  /** The owner's {@code job-manager} registered: a hello waiting for its back-off goes now. */
  private void serviceAdded(Message ev) {
    if (!isOwnersJobManager(ev, Hub.SERVICE_ADDED)) {
      return;
    }
    if (link != SchedService.LinkState.OFFLINE || retryTimer == null) {
      return; // a hello is in flight, or the link is up: the job manager hears from it
    }
    log.info(
        "job manager registered ({} {}), hello now", Hub.SERVICE_ADDED, Rfc27Topics.JOB_MANAGER);
    retry = retryMin;
    hello(false);
  }

  private boolean isOwnersJobManager(Message ev, String topic) {
    String name;
    try {
      name = ev.json().path("service").asText("");
    } catch (RpcException e) {
      log.warn("{}: {}", topic, e.getMessage());
      return false;
    }
    return name.equals(Rfc27Topics.JOB_MANAGER) && (ev.rolemask() & Flags.ROLE_OWNER) != 0;
  }

  private void serviceRemoved(Message ev) {
    if (!isOwnersJobManager(ev, Hub.SERVICE_REMOVED)) {
      return;
    }
    if (link == SchedService.LinkState.OFFLINE && retryTimer == null) {
      return; // no hello sent nor waiting: nothing to start again
    }
    log.warn("job manager left ({} {}), hello again", Hub.SERVICE_REMOVED, Rfc27Topics.JOB_MANAGER);
    linkGeneration++;
    link = SchedService.LinkState.OFFLINE;
    retry = retryMin;
    hello(false);
  }

  private void rebuild(List<ObjectNode> jobs, boolean fatal, int gen) {
    String t = Rfc27Topics.SCHED_HELLO;
    List<CompletableFuture<SchedEvent.RunningJob>> found = new ArrayList<>();
    List<Decision> failed = new ArrayList<>();
    for (ObjectNode j : jobs) {
      try {
        Payloads.check(t, "job-manager.sched-hello-response", j);
      } catch (RpcException e) {
        log.error("{}", e.getMessage());
        continue;
      }
      long id = Payloads.u64(j.get("id"));
      IdSet free = j.has("free") ? Payloads.idset(t, "free", j.get("free")) : IdSet.empty();
      log.info(
          "hello: id={} priority={} userid={} t_submit={}",
          JobId.f58(id),
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
                              DecisionRunner.asRpc(DecisionRunner.cause(err)).getMessage()));
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
              runner.forgetPending();
              runner.execute(failed, null, null);
              runner.handle(new SchedEvent.Hello(running));
              runner.resynced();
              ready(fatal, gen);
            });
  }

  /**
   * A running job's R: attached, only the KVS key (D147); standalone, the R the job manager's hello
   * carries, else the store's. The job manager's R wins: it writes every grant before telling
   * anyone, so a grant this scheduler recorded but the job manager never wrote (it died in between)
   * was told to no one and is freed, not kept for ever (D502).
   */
  private CompletableFuture<ResourceSet> rOf(long id, ObjectNode j) {
    if (attached) {
      return kvs.read(id);
    }
    ResourceSet r = null;
    if (j.has("R")) {
      try {
        r = ResourceSet.fromJson(j.get("R"));
      } catch (RsetException e) {
        return CompletableFuture.failedFuture(
            new RpcException(Errno.EPROTO, Rfc27Topics.SCHED_HELLO + ": /R: " + e.getMessage()));
      }
    }
    if (r == null) {
      r = state.get(id).orElse(null);
    }
    return r != null ? CompletableFuture.completedFuture(r) : state.read(id);
  }

  private void ready(boolean fatal, int gen) {
    ObjectNode p = Json.object().put("mode", options.queueDepth().mode());
    if (!options.queueDepth().isUnlimited()) {
      p.put("limit", options.queueDepth().limit());
    }
    handle
        .rpc(Rfc27Topics.SCHED_READY, p)
        .whenComplete(
            (m, err) -> {
              if (gen != linkGeneration) {
                return;
              }
              if (err != null) {
                linkFailed(Rfc27Topics.SCHED_READY, DecisionRunner.cause(err), fatal);
                return;
              }
              link = SchedService.LinkState.ONLINE;
              retry = retryMin;
              log.info(
                  "ready: {} queue-depth={} count={}",
                  attached ? "attached" : "standalone",
                  options.queueDepth(),
                  m.json().path("count").asInt());
              online.complete(null);
            });
  }
}
