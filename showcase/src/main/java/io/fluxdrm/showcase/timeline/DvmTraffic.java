package io.fluxdrm.showcase.timeline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.fluxdrm.dvm.wire.DvmTopics;
import io.fluxdrm.dvm.wire.DvmWire;
import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.InfoCodec;
import io.fluxdrm.pmix.PmixException;
import io.fluxdrm.pmix.PmixRegex;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.request.AllocationAnswer;
import io.fluxdrm.pmix.request.SessionControl;
import io.fluxdrm.pmix.request.SessionControl.Operation;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.RsetException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The DVM's hub protocol as the timeline reads it (docs/dvm.md, "On a hub"). A granted {@code
 * dvm.alloc} NEW or EXTEND gives the reservation its nodes (from the answer's {@code
 * PMIX_ALLOC_NODE_LIST}, else the request's) and starts daemons there; the requester's
 * PMIX_DVM_IS_READY says they are up, PMIX_ERR_DVM_MOD that the grow was rolled back (its daemons
 * leave). A RELEASE of nodes makes their daemons leave when PMIX_DVM_IS_READY comes; a RELEASE of
 * the whole reservation tears it down at once (no event, PRRTE's ras base completing a RELEASE).
 * Session control: INSTANTIATE and EXTEND give a session nodes, PAUSE, RESUME and TERMINATE are
 * marked, and the DVM's PMIX_SESSION_COMPLETE to its scheduler ends it; its release hook ({@code
 * dvm-sched.nodes-released}) says which daemons left. Without elastic mode there are no events:
 * daemons are then taken as up when the grant is answered.
 */
final class DvmTraffic {
  private final Board board;

  private record Request(
      String topic,
      int directive,
      JsonNode infos,
      long sessionId,
      long at,
      long answersBefore,
      long readyBefore,
      List<String> rows,
      boolean scheduler) {}

  /** A grow or shrink whose second-phase event has not come yet. */
  private record Campaign(
      String route, String allocId, String job, List<String> rows, boolean grow, long at) {}

  private final Map<String, Request> requests = new HashMap<>();
  private final Map<String, String> labels = new HashMap<>();
  private final Deque<Campaign> campaigns = new ArrayDeque<>();

  /**
   * The DVM's final answers read so far, but those to its scheduler: a request answered after this
   * count grew waited. The scheduler's own requests while it serves the DVM's upcall (the session
   * it instantiates over a grant) are part of that answer, not a reason to wait.
   */
  private long answers;

  /** The routes of the DVM's scheduler ({@code dvm.scheduler-attach}). */
  private final Set<String> schedulers = new java.util.HashSet<>();

  /** The PMIX_DVM_IS_READY events read so far: a spawn answered after one came was held. */
  private long readies;

  DvmTraffic(Board board) {
    this.board = board;
  }

  static boolean reads(String topic) {
    return topic != null
        && (topic.startsWith(DvmTopics.SERVICE + ".")
            || topic.equals(DvmTopics.SCHED_SESSION_CONTROL)
            || topic.equals(DvmTopics.SCHED_NODES_RELEASED));
  }

  void request(String topic, String pairKey, String route, JsonNode p, long at) {
    if (topic.equals(DvmTopics.SCHEDULER_ATTACH)) {
      schedulers.add(route);
    }
    if (p == null || !p.isObject()) {
      return;
    }
    boolean scheduler = schedulers.contains(route);
    switch (topic) {
      case DvmTopics.ALLOC ->
          requests.put(
              pairKey,
              new Request(
                  topic,
                  p.path("directive").asInt(-1),
                  p.path("infos"),
                  -1,
                  at,
                  answers,
                  readies,
                  List.of(),
                  scheduler));
      case DvmTopics.SESSION_CONTROL ->
          requests.put(
              pairKey,
              new Request(
                  topic,
                  -1,
                  p.path("directives"),
                  p.path("session_id").asLong(-1),
                  at,
                  answers,
                  readies,
                  List.of(),
                  scheduler));
      case DvmTopics.SPAWN -> {
        // where it goes: the nodes of the grow its PMIX_ALLOC_ID names, when one is open
        String into = allocId(p.path("job_infos"));
        List<String> rows =
            campaigns.stream()
                .filter(c -> c.grow() && into != null && into.equals(c.allocId()))
                .map(Campaign::rows)
                .findFirst()
                .orElse(List.of());
        requests.put(
            pairKey,
            new Request(topic, -1, p.path("job_infos"), -1, at, answers, readies, rows, scheduler));
      }
      case DvmTopics.SCHED_SESSION_CONTROL -> {
        if (SessionControl.completes(infos(p.path("directives")))) {
          String job = sessionJob(p.path("session_id").asLong(-1), p.path("directives"));
          List<String> rows = board.holding(job);
          board.free(job, labelOf(job), Timeline.Source.DVM, rows, at);
          mark(rows, at, Timeline.MarkKind.SESSION, job, labelOf(job) + " complete");
        }
      }
      case DvmTopics.SCHED_NODES_RELEASED -> {
        // the DVM's release hook (D421): these hosts' daemons are gone
        for (JsonNode h : p.path("hosts")) {
          if (h.isTextual() && board.daemonRunning(h.asText())) {
            board.daemonLeft(h.asText(), at, Timeline.MarkKind.DAEMON_LEFT, "");
          }
        }
      }
      default -> {}
    }
  }

