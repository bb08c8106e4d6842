package io.fluxdrm.bridge.translate;

import static io.fluxdrm.pmix.PmixKey.PMIX_ALLOC_EXCLUDE;
import static io.fluxdrm.pmix.PmixKey.PMIX_ALLOC_ID;
import static io.fluxdrm.pmix.PmixKey.PMIX_ALLOC_INHERITANCE;
import static io.fluxdrm.pmix.PmixKey.PMIX_ALLOC_NODE_LIST;
import static io.fluxdrm.pmix.PmixKey.PMIX_ALLOC_NUM_CPUS;
import static io.fluxdrm.pmix.PmixKey.PMIX_ALLOC_NUM_NODES;
import static io.fluxdrm.pmix.PmixKey.PMIX_ALLOC_QUEUE;
import static io.fluxdrm.pmix.PmixKey.PMIX_ALLOC_REQ_ID;
import static io.fluxdrm.pmix.PmixKey.PMIX_ALLOC_SHARE;
import static io.fluxdrm.pmix.PmixKey.PMIX_ALLOC_TARGET;
import static io.fluxdrm.pmix.PmixKey.PMIX_ALLOC_TIME;
import static io.fluxdrm.pmix.PmixKey.PMIX_ALLOC_WARN_TIMEOUT;
import static io.fluxdrm.pmix.PmixKey.PMIX_GRPID;
import static io.fluxdrm.pmix.PmixKey.PMIX_REQUESTOR;
import static io.fluxdrm.pmix.PmixKey.PMIX_USERID;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.AllocTime;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixException;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.request.NodeList;
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
import java.util.Set;

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

  /** Keys any directive accepts: the label, and what PMIx and PRRTE add to every request. */
  private static final Set<String> COMMON =
      Set.of(PMIX_ALLOC_REQ_ID, PMIX_REQUESTOR, PMIX_USERID, PMIX_GRPID);

  /** Policy keys that PRRTE re-reads from the answer: echoed, not translated. */
  static final List<String> POLICY =
      List.of(PMIX_ALLOC_INHERITANCE, PMIX_ALLOC_SHARE, PMIX_ALLOC_TARGET);

  private static final Set<String> GROW =
      Set.of(
          PMIX_ALLOC_NUM_NODES,
          PMIX_ALLOC_NUM_CPUS,
          PMIX_ALLOC_NODE_LIST,
          PMIX_ALLOC_EXCLUDE,
          PMIX_ALLOC_TIME,
          PMIX_ALLOC_QUEUE,
          PMIX_ALLOC_INHERITANCE,
          PMIX_ALLOC_SHARE,
          PMIX_ALLOC_TARGET,
          PMIX_ALLOC_WARN_TIMEOUT);

  private static final Set<String> EXTEND_ONLY = Set.of(PMIX_ALLOC_ID);

  private static final Set<String> RELEASE =
      Set.of(PMIX_ALLOC_NODE_LIST, PMIX_ALLOC_ID, PMIX_ALLOC_NUM_NODES);

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
        case NEW, EXTEND -> grow(directive, index(directive, infos), job);
        case RELEASE -> release(index(directive, infos), job);
        case REQ_CANCEL -> cancel(index(directive, infos));
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
      if (!COMMON.contains(k) && !allowed.contains(k)) {
        throw refuse(PmixStatus.PMIX_ERR_NOT_SUPPORTED, unsupported(d, i, k));
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
      out.put(k, info);
    }
    return out;
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> s = new java.util.HashSet<>(a);
    s.addAll(b);
    return Set.copyOf(s);
  }

  private static String unsupported(AllocDirective d, int i, String k) {
    String head = "info " + i + " (" + k + "): ";
    if (!PmixKey.isKnown(k)) {
      return head + "unknown key (expected: a key of the allocation request)";
    }
    String name = PmixKey.nameOf(k).orElseThrow();
    boolean growKey = GROW.contains(k) || RELEASE.contains(k);
    if (growKey) {
      return head + name + " has no meaning with " + d.pmixName();
    }
    return head + name + " has no RFC 51 / jobspec version 1 equivalent";
  }

  // ---- NEW / EXTEND --------------------------------------------------------------------------

  private static Translation grow(AllocDirective d, Map<String, Info> in, JobView job) {
    String allocId = null;
    if (d == AllocDirective.EXTEND) {
      Info id = in.get(PMIX_ALLOC_ID);
      if (id != null) {
        allocId = id.stringValue();
        if (!job.reservations().containsKey(allocId)) {
          throw refuse(
              PmixStatus.PMIX_ERR_NOT_FOUND,
              PMIX_ALLOC_ID
                  + " \""
                  + allocId
                  + "\": not an allocation of job "
                  + job.jobIdText()
                  + " (expected: one of "
                  + new java.util.TreeSet<>(job.reservations().keySet())
                  + ")");
        }
      } else {
        allocId = job.ownAllocId();
      }
    }
    long nodes = count(in.get(PMIX_ALLOC_NUM_NODES));
    long cpus = count(in.get(PMIX_ALLOC_NUM_CPUS));
    Hostlist list = null;
    int listSlots = 0;
    Info nl = in.get(PMIX_ALLOC_NODE_LIST);
    if (nl != null) {
      NodeList parsed = NodeLists.read(() -> NodeList.parse(nl, true));
      listSlots = NodeLists.slots(PMIX_ALLOC_NODE_LIST, parsed);
      list = NodeLists.hosts(parsed);
      long have = list.count();
      if (nodes > have) {
        throw refuse(
            PmixStatus.PMIX_ERR_BAD_PARAM,
            PMIX_ALLOC_NUM_NODES
                + " "
                + nodes
                + ": more than the "
                + have
                + " hosts of "
                + PMIX_ALLOC_NODE_LIST
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
            PMIX_ALLOC_NUM_CPUS
                + " and slot counts in "
                + PMIX_ALLOC_NODE_LIST
                + " both give the cores (expected: one of them)");
      }
    }
    Hostlist exclude = null;
    Info ex = in.get(PMIX_ALLOC_EXCLUDE);
    if (ex != null) {
      exclude =
          NodeLists.hosts(
              NodeLists.read(() -> NodeList.parse(PMIX_ALLOC_EXCLUDE, ex.stringValue(), false)));
    }
    if (nodes == 0 && cpus == 0) {
      if (d == AllocDirective.EXTEND && in.containsKey(PMIX_ALLOC_TIME)) {
        throw refuse(
            PmixStatus.PMIX_ERR_NOT_SUPPORTED,
            d.pmixName()
                + " with only "
                + PMIX_ALLOC_TIME
                + ": RFC 51 cannot extend a job's time (expected: resources to add)");
      }
      throw refuse(
          PmixStatus.PMIX_ERR_BAD_PARAM,
          d.pmixName()
              + ": nothing to allocate (expected: "
              + PMIX_ALLOC_NUM_NODES
              + ", "
              + PMIX_ALLOC_NUM_CPUS
              + " or "
              + PMIX_ALLOC_NODE_LIST
              + ")");
    }
    double duration = 0;
    Info time = in.get(PMIX_ALLOC_TIME);
    if (time != null) {
      try {
        duration = AllocTime.parseSeconds(time.stringValue());
      } catch (PmixException e) {
        throw refuse(e.status(), e.getMessage());
      }
    }
    ObjectNode spec;
    if (nodes > 0) {
      long cores = listSlots > 0 ? listSlots : ceilDiv(cpus, nodes);
      spec = Specs.nodes(nodes, Math.max(1, cores), cores == 0);
    } else {
      spec = Specs.slots(cpus);
    }
    ObjectNode system = (ObjectNode) spec.get("attributes").get("system");
    system.put("duration", duration);
    Info queue = in.get(PMIX_ALLOC_QUEUE);
    if (queue != null) {
      if (queue.stringValue().isEmpty()) {
        throw refuse(
            PmixStatus.PMIX_ERR_BAD_PARAM,
            PMIX_ALLOC_QUEUE + " \"\": empty (expected: a queue name)");
      }
      system.put("queue", queue.stringValue());
    }
    ObjectNode constraint = constraint(list, exclude);
    if (constraint != null) {
      system.set("constraints", constraint);
    }
    ObjectNode payload = JsonNodeFactory.instance.objectNode();
    payload.set("job_id", FluxPayloads.id(job.jobId()));
    payload.set("spec_add", spec);
    return new Translation.Realloc(d, payload, allocId, echo(in), warnTimeout(in));
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
  private static long count(Info info) {
    if (info == null) {
      return 0;
    }
    long v = info.longValue();
    if (v == 0 || Long.compareUnsigned(v, Specs.MAX_COUNT) > 0) {
      throw refuse(
          PmixStatus.PMIX_ERR_BAD_PARAM,
          info.key()
              + " "
              + Long.toUnsignedString(v)
              + " (expected: 1 to "
              + Specs.MAX_COUNT
              + ")");
    }
    return v;
  }

  private static long ceilDiv(long a, long b) {
    return a == 0 ? 0 : (a + b - 1) / b;
  }

  // ---- RELEASE -------------------------------------------------------------------------------

  private static Translation release(Map<String, Info> in, JobView job) {
    Info id = in.get(PMIX_ALLOC_ID);
    Info nl = in.get(PMIX_ALLOC_NODE_LIST);
    Info n = in.get(PMIX_ALLOC_NUM_NODES);
    if (n != null && (id != null || nl != null)) {
      throw refuse(
          PmixStatus.PMIX_ERR_BAD_PARAM,
          PMIX_ALLOC_NUM_NODES
              + " with "
              + (nl != null ? PMIX_ALLOC_NODE_LIST : PMIX_ALLOC_ID)
              + ": both say what to release (expected: a count, or nodes, or an allocation)");
    }
    ObjectNode payload = JsonNodeFactory.instance.objectNode();
    payload.set("job_id", FluxPayloads.id(job.jobId()));
    if (n != null) {
      long count = count(n);
      if (count >= job.r().nnodes()) {
        throw refuse(
            PmixStatus.PMIX_ERR_BAD_PARAM,
            PMIX_ALLOC_NUM_NODES
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
    if (id == null && nl == null) {
      throw refuse(
          PmixStatus.PMIX_ERR_NOT_FOUND,
          "PMIX_ALLOC_RELEASE: names nothing to release (expected: "
              + PMIX_ALLOC_NODE_LIST
              + ", "
              + PMIX_ALLOC_ID
              + " or "
              + PMIX_ALLOC_NUM_NODES
              + ")");
    }
    ResourceSet from = job.r();
    String allocId = null;
    if (id != null) {
      allocId = id.stringValue();
      from = job.reservations().get(allocId);
      if (from == null || from.isEmpty()) {
        throw refuse(
            PmixStatus.PMIX_ERR_NOT_FOUND,
            PMIX_ALLOC_ID
                + " \""
                + allocId
                + "\": not an allocation of job "
                + job.jobIdText()
                + " (expected: one of "
                + new java.util.TreeSet<>(job.reservations().keySet())
                + ")");
      }
      if (!from.diff(job.r()).isEmpty()) {
        throw refuse(
            PmixStatus.PMIX_ERR_NOT_FOUND,
            PMIX_ALLOC_ID
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
    if (nl != null) {
      NodeList parsed = NodeLists.read(() -> NodeList.parse(nl, true));
      NodeLists.slots(PMIX_ALLOC_NODE_LIST, parsed);
      Hostlist list = NodeLists.hosts(parsed);
      IdSet ranks;
      try {
        ranks = from.hostsToRanks(list);
      } catch (RsetException e) {
        throw refuse(
            PmixStatus.PMIX_ERR_NOT_FOUND,
            PMIX_ALLOC_NODE_LIST
                + " \""
                + nl.stringValue()
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

  private static String hostsOf(ResourceSet r) {
    Hostlist h = hostsOrNull(r);
    return h == null ? "R has no nodelist" : h.toString();
  }

  private static Hostlist hostsOrNull(ResourceSet r) {
    return r.hasNodelist() && !r.isEmpty() ? r.nodelist() : null;
  }

  // ---- REQ_CANCEL ----------------------------------------------------------------------------

  private static Translation cancel(Map<String, Info> in) {
    Info id = in.get(PMIX_ALLOC_REQ_ID);
    if (id == null || id.stringValue().isEmpty()) {
      throw refuse(
          PmixStatus.PMIX_ERR_BAD_PARAM,
          "PMIX_ALLOC_REQ_CANCEL: names no request (expected: " + PMIX_ALLOC_REQ_ID + ")");
    }
    return new Translation.Cancel(id.stringValue());
  }

  // ---- shared --------------------------------------------------------------------------------

  private static List<Info> echo(Map<String, Info> in) {
    List<Info> out = new ArrayList<>();
    Info req = in.get(PMIX_ALLOC_REQ_ID);
    if (req != null) {
      out.add(req);
    }
    for (String k : POLICY) {
      Info p = in.get(k);
      if (p != null) {
        out.add(p);
      }
    }
    return out;
  }

  private static long warnTimeout(Map<String, Info> in) {
    Info w = in.get(PMIX_ALLOC_WARN_TIMEOUT);
    return w == null ? -1 : w.longValue();
  }

  private static TranslateException refuse(PmixStatus status, String message) {
    return new TranslateException(status, message);
  }
}
