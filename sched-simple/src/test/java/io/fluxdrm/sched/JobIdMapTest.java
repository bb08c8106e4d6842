package io.fluxdrm.sched;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class JobIdMapTest {
  /** FLUIDs of jobs submitted one to three per millisecond: timestamp << 24 | sequence. */
  private static long[] fluids(int n) {
    long[] ids = new long[n];
    long ms = 5_000;
    int k = 0;
    while (k < n) {
      for (int seq = 0; seq < 1 + (int) (ms % 3) && k < n; seq++) {
        ids[k++] = ms << 24 | seq;
      }
      ms += 1 + ms % 2;
    }
    return ids;
  }

  /** HashMap's bucket of a key hash in a table of {@code size}. */
  private static int bucket(int h, int size) {
    return (h ^ h >>> 16) & (size - 1);
  }

  private static int fullestBucket(long[] keys) {
    int[] count = new int[1024];
    int max = 0;
    for (long k : keys) {
      max = Math.max(max, ++count[bucket(Long.hashCode(k), count.length)]);
    }
    return max;
  }

  @Test
  void fluids_crowdAFewBucketsAsLongs_spreadOnesDoNot() {
    long[] ids = fluids(1000);
    long[] spread = new long[ids.length];
    for (int i = 0; i < ids.length; i++) {
      spread[i] = JobIdMap.spread(ids[i]);
    }
    // what the map exists for: as plain Longs the ids share buckets far past HashMap's tree limit
    // (8)
    assertThat(fullestBucket(ids)).isGreaterThan(16);
    assertThat(fullestBucket(spread)).isLessThanOrEqualTo(8);
  }

  @Property
  void spread_isUndone(@ForAll long id) {
    assertThat(JobIdMap.unspread(JobIdMap.spread(id))).isEqualTo(id);
  }

  @Test
  void inverse_ofTheConstant() {
    assertThat(JobIdMap.SPREAD * JobIdMap.UNSPREAD).isEqualTo(1L);
  }

  @Test
  void map_behavesAsAHashMapOfTheSameKeys() {
    JobIdMap<String> m = new JobIdMap<>();
    Map<Long, String> ref = new HashMap<>();
    for (long id : fluids(300)) {
      m.put(id, "v" + id);
      ref.put(id, "v" + id);
    }
    m.put(-1L, "max");
    ref.put(-1L, "max");
    assertThat(m).isEqualTo(ref).hasSize(301);
    assertThat(m.get(-1L)).isEqualTo("max");
    assertThat(m.get("not a long")).isNull();
    assertThat(m.containsKey(fluids(1)[0])).isTrue();
    assertThat(m.remove(-1L)).isEqualTo("max");
    assertThat(m.putIfAbsent(fluids(1)[0], "other")).isEqualTo("v" + fluids(1)[0]);
    for (Iterator<Map.Entry<Long, String>> it = m.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<Long, String> e = it.next();
      if (e.getKey() % 2 == 0) {
        it.remove();
      } else {
        e.setValue("odd");
      }
    }
    assertThat(m.keySet()).allMatch(k -> k % 2 != 0);
    assertThat(m.values()).containsOnly("odd");
    assertThat(m.get(m.keySet().iterator().next())).isEqualTo("odd");
    m.clear();
    assertThat(m).isEmpty();
  }
}
