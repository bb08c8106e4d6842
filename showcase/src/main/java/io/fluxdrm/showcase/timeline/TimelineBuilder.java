package io.fluxdrm.showcase.timeline;

import com.fasterxml.jackson.databind.JsonNode;
import io.fluxdrm.protocol.Rfc27Topics;
import io.fluxdrm.protocol.Rfc51Topics;
import io.fluxdrm.rpc.Flags;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.MessageType;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.transcript.TranscriptLine;
import io.fluxdrm.rset.ResourceSet;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Reads transcript lines, in order, into a {@link Timeline}; lines may come from a file or, one by
 * one, from a running hub ({@link #snapshot} and {@link #watched}, the scheduler's {@code
 * sched.watch} stream). Requests are matched with their answers by topic, route stack and matchtag.
 * Not thread-safe: one reader feeds it.
 */
public final class TimelineBuilder {
  private final Board board = new Board();
  private final FluxTraffic flux = new FluxTraffic(board);
  private final DvmTraffic dvm = new DvmTraffic(board);
  private int lines;

  /** A builder with nothing read. */
  public TimelineBuilder() {}

  /** The timeline of these lines. */
  public static Timeline of(List<TranscriptLine> lines) {
    TimelineBuilder b = new TimelineBuilder();
    lines.forEach(b::accept);
    return b.build();
  }

  /**
   * Starts the timeline no later than {@code at}: the zero of its time axis when no line read and
   * no job's R is earlier. A caller whose own timeline counts from a start the transcripts do not
   * record (the demo's steps, from the moment its world started) draws its picture from there, so
   * that a step at 300 ms is at 300 on the axis (D519).
   *
   * @param at the start
   */
  public void origin(Instant at) {
    board.origin(Board.nanos(at));
  }

  /** The number of lines read. */
  public int lines() {
    return lines;
  }

  /** Reads one line. */
  public void accept(TranscriptLine line) {
    lines++;
    long at = Board.nanos(line.time());
    board.saw(at);
    Message m = line.message();
    String topic = m.topic();
    if (topic == null || !(FluxTraffic.reads(topic) || DvmTraffic.reads(topic))) {
      return;
    }
    String route = String.join("/", m.routes());
    String pairKey = topic + "|" + route + "|" + Integer.toUnsignedString(m.matchtag());
    JsonNode p = payload(m);
    if (m.type() == MessageType.REQUEST) {
      if (FluxTraffic.reads(topic)) {
        flux.request(topic, pairKey, p, at);
      } else {
        dvm.request(topic, pairKey, route, p, at);
      }
    } else if (m.type() == MessageType.RESPONSE) {
      if (FluxTraffic.reads(topic)) {
        flux.response(topic, pairKey, m.errnum(), p, at);
      } else {
        dvm.response(topic, pairKey, route, m.errnum(), p, at);
      }
    }
  }

  private static JsonNode payload(Message m) {
    if (!m.has(Flags.PAYLOAD)) {
      return null;
    }
    try {
      return m.json();
    } catch (RpcException e) {
      return null;
    }
  }

  /**
   * What a running scheduler holds when a watch starts: the pool's nodes become rows and each job's
   * R an interval from its R's start time (or the left edge).
   */
  public void snapshot(ResourceSet pool, Map<Long, ResourceSet> jobs, Instant at) {
    long t = Board.nanos(at);
    board.saw(t);
    board.rows(pool);
    jobs.forEach((id, r) -> flux.reconcile(id, r, t));
  }

  /**
   * One change a running scheduler reports on its watch stream: {@code {"topic", "payload"}} with
   * the RFC 27 {@code sched.alloc} answer, the RFC 51 {@code sched.realloc} answer (then with
   * {@code "id"}, the job, and {@code "request"}, "grow" or "shrink"), the {@code sched.free}
   * request, or what is held after a job manager's hello ({@code job-manager.sched-hello}).
   */
  public void watched(JsonNode item, Instant at) {
    lines++;
    long t = Board.nanos(at);
    board.saw(t);
    String topic = item.path("topic").asText("");
    JsonNode p = item.get("payload");
    if (p == null || !p.isObject()) {
      board.unattributed();
      return;
    }
    switch (topic) {
      case Rfc27Topics.ALLOC -> flux.allocAnswer(p, t);
      case Rfc27Topics.FREE -> flux.free(p, t);
      case Rfc27Topics.SCHED_HELLO -> resynced(p, t);
      case Rfc51Topics.SCHED_REALLOC ->
          flux.reallocAnswer(
              item.path("id").asLong(), item.path("request").asText("grow"), t, p, t);
      default -> board.unattributed();
    }
  }

  /**
   * What the scheduler holds after a job manager's hello (D521), in the snapshot's form: each job's
   * R as the hello gave it.
   */
  private void resynced(JsonNode p, long t) {
    for (JsonNode j : p.path("jobs")) {
      FluxTraffic.rOf(j, "R").ifPresent(r -> flux.reconcile(j.path("id").asLong(), r, t));
    }
  }

  /** The timeline of what was read, ending at the last line. */
  public Timeline build() {
    return board.build(Long.MIN_VALUE, Board.nanos(Instant.EPOCH));
  }

  /** The timeline of what was read, ending at {@code now} (the live view). */
  public Timeline build(Instant now) {
    long n = Board.nanos(now);
    return board.build(n, n);
  }
}
