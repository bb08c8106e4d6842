package io.fluxdrm.pmix.nativ.keysfixture;

import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import java.util.List;
import java.util.Optional;

/**
 * A fixture of {@code TypedKeysTest}: reads a grant's {@code PMIX_ALLOC_NODE_LIST} itself instead
 * of through {@code AllocationAnswer}, which the rule forbids outside the typed package.
 */
public final class GrantNodes {
  private GrantNodes() {}

  /** The node list of a grant, read by its key. */
  public static Optional<String> of(List<Info> grant) {
    return grant.stream()
        .filter(i -> i.key().equals(PmixKey.PMIX_ALLOC_NODE_LIST))
        .map(Info::stringValue)
        .findFirst();
  }
}
