package io.fluxdrm.dvm.core;

/**
 * Keys the reference DVM reads or writes that the {@link io.fluxdrm.pmix.PmixKey} catalog does not
 * hold (decision D71: the strings of openpmix #4191 were not observable). Each is carried with an
 * explicit data type.
 */
public final class DvmKeys {
  private DvmKeys() {}

  /**
   * {@code PMIX_SPAWN_ALLOC}: an allocation request carried on a spawn, a data array of info whose
   * {@link #ALLOC_REQ_DIRECTIVE} names the directive (PRRTE §7.4.3 Flow-of-Control). Provisional
   * string (decision D357).
   */
  public static final String SPAWN_ALLOC = io.fluxdrm.pmix.request.SpawnAllocation.KEY;

  /**
   * {@code PMIX_ALLOC_REQ_DIRECTIVE}: the directive of a {@link #SPAWN_ALLOC}, type {@code
   * PMIX_ALLOC_DIRECTIVE}. Provisional string (decision D357).
   */
  public static final String ALLOC_REQ_DIRECTIVE =
      io.fluxdrm.pmix.request.SpawnAllocation.DIRECTIVE_KEY;

  /**
   * The reason of a refusal, a string added to every error answer of the reference DVM so that a
   * user reads where and why (decision D358); PMIx clients ignore keys they do not know.
   */
  public static final String REASON = "fluxdrm.dvm.reason";
}
