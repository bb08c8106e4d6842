package io.fluxdrm.showcase.timeline;

import com.fasterxml.jackson.databind.JsonNode;
import io.fluxdrm.protocol.AllocResponseType;
import io.fluxdrm.protocol.FluxTopics;
import io.fluxdrm.protocol.ReallocResponseType;
import io.fluxdrm.protocol.Rfc27Topics;
import io.fluxdrm.protocol.Rfc51Topics;
import io.fluxdrm.rpc.JobId;
import io.fluxdrm.rset.ResourceSet;
import io.fluxdrm.rset.RsetException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * RFC 27 and RFC 51 as the timeline reads them, wherever the transcript was recorded (the
 * scheduler's endpoint, the job manager's, a job shell's): {@code sched.alloc} answers give a job
 * its R, {@code sched.realloc} grants add ({@code R_delta_add}, ▲) or take ({@code R_delta_sub}, ▼,
 * releasing until freed) nodes, {@code sched.free} ends the intervals, and the job manager's
 * answers that carry the job's whole R reveal what it held before the transcript began (its R's
 * {@code starttime}). The job manager's {@code job-manager.realloc} answers carry the grant too
 * (the same {@code alloc_id}): a grant is read once, from whichever answer comes first, so that a
 * transcript of the job shells' side shows the grants the scheduler's side would; an answer to
 * {@code job-manager.release} ends the intervals of the nodes its R no longer has. A realloc answer
 * names no job: it is matched with its request by topic, route and matchtag.
 */
final class FluxTraffic {
  private final Board board;

  /** A request waiting for its answer. */
  private record Pending(long job, String what, long at, long answersBefore) {}

  private final Map<String, Pending> reallocs = new HashMap<>();
  private final Map<Long, Pending> allocs = new HashMap<>();

  /**
   * The job shells' requests to the job manager waiting for their answers, oldest first: recorded
   * at the shells, the requests of several jobs name no route and may share a matchtag.
   */
  private final Map<String, List<Pending>> jobManagerRequests = new HashMap<>();

  private final Map<Long, Boolean> heldShown = new HashMap<>();

  /** The grants read so far, as {@code job/alloc_id}: each is read once. */
  private final java.util.Set<String> grants = new java.util.HashSet<>();

  /** The final answers read so far: a request answered after this count grew had to wait. */
  private long answers;

  FluxTraffic(Board board) {
    this.board = board;
  }

  static String key(long job) {
    return "flux:" + Long.toUnsignedString(job);
  }

  static String label(long job) {
    return JobId.f58(job);
  }

  /** Whether the topic is one this reader takes. */
  static boolean reads(String topic) {
    return topic != null
        && (topic.startsWith(Rfc27Topics.SCHED + ".")
            || topic.startsWith(Rfc27Topics.JOB_MANAGER + ".")
            || topic.equals(FluxTopics.RESOURCE_ACQUIRE));
  }

  /** A request crossing the endpoint. */
  void request(String topic, String pairKey, JsonNode p, long at) {
    if (p == null || !p.isObject()) {
      return;
    }
    switch (topic) {
      case Rfc27Topics.ALLOC -> {
        long id = p.path("id").asLong(-1);
        if (id >= 0) {
          allocs.putIfAbsent(id, new Pending(id, "alloc", at, answers));
        }
      }
      case Rfc51Topics.SCHED_REALLOC -> {
        long id = p.path("job_id").asLong(-1);
        if (id >= 0) {
          reallocs.put(pairKey, new Pending(id, what(p), at, answers));
        }
      }
      case Rfc27Topics.FREE -> free(p, at);
      case Rfc51Topics.JOB_MANAGER_REALLOC, Rfc51Topics.JOB_MANAGER_RELEASE -> {
        long id = p.path("id").asLong(-1);
        if (id >= 0) {
          jobManagerRequests
              .computeIfAbsent(pairKey, k -> new java.util.ArrayList<>())
              .add(new Pending(id, what(p), at, answers));
        }
      }
      default -> {}
    }
  }

