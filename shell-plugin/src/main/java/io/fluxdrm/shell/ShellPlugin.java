package io.fluxdrm.shell;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.protocol.ReallocResponseType;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.MessageType;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.client.MessageTap;
import io.fluxdrm.rpc.reactor.EventLoop;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rpc.service.ServiceRequest;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.rset.RsetException;
import io.fluxdrm.shell.core.ShellCore;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.PrimitiveIterator;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job shell's side of RFC 51 (seed 004) for one job: the shell service {@code
 * <uid>-shell-<f58plain jobid>} and the same operations as a Java API.
 *
 * <ul>
 *   <li>{@code realloc {spec_add?, spec_sub?, R?}} goes on as {@code job-manager.realloc {id,
 *       ...}}; a SUCCESS with {@code R_delta_add} joins the job's R at once; a SUCCESS with {@code
 *       R_delta_sub} marks those resources as being released; type UNSUPPORTED or errnum ENOSYS
 *       gives UNSUPPORTED; DENY and CANCEL pass through. The service answers the job manager's
 *       answer plus {@code "R"}, the shell's view of the job's R after it.
 *   <li>{@code task-exit {ranks}} reports that the tasks on ranks being released have exited;
 *       {@code release {ranks}} (RFC 51 {@code shell.release}) says the same and is answered {@code
 *       {"R": R}} once those resources are handed back. A granted shrink is handed back with {@code
 *       job-manager.release {id, ranks, final: false}} only when the tasks on all its ranks have
 *       exited.
 *   <li>{@code realloc_cancel {matchtag}} (or RFC 6 {@code <service>.cancel}) names a pending
 *       realloc of the same sender and becomes {@code job-manager.realloc_cancel} with the plugin's
 *       own matchtag; the realloc is then answered CANCEL.
 * </ul>
 *
 * <p>Only the job's user or the instance owner may call the service (EPERM otherwise). Malformed
 * payloads get EPROTO, ranks that are not being released EINVAL; neither changes any state.
 *
 * <p>All state lives on the handle's loop: the Java operations may be called from any thread (the
 * work runs on the loop); the accessors read that state and belong on the loop's thread, or to
 * tests driving a manual loop.
 */
public final class ShellPlugin {
  private static final Logger LOG = LoggerFactory.getLogger(ShellPlugin.class);

  /** The job manager's service name. */
  public static final String JOB_MANAGER = "job-manager";

  private static final Set<String> REALLOC_KEYS = Set.of("spec_add", "spec_sub", "R");
  private static final Set<String> RANKS_KEYS = Set.of("ranks");
  private static final Set<String> CANCEL_KEYS = Set.of("matchtag");

  private final long jobId;
  private final int userid;
  private final String serviceName;
  private final ShellCore core;
  private final Map<Long, CompletableFuture<ResourceSet>> released = new LinkedHashMap<>();
  private final Map<Object, Pending> pending = new LinkedHashMap<>();
  private FluxHandle handle;
  private EventLoop loop;
  private MessageTap userTap;
  private int lastReallocTag;

  /** The sender and matchtag of a request to the shell service. */
  private record ReqKey(String sender, int matchtag) {}

  /** A realloc waiting for the job manager's answer. */
  private static final class Pending {
    final CompletableFuture<Answer> answer;
    int jmTag;
    boolean cancelSent;

    Pending(CompletableFuture<Answer> answer) {
      this.answer = answer;
    }
  }

  private ShellPlugin(long jobId, int userid, ResourceSet r) {
    this.jobId = jobId;
    this.userid = userid;
    this.core = new ShellCore(r);
    this.serviceName = serviceName(userid, jobId);
  }

  /**
   * The plugin of job {@code jobId} run by user {@code userid}, holding {@code r}.
   *
   * @return a plugin, not started
   */
  public static ShellPlugin create(long jobId, int userid, ResourceSet r) {
    Objects.requireNonNull(r, "R");
    if (r.isEmpty()) {
      throw new IllegalArgumentException("R: empty (expected: the job's resources)");
    }
    return new ShellPlugin(jobId, userid, r);
  }

  /** The shell service name of a job: {@code <uid>-shell-<f58plain jobid>}. */
  public static String serviceName(int userid, long jobId) {
    return Integer.toUnsignedString(userid) + "-shell-" + JobIds.f58plain(jobId);
  }

  /** This job's shell service name. */
  public String serviceName() {
    return serviceName;
  }

  /** The job id. */
  public long jobId() {
    return jobId;
  }

