package io.fluxdrm.sched;

import java.util.Arrays;
import java.util.ConcurrentModificationException;

/**
 * The up ranks of a {@link ResourcePool} in the order of its {@link AllocMode}: a set of the mode's
 * keys ({@link AllocMode#key}), at most one per position, that an allocation visits in ascending
 * order from a given key on (issue 32: the scheduler's CPU per job).
 *
 * <p>A {@code TreeSet<Long>} held these keys before. Every grant and free re-keys the ranks it
 * touches, and each remove and add boxed a key and dropped or allocated a tree node; under a mix of
 * 1-16-node jobs on 1,024 ranks of 32 cores the set took about 8 % of the scheduler thread. Once
 * built, this index allocates nothing: not to add or remove a key, not to visit.
 *
 * <p>The two high fields of a key (free cores, free GPUs) take few values: at most (cores of the
 * largest rank + 1) x (GPUs of the largest rank + 1), known when the pool is built, as a rank never
 * gains cores or GPUs. Each value is a bucket, numbered in key order. The keys of a bucket differ
 * only in the low field, the position, so a bucket is a bitset of positions. A summary bitset marks
 * the buckets that are not empty, and one per bucket its words that are not zero. Adding or
 * removing a key sets or clears a bit of its bucket, and a bit of a summary when a word or a bucket
 * fills or empties. A visit goes through the summary and the buckets by next set bit: ascending key
 * order.
 *
 * <p>That table has a bit per bucket and position. When it would be large (more than {@value
 * #MAX_BUCKETS} buckets, or more words than {@value #MAX_WORDS} and than 8 a rank, about what the
 * tree took), the keys are kept in a skip list instead: a node per position, of a height drawn from
 * a hash of the position, with all links in one array. Adding and removing take O(log n), a visit
 * follows the lowest level. Pools of that shape are rare (one rank of 70,000 cores, 100,000 ranks
 * of 128 cores and 8 GPUs); both forms are checked against a tree in {@code RankOrderTest}.
 *
 * <p>One visit at a time: {@link #visit} returns the same cursor on every call. Nothing changes the
 * index during a visit (an allocation chooses its ranks first; the pool grants them after the
 * visit); a change makes the cursor's next step throw {@link ConcurrentModificationException}, as
 * the tree's iterator did. Not thread-safe.
 */
abstract class RankOrder {

  /** Most buckets of the bitset table. */
  static final long MAX_BUCKETS = 1 << 16;

  /** Words of the bitset table that are always allowed, whatever the number of ranks. */
  static final long MAX_WORDS = 1 << 20;

  private static final long FIELD = AllocMode.FIELD;

  /** Keys held. */
  int count;

  /** Changes so far: a cursor fails when this moved during its visit. */
  int changes;

  /**
   * The index for a pool of {@code size} ranks of at most {@code maxCores} cores and {@code
   * maxGpus} GPUs each (each at most {@link ResourcePool#MAX_PER_RANK}), by the keys of {@code
   * mode}.
   */
  static RankOrder of(AllocMode mode, int size, long maxCores, long maxGpus) {
    long buckets =
        Buckets.span(mode, maxCores, maxGpus, 42) * Buckets.span(mode, maxCores, maxGpus, 21);
    long words = buckets * ((size + 63L) >>> 6);
    return buckets <= MAX_BUCKETS && words <= Math.max(MAX_WORDS, 8L * size)
        ? new Buckets(mode, size, maxCores, maxGpus)
        : new SkipList(size);
  }

  /**
   * Adds {@code key}; false when it is there already.
   *
   * @throws IllegalArgumentException when the key is outside the pool (position or counts)
   * @throws IllegalStateException when its position has another key
   */
  abstract boolean add(long key);

  /** Removes {@code key}; false when it was not there. */
  abstract boolean remove(long key);

  abstract boolean contains(long key);

  /** The number of keys. */
  final int size() {
    return count;
  }