  /**
   * The request a job manager's answer answers, among those waiting under its key: when several
   * wait (a transcript of several job shells' connections), the one the answer fits (a grant's
   * delta of its kind, an R holding every node its job is known to hold), preferring a job whose
   * nodes are known, then the oldest.
   */
  private Pending answeredRequest(String pairKey, JsonNode p) {
    List<Pending> waiting = jobManagerRequests.get(pairKey);
    if (waiting == null || waiting.isEmpty()) {
      return null;
    }
    Pending pick = waiting.get(0);
    if (waiting.size() > 1 && p != null && p.isObject()) {
      Pending known = null;
      Pending unknown = null;
      for (Pending w : waiting) {
        if (!fits(w, p)) {
          continue;
        }
        if (board.holding(key(w.job())).isEmpty()) {
          unknown = unknown == null ? w : unknown;
        } else {
          known = known == null ? w : known;
        }
      }
      pick = known != null ? known : unknown != null ? unknown : pick;
    }
    waiting.remove(pick);
    return pick;
  }

  private boolean fits(Pending w, JsonNode p) {
    if (p.has("R_delta_add") && w.what().equals("shrink")
        || p.has("R_delta_sub") && w.what().equals("grow")) {
      return false;
    }
    Optional<ResourceSet> r = rOf(p, "R");
    if (r.isEmpty()) {
      return true;
    }
    List<String> rows = r.get().hasNodelist() ? r.get().nodelist().expand() : List.of();
    return rows.isEmpty() || rows.containsAll(board.held(key(w.job())));
  }

  private static String what(JsonNode p) {
    boolean add = p.has("spec_add");
    boolean sub = p.has("spec_sub");
    return add && sub ? "grow and shrink" : sub ? "shrink" : "grow";
  }

  /** A response crossing the endpoint ({@code errnum} 0 only; errors change no allocation). */
  void response(String topic, String pairKey, int errnum, JsonNode p, long at) {
    switch (topic) {
      case Rfc27Topics.ALLOC -> {
        if (errnum == 0) {
          allocAnswer(p, at);
        }
      }
      case Rfc51Topics.SCHED_REALLOC -> {
        Pending req = reallocs.remove(pairKey);
        if (req == null) {
          board.unattributed();
          return;
        }
        if (errnum == 0) {
          reallocAnswer(req, p, at);
        }
      }
      case Rfc51Topics.JOB_MANAGER_REALLOC -> {
        Pending req = answeredRequest(pairKey, p);
        if (req != null && errnum == 0 && p != null && p.isObject()) {
          // the grant itself, unless the scheduler's answer was read already
          reallocAnswer(req, p, at);
          rOf(p, "R").ifPresent(r -> reconcile(req.job(), r, at));
        }
      }
      case Rfc51Topics.JOB_MANAGER_RELEASE -> {
        Pending req = answeredRequest(pairKey, p);
        if (req != null && errnum == 0) {
          answers++;
          rOf(p, "R")
              .ifPresent(
                  r -> {
                    // what the job no longer holds was freed (sched.free final:false) by now
                    List<String> kept = board.rows(r);
                    List<String> gone =
                        board.holding(key(req.job())).stream()
                            .filter(row -> !kept.contains(row))
                            .toList();
                    board.free(key(req.job()), label(req.job()), Timeline.Source.FLUX, gone, at);
                    reconcile(req.job(), r, at);
                  });
        }
      }
      case FluxTopics.RESOURCE_ACQUIRE -> rOf(p, "resources").ifPresent(board::rows);
      case Rfc27Topics.RESOURCE_STATUS -> rOf(p, "all").ifPresent(board::rows);
      default -> {}
    }
  }

  /** An RFC 27 answer: SUCCESS gives the job its R; ANNOTATE while pending says it is held. */
  void allocAnswer(JsonNode p, long at) {
    if (p == null || !p.isObject()) {
      return;
    }
    long id = p.path("id").asLong(-1);
    if (id < 0) {
      board.unattributed();
      return;
    }
    int type = p.path("type").asInt(-1);
    Pending req = allocs.get(id);
    if (type == AllocResponseType.ANNOTATE.code()) {
      JsonNode reason = p.path("annotations").path("sched").path("reason_pending");
      if (reason.isTextual() && heldShown.putIfAbsent(id, Boolean.TRUE) == null) {
        board.mark(
            null, at, Timeline.MarkKind.HELD, key(id), label(id) + " held: " + reason.asText());
      }
      return;
    }
    allocs.remove(id);
    answers++;
    if (type == AllocResponseType.SUCCESS.code()) {
      Optional<ResourceSet> r = rOf(p, "R");
      if (r.isEmpty()) {
        board.unattributed();
        return;
      }
      board.hold(key(id), label(id), Timeline.Source.FLUX, board.rows(r.get()), at);
      if (req != null && (heldShown.containsKey(id) || answers - 1 > req.answersBefore())) {
        board.waited(key(id), req.at(), at, label(id) + " alloc held, then granted");
      }
    } else if (type == AllocResponseType.DENY.code()) {
      board.declare(key(id), label(id), Timeline.Source.FLUX);
      board.mark(
          null, at, Timeline.MarkKind.DENIED, key(id), label(id) + " alloc denied: " + note(p));
    } else if (type == AllocResponseType.CANCEL.code()) {
      board.mark(null, at, Timeline.MarkKind.CANCELED, key(id), label(id) + " alloc canceled");
      if (req != null) {
        board.waited(key(id), req.at(), at, label(id) + " alloc canceled while held");
      }
    }
    heldShown.remove(id);
  }

