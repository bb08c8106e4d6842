package io.fluxdrm.dvm.exec;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One proc (rank) of a job to start on a node.
 *
 * @param host the node it runs on
 * @param rank its rank in the job
 * @param argv the executable first, then its arguments
 * @param env variables added to the DVM's own environment
 */
public record ProcSpec(String host, long rank, List<String> argv, Map<String, String> env) {
  /** Checks and copies. */
  public ProcSpec {
    Objects.requireNonNull(host, "host");
    argv = List.copyOf(Objects.requireNonNull(argv, "argv"));
    if (argv.isEmpty() || argv.get(0).isEmpty()) {
      throw new IllegalArgumentException("argv: empty (expected: an executable first)");
    }
    if (rank < 0) {
      throw new IllegalArgumentException("rank: " + rank + " (expected: >= 0)");
    }
    env = Map.copyOf(Objects.requireNonNull(env, "env"));
  }

  /**
   * The environment PRRTE gives a proc, naming its job, rank and node: {@code PMIX_NAMESPACE},
   * {@code PMIX_RANK}, {@code PMIX_HOSTNAME} and {@code FLUXDRM_DVM_NODE}.
   *
   * @param nspace the job
   * @param rank the rank
   * @param host the node
   * @return the variables
   */
  public static Map<String, String> standardEnv(String nspace, long rank, String host) {
    return Map.of(
        "PMIX_NAMESPACE", nspace,
        "PMIX_RANK", Long.toString(rank),
        "PMIX_HOSTNAME", host,
        "FLUXDRM_DVM_NODE", host);
  }
}