  /** The job's user. */
  public int userid() {
    return userid;
  }

  /**
   * Registers the shell service on {@code h}, which also carries the requests to the job manager.
   */
  public CompletableFuture<Void> start(FluxHandle h) {
    attach(h);
    return h.register(service());
  }

  /**
   * Uses {@code h} for the requests to the job manager without registering anything on it; {@link
   * #service()} is then registered by the caller, possibly on another handle (a replay's hub).
   */
  public void attach(FluxHandle h) {
    this.handle = Objects.requireNonNull(h, "handle");
    this.loop = h.loop();
    h.tap(this::tapped);
  }

  /** Also shows every message of the handle to {@code t} (a transcript recorder); null removes. */
  public void tap(MessageTap t) {
    this.userTap = t;
  }

  private void tapped(MessageTap.Direction d, Message m) {
    if (d == MessageTap.Direction.OUT
        && m.type() == MessageType.REQUEST
        && (JOB_MANAGER + ".realloc").equals(m.topic())) {
      lastReallocTag = m.matchtag();
    }
    MessageTap t = userTap;
    if (t != null) {
      t.onMessage(d, m);
    }
  }

  /** The shell service bound to this plugin (after {@link #attach}), for the caller to register. */
  public Service service() {
    return Service.builder(serviceName)
        .on("realloc", this::serveRealloc)
        .on("realloc_cancel", this::serveReallocCancel)
        .on("release", this::serveRelease)
        .on("task-exit", this::serveTaskExit)
        .onCancel(this::canceled)
        .onDisconnect(this::disconnected)
        .build();
  }

  // ---- state ------------------------------------------------------------------------------------

  /** The shell's view of the job's R (resources being released included). */
  public ResourceSet r() {
    return core.r();
  }

  /** What the job was granted to give back and has not handed back yet. */
  public ResourceSet releasing() {
    return core.releasing();
  }

  /** The job's rank → host name map (ranks without a host name are left out). */
  public SortedMap<Integer, String> hosts() {
    SortedMap<Integer, String> m = new TreeMap<>();
    ResourceSet r = core.r();
    for (PrimitiveIterator.OfInt it = r.ranks().iterator(); it.hasNext(); ) {
      int rank = it.nextInt();
      String h = r.host(rank);
      if (h != null) {
        m.put(rank, h);
      }
    }
    return Collections.unmodifiableSortedMap(m);
  }

  /** The number of reallocs waiting for the job manager. */
  public int pendingReallocs() {
    return pending.size();
  }

  // ---- Java API ---------------------------------------------------------------------------------

  /**
   * Asks the job manager for a change of the job's resources (RFC 51 realloc).
   *
   * @param specAdd a jobspec of resources to add, or null
   * @param specSub a jobspec of resources to remove, or null
   * @param r the resources meant by {@code specSub}, or null
   * @return the answer; fails with {@link ShellException} on bad input (EPROTO) or an error answer
   *     (its errnum)
   */
  public CompletableFuture<Answer> realloc(JsonNode specAdd, JsonNode specSub, ResourceSet r) {
    String where = serviceName + ".realloc";
    try {
      checkSpecs(where, specAdd, specSub);
    } catch (ShellException e) {
      return CompletableFuture.failedFuture(e);
    }
    if (loop == null) {
      return CompletableFuture.failedFuture(notStarted());
    }
    CompletableFuture<Answer> f = new CompletableFuture<>();
    Pending p = new Pending(f);
    if (loop.inLoop()) {
      forward(f, p, specAdd, specSub, r);
    } else {
      loop.execute(() -> forward(f, p, specAdd, specSub, r));
    }
    return f;
  }

  /**
   * Cancels a realloc started by {@link #realloc} and not answered yet: the job manager is asked to
   * cancel it, and it is then answered CANCEL (or whatever the scheduler decided first).
   *
   * @return whether the realloc was pending
   */
  public CompletableFuture<Boolean> reallocCancel(CompletableFuture<Answer> realloc) {
    return onLoop(
        () -> {
          Pending p = pending.get(realloc);
          if (p == null) {
            return CompletableFuture.completedFuture(false);
          }
          cancel(p);
          return CompletableFuture.completedFuture(true);
        });
  }

  /**
   * Reports that the tasks on {@code ranks} have exited; every granted shrink whose ranks have all
   * exited is handed back to the job manager.
   *
   * @return the job's R once every shrink touching {@code ranks} is handed back; fails with {@link
   *     ShellException} EINVAL when a rank is not being released (nothing changes then)
   */
  public CompletableFuture<ResourceSet> tasksExited(IdSet ranks) {
    Objects.requireNonNull(ranks, "ranks");
    return onLoop(() -> exited(serviceName + ".task-exit", ranks));
  }