  private void reallocAnswer(Pending req, JsonNode p, long at) {
    long id = req.job();
    JsonNode allocId = p.get("alloc_id");
    if (allocId != null && !grants.add(id + "/" + allocId.asText())) {
      // the scheduler's answer and the job manager's to the job: one grant, read once
      return;
    }
    answers++;
    String k = key(id);
    String l = label(id);
    int type = p.path("type").asInt(-1);
    boolean waited = answers - 1 > req.answersBefore();
    if (type == ReallocResponseType.SUCCESS.code()) {
      Optional<ResourceSet> add = rOf(p, "R_delta_add");
      Optional<ResourceSet> sub = rOf(p, "R_delta_sub");
      add.ifPresent(
          r -> {
            List<String> rows = board.rows(r);
            board.hold(k, l, Timeline.Source.FLUX, rows, at);
            for (String row : rows) {
              board.mark(row, at, Timeline.MarkKind.GROW, k, "");
            }
          });
      sub.ifPresent(
          r -> {
            List<String> rows = board.rows(r);
            board.declare(k, l, Timeline.Source.FLUX);
            board.releasing(k, rows, at);
            for (String row : rows) {
              board.mark(row, at, Timeline.MarkKind.SHRINK, k, "");
            }
          });
      if (waited) {
        board.mark(null, req.at(), Timeline.MarkKind.HELD, k, l + " " + req.what() + " waits");
        board.waited(k, req.at(), at, l + " " + req.what() + " held, then granted");
      }
    } else if (type == ReallocResponseType.DENY.code()) {
      board.mark(
          null, at, Timeline.MarkKind.DENIED, k, l + " " + req.what() + " denied: " + note(p));
    } else if (type == ReallocResponseType.CANCEL.code()) {
      board.mark(null, at, Timeline.MarkKind.CANCELED, k, l + " " + req.what() + " canceled");
      board.waited(k, req.at(), at, l + " " + req.what() + " held, then canceled");
    } else if (type == ReallocResponseType.UNSUPPORTED.code()) {
      board.mark(null, at, Timeline.MarkKind.DENIED, k, l + " " + req.what() + ": unsupported");
    }
  }

  /**
   * A realloc answer whose request is known by job id (the scheduler's watch stream names the job
   * itself).
   */
  void reallocAnswer(long job, String what, long requestedAt, JsonNode p, long at) {
    reallocAnswer(new Pending(job, what, requestedAt, answers), p, at);
  }

  /** RFC 27 {@code sched.free}: the intervals end; {@code final} ends the job. */
  void free(JsonNode p, long at) {
    long id = p.path("id").asLong(-1);
    Optional<ResourceSet> r = rOf(p, "R");
    if (id < 0 || r.isEmpty()) {
      board.unattributed();
      return;
    }
    board.free(key(id), label(id), Timeline.Source.FLUX, board.rows(r.get()), at);
  }

  /**
   * The job's whole R (the job manager's answers, the watch stream's snapshot): rows it was not
   * known to hold were held since its R's start time.
   */
  void reconcile(long id, ResourceSet r, long at) {
    board.hold(key(id), label(id), Timeline.Source.FLUX, board.rows(r), board.startOf(r, at));
  }

  private static String note(JsonNode p) {
    String n = p.path("note").asText("");
    return n.isEmpty() ? "(no note)" : n;
  }

  static Optional<ResourceSet> rOf(JsonNode p, String member) {
    if (p == null || !p.has(member) || !p.get(member).isObject()) {
      return Optional.empty();
    }
    try {
      return Optional.of(ResourceSet.fromJson(p.get(member)));
    } catch (RsetException e) {
      return Optional.empty();
    }
  }
}
