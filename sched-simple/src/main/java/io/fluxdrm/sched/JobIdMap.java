package io.fluxdrm.sched;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Set;

/**
 * A hash map keyed by Flux job id, whose keys are spread before they are hashed (issue 32, D582).
 *
 * <p>A job id (RFC 19 FLUID) is a millisecond timestamp over a sequence number that starts again
 * every millisecond. {@link Long#hashCode} folds the two halves together, so the ids of jobs
 * submitted one or two per millisecond share a few dozen of a {@link HashMap}'s buckets: a thousand
 * such jobs fell into 40 buckets of 1,024, up to 64 in one, and every lookup walked a tree. Here
 * each key is multiplied by an odd constant first, which moves every bit of the id into the high
 * half that {@link Long#hashCode} folds in; the product is undone when the keys are read, so the
 * map is an ordinary {@code Map<Long, V>} to its users. Iteration order is unspecified, as a {@link
 * HashMap}'s. Not thread-safe; null keys are not allowed.
 *
 * @param <V> the value type
 */
public final class JobIdMap<V> extends AbstractMap<Long, V> {
  /** An odd constant (2^64 / the golden ratio): multiplying by it is a bijection of the longs. */
  static final long SPREAD = 0x9E3779B97F4A7C15L;

  /** The inverse of {@link #SPREAD} modulo 2^64. */
  static final long UNSPREAD = inverse(SPREAD);

  private final HashMap<Long, V> map = new HashMap<>();
  private Set<Entry<Long, V>> entries;

  static long spread(long id) {
    return id * SPREAD;
  }

  static long unspread(long key) {
    return key * UNSPREAD;
  }

  /**
   * The inverse of an odd {@code a} modulo 2^64, by Newton's iteration (each step doubles the
   * bits).
   */
  static long inverse(long a) {
    long x = a; // right to 3 bits for any odd a
    for (int i = 0; i < 5; i++) {
      x *= 2 - a * x;
    }
    return x;
  }

  private static Long key(Object k) {
    return k instanceof Long l ? spread(l) : null;
  }

  @Override
  public int size() {
    return map.size();
  }

  @Override
  public boolean isEmpty() {
    return map.isEmpty();
  }

  @Override
  public V get(Object k) {
    Long s = key(k);
    return s == null ? null : map.get(s);
  }

  @Override
  public boolean containsKey(Object k) {
    Long s = key(k);
    return s != null && map.containsKey(s);
  }

  @Override
  public V put(Long k, V v) {
    return map.put(spread(k), v);
  }

  @Override
  public V remove(Object k) {
    Long s = key(k);
    return s == null ? null : map.remove(s);
  }

  @Override
  public void clear() {
    map.clear();
  }

  @Override
  public Set<Entry<Long, V>> entrySet() {
    if (entries == null) {
      entries =
          new AbstractSet<>() {
            @Override
            public Iterator<Entry<Long, V>> iterator() {
              Iterator<Entry<Long, V>> it = map.entrySet().iterator();
              return new Iterator<>() {
                @Override
                public boolean hasNext() {
                  return it.hasNext();
                }

                @Override
                public Entry<Long, V> next() {
                  Entry<Long, V> e = it.next();
                  return new SimpleEntry<>(unspread(e.getKey()), e.getValue()) {
                    @Override
                    public V setValue(V v) {
                      super.setValue(v);
                      return e.setValue(v);
                    }
                  };
                }

                @Override
                public void remove() {
                  it.remove();
                }
              };
            }

            @Override
            public int size() {
              return map.size();
            }

            @Override
            public void clear() {
              map.clear();
            }
          };
    }
    return entries;
  }
}