  /** The keys from the least at or above {@code from} on, in ascending order; the same cursor. */
  abstract Cursor visit(long from);

  /** A visit of the keys: {@link #next} moves to the next key, the others read it. */
  abstract class Cursor {
    /** The index's {@link #changes} when the visit began. */
    private int expected;

    /** Marks the start of a visit. */
    final void begin() {
      expected = changes;
    }

    /** Fails when the index changed since the visit began. */
    final void checkUnchanged() {
      if (expected != changes) {
        throw new ConcurrentModificationException("the rank order changed during a visit");
      }
    }

    /**
     * Moves to the next key; false when there is none.
     *
     * @throws ConcurrentModificationException when the index changed since {@link #visit}
     */
    abstract boolean next();

    /** The position of the current key. */
    abstract int pos();

    /** The current key. */
    abstract long key();
  }

  /** The first set bit at or after {@code from} in {@code len} words from {@code base}, or -1. */
  static int nextBit(long[] w, int base, int len, int from) {
    int i = from >>> 6;
    if (i >= len) {
      return -1;
    }
    long word = w[base + i] & (-1L << from);
    while (word == 0) {
      if (++i == len) {
        return -1;
      }
      word = w[base + i];
    }
    return (i << 6) + Long.numberOfTrailingZeros(word);
  }

  private static IllegalArgumentException outside(long key) {
    return new IllegalArgumentException(
        "key "
            + Long.toHexString(key)
            + ": position "
            + AllocMode.positionOfKey(key)
            + " or its counts outside the pool");
  }

  private static IllegalStateException taken(long key) {
    return new IllegalStateException(
        "key "
            + Long.toHexString(key)
            + ": position "
            + AllocMode.positionOfKey(key)
            + " has another key");
  }

  /** The bitset table: a bitset of positions per value of the high fields. */
  static final class Buckets extends RankOrder {
    private final int size;
    private final long coresLow;
    private final long gpusLow;
    private final long coresSpan;
    private final int gpusSpan;
    private final int buckets;

    /** Words of a bucket's bitset. */
    private final int words;

    /** Words of a bucket's summary of its words that are not zero. */
    private final int groups;

    /** The buckets' bitsets, one after another. */
    private final long[] bits;

    /** Bit {@code i} of a bucket's group: its word {@code i} is not zero. */
    private final long[] nonZero;

    /** Keys in each bucket. */
    private final int[] fill;

    /** Bit {@code b}: bucket {@code b} is not empty. */
    private final long[] summary;

    /** The positions that have a key. */
    private final long[] present;

    private final Walk cursor = new Walk();

    Buckets(AllocMode mode, int size, long maxCores, long maxGpus) {
      this.size = size;
      coresLow = low(mode, maxCores, maxGpus, 42);
      gpusLow = low(mode, maxCores, maxGpus, 21);
      coresSpan = span(mode, maxCores, maxGpus, 42);
      gpusSpan = (int) span(mode, maxCores, maxGpus, 21);
      if (coresSpan * gpusSpan > MAX_BUCKETS) {
        throw new IllegalArgumentException(coresSpan * gpusSpan + " buckets");
      }
      buckets = (int) (coresSpan * gpusSpan);
      words = (size + 63) >>> 6;
      groups = (words + 63) >>> 6;
      bits = new long[Math.multiplyExact(buckets, words)];
      nonZero = new long[buckets * groups];
      fill = new int[buckets];
      summary = new long[(buckets + 63) >>> 6];
      present = new long[words];
    }

    /** The field at {@code shift} of the mode's keys: values from the lowest, as many as this. */
    static long span(AllocMode mode, long maxCores, long maxGpus, int shift) {
      return Math.abs(field(mode, 0, 0, shift) - field(mode, maxCores, maxGpus, shift)) + 1;
    }

    private static long low(AllocMode mode, long maxCores, long maxGpus, int shift) {
      // each field of a key moves one way with its count: the corners bound it
      return Math.min(field(mode, 0, 0, shift), field(mode, maxCores, maxGpus, shift));
    }

