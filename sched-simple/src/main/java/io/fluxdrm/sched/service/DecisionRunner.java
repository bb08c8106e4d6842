package io.fluxdrm.sched.service;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.protocol.FluxTopics;
import io.fluxdrm.protocol.ReallocResponseType;
import io.fluxdrm.protocol.Rfc27Topics;
import io.fluxdrm.protocol.Rfc51Topics;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.JobId;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.service.PendingRequests;
import io.fluxdrm.rpc.service.ServiceRequest;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.sched.Decision;
import io.fluxdrm.sched.JobIdMap;
import io.fluxdrm.sched.SchedEvent;
import io.fluxdrm.sched.SchedulerCore;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.function.DoubleSupplier;
import org.slf4j.Logger;

/**
 * Hands events to the {@link SchedulerCore} and carries out its decisions: answers the pending
 * {@code sched.alloc} and {@code sched.realloc} requests it holds, writes each grant's R into the
 * {@link RStore} (before the answer when the store is the KVS, D147), raises job exceptions, one
 * log line each. It owns the requests the core still has to answer; the handlers park them here.
 *
 * <p>Runs on the service's loop only, like the handlers that call it; it takes no lock.
 */
final class DecisionRunner {
  private final Logger log;

  private final DoubleSupplier clock;

  /** The standalone store, synced after every change; null when attached. */
  private final StateStore state;

  private SchedulerCore core;
  private FluxHandle handle;

  /** Attached: the KVS store written before an alloc or grow is answered; null otherwise. */
  private RStore kvs;

  /** Pending {@code sched.alloc} by job id (RFC 27 §4.1: one alloc per job). */
  private final Map<Long, ServiceRequest> allocs = new JobIdMap<>();

  /** The R of each grant as sent, for the final free (D571). */
  private final SentGrants sentGrants = new SentGrants();

  /** The owner's {@code sched.watch} streams (D427). */
  private final Watchers watchers = new Watchers();

  /** Pending {@code sched.realloc} by sender and matchtag (RFC 51: the key a cancel names). */
  private final PendingRequests<ServiceRequest> reallocs = new PendingRequests<>();

  DecisionRunner(DoubleSupplier clock, StateStore state, SchedulerCore core, Logger log) {
    this.log = log;
    this.clock = clock;
    this.state = state;
    this.core = core;
  }

  /** The core, or null before an attached scheduler acquired its resources. */
  SchedulerCore core() {
    return core;
  }

  void core(SchedulerCore c) {
    this.core = c;
  }

  /** Attaches the runner to its handle; {@code kvsStore} is the attached store or null. */
  void attach(FluxHandle h, RStore kvsStore) {
    this.handle = h;
    this.kvs = kvsStore;
  }

  SchedulerCore requireCore(String topic) {
    if (core == null) {
      throw new RpcException(Errno.ENOSYS, topic + ": resources not acquired yet");
    }
    return core;
  }

  // ---- pending requests ------------------------------------------------------------------------

  /** Parks an alloc; false when the job has one pending already (the core refuses it). */
  boolean parkAlloc(long id, ServiceRequest req) {
    return allocs.putIfAbsent(id, req) == null;
  }

  boolean hasAlloc(long id) {
    return allocs.containsKey(id);
  }

  void unparkAlloc(long id, ServiceRequest req) {
    allocs.remove(id, req);
  }

  /**
   * Parks a realloc under its key; false when that key is pending already (the core refuses it).
   */
  boolean parkRealloc(PendingRequests.Key key, ServiceRequest req) {
    if (reallocs.contains(key)) {
      return false;
    }
    reallocs.put(key, req);
    return true;
  }

  void unparkRealloc(PendingRequests.Key key, ServiceRequest req) {
    reallocs.remove(key, req);
  }

  /** Forgets every pending request: a new hello rebuilds the core's view (RFC 27 §3). */
  void forgetPending() {
    allocs.clear();
    reallocs.clear();
    sentGrants.clear();
  }

