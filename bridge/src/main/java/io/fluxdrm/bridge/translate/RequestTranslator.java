package io.fluxdrm.bridge.translate;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.request.AllocationRequest;
import io.fluxdrm.pmix.request.AllocationRequest.Key;
import io.fluxdrm.pmix.request.NodeList;
import io.fluxdrm.pmix.request.RequestException;
import io.fluxdrm.protocol.FluxPayloads;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.rset.RsetException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * PMIx allocation requests to RFC 51 {@code sched.realloc} requests (decision D9), as pure
 * functions: the same request and job view always give the same {@link Translation}.
 *
 * <ul>
 *   <li>NEW and EXTEND become a {@code spec_add}: {@code PMIX_ALLOC_NUM_NODES} n with {@code
 *       PMIX_ALLOC_NUM_CPUS} c gives node×n → slot×1 → core×⌈c/n⌉; n alone gives whole nodes
 *       (exclusive) node×n → slot×1 → core×1; c alone gives slot×c → core×1; {@code
 *       PMIX_ALLOC_NODE_LIST} adds an RFC 31 {@code hostlist} constraint and gives the node count
 *       when n is absent (its {@code :slots} suffix gives the cores per node); {@code
 *       PMIX_ALLOC_EXCLUDE} adds {@code not hostlist}; {@code PMIX_ALLOC_TIME} gives {@code
 *       attributes.system.duration}; {@code PMIX_ALLOC_QUEUE} gives {@code
 *       attributes.system.queue}.
 *   <li>RELEASE becomes a {@code spec_sub} with an {@code R} naming exactly the nodes of {@code
 *       PMIX_ALLOC_NODE_LIST} (resolved against the job's R) or of the reservation {@code
 *       PMIX_ALLOC_ID}; or, with only {@code PMIX_ALLOC_NUM_NODES}, a {@code spec_sub} of that many
 *       nodes without R (the scheduler chooses).
 *   <li>REQ_CANCEL becomes a {@code sched.realloc_cancel} of the request labelled {@code
 *       PMIX_ALLOC_REQ_ID}.
 *   <li>Every key without a meaning for the directive, every unknown key, and the directives
 *       REAQUIRE, ACTIVATE (answered by the DVM) and implementer-defined ones are refused with
 *       {@code PMIX_ERR_NOT_SUPPORTED}, never ignored. Bad values are refused with {@code
 *       PMIX_ERR_BAD_PARAM}; an allocation or node the job does not hold with {@code
 *       PMIX_ERR_NOT_FOUND}.
 * </ul>
 *
 * <p>Why one class: it is the one table from PMIx directives and keys to RFC 51 requests, and each
 * directive's rule refers to the shared key checks; split by directive, those checks would be
 * written again.
 */
public final class RequestTranslator {
  private RequestTranslator() {}

  /** The command of the one task of a generated jobspec (version 1 requires a task). */
  static final List<String> COMMAND = List.of("fluxdrm-realloc");

  /** The label of the slot of a generated jobspec. */
  static final String SLOT = "task";

  /**
   * Keys any directive accepts, by name ({@link PmixKey#nameOf}): the label, and what PMIx and
   * PRRTE add to every request.
   */
  private static final Set<String> COMMON =
      Set.of("PMIX_ALLOC_REQ_ID", "PMIX_REQUESTOR", "PMIX_USERID", "PMIX_GRPID");

  /** Policy keys that PRRTE re-reads from the answer: echoed, not translated. */
  private static final List<String> POLICY =
      List.of("PMIX_ALLOC_INHERITANCE", "PMIX_ALLOC_SHARE", "PMIX_ALLOC_TARGET");

  private static final Set<String> GROW =
      Set.of(
          "PMIX_ALLOC_NUM_NODES",
          "PMIX_ALLOC_NUM_CPUS",
          "PMIX_ALLOC_NODE_LIST",
          "PMIX_ALLOC_EXCLUDE",
          "PMIX_ALLOC_TIME",
          "PMIX_ALLOC_QUEUE",
          "PMIX_ALLOC_INHERITANCE",
          "PMIX_ALLOC_SHARE",
          "PMIX_ALLOC_TARGET",
          "PMIX_ALLOC_WARN_TIMEOUT");