  private <T> CompletableFuture<T> onLoop(Supplier<CompletableFuture<T>> f) {
    if (loop == null) {
      return CompletableFuture.failedFuture(notStarted());
    }
    return loop.submit(f);
  }

  private ShellException notStarted() {
    return new ShellException(
        Errno.EINVAL, serviceName + ": not started (expected: start the plugin first)");
  }

  // ---- realloc ----------------------------------------------------------------------------------

  private static void checkSpecs(String where, JsonNode add, JsonNode sub) {
    if (add == null && sub == null) {
      throw new ShellException(
          Errno.EPROTO, where + ": /: no spec_add and no spec_sub (expected: at least one)");
    }
    checkSpec(where, "spec_add", add);
    checkSpec(where, "spec_sub", sub);
  }

  private static void checkSpec(String where, String key, JsonNode spec) {
    if (spec != null && !spec.isObject()) {
      throw new ShellException(
          Errno.EPROTO,
          where
              + ": /"
              + key
              + ": "
              + spec.getNodeType().toString().toLowerCase(Locale.ROOT)
              + " (expected: a jobspec object)");
    }
  }

  private CompletableFuture<Answer> forward(
      Object key, Pending p, JsonNode add, JsonNode sub, ResourceSet rArg) {
    ObjectNode out = Json.object();
    out.set("id", JobIds.json(jobId));
    if (add != null) {
      out.set("spec_add", add.deepCopy());
    }
    if (sub != null) {
      out.set("spec_sub", sub.deepCopy());
    }
    if (rArg != null) {
      out.set("R", rArg.toJson());
    }
    lastReallocTag = 0;
    CompletableFuture<Message> f = handle.rpc(JOB_MANAGER + ".realloc", out);
    p.jmTag = lastReallocTag;
    pending.put(key, p);
    f.whenComplete((m, err) -> answered(key, p, m, err == null ? null : unwrap(err)));
    return p.answer;
  }

  private void answered(Object key, Pending p, Message m, Throwable err) {
    pending.remove(key, p);
    String job = JobIds.f58(jobId);
    if (err != null) {
      int errnum = err instanceof RpcException e ? e.errnum() : Errno.EIO;
      if (errnum == Errno.ENOSYS) {
        LOG.info("realloc {}: ENOSYS on the way: UNSUPPORTED", job);
        p.answer.complete(
            Answer.unsupported("dynamic allocation not implemented: " + err.getMessage()));
      } else {
        LOG.info("realloc {}: {} {}", job, Errno.name(errnum), err.getMessage());
        p.answer.completeExceptionally(new ShellException(errnum, err.getMessage()));
      }
      return;
    }
    Answer a;
    try {
      a = parse(m);
    } catch (ShellException | RpcException | RsetException e) {
      LOG.error("realloc {}: bad answer from the job manager: {}", job, e.getMessage());
      p.answer.completeExceptionally(
          new ShellException(
              Errno.EPROTO, JOB_MANAGER + ".realloc: bad answer: " + e.getMessage()));
      return;
    }
    if (a instanceof Answer.Success s) {
      core.granted(s.added(), s.removed());
      LOG.info(
          "realloc {} alloc_id={}: SUCCESS{}{} -> {}",
          job,
          Long.toUnsignedString(s.allocId()),
          s.added().isEmpty() ? "" : " add " + s.added().summary(),
          s.removed().isEmpty() ? "" : " sub " + s.removed().summary(),
          core.r().summary());
    } else {
      LOG.info("realloc {}: {} {}", job, a.type(), a.note());
    }
    p.answer.complete(a);
  }

  /** Reads and checks an answer against the current state; throws before changing anything. */
  private Answer parse(Message m) {
    ObjectNode a = m.json();
    JsonNode type = a.get("type");
    ReallocResponseType t =
        type != null && type.isIntegralNumber() && type.canConvertToInt()
            ? ReallocResponseType.of(type.asInt()).orElse(null)
            : null;
    if (t == null) {
      throw new ShellException(Errno.EPROTO, "/type: " + type + " (expected: 0 to 3)");
    }
    long allocId = JobIds.read(a.get("alloc_id"), "/alloc_id");
    JsonNode noteNode = a.get("note");
    if (noteNode != null && !noteNode.isTextual()) {
      throw new ShellException(Errno.EPROTO, "/note: " + noteNode + " (expected: a string)");
    }
    String note = noteNode == null ? "" : noteNode.asText();
    return switch (t) {
      case DENY -> new Answer.Deny(allocId, note);
      case CANCEL -> new Answer.Cancel(allocId, note);
      case UNSUPPORTED -> new Answer.Unsupported(allocId, note);
      case SUCCESS -> success(a, allocId, note);
    };
  }