  SentGrants sentGrants() {
    return sentGrants;
  }

  /** {@code sched.watch}: the snapshot now, then every allocation decision (D427). */
  void watch(ServiceRequest req) {
    watchers.watch(req, requireCore(req.topic()));
  }

  /** {@code sched.watch-cancel}: the sender's watch ends (D520). */
  void watchCancel(ServiceRequest req) {
    watchers.cancel(req);
  }

  /** The owner's watches going on. */
  int watches() {
    return watchers.count();
  }

  /** RFC 6 disconnect of {@code sender}: its reallocs are dropped and the core told. */
  void disconnected(String sender) {
    watchers.disconnected(sender);
    reallocs.sweep(sender);
    execute(core.handle(new SchedEvent.Disconnect(sender), clock.getAsDouble()), null, null);
  }

  /** The job manager {@code sender} disconnected: its pending allocs are canceled. */
  void cancelAllocsOf(String sender) {
    for (var it = allocs.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<Long, ServiceRequest> en = it.next();
      if (en.getValue().sender().equals(sender)) {
        it.remove();
        execute(core.handle(new SchedEvent.Cancel(en.getKey()), clock.getAsDouble()), null, null);
      }
    }
  }

  // ---- executing decisions ---------------------------------------------------------------------

  /** A job manager's hello was taken: watchers get what is held now (D521). */
  void resynced() {
    watchers.resynced(core);
  }

  /** Hands {@code e} to the core and carries out the decisions (for an event with no request). */
  void handle(SchedEvent e) {
    execute(core.handle(e, clock.getAsDouble()), null, null);
  }

  /**
   * Hands an event to the core and carries out the decisions; {@code unclaim} runs when the request
   * was refused (it did not become pending).
   */
  void run(SchedEvent e, ServiceRequest req, Runnable unclaim) {
    List<Decision> out = core.handle(e, clock.getAsDouble());
    execute(out, e, req, unclaim);
  }

  void execute(List<Decision> out, SchedEvent e, ServiceRequest req) {
    execute(out, e, req, () -> {});
  }

  private void execute(List<Decision> out, SchedEvent e, ServiceRequest req, Runnable unclaim) {
    watchers.decided(out);
    for (Decision d : out) {
      if (d instanceof Decision.AllocSuccess s) {
        granted(s);
      } else if (d instanceof Decision.AllocAnnotate x) {
        annotateAlloc(x);
      } else if (d instanceof Decision.AllocDeny x) {
        log.info("alloc {}: denied: {}", JobId.f58(x.jobId()), x.note());
        answerAlloc(x.jobId(), Payloads.allocDeny(x));
      } else if (d instanceof Decision.AllocCancel x) {
        log.info("alloc {}: canceled", JobId.f58(x.jobId()));
        answerAlloc(x.jobId(), Payloads.allocCancel(x));
      } else if (d instanceof Decision.ReallocResponse x) {
        reallocAnswered(x);
      } else if (d instanceof Decision.Rejected x) {
        rejected(x, e, req, unclaim);
      } else if (d instanceof Decision.Freed x) {
        log.info(
            "free {}: {}{}", JobId.f58(x.jobId()), x.r().summary(), x.isFinal() ? " (final)" : "");
        sync(x.jobId());
      } else if (d instanceof Decision.Restored x) {
        log.info("hello {}: {}", JobId.f58(x.jobId()), x.r().summary());
        sync(x.jobId());
      } else if (d instanceof Decision.JobException x) {
        raise(x);
      } else if (d instanceof Decision.ExpirationSet x) {
        log.info("expiration {}: {}", JobId.f58(x.jobId()), x.expiration());
        if (req != null) {
          req.respond(Json.object());
        }
      }
    }
    if (state != null) {
      state.nextAllocId(core.nextAllocId());
    }
  }