    private static long field(AllocMode mode, long cores, long gpus, int shift) {
      return (mode.key(cores, gpus, 0) >>> shift) & FIELD;
    }

    /** The bucket of {@code key}, or -1 when its counts are outside the pool. */
    private int bucket(long key) {
      long c = (key >>> 42) - coresLow;
      long g = ((key >>> 21) & FIELD) - gpusLow;
      return c >= 0 && c < coresSpan && g >= 0 && g < gpusSpan ? (int) (c * gpusSpan + g) : -1;
    }

    private boolean has(int b, int p) {
      return (bits[b * words + (p >>> 6)] & (1L << p)) != 0;
    }

    @Override
    boolean add(long key) {
      int b = bucket(key);
      int p = AllocMode.positionOfKey(key);
      if (b < 0 || p >= size) {
        throw outside(key);
      }
      if ((present[p >>> 6] & (1L << p)) != 0) {
        if (has(b, p)) {
          return false;
        }
        throw taken(key);
      }
      present[p >>> 6] |= 1L << p;
      int w = b * words + (p >>> 6);
      if (bits[w] == 0) {
        nonZero[b * groups + (p >>> 12)] |= 1L << (p >>> 6);
      }
      bits[w] |= 1L << p;
      if (fill[b]++ == 0) {
        summary[b >>> 6] |= 1L << b;
      }
      count++;
      changes++;
      return true;
    }

    @Override
    boolean remove(long key) {
      int b = bucket(key);
      int p = AllocMode.positionOfKey(key);
      if (b < 0 || p >= size || !has(b, p)) {
        return false;
      }
      present[p >>> 6] &= ~(1L << p);
      int w = b * words + (p >>> 6);
      bits[w] &= ~(1L << p);
      if (bits[w] == 0) {
        nonZero[b * groups + (p >>> 12)] &= ~(1L << (p >>> 6));
      }
      if (--fill[b] == 0) {
        summary[b >>> 6] &= ~(1L << b);
      }
      count--;
      changes++;
      return true;
    }

    @Override
    boolean contains(long key) {
      int b = bucket(key);
      int p = AllocMode.positionOfKey(key);
      return b >= 0 && p < size && has(b, p);
    }

    /** The first position at or after {@code p} in bucket {@code b}, or -1. */
    private int nextIn(int b, int p) {
      if (p >= size) {
        return -1;
      }
      int i = p >>> 6;
      long word = bits[b * words + i] & (-1L << p);
      if (word != 0) {
        return (i << 6) + Long.numberOfTrailingZeros(word);
      }
      int j = nextBit(nonZero, b * groups, groups, i + 1);
      return j < 0 ? -1 : (j << 6) + Long.numberOfTrailingZeros(bits[b * words + j]);
    }

    @Override
    Cursor visit(long from) {
      // the least bucket and position at or above from: its fields, clamped to the pool's
      long c = (from >>> 42) - coresLow;
      long g = ((from >>> 21) & FIELD) - gpusLow;
      int b = 0;
      int p = 0;
      if (from > 0 && c >= 0) {
        if (c >= coresSpan) {
          b = buckets;
        } else if (g >= gpusSpan) {
          b = (int) (c + 1) * gpusSpan;
        } else {
          b = (int) c * gpusSpan + (int) Math.max(g, 0);
          p = g < 0 ? 0 : AllocMode.positionOfKey(from);
        }
      }
      cursor.bucket = b;
      cursor.pos = p - 1;
      cursor.begin();
      return cursor;
    }

    private final class Walk extends Cursor {
      int bucket;
      int pos;

      @Override
      boolean next() {
        checkUnchanged();
        while (bucket < buckets) {
          if (fill[bucket] != 0) {
            int p = nextIn(bucket, pos + 1);
            if (p >= 0) {
              pos = p;
              return true;
            }
          }
          int b = nextBit(summary, 0, summary.length, bucket + 1);
          bucket = b < 0 ? buckets : b;
          pos = -1;
        }
        return false;
      }

