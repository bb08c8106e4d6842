package io.fluxdrm.bridge.dvm;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

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
   * This ledger with every host of {@code hosts} (granted shrinks of the DVM's job not handed back
   * yet) departing, its node entry taken out of its session: the bridge before may have died
   * between the grant and its ledger, or between the DVM's report and the hand-back; the DVM is
   * asked again, and what it no longer holds goes back at once (D521).
   *
   * @param hosts the hosts being released from the DVM's job
   * @param departed told each node entry newly departing
   * @return the ledger
   */
  public Ledger withReleasing(List<String> hosts, Consumer<String> departed) {
    if (hosts.isEmpty()) {
      return this;
    }
    Map<Long, List<String>> s = new TreeMap<>(sessions);
    Map<String, String> d = new TreeMap<>(departing);
    for (String host : hosts) {
      if (d.containsKey(host)) {
        continue;
      }
      String entry = host;
      for (Map.Entry<Long, List<String>> e : List.copyOf(s.entrySet())) {
        List<String> keep = new ArrayList<>();
        for (String x : e.getValue()) {
          if (x.equals(host) || x.startsWith(host + ":")) {
            entry = x;
          } else {
            keep.add(x);
          }
        }
        s.put(e.getKey(), keep);
      }
      d.put(host, entry);
      departed.accept(entry);
    }
    return new Ledger(s, pending, d, releasing, base);
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
