package io.fluxdrm.sched;

/**
 * The order in which the allocator visits the up ranks of a {@link ResourcePool}, as flux-core's
 * {@code rlist_alloc} modes (the option {@code alloc-mode} of its C sched-simple): the allocator
 * takes from each rank in this order what fits, until the request is met. Which cores and GPUs of a
 * rank are taken (the lowest-numbered), and what is feasible, do not depend on the mode.
 *
 * <ul>
 *   <li>{@link #WORST_FIT} (the default, today's behaviour and flux-core's): most free cores first,
 *       then most free GPUs, then the lowest rank; spreads jobs over the ranks.
 *   <li>{@link #BEST_FIT}: fewest free cores first (among ranks with enough), then fewest free
 *       GPUs, then the lowest rank; packs jobs onto the fullest ranks that still fit.
 *   <li>{@link #FIRST_FIT}: the lowest rank first, whatever it has free.
 * </ul>
 *
 * <p>The pool keeps its up ranks in a sorted index by the mode's {@link #key} (a {@link
 * RankOrder}): a long of three 21-bit fields (cores, GPUs, position), so that an allocation visits
 * ranks in order without sorting or allocating per rank. Unlike flux-core's C {@code rlist}, whose
 * node-count requests always took the least-used nodes, every request follows the mode here, as
 * every request follows the worst-fit order of flux-core 0.88's {@code Rv1Pool} (D530).
 */
public enum AllocMode {
  WORST_FIT("worst-fit") {
    @Override
    long key(long freeCores, long freeGpus, int pos) {
      return ((FIELD - freeCores) << 42) | ((FIELD - freeGpus) << 21) | pos;
    }

    @Override
    long startKey(long needCores) {
      return 0;
    }

    @Override
    boolean endsAtShortRank() {
      return true; // ranks come by free cores, most first: none after a short one has enough
    }
  },

  BEST_FIT("best-fit") {
    @Override
    long key(long freeCores, long freeGpus, int pos) {
      return (freeCores << 42) | (freeGpus << 21) | pos;
    }

    @Override
    long startKey(long needCores) {
      // ranks come by free cores, fewest first: start at the first with enough
      return needCores > FIELD ? Long.MAX_VALUE : needCores << 42;
    }

    @Override
    boolean endsAtShortRank() {
      return false;
    }
  },

  FIRST_FIT("first-fit") {
    @Override
    long key(long freeCores, long freeGpus, int pos) {
      return pos;
    }

    @Override
    long startKey(long needCores) {
      return 0;
    }

    @Override
    boolean endsAtShortRank() {
      return false;
    }
  };

  /** The width of each field of a key: most cores or GPUs of one rank, most ranks of a pool. */
  static final long FIELD = ResourcePool.MAX_PER_RANK;

  private final String text;

  AllocMode(String text) {
    this.text = text;
  }

  /**
   * The index key of the rank at position {@code pos} with these free counts (each at most {@link
   * #FIELD}); ascending keys are the visiting order, and the low field is the position.
   */
  abstract long key(long freeCores, long freeGpus, int pos);

  /**
   * The least key to visit for a request of {@code needCores} cores per rank: the visit takes the
   * pool's up ranks from there on in ascending key order. It may leave out ranks with fewer free
   * cores, never one with enough; {@link Long#MAX_VALUE}, above every key, leaves out all.
   */
  abstract long startKey(long needCores);

  /** Whether no rank after one with too few free cores has enough: the visit may stop there. */
  abstract boolean endsAtShortRank();

  /** The position of the rank a key stands for. */
  static int positionOfKey(long key) {
    return (int) (key & FIELD);
  }

  /**
   * Reads a mode as flux-core's {@code alloc-mode} spells it: {@code worst-fit}, {@code best-fit}
   * or {@code first-fit}.
   *
   * @throws SchedException naming the accepted values (every constant's)
   */
  public static AllocMode parse(String text) {
    for (AllocMode m : values()) {
      if (m.text.equals(text)) {
        return m;
      }
    }
    AllocMode[] all = values();
    StringBuilder expected = new StringBuilder();
    for (int i = 0; i < all.length; i++) {
      expected.append(i == 0 ? "" : i == all.length - 1 ? " or " : ", ").append(all[i].text);
    }
    throw new SchedException(
        "alloc-mode: "
            + (text == null ? "missing" : "\"" + text + "\"")
            + " (expected: "
            + expected
            + ")");
  }

  /** As flux-core spells it: {@code worst-fit}, {@code best-fit} or {@code first-fit}. */
  @Override
  public String toString() {
    return text;
  }
}