  private static final Set<String> EXTEND_ONLY = Set.of("PMIX_ALLOC_ID");

  private static final Set<String> RELEASE =
      Set.of("PMIX_ALLOC_NODE_LIST", "PMIX_ALLOC_ID", "PMIX_ALLOC_NUM_NODES");

  /**
   * Translates a request given by its directive value, as it arrives on the wire.
   *
   * @param directive the {@code pmix_alloc_directive_t} value
   * @param infos the request's infos
   * @param job the job the requester belongs to
   * @return the translation; never null
   */
  public static Translation translate(int directive, List<Info> infos, JobView job) {
    return AllocDirective.of(directive)
        .map(d -> translate(d, infos, job))
        .orElseGet(
            () ->
                new Translation.Refused(
                    PmixStatus.PMIX_ERR_NOT_SUPPORTED,
                    "directive "
                        + directive
                        + ": unknown (expected: PMIX_ALLOC_NEW, PMIX_ALLOC_EXTEND,"
                        + " PMIX_ALLOC_RELEASE or PMIX_ALLOC_REQ_CANCEL)"));
  }

  /**
   * Translates a request.
   *
   * @param directive the directive
   * @param infos the request's infos
   * @param job the job the requester belongs to
   * @return the translation; never null
   */
  public static Translation translate(AllocDirective directive, List<Info> infos, JobView job) {
    try {
      return switch (directive) {
        case NEW, EXTEND -> grow(directive, read(directive, infos), job);
        case RELEASE -> release(read(directive, infos), job);
        case REQ_CANCEL -> cancel(read(directive, infos));
        case ACTIVATE ->
            throw refuse(
                PmixStatus.PMIX_ERR_NOT_SUPPORTED,
                "directive PMIX_ALLOC_ACTIVATE: answered by the DVM itself, not by the scheduler"
                    + " (expected: NEW, EXTEND, RELEASE or REQ_CANCEL)");
        case REAQUIRE, EXTERNAL ->
            throw refuse(
                PmixStatus.PMIX_ERR_NOT_SUPPORTED,
                "directive "
                    + directive.pmixName()
                    + ": has no RFC 51 equivalent (expected: NEW, EXTEND, RELEASE or REQ_CANCEL)");
      };
    } catch (TranslateException e) {
      return new Translation.Refused(e.status(), e.getMessage());
    }
  }

  // ---- keys ---------------------------------------------------------------------------------

  /**
   * A request whose keys this translator accepts, each given once, read as an {@link
   * AllocationRequest}. A value that does not read is refused where the translator comes to its
   * key, so that a request with several faults is refused for the one it always was.
   *
   * @param given the infos by key name, in order
   * @param request the typed request, without the infos whose value does not read
   * @param faults the refusal of each value that does not read, by key name
   */
  private record Read(
      Map<String, Info> given, AllocationRequest request, Map<String, TranslateException> faults) {

    boolean has(String name) {
      return given.containsKey(name);
    }

    /**
     * The typed value of key {@code name}; throws the refusal of its value when it did not read.
     */
    <T> Optional<T> get(String name, Function<AllocationRequest, Optional<T>> field) {
      TranslateException fault = faults.get(name);
      if (fault != null) {
        throw fault;
      }
      return field.apply(request);
    }
  }

  private static Read read(AllocDirective d, List<Info> infos) {
    Map<String, Info> given = index(d, infos);
    Map<String, TranslateException> faults = new HashMap<>();
    List<Info> readable = new ArrayList<>(given.values());
    while (true) {
      try {
        return new Read(given, AllocationRequest.parse(readable), faults);
      } catch (RequestException e) {
        TranslateException refusal = NodeLists.refusal(e);
        if (!readable.removeIf(i -> i.key().equals(e.key()))) {
          throw refusal; // located at no info of the request: nothing to read past
        }
        faults.put(PmixKey.nameOf(e.key()).orElseThrow(), refusal);
      }
    }
  }

