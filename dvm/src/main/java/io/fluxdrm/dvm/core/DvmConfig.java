package io.fluxdrm.dvm.core;

import io.fluxdrm.pmix.PmixProc;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What a DVM core starts from.
 *
 * @param nodes the nodes of the initial allocation, the master's first or among them
 * @param master the master (HNP) node's host, one of {@code nodes}
 * @param dvmNspace the DVM's own namespace (source of its events and notices)
 * @param dvmUid the user running the DVM (every process it starts runs as this user, PRRTE §7.4.4
 *     Session Control "Credentials")
 * @param killGrace how long a terminated job has between SIGTERM and SIGKILL
 * @param maxInfos the most info entries a request may carry, nested ones included (an oversize
 *     request is refused with {@code PMIX_ERR_BAD_PARAM})
 * @param elastic whether a request that changes the DVM's daemons gets its second-phase event
 *     ({@code PMIX_DVM_IS_READY} or {@code PMIX_ERR_DVM_MOD}, PRRTE's elastic-DVM spec; decision
 *     D12)
 */
public record DvmConfig(
    List<NodeSpec> nodes,
    String master,
    String dvmNspace,
    long dvmUid,
    Duration killGrace,
    int maxInfos,
    boolean elastic) {

  /** The default limit on info entries per request. */
  public static final int DEFAULT_MAX_INFOS = 1024;

  /** The default time between SIGTERM and SIGKILL. */
  public static final Duration DEFAULT_KILL_GRACE = Duration.ofSeconds(5);

  /**
   * One node of the initial allocation: its host, its slots, and whether it gets a daemon at start
   * (a node without one is allocated but not spanned, as with PRRTE's {@code --host}, until an
   * activation starts one, PRRTE §7.4.3 Flow-of-Control).
   */
  public record NodeSpec(String host, int slots, boolean daemon) {
    /** A node that gets a daemon at start. */
    public NodeSpec(String host, int slots) {
      this(host, slots, true);
    }

    /** Checks. */
    public NodeSpec {
      Objects.requireNonNull(host, "host");
      if (host.isEmpty()) {
        throw new IllegalArgumentException("node: empty host (expected: a host name)");
      }
      if (slots < 1) {
        throw new IllegalArgumentException(
            "node " + host + ": slots " + slots + " (expected: >= 1)");
      }
    }
  }

  /** Checks. */
  public DvmConfig {
    nodes = List.copyOf(nodes);
    Objects.requireNonNull(master, "master");
    Objects.requireNonNull(dvmNspace, "dvmNspace");
    Objects.requireNonNull(killGrace, "killGrace");
    if (nodes.isEmpty()) {
      throw new IllegalArgumentException("nodes: none (expected: at least the master's)");
    }
    Set<String> seen = new HashSet<>();
    for (NodeSpec n : nodes) {
      if (!seen.add(n.host())) {
        throw new IllegalArgumentException("nodes: " + n.host() + " twice (expected: each once)");
      }
    }
    if (!seen.contains(master)) {
      throw new IllegalArgumentException("master: " + master + " is not among the nodes");
    }
    if (nodes.stream().noneMatch(n -> n.host().equals(master) && n.daemon())) {
      throw new IllegalArgumentException("master: " + master + " has no daemon (expected: one)");
    }
    if (dvmNspace.isEmpty() || dvmNspace.length() > PmixProc.MAX_NSLEN) {
      throw new IllegalArgumentException("dvmNspace: length " + dvmNspace.length());
    }
    if (dvmUid < 0 || dvmUid > 0xFFFF_FFFFL) {
      throw new IllegalArgumentException("dvmUid: " + dvmUid + " (expected: 0 to 4294967295)");
    }
    if (killGrace.isNegative()) {
      throw new IllegalArgumentException("killGrace: " + killGrace + " (expected: >= 0)");
    }
    if (maxInfos < 1) {
      throw new IllegalArgumentException("maxInfos: " + maxInfos + " (expected: >= 1)");
    }
  }

  /**
   * A configuration with the defaults: the first node is the master; elastic mode off, as PRRTE's
   * {@code prte_elastic_mode} (PRRTE elastic-DVM spec, prte_elastic_mode).
   *
   * @param nodes the nodes
   * @param dvmNspace the DVM's namespace
   * @param dvmUid the DVM's user
   * @return the configuration
   */
  public static DvmConfig of(List<NodeSpec> nodes, String dvmNspace, long dvmUid) {
    return new DvmConfig(
        nodes,
        nodes.get(0).host(),
        dvmNspace,
        dvmUid,
        DEFAULT_KILL_GRACE,
        DEFAULT_MAX_INFOS,
        false);
  }

  /**
   * This configuration with elastic events on or off.
   *
   * @param on whether second-phase events are sent
   * @return the configuration
   */
  public DvmConfig withElastic(boolean on) {
    return new DvmConfig(nodes, master, dvmNspace, dvmUid, killGrace, maxInfos, on);
  }

  /**
   * This configuration with another limit on info entries.
   *
   * @param limit the limit
   * @return the configuration
   */
  public DvmConfig withMaxInfos(int limit) {
    return new DvmConfig(nodes, master, dvmNspace, dvmUid, killGrace, limit, elastic);
  }

  /** The DVM's own process (rank 0 of its namespace): the source of its events and notices. */
  public PmixProc dvmProc() {
    return new PmixProc(dvmNspace, 0);
  }
}
