package io.fluxdrm.dvm.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.statistics.Statistics;
import org.junit.jupiter.api.Test;

/**
 * The mapper's free-slot index (decision D416) against the plain scan it replaced: on random
 * sequences of nodes joining and leaving two sessions, daemons changing state, slot counts
 * changing, slots claimed by first-fit placements and given back, {@link DvmCore#firstFit} over a
 * session's index places every process exactly where it places them over the scan (the session's
 * nodes whose daemon is up, full ones included, in their order), by slot and by node; the index
 * holds exactly the scan's nodes with a free slot, and the count of starting daemons is the scan's.
 */
class FreeSlotIndexPropertyTest {
  static final DaemonState[] STATES = DaemonState.values();

  @Property(tries = 2_000)
  void indexPlacementEqualsThePlainScan(@ForAll long seed) {
    Random rnd = new Random(seed);
    List<SessionRec> sessions =
        List.of(new SessionRec(1, "1", Optional.empty()), new SessionRec(2, "2", Optional.empty()));
    List<NodeRec> nodes = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      nodes.add(new NodeRec("n" + i, 1 + rnd.nextInt(4), DaemonState.UP, sessions.get(0)));
    }
    int placedTotal = 0;
    int steps = 50 + rnd.nextInt(150);
    for (int step = 0; step < steps; step++) {
      NodeRec n = nodes.get(rnd.nextInt(nodes.size()));
      switch (rnd.nextInt(7)) {
        case 0 -> {
          if (n.member == null) {
            SessionRec s = sessions.get(rnd.nextInt(2));
            n.session = s;
            s.addNode(n);
          }
        }
        case 1 -> {
          if (n.member != null) {
            n.member.removeNode(n);
          }
        }
        case 2 -> n.setDaemon(STATES[rnd.nextInt(STATES.length)]);
        case 3 -> n.setSlots(Math.max(1 + rnd.nextInt(4), n.used));
        case 4 -> {
          if (n.used > 0) {
            n.release();
          }
        }
        default -> {
          SessionRec s = sessions.get(rnd.nextInt(2));
          boolean byNode = rnd.nextBoolean();
          int apps = 1 + rnd.nextInt(2);
          int[] nps = new int[apps];
          for (int a = 0; a < apps; a++) {
            nps[a] = 1 + rnd.nextInt(6);
          }
          List<DvmDecision.Placement> viaIndex = new ArrayList<>();
          List<DvmDecision.Placement> viaScan = new ArrayList<>();
          List<Integer> placedIndex = map(s.free.values(), nps, byNode, viaIndex);
          List<Integer> placedScan = map(scan(s), nps, byNode, viaScan);
          assertThat(placedIndex)
              .as("step %d, seed %d: processes placed", step, seed)
              .isEqualTo(placedScan);
          assertThat(viaIndex).as("step %d, seed %d: placements", step, seed).isEqualTo(viaScan);
          boolean complete = true;
          for (int a = 0; a < apps; a++) {
            complete &= placedIndex.get(a) == nps[a];
          }
          if (complete) {
            // the job is mapped: its slots are claimed, as the core does
            Map<String, NodeRec> byHost = new HashMap<>();
            s.nodes.forEach(m -> byHost.put(m.host, m));
            for (DvmDecision.Placement pl : viaIndex) {
              byHost.get(pl.host()).claim();
            }
            placedTotal += viaIndex.size();
          }
        }
      }
      for (SessionRec s : sessions) {
        List<NodeRec> freeByScan = new ArrayList<>();
        int starting = 0;
        for (NodeRec m : s.nodes) {
          if (m.daemon == DaemonState.UP && m.used < m.slots) {
            freeByScan.add(m);
          }
          if (m.daemon == DaemonState.STARTING) {
            starting++;
          }
        }
        assertThat(new ArrayList<>(s.free.values()))
            .as("step %d, seed %d: index of session %d", step, seed, s.id)
            .isEqualTo(freeByScan);
        assertThat(s.starting).as("step %d, seed %d: starting", step, seed).isEqualTo(starting);
      }
    }
    Statistics.label("processes placed").collect(placedTotal == 0 ? "0" : "some");
  }

  /** Maps one job's apps over {@code order} as the core does; the nodes' counts are reset after. */
  static List<Integer> map(
      Iterable<NodeRec> order, int[] nps, boolean byNode, List<DvmDecision.Placement> out) {
    List<NodeRec> placedOn = new ArrayList<>();
    List<Integer> placed = new ArrayList<>();
    for (int a = 0; a < nps.length; a++) {
      placed.add(DvmCore.firstFit(order, nps[a], byNode, a, placedOn, out));
    }
    assertThat(placedOn).hasSameSizeAs(out);
    for (NodeRec n : placedOn) {
      n.tentative = 0;
    }
    return placed;
  }

  /** The candidates as the mapper listed them before the index: daemon up, in node order. */
  static List<NodeRec> scan(SessionRec s) {
    List<NodeRec> l = new ArrayList<>();
    for (NodeRec n : s.nodes) {
      if (n.daemon == DaemonState.UP) {
        l.add(n);
      }
    }
    return l;
  }

  @Test
  void aFullNodeLeavesTheIndexAndComesBackInItsPlace() {
    SessionRec s = new SessionRec(1, "1", Optional.empty());
    NodeRec a = new NodeRec("a", 1, DaemonState.UP, s);
    NodeRec b = new NodeRec("b", 1, DaemonState.UP, s);
    s.addNode(a);
    s.addNode(b);
    a.claim();
    assertThat(s.free.values()).containsExactly(b);
    a.release();
    assertThat(s.free.values()).containsExactly(a, b);
    b.setDaemon(DaemonState.STARTING);
    assertThat(s.free.values()).containsExactly(a);
    assertThat(s.starting).isEqualTo(1);
    s.removeNode(b);
    assertThat(s.starting).isZero();
  }
}
