package io.fluxdrm.bridge.alloc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.bridge.translate.AnswerTranslator;
import io.fluxdrm.bridge.translate.JobView;
import io.fluxdrm.bridge.translate.PmixAnswer;
import io.fluxdrm.bridge.translate.RequestTranslator;
import io.fluxdrm.bridge.translate.TranslateException;
import io.fluxdrm.bridge.translate.Translation;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.InfoCodec;
import io.fluxdrm.pmix.PmixException;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.request.AllocationAnswer;
import io.fluxdrm.pmix.request.InfoWriter;
import io.fluxdrm.protocol.JobAccess;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.JobId;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rpc.service.PendingRequests;
import io.fluxdrm.rpc.service.Service;
import io.fluxdrm.rpc.service.ServiceRequest;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.rset.RsetException;
import io.fluxdrm.shell.Answer;
import io.fluxdrm.shell.ShellException;
import io.fluxdrm.shell.ShellPlugin;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code PMIx_Allocation_request(directive, info[])} for one job, over its {@link ShellPlugin}.
 *
 * <p>A request is translated per D9 ({@link RequestTranslator}); a refusal is answered at once with
 * its PMIx status and the plugin is not called. NEW, EXTEND and RELEASE go to {@link
 * ShellPlugin#realloc}; the plugin's {@link Answer} is mapped per D10 ({@link AnswerTranslator}).
 * The facade keeps the requester side's maps (D80):
 *
 * <ul>
 *   <li>{@code PMIX_ALLOC_REQ_ID} → the pending request with that label. {@code
 *       PMIX_ALLOC_REQ_CANCEL} of a pending label cancels it through {@link
 *       ShellPlugin#reallocCancel} and is answered {@code PMIX_SUCCESS}; the cancelled request is
 *       then answered {@code PMIX_ERR_JOB_CANCELED} (or whatever the scheduler decided first). A
 *       label that is not pending gives {@code PMIX_ERR_NOT_FOUND}; a second request with a label
 *       still pending gives {@code PMIX_ERR_EXISTS} (D130).
 *   <li>{@code PMIX_ALLOC_ID} → the resources its grant added, not given back yet: the job's
 *       reservations. A NEW, or an EXTEND of the job's initial allocation, opens a reservation
 *       named by the grant's {@code alloc_id}; an EXTEND naming a reservation adds to it; any
 *       resources taken back (RELEASE, or a scheduler-initiated shrink, D13) leave every
 *       reservation at once, and an emptied reservation is gone (D131, D132).
 * </ul>
 *
 * <p>The same call is served over RPC as {@code <uid>-pmix-<f58plain jobid>.allocation-request}
 * with payload {@code {"directive": n, "info": [...]}} ({@link InfoCodec} JSON) and answer {@code
 * {"status": s, "info": [...], "message"?: text}} (D133). Only the job's user or the instance owner
 * may call it (EPERM otherwise, D114); a malformed envelope gets EPROTO; an info array that does
 * not decode is a PMIx answer {@code PMIX_ERR_BAD_PARAM}.
 *
 * <p>All state is confined to the plugin's loop, without locks: the RPC service runs there, and the
 * Java API and the accessors read the plugin's view of the job's R, so they belong on that loop's
 * thread too (no application thread calls them), or to tests driving a manual loop. Requests over
 * RPC are kept in {@link PendingRequests} (RFC 6: sender and matchtag name one request; a duplicate
 * matchtag is EPROTO).
 *
 * <p>Why one class: a request's label, its pending RPC and the job's reservations change together
 * on every answer (a grant opens or grows a reservation, a release empties them, a cancel ends the
 * label), and the Java API and the RPC service are the same requests.
 */
public final class PmixAllocator {
  private static final Logger LOG = LoggerFactory.getLogger(PmixAllocator.class);

  /** The method of the RPC service. */
  public static final String METHOD = "allocation-request";

  private static final Set<String> KEYS = Set.of("directive", "info");

  private final ShellPlugin plugin;
  private final String serviceName;
  private final Map<String, Pending> byReqId = new LinkedHashMap<>();
  private final PendingRequests<Pending> byRequest = new PendingRequests<>();
  private int apiPending;
  private final Map<String, ResourceSet> reservations = new LinkedHashMap<>();
  private java.util.function.Consumer<String> takenBack = nodeList -> {};

  /** A request forwarded to the plugin and not answered yet. */
  private static final class Pending {
    final String reqId;
    final ServiceRequest req;
    CompletableFuture<Answer> realloc;

    Pending(String reqId, ServiceRequest req) {
      this.reqId = reqId;
      this.req = req;
    }
  }

  private PmixAllocator(ShellPlugin plugin) {
    this.plugin = plugin;
    // a guest's own name, as the job shell names its service (D133, D110)
    this.serviceName =
        Integer.toUnsignedString(plugin.userid()) + "-pmix-" + JobId.f58plain(plugin.jobId());
  }

  /**
   * The facade of the job whose shell plugin is {@code plugin} (started, or attached, before the
   * first request).
   */
  public static PmixAllocator create(ShellPlugin plugin) {
    return new PmixAllocator(Objects.requireNonNull(plugin, "plugin"));
  }

  /** The RPC service name: {@code <uid>-pmix-<f58plain jobid>}. */
  public String serviceName() {
    return serviceName;
  }

  /** Registers the RPC service on {@code h} (a guest may register its own {@code <uid>-} names). */
  public CompletableFuture<Void> start(FluxHandle h) {
    return h.register(service());
  }

  /** The RPC service, for the caller to register. */
  public Service service() {
    return Service.builder(serviceName)
        .on(METHOD, this::serve)
        .onCancel(this::canceled)
        .onDisconnect(this::disconnected)
        .build();
  }

  /**
   * Whom to tell when the scheduler takes resources back on its own in the answer to a grow (D13):
   * their {@code PMIX_ALLOC_NODE_LIST} ({@code host:slots,...}), once the answer is applied. The
   * resources stay the job's until released ({@link #released}); whoever runs something there must
   * end it first (the bridge: a shrink of the DVM, D423). One listener; the default does nothing.
   *
   * @param listener the listener, called on the plugin's loop
   */
  public void onTakenBack(java.util.function.Consumer<String> listener) {
    this.takenBack = Objects.requireNonNull(listener, "listener");
  }

  /** The job's reservations: {@code PMIX_ALLOC_ID} → the resources still held from its grants. */
  public Map<String, ResourceSet> reservations() {
    return Collections.unmodifiableMap(new LinkedHashMap<>(reservations));
  }

  /**
   * Takes over a reservation of the facade before this one (a restarted bridge, decision D521):
   * {@code allocId} names the resources of the job's R on {@code hosts}, so that a RELEASE or an
   * EXTEND naming it finds it. Hosts the job no longer holds are left out; none left, nothing is
   * adopted.
   *
   * @param allocId the reservation's {@code PMIX_ALLOC_ID}
   * @param hosts the hosts its grants added
   * @return the resources adopted (empty when none)
   */
  public ResourceSet adopt(String allocId, java.util.Collection<String> hosts) {
    ResourceSet r = plugin.r();
    Set<String> jobHosts = new java.util.HashSet<>(r.nodelist().expand());
    java.util.List<String> held = hosts.stream().filter(jobHosts::contains).toList();
    if (held.isEmpty()) {
      return ResourceSet.empty();
    }
    ResourceSet mine = r.copyRanks(r.hostsToRanks(io.fluxdrm.rset.Hostlist.of(held)));
    reservations.merge(Objects.requireNonNull(allocId, "allocId"), mine, ResourceSet::union);
    return mine;
  }

  /** The labels ({@code PMIX_ALLOC_REQ_ID}) of the requests waiting for an answer. */
  public Set<String> pendingRequestIds() {
    return Collections.unmodifiableSet(new TreeSet<>(byReqId.keySet()));
  }

  /** The number of requests waiting for an answer, labelled or not. */
  public int pendingRequests() {
    return byRequest.size() + apiPending;
  }

  // ---- the Java API -----------------------------------------------------------------------------

  /**
   * {@code PMIx_Allocation_request(directive, info[])}.
   *
   * @param directive the {@code pmix_alloc_directive_t} value
   * @param infos the request's infos
   * @return the status and result infos; never fails
   */
  public CompletableFuture<PmixAnswer> allocationRequest(int directive, List<Info> infos) {
    return request(directive, infos, null);
  }

  /** {@code PMIx_Allocation_request(directive, info[])} with a directive of the enum. */
  public CompletableFuture<PmixAnswer> allocationRequest(
      AllocDirective directive, List<Info> infos) {
    return request(directive.code(), infos, null);
  }

  /**
   * Gives back exactly the nodes of a grant the DVM refused (D376): {@code PMIX_ALLOC_RELEASE} of
   * {@code nodeList}, then, as no task ever ran there, the tasks of those ranks are reported
   * exited, so the shrink is handed back at once ({@code sched.free final: false}).
   *
   * @param allocId the grant's {@code PMIX_ALLOC_ID}, for the log
   * @param nodeList the grant's {@code PMIX_ALLOC_NODE_LIST}
   * @return the release's answer; never fails
   */
  public CompletableFuture<PmixAnswer> handBack(String allocId, String nodeList) {
    return allocationRequest(AllocDirective.RELEASE, InfoWriter.create().nodeList(nodeList).infos())
        .thenCompose(
            a -> {
              if (a.status() != PmixStatus.PMIX_SUCCESS) {
                return CompletableFuture.completedFuture(a);
              }
              LOG.info("grant {} refused by the DVM: {} given back", allocId, nodeList);
              return released(nodeList).thenApply(v -> a);
            });
  }

  /**
   * Reports that the tasks on the released ranks of the hosts of {@code nodeList} have exited
   * (their DVM daemons are gone), so that the shrink is handed back ({@code sched.free final:
   * false}, docs/protocol-mapping.md). Hosts not being released are left alone.
   *
   * @param nodeList a {@code PMIX_ALLOC_NODE_LIST} ({@code host[:slots],...})
   * @return completes once handed back; never fails (a failure is logged)
   */
  public CompletableFuture<Void> released(String nodeList) {
    Set<String> hosts = new java.util.HashSet<>();
    for (String e : nodeList.split(",")) {
      int colon = e.lastIndexOf(':');
      try {
        hosts.addAll(
            io.fluxdrm.rset.Hostlist.parse(colon > 0 ? e.substring(0, colon) : e).expand());
      } catch (RsetException ex) {
        LOG.error("released {}: {}", nodeList, ex.getMessage());
        return CompletableFuture.completedFuture(null);
      }
    }
    ResourceSet releasing = plugin.releasing();
    List<Integer> ranks = new java.util.ArrayList<>();
    for (java.util.PrimitiveIterator.OfInt it = releasing.ranks().iterator(); it.hasNext(); ) {
      int rank = it.nextInt();
      if (hosts.contains(releasing.host(rank))) {
        ranks.add(rank);
      }
    }
    if (ranks.isEmpty()) {
      return CompletableFuture.completedFuture(null);
    }
    return plugin
        .tasksExited(io.fluxdrm.rset.IdSet.of(ranks.stream().mapToInt(Integer::intValue).toArray()))
        .handle(
            (r, err) -> {
              if (err != null) {
                LOG.error("released {}: {}", nodeList, err.getMessage());
              } else {
                LOG.info("released {}: handed back, job's R {}", nodeList, r.summary());
              }
              return null;
            });
  }

  private CompletableFuture<PmixAnswer> request(
      int directive, List<Info> infos, ServiceRequest req) {
    JobView view =
        new JobView(
            plugin.jobId(), plugin.r().diff(plugin.releasing()), null, Map.copyOf(reservations));
    Translation t = RequestTranslator.translate(directive, List.copyOf(infos), view);
    if (t instanceof Translation.Refused r) {
      LOG.info("allocation request {}: {} {}", serviceName, r.status(), r.message());
      return CompletableFuture.completedFuture(AnswerTranslator.refused(r));
    }
    if (t instanceof Translation.Cancel c) {
      return cancel(c);
    }
    return realloc((Translation.Realloc) t, req);
  }

  private CompletableFuture<PmixAnswer> cancel(Translation.Cancel c) {
    Pending p = byReqId.get(c.reqId());
    if (p == null) {
      return CompletableFuture.completedFuture(notPending(c.reqId()));
    }
    return plugin
        .reallocCancel(p.realloc)
        .handle(
            (was, err) ->
                err == null && was ? AnswerTranslator.cancelSent(c) : notPending(c.reqId()));
  }

  private PmixAnswer notPending(String reqId) {
    return aboutLabel(
        PmixStatus.PMIX_ERR_NOT_FOUND,
        reqId,
        "no pending request of "
            + serviceName
            + " (expected: one of "
            + new TreeSet<>(byReqId.keySet())
            + ")");
  }

  /**
   * A refusal about a request's label: the label echoed, the message naming it by its key string,
   * as every bridge refusal words a key.
   */
  private static PmixAnswer aboutLabel(PmixStatus status, String reqId, String problem) {
    List<Info> echo = InfoWriter.create().reqId(reqId).infos();
    return new PmixAnswer(status, echo, echo.get(0).key() + " \"" + reqId + "\": " + problem);
  }

  private CompletableFuture<PmixAnswer> realloc(Translation.Realloc rq, ServiceRequest req) {
    // the translator echoes the label once (it refuses a key given twice)
    String reqId = AllocationAnswer.reqIdOf(rq.echo()).orElse(null);
    if (reqId != null && byReqId.containsKey(reqId)) {
      return CompletableFuture.completedFuture(
          aboutLabel(
              PmixStatus.PMIX_ERR_EXISTS,
              reqId,
              "a request with this label is still pending (expected: a label not in use)"));
    }
    ObjectNode payload = rq.payload();
    ResourceSet r = null;
    if (payload.has("R")) {
      try {
        r = ResourceSet.fromJson(payload.get("R"));
      } catch (RsetException e) {
        // the translator wrote this R itself from the job's R
        throw new IllegalStateException("translated R: " + e.getMessage(), e);
      }
    }
    Pending p = new Pending(reqId, req);
    if (reqId != null) {
      byReqId.put(reqId, p);
    }
    if (req == null) {
      apiPending++;
    } else {
      byRequest.put(PendingRequests.Key.of(req), p);
    }
    p.realloc = plugin.realloc(payload.get("spec_add"), payload.get("spec_sub"), r);
    return p.realloc.handle((a, err) -> answered(rq, p, a, err));
  }

  private PmixAnswer answered(Translation.Realloc rq, Pending p, Answer a, Throwable err) {
    if (p.reqId != null) {
      byReqId.remove(p.reqId, p);
    }
    if (p.req == null) {
      apiPending--;
    } else {
      byRequest.remove(PendingRequests.Key.of(p.req), p);
    }
    if (err != null) {
      Throwable e =
          err instanceof CompletionException && err.getCause() != null ? err.getCause() : err;
      int errnum = e instanceof ShellException se ? se.errnum() : Errno.EIO;
      PmixAnswer out = AnswerTranslator.error(rq, errnum, e.getMessage());
      LOG.info("allocation request {}: {} {}", serviceName, out.status(), out.message());
      return out;
    }
    if (a instanceof Answer.Success s) {
      return success(rq, s);
    }
    return AnswerTranslator.answer(rq, a.toJson());
  }

  private PmixAnswer success(Translation.Realloc rq, Answer.Success s) {
    boolean grow = rq.directive() != AllocDirective.RELEASE;
    if (!s.removed().isEmpty()) {
      takeBack(s.removed());
      if (grow) {
        try {
          String list = AnswerTranslator.nodeList(s.removed());
          LOG.info("allocation request {}: the scheduler took back {} (D13)", serviceName, list);
          takenBack.accept(list);
        } catch (TranslateException e) {
          LOG.error("allocation request {}: taken back: {}", serviceName, e.getMessage());
        }
      }
    }
    if (grow && s.added().isEmpty()) {
      // D13 without a grant: the scheduler only took resources back (D134)
      return new PmixAnswer(
          PmixStatus.PMIX_ERR_OUT_OF_RESOURCE,
          AllocationAnswer.echoOf(rq.echo()),
          "nothing granted; the scheduler took back " + s.removed().summary());
    }
    PmixAnswer out;
    try {
      out = AnswerTranslator.answer(rq, s.toJson());
    } catch (TranslateException e) {
      LOG.error("allocation request {}: {}", serviceName, e.getMessage());
      return new PmixAnswer(e.status(), List.of(), e.getMessage());
    }
    if (grow) {
      String id = AllocationAnswer.allocIdOf(out.infos()).orElseThrow();
      reservations.merge(id, s.added(), ResourceSet::union);
    }
    return out;
  }

  /** Resources taken back leave every reservation; an emptied reservation is gone. */
  private void takeBack(ResourceSet removed) {
    for (Iterator<Map.Entry<String, ResourceSet>> it = reservations.entrySet().iterator();
        it.hasNext(); ) {
      Map.Entry<String, ResourceSet> en = it.next();
      ResourceSet left = en.getValue().diff(removed);
      if (left.isEmpty()) {
        it.remove();
      } else {
        en.setValue(left);
      }
    }
  }

  // ---- the RPC service --------------------------------------------------------------------------

  private void serve(ServiceRequest req) {
    ObjectNode p =
        JobAccess.payload(req, plugin.userid(), Long.toUnsignedString(plugin.jobId()), KEYS);
    JsonNode d = p.get("directive");
    if (d == null || !d.isIntegralNumber() || !d.canConvertToInt() || d.asInt() < 0) {
      throw new RpcException(
          Errno.EPROTO,
          req.topic()
              + ": /directive: "
              + (d == null ? "missing" : d)
              + " (expected: a pmix_alloc_directive_t, 0 to 255)");
    }
    JsonNode info = p.get("info");
    if (info != null && !info.isArray()) {
      throw new RpcException(
          Errno.EPROTO,
          req.topic()
              + ": /info: "
              + info.getNodeType().toString().toLowerCase(java.util.Locale.ROOT)
              + " (expected: an info array)");
    }
    if (!req.expectsResponse()) {
      throw new RpcException(
          Errno.EPROTO, req.topic() + ": sent without a response (expected: an RPC)");
    }
    List<Info> infos;
    try {
      infos = info == null ? List.of() : InfoCodec.decode(info);
    } catch (PmixException e) {
      String where =
          String.join("; ", e.problems().stream().map(m -> req.topic() + ": /info" + m).toList());
      req.respond(toJson(new PmixAnswer(e.status(), List.of(), where)));
      return;
    }
    byRequest.requireFree(req.topic(), PendingRequests.Key.of(req));
    request(d.asInt(), infos, req)
        .whenComplete(
            (a, err) -> {
              if (err != null) {
                req.fail(Errno.EIO, req.topic() + ": " + err.getMessage());
              } else {
                req.respond(toJson(a));
              }
            });
  }

  /** The RPC answer: {@code {"status": s, "info": [...], "message"?: text}}. */
  static ObjectNode toJson(PmixAnswer a) {
    ObjectNode o = Json.object();
    o.put("status", a.status().code());
    o.set("info", InfoCodec.encode(a.infos()));
    if (!a.message().isEmpty()) {
      o.put("message", a.message());
    }
    return o;
  }

  /** RFC 6 cancel of a pending request: cancelled like REQ_CANCEL, then answered by its future. */
  private void canceled(ServiceRequest req) {
    Pending p = byRequest.canceledBy(req);
    CompletableFuture<Answer> f = p == null ? null : p.realloc;
    if (f == null) {
      req.fail(Errno.ECANCELED, req.topic() + ": request canceled");
    } else {
      plugin.reallocCancel(f);
    }
  }

  private void disconnected(String sender) {
    for (Pending p : byRequest.ofSender(sender)) {
      CompletableFuture<Answer> f = p.realloc;
      if (f == null) {
        continue;
      }
      LOG.info("allocation request {}: requester {} gone, canceling", serviceName, sender);
      plugin.reallocCancel(f);
    }
  }
}