  void response(String topic, String pairKey, String route, int errnum, JsonNode p, long at) {
    if (topic.equals(DvmTopics.EVENT_REGISTER)) {
      if (errnum == 0 && p != null && p.has("event")) {
        event(route, p.get("event"), at);
      }
      return;
    }
    Request req = requests.remove(pairKey);
    if (req == null || p == null || !p.isObject()) {
      return;
    }
    if (!req.scheduler()) {
      answers++;
    }
    int status =
        errnum != 0
            ? PmixStatus.PMIX_ERROR.code()
            : p.path("status").asInt(PmixStatus.PMIX_ERROR.code());
    switch (topic) {
      case DvmTopics.ALLOC -> alloc(req, route, status, p.path("infos"), at);
      case DvmTopics.SESSION_CONTROL -> session(req, status, p.path("infos"), at);
      case DvmTopics.SPAWN -> spawned(req, status, p, at);
      default -> {}
    }
  }

  private void alloc(Request req, String route, int status, JsonNode infos, long at) {
    String d =
        AllocDirective.of(req.directive())
            .map(AllocDirective::pmixName)
            .orElse("directive " + req.directive());
    AllocationAnswer answer = answer(infos);
    AllocationAnswer asked = answer(req.infos());
    String allocId = answer.allocId().or(asked::allocId).orElse(null);
    String job = allocId == null ? null : "dvm:" + allocId;
    if (job != null) {
      labels.putIfAbsent(job, "alloc " + allocId);
    }
    if (status != PmixStatus.PMIX_SUCCESS.code()) {
      String why = text(infos, DvmWire.ERROR_KEY);
      board.dvmMark(
          null,
          req.at(),
          at,
          Timeline.MarkKind.DENIED,
          job,
          d + " " + statusName(status) + (why == null ? "" : ": " + why));
      return;
    }
    List<String> nodes = nodes(answer.nodeList().orElse(null));
    if (nodes.isEmpty()) {
      nodes = nodes(asked.nodeList().orElse(null));
    }
    if (job == null) {
      board.unattributed();
      return;
    }
    if (req.directive() == AllocDirective.NEW.code()
        || req.directive() == AllocDirective.EXTEND.code()) {
      List<String> rows = board.rows(nodes);
      board.hold(job, labelOf(job), Timeline.Source.DVM, rows, at);
      for (String r : rows) {
        board.daemonStart(r, at);
        if (req.directive() == AllocDirective.EXTEND.code()) {
          board.dvmMark(r, req.at(), at, Timeline.MarkKind.GROW, job, "");
        }
      }
      campaigns.add(new Campaign(route, allocId, job, rows, true, at));
    } else if (req.directive() == AllocDirective.RELEASE.code()) {
      if (asked.allocId().isPresent()) {
        List<String> rows = board.holding(job);
        board.free(job, labelOf(job), Timeline.Source.DVM, rows, at);
        for (String r : rows) {
          board.daemonLeft(r, at, Timeline.MarkKind.DAEMON_LEFT, "");
        }
      } else {
        List<String> rows = board.rows(nodes);
        for (String r : rows) {
          board.dvmMark(r, req.at(), at, Timeline.MarkKind.SHRINK, job, "");
        }
        board.releasing(job, rows, at);
        campaigns.add(new Campaign(route, allocId, job, rows, false, at));
      }
    } else if (req.directive() == AllocDirective.REQ_CANCEL.code()) {
      board.mark(null, at, Timeline.MarkKind.CANCELED, job, labelOf(job) + " request canceled");
    }
    if (answers - 1 > req.answersBefore()) {
      board.waited(job, req.at(), at, labelOf(job) + " " + d + " held, then granted");
    }
  }