  private static Map<String, Info> index(AllocDirective d, List<Info> infos) {
    Set<String> allowed =
        switch (d) {
          case NEW -> GROW;
          case EXTEND -> union(GROW, EXTEND_ONLY);
          case RELEASE -> RELEASE;
          default -> Set.of();
        };
    Map<String, Info> out = new LinkedHashMap<>();
    Map<String, Integer> at = new HashMap<>();
    for (int i = 0; i < infos.size(); i++) {
      Info info = infos.get(i);
      String k = info.key();
      String name = PmixKey.nameOf(k).orElse(null);
      if (name == null || !COMMON.contains(name) && !allowed.contains(name)) {
        throw refuse(PmixStatus.PMIX_ERR_NOT_SUPPORTED, unsupported(d, i, k, name));
      }
      Integer first = at.putIfAbsent(k, i);
      if (first != null) {
        throw refuse(
            PmixStatus.PMIX_ERR_BAD_PARAM,
            "info "
                + i
                + " ("
                + k
                + "): given twice, first as info "
                + first
                + " (expected: once)");
      }
      out.put(name, info);
    }
    return out;
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> s = new java.util.HashSet<>(a);
    s.addAll(b);
    return Set.copyOf(s);
  }

  private static String unsupported(AllocDirective d, int i, String k, String name) {
    String head = "info " + i + " (" + k + "): ";
    if (name == null) {
      return head + "unknown key (expected: a key of the allocation request)";
    }
    boolean growKey = GROW.contains(name) || RELEASE.contains(name);
    if (growKey) {
      return head + name + " has no meaning with " + d.pmixName();
    }
    return head + name + " has no RFC 51 / jobspec version 1 equivalent";
  }

  // ---- NEW / EXTEND --------------------------------------------------------------------------

  private static Translation grow(AllocDirective d, Read in, JobView job) {
    AllocationRequest rq = in.request();
    String allocId = null;
    if (d == AllocDirective.EXTEND) {
      if (rq.allocId().isPresent()) {
        allocId = rq.allocId().get();
        if (!job.reservations().containsKey(allocId)) {
          throw notAllocation(allocId, job);
        }
      } else {
        allocId = job.ownAllocId();
      }
    }
    long nodes = count(Key.NUM_NODES, rq.numNodes());
    long cpus = count(Key.NUM_CPUS, rq.numCpus());
    Hostlist list = null;
    int listSlots = 0;
    Optional<NodeList> nl = in.get("PMIX_ALLOC_NODE_LIST", AllocationRequest::nodeList);
    if (nl.isPresent()) {
      listSlots = NodeLists.slots(Key.NODE_LIST.key(), nl.get());
      list = NodeLists.hosts(nl.get());
      long have = list.count();
      if (nodes > have) {
        throw refuse(
            PmixStatus.PMIX_ERR_BAD_PARAM,
            Key.NUM_NODES.key()
                + " "
                + nodes
                + ": more than the "
                + have
                + " hosts of "
                + Key.NODE_LIST.key()
                + " (expected: at most "
                + have
                + ")");
      }
      if (nodes == 0) {
        nodes = have;
      }
      if (listSlots > 0 && cpus > 0) {
        throw refuse(
            PmixStatus.PMIX_ERR_BAD_PARAM,
            Key.NUM_CPUS.key()
                + " and slot counts in "
                + Key.NODE_LIST.key()
                + " both give the cores (expected: one of them)");
      }
    }
    Hostlist exclude =
        in.get("PMIX_ALLOC_EXCLUDE", AllocationRequest::exclude).map(NodeLists::hosts).orElse(null);
    if (nodes == 0 && cpus == 0) {
      if (d == AllocDirective.EXTEND && in.has("PMIX_ALLOC_TIME")) {
        throw refuse(
            PmixStatus.PMIX_ERR_NOT_SUPPORTED,
            d.pmixName()
                + " with only "
                + Key.TIME.key()
                + ": RFC 51 cannot extend a job's time (expected: resources to add)");
      }
      throw refuse(
          PmixStatus.PMIX_ERR_BAD_PARAM,
          d.pmixName()
              + ": nothing to allocate (expected: "
              + Key.NUM_NODES.key()
              + ", "
              + Key.NUM_CPUS.key()
              + " or "
              + Key.NODE_LIST.key()
              + ")");
    }
    double duration = in.get("PMIX_ALLOC_TIME", AllocationRequest::timeSeconds).orElse(0L);
    ObjectNode spec;
    if (nodes > 0) {
      long cores = listSlots > 0 ? listSlots : ceilDiv(cpus, nodes);
      spec = Specs.nodes(nodes, Math.max(1, cores), cores == 0);
    } else {
      spec = Specs.slots(cpus);
    }
    ObjectNode system = (ObjectNode) spec.get("attributes").get("system");
    system.put("duration", duration);
    Optional<String> queue = rq.queue();
    if (queue.isPresent()) {
      if (queue.get().isEmpty()) {
        throw refuse(
            PmixStatus.PMIX_ERR_BAD_PARAM,
            Key.QUEUE.key() + " \"\": empty (expected: a queue name)");
      }
      system.put("queue", queue.get());
    }
    ObjectNode constraint = constraint(list, exclude);
    if (constraint != null) {
      system.set("constraints", constraint);
    }
    ObjectNode payload = JsonNodeFactory.instance.objectNode();
    payload.set("job_id", FluxPayloads.id(job.jobId()));
    payload.set("spec_add", spec);
    return new Translation.Realloc(d, payload, allocId, echo(in), rq.warnTimeout().orElse(-1L));
  }

