package io.fluxdrm.rpc.client;

import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.RpcException;
import java.util.BitSet;

/** Matchtags handed out from 1 upward, smallest free first, as flux-core's idset pool does. */
final class MatchtagPool {
  private final BitSet used = new BitSet();
  private final int max;

  MatchtagPool(int max) {
    this.max = max;
  }

  int alloc() {
    int t = used.nextClearBit(1);
    if (t > max || t < 1) {
      throw new RpcException(Errno.EIO, "matchtag pool: all " + max + " matchtags in use");
    }
    used.set(t);
    return t;
  }

  void free(int tag) {
    used.clear(tag);
  }

  int inUse() {
    return used.cardinality();
  }
}
