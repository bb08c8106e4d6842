package io.fluxdrm.pmix.nativ;

import io.fluxdrm.pmix.Info;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The nodes a DVM holds, from PRRTE's answer to {@code PMIx_Query_info(PMIX_QUERY_ALLOCATION)}: one
 * {@code PMIX_NODE_INFO} array per node of its pool, with {@code PMIX_HOSTNAME}, and {@code
 * PMIX_TOPOLOGY_INDEX} once the node's daemon reported in (PRRTE learns a node's topology from its
 * daemon). A node that a grant put in the pool and whose daemon never started has no topology. The
 * scheduler reads it to learn whether PRRTE applied a grant (D476).
 */
public final class DvmPool {
  private DvmPool() {}

  /**
   * The pool in an answer.
   *
   * @param results the query's results
   * @return host name to whether its daemon reported in, in PRRTE's order; empty when the answer
   *     carries no {@code PMIX_QUERY_ALLOCATION}
   */
  public static Map<String, Boolean> of(List<Info> results) {
    Map<String, Boolean> pool = new LinkedHashMap<>();
    for (Info r : results) {
      if (!r.key().equals(NativeKeys.QUERY_ALLOCATION) || !(r.value() instanceof List<?> nodes)) {
        continue;
      }
      for (Object o : nodes) {
        if (!(o instanceof Info n)
            || !n.key().equals(NativeKeys.NODE_INFO)
            || !(n.value() instanceof List<?> fields)) {
          continue;
        }
        String host = null;
        boolean up = false;
        for (Object f : fields) {
          if (f instanceof Info i
              && i.key().equals(NativeKeys.HOSTNAME)
              && i.value() instanceof String h) {
            host = h;
          } else if (f instanceof Info i && i.key().equals(NativeKeys.TOPOLOGY_INDEX)) {
            up = true;
          }
        }
        if (host != null) {
          pool.put(host, up);
        }
      }
    }
    return Collections.unmodifiableMap(pool);
  }

  /**
   * The pool as one line: {@code host:1,host:0} (1: its daemon reported in), {@code -} when empty.
   */
  public static String line(Map<String, Boolean> pool) {
    if (pool.isEmpty()) {
      return "-";
    }
    StringBuilder b = new StringBuilder();
    pool.forEach((h, up) -> b.append(b.isEmpty() ? "" : ",").append(h).append(up ? ":1" : ":0"));
    return b.toString();
  }

  /** The inverse of {@link #line}; a malformed entry is left out. */
  public static Map<String, Boolean> parse(String line) {
    Map<String, Boolean> pool = new LinkedHashMap<>();
    if (line.equals("-")) {
      return pool;
    }
    for (String e : line.split(",")) {
      int c = e.lastIndexOf(':');
      if (c > 0 && (e.endsWith(":1") || e.endsWith(":0"))) {
        pool.put(e.substring(0, c), e.endsWith(":1"));
      }
    }
    return pool;
  }
}