  /**
   * A spawn's answer: held when it came after the DVM's other answers or after its ready event (the
   * job waited at map for the daemons of the grow it was spawned into).
   */
  private void spawned(Request req, int status, JsonNode p, long at) {
    boolean afterReady = readies > req.readyBefore();
    if (!afterReady && answers - 1 <= req.answersBefore()) {
      return;
    }
    String into = allocId(req.infos());
    String job = into == null ? null : "dvm:" + into;
    String where = req.rows().isEmpty() ? "" : " onto " + Hostlist.of(req.rows());
    String why =
        afterReady
            ? " held until " + (req.rows().isEmpty() ? "the daemons" : "their daemons") + " were up"
            : " held";
    board.mark(null, req.at(), Timeline.MarkKind.HELD, job, "spawn" + where + why);
    board.waited(job, req.at(), at, "spawn" + where + why + ", then " + statusName(status));
  }

  /** PMIX_DVM_IS_READY or PMIX_ERR_DVM_MOD to a requester: the oldest open campaign it names. */
  private void event(String route, JsonNode e, long at) {
    int status = e.path("status").asInt(0);
    boolean ready = status == PmixStatus.PMIX_DVM_IS_READY.code();
    boolean failed = status == PmixStatus.PMIX_ERR_DVM_MOD.code();
    if (!ready && !failed) {
      return;
    }
    if (ready) {
      readies++;
    }
    String allocId = allocId(e.path("infos"));
    Campaign c = null;
    for (Iterator<Campaign> it = campaigns.iterator(); it.hasNext(); ) {
      Campaign x = it.next();
      if (allocId != null ? allocId.equals(x.allocId()) : x.route().equals(route)) {
        c = x;
        it.remove();
        break;
      }
    }
    if (c == null) {
      board.unattributed();
      return;
    }
    if (c.grow() && ready) {
      for (String r : c.rows()) {
        board.mark(r, at, Timeline.MarkKind.DAEMON_UP, c.job(), "");
      }
    } else if (c.grow()) {
      board.free(c.job(), labelOf(c.job()), Timeline.Source.DVM, c.rows(), at);
      for (String r : c.rows()) {
        board.daemonLeft(r, at, Timeline.MarkKind.ROLLBACK, "");
      }
      // once in the lane of requests, with its text: the grow failed, it is no denial
      board.mark(
          null,
          at,
          Timeline.MarkKind.ROLLBACK,
          c.job(),
          "grow onto " + Hostlist.of(c.rows()) + " rolled back (PMIX_ERR_DVM_MOD)");
    } else {
      board.free(c.job(), labelOf(c.job()), Timeline.Source.DVM, c.rows(), at);
      for (String r : c.rows()) {
        board.daemonLeft(r, at, Timeline.MarkKind.DAEMON_LEFT, "");
      }
    }
  }

  private void session(Request req, int status, JsonNode infos, long at) {
    Map<Operation, Boolean> d = operations(infos(req.infos()));
    String job = sessionJob(req.sessionId(), infos);
    String l = labelOf(job);
    if (status != PmixStatus.PMIX_SUCCESS.code()) {
      String why = text(infos, DvmWire.ERROR_KEY);
      board.dvmMark(
          null,
          req.at(),
          at,
          Timeline.MarkKind.DENIED,
          job,
          l + " session control " + statusName(status) + (why == null ? "" : ": " + why));
      return;
    }
    boolean extend = d.getOrDefault(Operation.EXTEND, false);
    if (d.getOrDefault(Operation.INSTANTIATE, false) || extend) {
      List<String> rows = board.rows(nodes(answer(req.infos()).nodeList().orElse(null)));
      board.hold(job, l, Timeline.Source.DVM, rows, at);
      if (extend) {
        for (String r : rows) {
          board.dvmMark(r, req.at(), at, Timeline.MarkKind.GROW, job, "");
        }
      }
    }
    List<String> held = board.holding(job);
    if (d.getOrDefault(Operation.PAUSE, false)) {
      mark(held, at, Timeline.MarkKind.SESSION, job, l + " paused");
    } else if (d.getOrDefault(Operation.RESUME, false)) {
      mark(held, at, Timeline.MarkKind.SESSION, job, l + " resumed");
    } else if (d.getOrDefault(Operation.TERMINATE, false)) {
      mark(held, at, Timeline.MarkKind.SESSION, job, l + " terminated");
    }
  }