  /**
   * RFC 27 §4.2, §4.3, §4.4 and RFC 51's realloc_cancel are never answered, not even with an error:
   * a refused one is only logged.
   */
  private static boolean answered(SchedEvent e) {
    return !(e instanceof SchedEvent.Free
        || e instanceof SchedEvent.Cancel
        || e instanceof SchedEvent.Prioritize
        || e instanceof SchedEvent.ReallocCancel);
  }

  private void rejected(Decision.Rejected x, SchedEvent e, ServiceRequest req, Runnable unclaim) {
    String job = x.jobId() == 0 ? "" : " " + JobId.f58(x.jobId());
    log.warn("{}{}: {} {}", topicOf(x.request()), job, Errno.name(x.errnum()), x.message());
    if (req != null && x.request() == e) {
      unclaim.run();
      if (answered(e)) {
        req.fail(x.errnum(), x.message());
      }
    }
  }

  private static String topicOf(SchedEvent e) {
    if (e instanceof SchedEvent.Alloc) {
      return Rfc27Topics.ALLOC;
    } else if (e instanceof SchedEvent.Free) {
      return Rfc27Topics.FREE;
    } else if (e instanceof SchedEvent.Expiration) {
      return Rfc27Topics.EXPIRATION;
    } else if (e instanceof SchedEvent.Realloc) {
      return Rfc51Topics.SCHED_REALLOC;
    } else if (e instanceof SchedEvent.ResourceUpdate) {
      return FluxTopics.RESOURCE_ACQUIRE;
    }
    return Rfc27Topics.SCHED;
  }

  private void granted(Decision.AllocSuccess s) {
    long id = s.jobId();
    log.info("alloc {}: {}", JobId.f58(id), s.resourceSummary());
    sync(id);
    // R is encoded once, for the answer, the KVS and the free's recognition (D571, D584)
    byte[] text = s.r().toJsonBytes();
    byte[] answer = Payloads.allocSuccessEncoded(s, text);
    sentGrants.sent(id, text, s.r());
    if (kvs != null) {
      // D147: the R is in the KVS before the job manager hears SUCCESS
      ServiceRequest req = allocs.remove(id);
      kvs.write(id, s.r(), text)
          .whenComplete(
              (m, err) -> {
                if (req == null) {
                  return;
                }
                if (err != null) {
                  RpcException ex = asRpc(cause(err));
                  log.error(
                      "alloc {}: kvs.commit {}: {}",
                      JobId.f58(id),
                      KvsRStore.rKey(id),
                      ex.getMessage());
                  req.fail(Errno.EIO, "alloc: kvs.commit of " + KvsRStore.rKey(id) + " failed");
                } else {
                  req.respondEncoded(answer);
                }
              });
    } else {
      ServiceRequest req = takeAlloc(id);
      if (req != null) {
        req.respondEncoded(answer);
      }
    }
  }

  /**
   * Sends an ANNOTATE on a pending alloc: a response that does not finish the request (RFC 27
   * §4.1), sent as a raw response since {@code sched.alloc} is not a streaming method.
   */
  private void annotateAlloc(Decision.AllocAnnotate x) {
    ServiceRequest req = allocs.get(x.jobId());
    log.debug("alloc {}: pending, jobs_ahead={}", JobId.f58(x.jobId()), x.jobsAhead());
    if (req != null && req.expectsResponse() && handle != null) {
      handle.sendRaw(Message.response(req.message(), 0, Json.encode(Payloads.allocAnnotate(x))));
    }
  }

  private void answerAlloc(long id, ObjectNode answer) {
    ServiceRequest req = takeAlloc(id);
    if (req != null) {
      req.respond(answer);
    }
  }

  /** The pending alloc of job {@code id}, taken; null (logged) when its request is gone. */
  private ServiceRequest takeAlloc(long id) {
    ServiceRequest req = allocs.remove(id);
    if (req == null) {
      log.debug("alloc {}: its request is gone, answer dropped", JobId.f58(id));
    }
    return req;
  }