  private static ObjectNode constraint(Hostlist hosts, Hostlist exclude) {
    ObjectNode allow = hosts == null ? null : Specs.hostlist(hosts);
    ObjectNode deny = null;
    if (exclude != null) {
      deny = JsonNodeFactory.instance.objectNode();
      deny.putArray("not").add(Specs.hostlist(exclude));
    }
    if (allow != null && deny != null) {
      ObjectNode and = JsonNodeFactory.instance.objectNode();
      ArrayNode a = and.putArray("and");
      a.add(allow);
      a.add(deny);
      return and;
    }
    return allow != null ? allow : deny;
  }

  /** A count of a uint64 key as a positive int, 0 when absent. */
  private static long count(Key key, Optional<Long> value) {
    if (value.isEmpty()) {
      return 0;
    }
    long v = value.get();
    if (v == 0 || Long.compareUnsigned(v, Specs.MAX_COUNT) > 0) {
      throw refuse(
          PmixStatus.PMIX_ERR_BAD_PARAM,
          key.key() + " " + Long.toUnsignedString(v) + " (expected: 1 to " + Specs.MAX_COUNT + ")");
    }
    return v;
  }

  private static long ceilDiv(long a, long b) {
    return a == 0 ? 0 : (a + b - 1) / b;
  }

  // ---- RELEASE -------------------------------------------------------------------------------

