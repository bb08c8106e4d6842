package io.fluxdrm.rset;

import java.util.Arrays;

/** Rank to list position, open addressing on ints: no boxing for R of many ranks. */
final class RankIndex {

  private int[] keys;
  private int[] values;
  private int size;

  RankIndex(int expected) {
    int cap = Integer.highestOneBit(Math.max(4, expected) * 2 - 1) << 1;
    keys = new int[cap];
    values = new int[cap];
    Arrays.fill(keys, -1);
  }

  private static int slot(int key, int mask) {
    int h = key * 0x9E3779B9;
    return (h ^ (h >>> 16)) & mask;
  }

  /** The position of {@code rank}, or -1. */
  int get(int rank) {
    int mask = keys.length - 1;
    for (int i = slot(rank, mask); ; i = (i + 1) & mask) {
      if (keys[i] == rank) {
        return values[i];
      }
      if (keys[i] < 0) {
        return -1;
      }
    }
  }

  /** Sets the position of {@code rank} (a rank is never negative). */
  void put(int rank, int position) {
    if (2 * (size + 1) > keys.length) {
      grow();
    }
    int mask = keys.length - 1;
    for (int i = slot(rank, mask); ; i = (i + 1) & mask) {
      if (keys[i] == rank) {
        values[i] = position;
        return;
      }
      if (keys[i] < 0) {
        keys[i] = rank;
        values[i] = position;
        size++;
        return;
      }
    }
  }

  private void grow() {
    int[] k = keys;
    int[] v = values;
    keys = new int[k.length * 2];
    values = new int[k.length * 2];
    Arrays.fill(keys, -1);
    size = 0;
    for (int i = 0; i < k.length; i++) {
      if (k[i] >= 0) {
        put(k[i], v[i]);
      }
    }
  }
}