  private void reallocAnswered(Decision.ReallocResponse x) {
    log.info(
        "realloc {} alloc_id={}: {}{}{}{}",
        JobId.f58(x.jobId()),
        Long.toUnsignedString(x.allocId()),
        x.type(),
        x.rDeltaAdd() == null ? "" : " add " + x.rDeltaAdd().summary(),
        x.rDeltaSub() == null ? "" : " sub " + x.rDeltaSub().summary(),
        x.note() == null ? "" : ": " + x.note());
    if (x.type() == ReallocResponseType.SUCCESS) {
      sync(x.jobId());
    }
    ServiceRequest req = reallocs.remove(new PendingRequests.Key(x.sender(), (int) x.matchtag()));
    if (kvs != null && (x.rDeltaAdd() != null || x.rDeltaSub() != null)) {
      commitChange(x, req);
    } else if (req != null) {
      req.respond(Payloads.realloc(x));
    }
  }

  /**
   * Attached, a grant is written into {@code job.<id>.R} before it is answered, as an alloc's R is:
   * a grow adds its resources (D147), a shrink takes its resources out (D471). {@code job.<id>.R}
   * is what the job may use: flux-core's job manager (through the realloc jobtap plugin) and a
   * restarted scheduler both read it, so a released rank must not be in it once the job has been
   * told to give it up. The pool keeps the shrunk resources allocated until {@code sched.free}
   * names them (D7). The key's R keeps its start time and expiration; its slot count follows the
   * grant's. A failed lookup or commit is logged and answered EIO; the grant stays with the job
   * until it frees it, as an alloc's does when its commit fails.
   */
  private void commitChange(Decision.ReallocResponse x, ServiceRequest req) {
    long id = x.jobId();
    kvs.read(id)
        .thenCompose(cur -> kvs.write(id, changed(cur, x.rDeltaAdd(), x.rDeltaSub())))
        .whenComplete(
            (m, err) -> {
              if (err != null) {
                RpcException ex = asRpc(cause(err));
                log.error(
                    "realloc {}: kvs.commit {}: {}",
                    JobId.f58(id),
                    KvsRStore.rKey(id),
                    ex.getMessage());
                if (req != null) {
                  req.fail(Errno.EIO, "realloc: kvs.commit of " + KvsRStore.rKey(id) + " failed");
                }
              } else if (req != null) {
                req.respond(Payloads.realloc(x));
              }
            });
  }

  /** {@code cur} grown by {@code add} and shrunk by {@code sub} (either may be null). */
  static ResourceSet changed(ResourceSet cur, ResourceSet add, ResourceSet sub) {
    ResourceSet r = cur;
    long slots = cur.nslots();
    if (add != null) {
      r = r.union(add);
      slots += add.nslots();
    }
    if (sub != null) {
      r = r.diff(sub);
      slots -= sub.nslots();
    }
    return r.withTimes(cur.starttime(), cur.expiration()).withNslots(Math.max(0, slots));
  }

  private void sync(long id) {
    if (state == null) {
      return;
    }
    if (core.isRunning(id)) {
      core.pool().allocation(id).ifPresent(r -> state.put(id, r));
    } else {
      state.remove(id);
    }
  }

  private void raise(Decision.JobException x) {
    log.warn(
        "hello {}: raising {} exception: {} ({})",
        JobId.f58(x.jobId()),
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
        .rpc(Rfc27Topics.RAISE, p)
        .whenComplete(
            (m, err) -> {
              if (err != null) {
                log.error(
                    "{} {}: {}",
                    Rfc27Topics.RAISE,
                    JobId.f58(x.jobId()),
                    asRpc(cause(err)).getMessage());
              }
            });
  }

  static RpcException asRpc(Throwable t) {
    return t instanceof RpcException r ? r : new RpcException(Errno.EIO, String.valueOf(t));
  }

  static Throwable cause(Throwable t) {
    return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
  }
}