      @Override
      int pos() {
        return pos;
      }

      @Override
      long key() {
        long c = coresLow + bucket / gpusSpan;
        long g = gpusLow + bucket % gpusSpan;
        return (c << 42) | (g << 21) | pos;
      }
    }
  }

  /** The skip list: a node per position, the links of each level in one array. */
  static final class SkipList extends RankOrder {
    /** Levels of the head: 2^22 is more than any pool's ranks. */
    private static final int LEVELS = 22;

    private static final int NIL = -1;

    /** The head node; node {@code p < head} is position {@code p}. */
    private final int head;

    /** The key of each position, -1 when it has none (keys are not negative). */
    private final long[] keys;

    /** Where the links of each node start in {@link #links}; a node's height is the difference. */
    private final int[] base;

    /** The next node at each level of each node, or {@link #NIL}. */
    private final int[] links;

    /** The last node before a key at each level, as {@link #seek} left it. */
    private final int[] before = new int[LEVELS];

    private final Walk cursor = new Walk();

    SkipList(int size) {
      head = size;
      keys = new long[size];
      Arrays.fill(keys, -1);
      base = new int[size + 2];
      for (int x = 0; x < size; x++) {
        base[x + 1] = base[x] + height(x);
      }
      base[size + 1] = base[size] + LEVELS;
      links = new int[base[size + 1]];
      Arrays.fill(links, NIL);
    }

    /**
     * 1 + the trailing zeros of a hash of the position: height k with odds 2^-k, at most LEVELS.
     */
    static int height(int pos) {
      long z = (pos + 1L) * 0x9E3779B97F4A7C15L; // SplitMix64's finalizer
      z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
      z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
      z ^= z >>> 31;
      return 1 + Math.min(LEVELS - 1, Long.numberOfTrailingZeros(z));
    }

    /** Sets {@link #before} for {@code key}; returns the first node at or above it, or NIL. */
    private int seek(long key) {
      int x = head;
      for (int l = LEVELS - 1; l >= 0; l--) {
        int y;
        while ((y = links[base[x] + l]) != NIL && keys[y] < key) {
          x = y;
        }
        before[l] = x;
      }
      return links[base[x]];
    }

    @Override
    boolean add(long key) {
      int p = AllocMode.positionOfKey(key);
      if (key < 0 || p >= head) {
        throw outside(key);
      }
      if (keys[p] >= 0) {
        if (keys[p] == key) {
          return false;
        }
        throw taken(key);
      }
      seek(key);
      for (int l = 0; l < base[p + 1] - base[p]; l++) {
        int link = base[before[l]] + l;
        links[base[p] + l] = links[link];
        links[link] = p;
      }
      keys[p] = key;
      count++;
      changes++;
      return true;
    }

    @Override
    boolean remove(long key) {
      if (!contains(key)) {
        return false;
      }
      int p = AllocMode.positionOfKey(key);
      seek(key);
      for (int l = 0; l < base[p + 1] - base[p]; l++) {
        links[base[before[l]] + l] = links[base[p] + l];
        links[base[p] + l] = NIL;
      }
      keys[p] = -1;
      count--;
      changes++;
      return true;
    }

    @Override
    boolean contains(long key) {
      int p = AllocMode.positionOfKey(key);
      return key >= 0 && p < head && keys[p] == key;
    }

    @Override
    Cursor visit(long from) {
      cursor.node = NIL;
      cursor.after = seek(from);
      cursor.begin();
      return cursor;
    }

    private final class Walk extends Cursor {
      int node;
      int after;

      @Override
      boolean next() {
        checkUnchanged();
        if (after == NIL) {
          return false;
        }
        node = after;
        after = links[base[node]];
        return true;
      }

      @Override
      int pos() {
        return node;
      }

      @Override
      long key() {
        return keys[node];
      }
    }
  }
}