  private static Translation release(Read in, JobView job) {
    AllocationRequest rq = in.request();
    Optional<String> id = rq.allocId();
    boolean nl = in.has("PMIX_ALLOC_NODE_LIST");
    if (rq.numNodes().isPresent() && (id.isPresent() || nl)) {
      throw refuse(
          PmixStatus.PMIX_ERR_BAD_PARAM,
          Key.NUM_NODES.key()
              + " with "
              + (nl ? Key.NODE_LIST : Key.ID).key()
              + ": both say what to release (expected: a count, or nodes, or an allocation)");
    }
    ObjectNode payload = JsonNodeFactory.instance.objectNode();
    payload.set("job_id", FluxPayloads.id(job.jobId()));
    if (rq.numNodes().isPresent()) {
      long count = count(Key.NUM_NODES, rq.numNodes());
      if (count >= job.r().nnodes()) {
        throw refuse(
            PmixStatus.PMIX_ERR_BAD_PARAM,
            Key.NUM_NODES.key()
                + " "
                + count
                + ": job "
                + job.jobIdText()
                + " holds "
                + job.r().nnodes()
                + " nodes (expected: fewer than it holds; a job gives back its last node by"
                + " ending)");
      }
      payload.set("spec_sub", Specs.release(count, 1, null));
      return new Translation.Realloc(AllocDirective.RELEASE, payload, null, echo(in), -1);
    }
    if (id.isEmpty() && !nl) {
      throw refuse(
          PmixStatus.PMIX_ERR_NOT_FOUND,
          "PMIX_ALLOC_RELEASE: names nothing to release (expected: "
              + Key.NODE_LIST.key()
              + ", "
              + Key.ID.key()
              + " or "
              + Key.NUM_NODES.key()
              + ")");
    }
    ResourceSet from = job.r();
    String allocId = null;
    if (id.isPresent()) {
      allocId = id.get();
      from = job.reservations().get(allocId);
      if (from == null || from.isEmpty()) {
        throw notAllocation(allocId, job);
      }
      if (!from.diff(job.r()).isEmpty()) {
        throw refuse(
            PmixStatus.PMIX_ERR_NOT_FOUND,
            Key.ID.key()
                + " \""
                + allocId
                + "\": names resources job "
                + job.jobIdText()
                + " does not hold ("
                + from.diff(job.r()).summary()
                + ")");
      }
    }
    ResourceSet sub = from;
    Optional<NodeList> parsed = in.get("PMIX_ALLOC_NODE_LIST", AllocationRequest::nodeList);
    if (parsed.isPresent()) {
      NodeLists.slots(Key.NODE_LIST.key(), parsed.get());
      Hostlist list = NodeLists.hosts(parsed.get());
      IdSet ranks;
      try {
        ranks = from.hostsToRanks(list);
      } catch (RsetException e) {
        throw refuse(
            PmixStatus.PMIX_ERR_NOT_FOUND,
            Key.NODE_LIST.key()
                + " \""
                + parsed.get().text()
                + "\": "
                + e.getMessage()
                + " (expected: nodes of "
                + (allocId == null ? "job " + job.jobIdText() : "allocation " + allocId)
                + ": "
                + hostsOf(from)
                + ")");
      }
      sub = from.copyRanks(ranks);
      allocId = null;
    }
    if (job.r().diff(sub).isEmpty()) {
      throw refuse(
          PmixStatus.PMIX_ERR_BAD_PARAM,
          "PMIX_ALLOC_RELEASE: would release every node of job "
              + job.jobIdText()
              + " (expected: fewer than it holds; a job gives back its last node by ending)");
    }
    long minCores = Long.MAX_VALUE;
    for (int rank : sub.ranks()) {
      minCores = Math.min(minCores, sub.resources(rank, "core").count());
    }
    payload.set("spec_sub", Specs.release(sub.nnodes(), Math.max(1, minCores), hostsOrNull(sub)));
    payload.set("R", sub.toJson());
    return new Translation.Realloc(AllocDirective.RELEASE, payload, allocId, echo(in), -1);
  }

  /** {@code PMIX_ALLOC_ID} naming no allocation of the job (PMIX_ERR_NOT_FOUND). */
  private static TranslateException notAllocation(String allocId, JobView job) {
    return refuse(
        PmixStatus.PMIX_ERR_NOT_FOUND,
        Key.ID.key()
            + " \""
            + allocId
            + "\": not an allocation of job "
            + job.jobIdText()
            + " (expected: one of "
            + new java.util.TreeSet<>(job.reservations().keySet())
            + ")");
  }

  private static String hostsOf(ResourceSet r) {
    Hostlist h = hostsOrNull(r);
    return h == null ? "R has no nodelist" : h.toString();
  }

  private static Hostlist hostsOrNull(ResourceSet r) {
    return r.hasNodelist() && !r.isEmpty() ? r.nodelist() : null;
  }

  // ---- REQ_CANCEL ----------------------------------------------------------------------------

  private static Translation cancel(Read in) {
    Optional<String> id = in.request().reqId();
    if (id.isEmpty() || id.get().isEmpty()) {
      throw refuse(
          PmixStatus.PMIX_ERR_BAD_PARAM,
          "PMIX_ALLOC_REQ_CANCEL: names no request (expected: " + Key.REQ_ID.key() + ")");
    }
    return new Translation.Cancel(id.get());
  }

  // ---- shared --------------------------------------------------------------------------------

  /** The label and the policy keys, as given: what the answer echoes. */
  private static List<Info> echo(Read in) {
    List<Info> out = new ArrayList<>();
    Stream.concat(Stream.of("PMIX_ALLOC_REQ_ID"), POLICY.stream())
        .map(in.given()::get)
        .filter(Objects::nonNull)
        .forEach(out::add);
    return out;
  }

  private static TranslateException refuse(PmixStatus status, String message) {
    return new TranslateException(status, message);
  }
}
