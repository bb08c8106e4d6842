package io.fluxdrm.pmix.nativ;

import io.fluxdrm.pmix.Info;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a DVM has daemons, from PRRTE's answer to {@code PMIx_Query_info(PMIX_QUERY_PROC_TABLE)}
 * for its daemons' namespace: one proc info per daemon PRRTE recorded, with its host and state. A
 * node has a daemon when one of them there is running ({@code PMIX_PROC_STATE_RUNNING} or {@code
 * CONNECTED}); a daemon that left in a shrink is terminated, one that never started failed. The
 * scheduler reads it to learn whether PRRTE applied a grant (D476).
 */
public final class DvmPool {
  private DvmPool() {}

  /** {@code PMIX_PROC_STATE_RUNNING}: the daemon was started. */
  public static final int STATE_RUNNING = 5;

  /** {@code PMIX_PROC_STATE_CONNECTED}: the daemon connected. */
  public static final int STATE_CONNECTED = 6;

  private static final Pattern JOB = Pattern.compile("^(.+)@[0-9]+$");

  /**
   * The namespace of the daemons of the DVM a tool of PRRTE's belongs to: PRRTE names the jobs of a
   * DVM {@code <dvm>@<n>}, its daemons being {@code <dvm>@0}.
   *
   * @param toolNspace the namespace PRRTE gave a tool
   * @return the daemons' namespace, or empty when the name is not of that form
   */
  public static Optional<String> daemonNspace(String toolNspace) {
    Matcher m = JOB.matcher(toolNspace);
    return m.matches() ? Optional.of(m.group(1) + "@0") : Optional.empty();
  }

  /**
   * The hosts in an answer.
   *
   * @param results the query's results
   * @return each host with a daemon PRRTE recorded, to whether one there runs, in PRRTE's order
   */
  public static Map<String, Boolean> of(List<Info> results) {
    Map<String, Boolean> pool = new LinkedHashMap<>();
    for (Info r : results) {
      if (!r.key().equals(NativeKeys.QUERY_PROC_TABLE) || !(r.value() instanceof List<?> procs)) {
        continue;
      }
      for (Object o : procs) {
        if (!(o instanceof Info p)
            || !p.key().equals(NativeKeys.PROC_INFO)
            || !(p.value() instanceof List<?> fields)) {
          continue;
        }
        String host = null;
        boolean up = false;
        for (Object f : fields) {
          if (!(f instanceof Info i)) {
            continue;
          }
          if (i.key().equals(NativeKeys.HOSTNAME) && i.value() instanceof String h) {
            host = h;
          } else if (i.key().equals(NativeKeys.PROC_STATE_STATUS)
              && i.value() instanceof Number n) {
            up = n.intValue() == STATE_RUNNING || n.intValue() == STATE_CONNECTED;
          }
        }
        if (host != null) {
          pool.merge(host, up, Boolean::logicalOr);
        }
      }
    }
    return Collections.unmodifiableMap(pool);
  }

  /** The pool as one line: {@code host:1,host:0} (1: a daemon runs there), {@code -} when empty. */
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
