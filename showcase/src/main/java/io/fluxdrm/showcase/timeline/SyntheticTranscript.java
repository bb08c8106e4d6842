package io.fluxdrm.showcase.timeline;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.protocol.Rfc27Topics;
import io.fluxdrm.protocol.Rfc51Topics;
import io.fluxdrm.rpc.Flags;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rset.Hostlist;
import io.fluxdrm.rset.IdSet;
import io.fluxdrm.rset.ResourceSet;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

/**
 * A seeded workload recorded at a scheduler's endpoint, for the tests and benchmarks of the
 * timeline and its pictures (issue 17: "a 1,000-job synthetic transcript"): jobs of 1 to 4
 * exclusive nodes arrive every 10 ms on a pool of {@code node0..}, are allocated in FIFO order
 * (ANNOTATE while they wait), run 50 to 1,500 ms and free their nodes; one job in 7 grows by a node
 * when one is free, one in 11 with two nodes or more shrinks by one (then frees it with {@code
 * final:false}), one in 50 asks for more than the pool and is denied. The lines are in {@code
 * TranscriptLine}'s JSON form, so they go through the transcript reader; the payloads carry what
 * the timeline reads (ids, types, R), with a short text where a jobspec would be.
 */
public final class SyntheticTranscript {
  private static final String JM = "job-manager-1";
  private static final long STEP_MS = 10;

  private final Random random;
  private final int nodes;
  private final List<String> out = new ArrayList<>();
  private final TreeSet<Integer> free = new TreeSet<>();
  private final Deque<long[]> queue = new ArrayDeque<>();
  private final List<long[]> running = new ArrayList<>();
  private final java.util.Map<Long, TreeSet<Integer>> held = new java.util.HashMap<>();
  private final Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
  private long now;
  private int matchtag;

  private SyntheticTranscript(int nodes, long seed) {
    this.nodes = nodes;
    this.random = new Random(seed);
    for (int i = 0; i < nodes; i++) {
      free.add(i);
    }
  }

  /**
   * The transcript lines of {@code jobs} jobs on {@code nodes} nodes.
   *
   * @param seed the random seed: the same seed gives the same lines
   */
  public static List<String> of(int jobs, int nodes, long seed) {
    if (nodes < 4 || jobs < 1) {
      throw new IllegalArgumentException(
          "jobs " + jobs + ", nodes " + nodes + " (expected: >= 1, >= 4)");
    }
    return new SyntheticTranscript(nodes, seed).run(jobs);
  }

  private List<String> run(int jobs) {
    for (long id = 1; id <= jobs; id++) {
      now += STEP_MS;
      finishDue();
      int want = id % 50 == 0 ? nodes + 1 : 1 + random.nextInt(4);
      line(
          "in",
          "request",
          Rfc27Topics.ALLOC,
          ++matchtag,
          Json.object().put("id", id).put("nodes", want));
      if (want > nodes) {
        answer(
            Json.object()
                .put("id", id)
                .put("type", 2)
                .put(
                    "note",
                    "unsatisfiable request: need "
                        + want
                        + " node(s), only "
                        + nodes
                        + " in the pool"));
        continue;
      }
      queue.add(new long[] {id, want, 50 + random.nextInt(1450), matchtag});
      if (!schedule() && queue.peekLast() != null && queue.peekLast()[0] == id) {
        ObjectNode a = Json.object().put("id", id).put("type", 1);
        a.putObject("annotations")
            .putObject("sched")
            .put("reason_pending", "insufficient resources");
        line("out", "response", Rfc27Topics.ALLOC, matchtag, a);
      }
      reshape(id);
    }
    while (!running.isEmpty() || !queue.isEmpty()) {
      now += STEP_MS;
      finishDue();
    }
    return out;
  }

