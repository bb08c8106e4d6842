package io.fluxdrm.dvm.core;

/**
 * Keys the reference DVM reads or writes that the {@link io.fluxdrm.pmix.PmixKey} catalog does not
 * hold (decision D71), each carried with an explicit data type. The provisional keys of {@code
 * PMIX_SPAWN_ALLOC} (D357) are {@link io.fluxdrm.pmix.request.SpawnAllocation}'s.
 */
public final class DvmKeys {
  private DvmKeys() {}

  /**
   * The reason of a refusal, a string added to every error answer of the reference DVM so that a
   * user reads where and why (decision D358); PMIx clients ignore keys they do not know.
   */
  public static final String REASON = "fluxdrm.dvm.reason";
}
