package io.fluxdrm.pmix;

/**
 * A PMIx process name ({@code pmix_proc_t}, data type {@link PmixDataType#PMIX_PROC}): a namespace
 * of at most 255 characters and a rank (uint32, special ranks included).
 *
 * @param nspace the namespace
 * @param rank the rank, 0 to 4294967295
 */
public record PmixProc(String nspace, long rank) {
  /** Longest namespace ({@code PMIX_MAX_NSLEN}). */
  public static final int MAX_NSLEN = 255;

  /** {@code PMIX_RANK_WILDCARD}: every rank of the namespace. */
  public static final long RANK_WILDCARD = 4294967294L;

  /** Checks the namespace length and the rank range. */
  public PmixProc {
    if (nspace == null) {
      throw new PmixException("proc: nspace is missing (expected: a string)");
    }
    if (nspace.length() > MAX_NSLEN) {
      throw new PmixException(
          "proc: nspace has "
              + nspace.length()
              + " characters (expected: at most "
              + MAX_NSLEN
              + ")");
    }
    if (rank < 0 || rank > 0xFFFF_FFFFL) {
      throw new PmixException("proc: rank " + rank + " (expected: 0 to 4294967295)");
    }
  }
}