  /** Allocates queued jobs in order while the first fits; returns whether the newest ran. */
  private boolean schedule() {
    boolean newest = false;
    while (!queue.isEmpty() && queue.peek()[1] <= free.size()) {
      long[] j = queue.poll();
      TreeSet<Integer> ranks = new TreeSet<>();
      for (int i = 0; i < j[1]; i++) {
        ranks.add(free.pollFirst());
      }
      held.put(j[0], ranks);
      running.add(new long[] {j[0], now + j[2]});
      ObjectNode a = Json.object().put("id", j[0]).put("type", 0);
      a.set("R", r(ranks).toJson());
      line("out", "response", Rfc27Topics.ALLOC, (int) j[3], a);
      newest = queue.isEmpty();
    }
    return newest;
  }

  private void reshape(long id) {
    for (long[] run : List.copyOf(running)) {
      long j = run[0];
      TreeSet<Integer> mine = held.get(j);
      if (j % 7 == 0 && j == id - 1 && !free.isEmpty()) {
        int tag = ++matchtag;
        line(
            "in",
            "request",
            Rfc51Topics.SCHED_REALLOC,
            tag,
            Json.object().put("job_id", j).put("spec_add", "1 node"));
        int rank = free.pollFirst();
        mine.add(rank);
        ObjectNode a = Json.object().put("alloc_id", tag).put("type", 0);
        a.set("R_delta_add", r(new TreeSet<>(List.of(rank))).toJson());
        line("out", "response", Rfc51Topics.SCHED_REALLOC, tag, a);
      } else if (j % 11 == 0 && j == id - 2 && mine.size() >= 2) {
        int tag = ++matchtag;
        line(
            "in",
            "request",
            Rfc51Topics.SCHED_REALLOC,
            tag,
            Json.object().put("job_id", j).put("spec_sub", "1 node"));
        int rank = mine.pollLast();
        ResourceSet sub = r(new TreeSet<>(List.of(rank)));
        ObjectNode a = Json.object().put("alloc_id", tag).put("type", 0);
        a.set("R_delta_sub", sub.toJson());
        line("out", "response", Rfc51Topics.SCHED_REALLOC, tag, a);
        now += 2;
        ObjectNode f = Json.object().put("id", j).put("final", false);
        f.set("R", sub.toJson());
        line("in", "request", Rfc27Topics.FREE, 0, f);
        free.add(rank);
      }
    }
  }

  private void finishDue() {
    running.sort((a, b) -> Long.compare(a[1], b[1]));
    while (!running.isEmpty() && running.get(0)[1] <= now) {
      long[] run = running.remove(0);
      TreeSet<Integer> mine = held.remove(run[0]);
      ObjectNode f = Json.object().put("id", run[0]).put("final", true);
      f.set("R", r(mine).toJson());
      line("in", "request", Rfc27Topics.FREE, 0, f);
      free.addAll(mine);
      schedule();
    }
  }

  private ResourceSet r(TreeSet<Integer> ranks) {
    IdSet.Builder b = IdSet.builder();
    List<String> hosts = new ArrayList<>();
    for (int rank : ranks) {
      b.add(rank);
      hosts.add("node" + rank);
    }
    return ResourceSet.of(b.build(), IdSet.range(0, 3), IdSet.empty(), Hostlist.of(hosts))
        .withTimes(t0.getEpochSecond() + now / 1e3, 0);
  }

  private void answer(ObjectNode payload) {
    line("out", "response", Rfc27Topics.ALLOC, matchtag, payload);
  }

  private void line(String dir, String type, String topic, int tag, ObjectNode payload) {
    ObjectNode o = Json.object();
    o.put("time", t0.plusMillis(now).toString());
    o.put("direction", dir);
    o.put("type", type);
    o.put("flags", Flags.TOPIC | Flags.PAYLOAD | Flags.ROUTE);
    o.put("topic", topic);
    o.put("matchtag", tag);
    if (type.equals("request")) {
      o.put("nodeid", 0xffffffffL);
    } else {
      o.put("errnum", 0);
    }
    o.put("userid", 0);
    o.put("rolemask", 1);
    o.putArray("routes").add(JM);
    o.set("payload", payload);
    out.add(o.toString());
  }
}
