package io.fluxdrm.bridge.layoutfixture;

import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import java.util.List;

/**
 * Breaks one layering rule on purpose (LayeringTest): a consumer reading an allocation key itself
 * instead of through {@code io.fluxdrm.pmix.request.AllocationRequest}.
 */
public final class BridgeReadsNodeCount {
  private BridgeReadsNodeCount() {}

  static long nodes(List<Info> infos) {
    for (Info i : infos) {
      if (i.key().equals(PmixKey.PMIX_ALLOC_NUM_NODES)) {
        return i.longValue();
      }
    }
    return 0;
  }
}
