package io.fluxdrm.showcase.timeline;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Allocation over time: one row per node, the intervals each job held on it, and the marks of what
 * happened (grows, shrinks, denials, held requests, DVM daemons starting and leaving). Times are
 * nanoseconds from {@link #start}; every interval lies within {@code [0, span]}. One event is one
 * mark, however many of the transcripts read show it: a grant the job manager's and the DVM's
 * answers both carry, a denial the DVM passes on from the scheduler (D494).
 *
 * @param start the time of the timeline's left edge
 * @param span the length of the timeline in nanoseconds (at least 1)
 * @param rows the nodes, in rank order, then by name
 * @param jobs the jobs that held a node, in order of first appearance
 * @param bars who held which node when
 * @param marks the events, on a node's row or (row -1) in the lane of requests above the rows
 * @param waits the requests that waited for their answer
 * @param unattributed answers read that no request or job could be matched with (not drawn)
 */
public record Timeline(
    Instant start,
    long span,
    List<Row> rows,
    List<Job> jobs,
    List<Bar> bars,
    List<Mark> marks,
    List<Wait> waits,
    int unattributed) {

  /** Copies the lists; {@code span} must be positive. */
  public Timeline {
    Objects.requireNonNull(start, "start");
    if (span < 1) {
      throw new IllegalArgumentException("span: " + span + " (expected: at least 1 ns)");
    }
    rows = List.copyOf(rows);
    jobs = List.copyOf(jobs);
    bars = List.copyOf(bars);
    marks = List.copyOf(marks);
    waits = List.copyOf(waits);
  }

  /** Whether nothing was allocated and nothing happened. */
  public boolean isEmpty() {
    return bars.isEmpty() && marks.isEmpty();
  }

  /**
   * A node.
   *
   * @param name its host name, or {@code rank N} when its R has no nodelist
   * @param rank its rank, or -1 when only its name is known (DVM traffic)
   */
  public record Row(String name, int rank) {}

  /** Where a job comes from. */
  public enum Source {
    /** A Flux job: RFC 27 allocation, RFC 51 grows and shrinks. */
    FLUX,
    /** A DVM reservation or session (PMIx allocation requests and session control). */
    DVM
  }

  /**
   * A job.
   *
   * @param key its identity in the timeline ({@code flux:ID}, {@code dvm:ALLOC_ID})
   * @param label how it is shown ({@code ƒ2}, {@code alloc 1}, {@code session 4})
   * @param source where it comes from
   */
  public record Job(String key, String label, Source source) {}

  /** What a bar shows. */
  public enum Phase {
    /** The job holds the node. */
    HELD,
    /** A shrink took the node away; the job still holds it until it frees it. */
    RELEASING,
    /** A DVM daemon runs on the node (from its start to its departure). */
    DAEMON
  }

  /**
   * An interval on a node's row.
   *
   * @param row the row index
   * @param job the job index, -1 for a daemon
   * @param from the start, in nanoseconds from the timeline's start
   * @param to the end
   * @param phase what it shows
   * @param before whether it began before the transcript (its start is the left edge)
   */
  public record Bar(int row, int job, long from, long to, Phase phase, boolean before) {}

  /** What a mark says. */
  public enum MarkKind {
    /** A grant added the node to the job (▲). */
    GROW,
    /** A grant took the node from the job (▼). */
    SHRINK,
    /** A request was refused (✕, in the lane of requests); a rolled-back grow is no denial. */
    DENIED,
    /**
     * A request is held: pending at the scheduler or the DVM, or a spawn waiting for the daemons of
     * the grow it was spawned into (in the lane of requests).
     */
    HELD,
    /** A request was cancelled (in the lane of requests). */
    CANCELED,
    /** A DVM daemon was started on the node. */
    DAEMON_START,
    /** The daemons of a grow are up (PMIX_DVM_IS_READY). */
    DAEMON_UP,
    /** A DVM daemon left the node. */
    DAEMON_LEFT,
    /**
     * A grow failed and was rolled back (PMIX_ERR_DVM_MOD): on each of its nodes' rows, and once in
     * the lane of requests with its text.
     */
    ROLLBACK,
    /** A session was paused, resumed, terminated or completed. */
    SESSION
  }

  /**
   * An event.
   *
   * @param row the row index, -1 for the lane of requests
   * @param at when, in nanoseconds from the timeline's start
   * @param kind what happened
   * @param job the job index, -1 when none is known or the job held no node
   * @param text what to write next to it (may be empty)
   */
  public record Mark(int row, long at, MarkKind kind, int job, String text) {}

  /**
   * A request that was not answered at once.
   *
   * @param job the job index, -1 when the job held no node
   * @param from when it was sent
   * @param to when it was answered
   * @param text what it was and how it ended
   */
  public record Wait(int job, long from, long to, String text) {}
}