  private void mark(List<String> rows, long at, Timeline.MarkKind kind, String job, String text) {
    board.mark(rows.isEmpty() ? null : rows.get(0), at, kind, job, text);
  }

  /** A session's job: by the alloc id the DVM gave it when known, else by the session id. */
  private String sessionJob(long sessionId, JsonNode infos) {
    String sid = Long.toString(sessionId);
    String byAlloc = allocId(infos);
    String job =
        labels.entrySet().stream()
            .filter(e -> e.getValue().equals("session " + sid))
            .map(Map.Entry::getKey)
            .findFirst()
            .orElse(byAlloc == null ? "dvm:session-" + sid : "dvm:" + byAlloc);
    labels.putIfAbsent(job, "session " + sid);
    return job;
  }

  private String labelOf(String job) {
    return job == null ? "?" : labels.getOrDefault(job, job);
  }

  private static String statusName(int code) {
    return PmixStatus.byCode(code).map(Enum::name).orElse("status " + code);
  }

  /** The value of {@code key} in an info array in InfoCodec's form, as text, or null. */
  static String text(JsonNode infos, String key) {
    if (infos == null || !infos.isArray()) {
      return null;
    }
    for (JsonNode i : infos) {
      if (key.equals(i.path("key").asText())) {
        JsonNode v = i.get("value");
        return v == null || v.isNull() ? null : v.asText();
      }
    }
    return null;
  }

  /**
   * The infos of an info array in InfoCodec's form that read: an info that does not decode, or a
   * PMIx regex that does not expand, is left out, so that a malformed request recorded in a
   * transcript still shows.
   */
  private static List<Info> infos(JsonNode array) {
    if (array == null || !array.isArray()) {
      return List.of();
    }
    List<Info> out = new ArrayList<>();
    for (JsonNode one : array) {
      try {
        for (Info i : InfoCodec.decode(JsonNodeFactory.instance.arrayNode().add(one))) {
          if (i.value() instanceof PmixRegex) {
            i.stringValue();
          }
          out.add(i);
        }
      } catch (PmixException e) {
        // not shown
      }
    }
    return out;
  }

  /** What an info array in InfoCodec's form says of an allocation. */
  private static AllocationAnswer answer(JsonNode array) {
    return AllocationAnswer.parse(infos(array));
  }

  /** The PMIX_ALLOC_ID of an info array in InfoCodec's form, or null. */
  private static String allocId(JsonNode array) {
    return AllocationAnswer.allocIdOf(infos(array)).orElse(null);
  }

  /**
   * The session operations of {@code directives} (PRRTE §7.4.4.2 Operations), each with whether its
   * first info gives it true.
   */
  private static Map<Operation, Boolean> operations(List<Info> directives) {
    Map<Operation, Boolean> out = new EnumMap<>(Operation.class);
    for (Info i : directives) {
      Operation.of(i.key()).ifPresent(o -> out.putIfAbsent(o, !Boolean.FALSE.equals(i.value())));
    }
    return out;
  }

  /**
   * The hosts of a PMIx node list: comma-separated entries, each a host or a hostlist, with an
   * optional {@code :SLOTS} ({@code node12:32,node13:32}, {@code node[1-2]}).
   */
  static List<String> nodes(String list) {
    Set<String> out = new LinkedHashSet<>();
    if (list == null || list.isBlank()) {
      return List.of();
    }
    int depth = 0;
    StringBuilder cur = new StringBuilder();
    List<String> parts = new ArrayList<>();
    for (char c : list.toCharArray()) {
      if (c == '[') {
        depth++;
      } else if (c == ']') {
        depth--;
      }
      if (c == ',' && depth == 0) {
        parts.add(cur.toString());
        cur.setLength(0);
      } else {
        cur.append(c);
      }
    }
    parts.add(cur.toString());
    for (String part : parts) {
      String s = part.strip();
      int colon = s.lastIndexOf(':');
      if (colon > 0 && s.indexOf(']', colon) < 0) {
        s = s.substring(0, colon);
      }
      if (s.isEmpty()) {
        continue;
      }
      try {
        out.addAll(Hostlist.parse(s).expand());
      } catch (RsetException e) {
        out.add(s);
      }
    }
    return List.copyOf(out);
  }
}
