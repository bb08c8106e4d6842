package io.fluxdrm.bridge.dvm;

import io.fluxdrm.pmix.Info;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ledger a {@link FluxScheduler} keeps (decision D521): which nodes of the DVM's Flux job each
 * session holds, which wait for their daemons to leave, which grants are being told to the DVM;
 * read and changed by every upcall and every answer, and saved to its {@link Journal} after every
 * change. No lock: touched on the scheduler's loop only.
 */
final class SchedulerState {
  private static final Logger LOG = LoggerFactory.getLogger(FluxScheduler.class);

  /** Releases this scheduler asks the DVM for itself (D13), by their PMIX_ALLOC_REQ_ID. */
  final Map<String, String> selfReleases = new HashMap<>();

  long nextSelf = 1;

  /**
   * The sessions this scheduler instantiated, each with its nodes as their grants named them
   * ({@code host:slots}), by host.
   */
  final Map<Long, Map<String, String>> sessions = new HashMap<>();

  /** The session holding each host of {@link #sessions}. */
  final Map<String, Long> sessionOf = new HashMap<>();

  /**
   * Hosts Flux granted back (R_delta_sub of a RELEASE) that the DVM still runs daemons on, with
   * their {@code host:slots}: handed back when the DVM reports them released (D421, D423).
   */
  final Map<String, String> departing = new java.util.LinkedHashMap<>();

  /**
   * The node lists of released sessions the DVM is terminating: on COMPLETE, shrunk out of the DVM
   * and handed back once their daemons are gone (docs/scenarios.md B10, D450).
   */
  final Map<Long, String> releasing = new HashMap<>();

  /** Hosts of {@link #releasing} sessions whose daemons left before the COMPLETE. */
  final Set<String> goneWhileReleasing = new java.util.HashSet<>();

  final List<List<Info>> completes = new ArrayList<>();

  /**
   * Grants being told to the DVM (a session control sent, not answered yet), by session id: what a
   * restarted scheduler must settle with the DVM ({@link FluxScheduler#reattached}).
   */
  final Map<Long, Pending> pending = new java.util.LinkedHashMap<>();

  /**
   * Entries being handed back to Flux (out of {@link #departing}, not yet released there): kept in
   * the ledger's departing until the hand-back completes, so that a restarted scheduler hands them
   * back again (a hand-back of what is no longer being released changes nothing).
   */
  final Map<String, String> handingBack = new java.util.LinkedHashMap<>();

  Journal journal = ledger -> {};

  List<String> base = List.of();

  /**
   * The ledger as it is now.
   *
   * @return a copy
   */
  Ledger ledger() {
    Map<Long, List<String>> s = new java.util.TreeMap<>();
    sessions.forEach((k, v) -> s.put(k, List.copyOf(v.values())));
    Map<String, String> d = new java.util.TreeMap<>(handingBack);
    d.putAll(departing);
    return new Ledger(s, pending, d, releasing, base);
  }

  void save() {
    try {
      journal.save(ledger());
    } catch (RuntimeException e) {
      LOG.error("ledger not saved: {}", e.getMessage());
    }
  }

  /** Forgets session {@code sid} and its hosts. */
  void forget(long sid) {
    Map<String, String> hosts = sessions.remove(sid);
    if (hosts != null) {
      hosts.keySet().forEach(h -> sessionOf.remove(h, sid));
    }
  }

  static String host(String entry) {
    int colon = entry.lastIndexOf(':');
    return colon > 0 ? entry.substring(0, colon) : entry;
  }
}