  private Answer success(ObjectNode a, long allocId, String note) {
    ResourceSet add = delta(a, "R_delta_add");
    ResourceSet sub = delta(a, "R_delta_sub");
    core.checkGrant(add, sub);
    return new Answer.Success(allocId, add, sub, note);
  }

  private static ResourceSet delta(ObjectNode a, String key) {
    JsonNode n = a.get(key);
    if (n == null) {
      return ResourceSet.empty();
    }
    try {
      return ResourceSet.fromJson(n);
    } catch (RsetException e) {
      throw new ShellException(Errno.EPROTO, "/" + key + ": " + e.getMessage());
    }
  }

  private void cancel(Pending p) {
    if (p.cancelSent) {
      return;
    }
    p.cancelSent = true;
    LOG.info("realloc_cancel {}: job-manager matchtag {}", JobIds.f58(jobId), p.jmTag);
    handle.send(JOB_MANAGER + ".realloc_cancel", Json.object().put("matchtag", p.jmTag));
  }

  // ---- release ----------------------------------------------------------------------------------

  private CompletableFuture<ResourceSet> exited(String where, IdSet ranks) {
    try {
      return exitedOrThrow(where, ranks);
    } catch (ShellException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** Feeds a task exit to the core (which throws before changing anything) and acts on it. */
  private CompletableFuture<ResourceSet> exitedOrThrow(String where, IdSet ranks) {
    ShellCore.Exited x = core.exited(where, ranks);
    List<CompletableFuture<ResourceSet>> waits = new ArrayList<>();
    for (long id : x.touched()) {
      waits.add(released.computeIfAbsent(id, k -> new CompletableFuture<>()));
    }
    for (ShellCore.Release rel : x.releases()) {
      sendRelease(rel);
    }
    return CompletableFuture.allOf(waits.toArray(CompletableFuture[]::new))
        .thenApply(v -> core.r());
  }

  private void sendRelease(ShellCore.Release rel) {
    IdSet ranks = rel.r().ranks();
    ObjectNode p = Json.object();
    p.set("id", JobIds.json(jobId));
    p.put("ranks", ranks.toString());
    p.put("final", false);
    handle
        .rpc(JOB_MANAGER + ".release", p)
        .whenComplete(
            (m, err) -> {
              CompletableFuture<ResourceSet> f = released.remove(rel.shrink());
              if (err != null) {
                Throwable e = unwrap(err);
                int errnum = e instanceof RpcException re ? re.errnum() : Errno.EIO;
                LOG.error(
                    "release {}: ranks {}: {} {}",
                    JobIds.f58(jobId),
                    ranks,
                    Errno.name(errnum),
                    e.getMessage());
                core.releaseFailed(rel.shrink());
                if (f != null) {
                  f.completeExceptionally(new ShellException(errnum, e.getMessage()));
                }
                return;
              }
              ResourceSet gone = core.released(rel.shrink());
              LOG.info(
                  "release {}: {} -> {}", JobIds.f58(jobId), gone.summary(), core.r().summary());
              if (f != null) {
                f.complete(core.r());
              }
            });
  }

  // ---- the shell service ------------------------------------------------------------------------

  private void authorize(ServiceRequest req) {
    if (!req.mayActFor(userid)) {
      throw new RpcException(
          Errno.EPERM,
          req.topic()
              + ": user "
              + Integer.toUnsignedString(req.credentials().userid())
              + " may not act on job "
              + JobIds.f58(jobId)
              + " (expected: user "
              + Integer.toUnsignedString(userid)
              + " or the instance owner)");
    }
  }

  private static ObjectNode payload(ServiceRequest req) {
    try {
      return req.json();
    } catch (RpcException e) {
      throw new RpcException(Errno.EPROTO, req.topic() + ": /: " + e.getMessage());
    }
  }

  private static IdSet ranksArg(ServiceRequest req, ObjectNode p) {
    JsonNode n = p.get("ranks");
    if (n == null || !n.isTextual()) {
      throw new RpcException(
          Errno.EPROTO,
          req.topic()
              + ": /ranks: "
              + (n == null ? "missing" : n)
              + " (expected: an idset string)");
    }
    try {
      return IdSet.parse(n.asText());
    } catch (RsetException e) {
      throw new RpcException(Errno.EPROTO, req.topic() + ": /ranks: " + e.getMessage());
    }
  }

  private static RpcException rpcError(Throwable t) {
    Throwable e = unwrap(t);
    if (e instanceof ShellException s) {
      return new RpcException(s.errnum(), s.getMessage());
    }
    return e instanceof RpcException re ? re : new RpcException(Errno.EIO, String.valueOf(e));
  }

  private void serveRealloc(ServiceRequest req) {
    authorize(req);
    ObjectNode p = payload(req);
    ServiceRequest.requireOnlyKeys(req.topic(), p, REALLOC_KEYS);
    JsonNode add = p.get("spec_add");
    JsonNode sub = p.get("spec_sub");
    ResourceSet rArg = null;
    try {
      checkSpecs(req.topic(), add, sub);
      if (p.has("R")) {
        rArg = ResourceSet.fromJson(p.get("R"));
      }
    } catch (ShellException e) {
      throw new RpcException(e.errnum(), e.getMessage());
    } catch (RsetException e) {
      throw new RpcException(Errno.EPROTO, req.topic() + ": /R: " + e.getMessage());
    }
    if (!req.expectsResponse()) {
      throw new RpcException(
          Errno.EPROTO, req.topic() + ": sent without a response (expected: an RPC)");
    }
    ReqKey key = new ReqKey(req.sender(), req.matchtag());
    if (pending.containsKey(key)) {
      throw new RpcException(
          Errno.EPROTO, req.topic() + ": matchtag " + req.matchtag() + " already pending");
    }
    Pending pend = new Pending(new CompletableFuture<>());
    forward(key, pend, add, sub, rArg)
        .whenComplete(
            (a, err) -> {
              if (err != null) {
                RpcException e = rpcError(err);
                req.fail(e.errnum(), e.getMessage());
                return;
              }
              ObjectNode o = a.toJson();
              o.set("R", core.r().toJson());
              req.respond(o);
            });
  }

  private void serveReallocCancel(ServiceRequest req) {
    authorize(req);
    ObjectNode p = payload(req);
    ServiceRequest.requireOnlyKeys(req.topic(), p, CANCEL_KEYS);
    JsonNode tag = p.get("matchtag");
    if (tag == null || !tag.isIntegralNumber() || !tag.canConvertToInt()) {
      throw new RpcException(
          Errno.EPROTO,
          req.topic()
              + ": /matchtag: "
              + (tag == null ? "missing" : tag)
              + " (expected: an integer matchtag)");
    }
    Pending pend = pending.get(new ReqKey(req.sender(), tag.asInt()));
    if (pend == null) {
      LOG.debug("{}: matchtag {} not pending, ignored", req.topic(), tag);
    } else {
      cancel(pend);
    }
    if (req.expectsResponse()) {
      req.respond(Json.object());
    } else {
      req.drop();
    }
  }

  private void serveRelease(ServiceRequest req) {
    authorize(req);
    ObjectNode p = payload(req);
    ServiceRequest.requireOnlyKeys(req.topic(), p, RANKS_KEYS);
    IdSet ranks = ranksArg(req, p);
    CompletableFuture<ResourceSet> f = exited(req.topic(), ranks);
    f.whenComplete(
        (rr, err) -> {
          if (err != null) {
            RpcException e = rpcError(err);
            req.fail(e.errnum(), e.getMessage());
          } else {
            ObjectNode o = Json.object();
            o.set("R", rr.toJson());
            req.respond(o);
          }
        });
  }

  private void serveTaskExit(ServiceRequest req) {
    authorize(req);
    ObjectNode p = payload(req);
    ServiceRequest.requireOnlyKeys(req.topic(), p, RANKS_KEYS);
    IdSet ranks = ranksArg(req, p);
    try {
      exitedOrThrow(req.topic(), ranks);
    } catch (ShellException e) {
      throw new RpcException(e.errnum(), e.getMessage());
    }
    if (req.expectsResponse()) {
      req.respond(Json.object());
    } else {
      req.drop();
    }
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
    for (Map.Entry<Object, Pending> en : List.copyOf(pending.entrySet())) {
      if (en.getKey() instanceof ReqKey k && k.sender().equals(sender)) {
        cancel(en.getValue());
      }
    }
  }

  private static Throwable unwrap(Throwable t) {
    return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
  }
}
