package io.fluxdrm.bridge.dvm;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a restarted scheduler needs of the one before it (decision D521): the sessions it
 * instantiated with their node entries ({@code host:slots}), the grants being told to the DVM, the
 * released hosts waiting for their daemons to leave, and the released sessions the DVM is
 * terminating.
 *
 * @param sessions node entries by session id
 * @param pending grants being told to the DVM, by session id
 * @param departing node entries by host
 * @param releasing node lists by session id
 * @param base the hosts of the DVM job's own allocation, which no grant added; empty when not known
 *     yet
 */
public record Ledger(
    Map<Long, List<String>> sessions,
    Map<Long, Pending> pending,
    Map<String, String> departing,
    Map<Long, String> releasing,
    List<String> base) {
  /** Copies the maps; a missing one is empty. */
  public Ledger {
    sessions = sessions == null ? Map.of() : Map.copyOf(sessions);
    pending = pending == null ? Map.of() : Map.copyOf(pending);
    departing = departing == null ? Map.of() : Map.copyOf(departing);
    releasing = releasing == null ? Map.of() : Map.copyOf(releasing);
    base = base == null ? List.of() : List.copyOf(base);
  }

  /**
   * The hosts this ledger accounts for: the base, the sessions', the grants' being told to the DVM,
   * the departing and the releasing ones.
   *
   * @return host names
   */
  public Set<String> accountedHosts() {
    Set<String> out = new java.util.TreeSet<>(base);
    sessions.values().forEach(l -> l.forEach(e -> out.add(SchedulerState.host(e))));
    pending
        .values()
        .forEach(p -> List.of(p.nodes().split(",")).forEach(e -> out.add(SchedulerState.host(e))));
    out.addAll(departing.keySet());
    releasing
        .values()
        .forEach(n -> List.of(n.split(",")).forEach(e -> out.add(SchedulerState.host(e))));
    return out;
  }

  /**
   * True when there is nothing to carry over.
   *
   * @return whether every map is empty
   */
  public boolean carriesNothing() {
    return sessions.isEmpty() && pending.isEmpty() && departing.isEmpty() && releasing.isEmpty();
  }
}
