package io.fluxdrm.showcase.demo;

import io.fluxdrm.showcase.replay.DemoReplayProvider;
import java.util.OptionalLong;
import java.util.SplittableRandom;

/**
 * The sizes of the story on a pool of {@code nodes} nodes of {@code slots} cores: job A (the DVM's
 * job) on a quarter, job B on half; A's application grows by {@code grow} nodes; a NEW of one node,
 * the pool's last host, whose daemon fails to start; B asks for {@code bAsk} nodes, one more than
 * are free then, so that its request waits until A releases its grown nodes; A asks for {@code
 * deny} nodes, more than the pool has; a session of {@code sessionProcs} processes on one of A's
 * nodes. Without a seed the canonical story ({@code grow} an eighth of the pool, B one node short);
 * a seed varies the grow, B's shortfall, the denied size and the session's processes.
 *
 * @param nodes nodes in the pool (at least {@link #MIN_NODES})
 * @param slots cores per node, the DVM's slots per node
 * @param aNodes job A's nodes
 * @param bNodes job B's nodes
 * @param grow the nodes A's application grows by
 * @param bAsk the nodes B's application asks for while the pool is short
 * @param deny the nodes of the request the scheduler must deny
 * @param sessionProcs the processes of the session's app
 * @param startLatencyMs how long a simulated daemon takes to start
 * @param seed the seed, if any
 */
public record Scenario(
    int nodes,
    int slots,
    int aNodes,
    int bNodes,
    int grow,
    int bAsk,
    int deny,
    int sessionProcs,
    long startLatencyMs,
    OptionalLong seed) {

  /** The smallest pool the story fits: A on 2 nodes, B on 4, 2 free. */
  public static final int MIN_NODES = 8;

  /** The daemons' start latency at speed 1. */
  public static final long BASE_LATENCY_MS = 250;

  /** The fastest and slowest speeds accepted. */
  public static final double MIN_SPEED = 0.01;

  public static final double MAX_SPEED = 100;

  /**
   * The story's sizes.
   *
   * @param nodes the pool's nodes
   * @param slots cores per node
   * @param seed empty for the canonical story
   * @param speed how fast simulated daemons start: latency {@value #BASE_LATENCY_MS} ms / speed
   * @throws IllegalArgumentException when the pool is too small or the speed out of range
   */
  public static Scenario of(int nodes, int slots, OptionalLong seed, double speed) {
    if (nodes < MIN_NODES) {
      throw new IllegalArgumentException(
          "pool: " + nodes + " nodes (expected: at least " + MIN_NODES + ")");
    }
    if (slots < 1) {
      throw new IllegalArgumentException("pool: " + slots + " cores per node (expected: >= 1)");
    }
    if (!(speed >= MIN_SPEED && speed <= MAX_SPEED)) {
      throw new IllegalArgumentException(
          "speed: " + speed + " (expected: " + MIN_SPEED + " to " + (int) MAX_SPEED + ")");
    }
    // the replay world's initial jobs (D145): the transcript of the default story replays there
    int a = DemoReplayProvider.initialJobs(nodes).get(0).nodes();
    int b = DemoReplayProvider.initialJobs(nodes).get(1).nodes();
    int free = nodes - a - b;
    int grow = Math.max(1, nodes / 8);
    int short1 = 1;
    int deny = nodes + 1;
    int procs = Math.min(4, slots);
    if (seed.isPresent()) {
      SplittableRandom r = new SplittableRandom(seed.getAsLong());
      // keep one node free after the grow, for the NEW whose daemon fails
      grow = 1 + r.nextInt(free - 1);
      short1 = 1 + r.nextInt(grow);
      deny = nodes + 1 + r.nextInt(nodes);
      procs = 1 + r.nextInt(slots);
    }
    int freeAfterGrow = free - grow;
    long latency = Math.max(1, Math.round(BASE_LATENCY_MS / speed));
    return new Scenario(
        nodes, slots, a, b, grow, freeAfterGrow + short1, deny, procs, latency, seed);
  }
}
