package io.fluxdrm.dvm.core;

import java.util.List;

/**
 * First-fit placement of an app's processes over nodes: pure, it changes only the counts it is
 * given.
 */
final class Mapper {
  private Mapper() {}

  /**
   * Places up to {@code np} processes of app {@code app} first fit over {@code order}: by slot,
   * each node filled in turn; by node, one per node per round. Each placement is added to {@code
   * placements} (ranks continue from its size) and its node to {@code placedOn}, and counted in the
   * node's {@link NodeRec#tentative}, which the caller resets to 0 for every node of {@code
   * placedOn} once the job is mapped or has failed.
   *
   * @return how many were placed
   */
  static int firstFit(
      Iterable<NodeRec> order,
      int np,
      boolean byNode,
      int app,
      List<NodeRec> placedOn,
      List<DvmDecision.Placement> placements) {
    int placed = 0;
    if (byNode) {
      boolean progress = true;
      while (placed < np && progress) {
        progress = false;
        for (NodeRec n : order) {
          if (placed == np) {
            break;
          }
          if (free(n) > 0) {
            n.tentative++;
            placedOn.add(n);
            placements.add(new DvmDecision.Placement(placements.size(), app, n.host));
            placed++;
            progress = true;
          }
        }
      }
    } else {
      for (NodeRec n : order) {
        if (placed == np) {
          break;
        }
        while (placed < np && free(n) > 0) {
          n.tentative++;
          placedOn.add(n);
          placements.add(new DvmDecision.Placement(placements.size(), app, n.host));
          placed++;
        }
      }
    }
    return placed;
  }

  private static int free(NodeRec n) {
    return n.slots - n.used - n.tentative;
  }
}
