package io.fluxdrm.pmix;

import java.util.Optional;

/**
 * The allocation directives of {@code PMIx_Allocation_request} ({@code pmix_alloc_directive_t},
 * uint8, data type {@link PmixDataType#PMIX_ALLOC_DIRECTIVE}). {@link #REAQUIRE} keeps PMIx's
 * spelling. Values from {@link #EXTERNAL} (128) up are implementer-defined; {@link #of(int)} gives
 * no constant for them.
 */
public enum AllocDirective {
  /** {@code PMIX_ALLOC_NEW}: a new allocation, disjoint from the requester's. */
  NEW(1),
  /** {@code PMIX_ALLOC_EXTEND}: more time and/or resources for an existing allocation. */
  EXTEND(2),
  /** {@code PMIX_ALLOC_RELEASE}: give back part or all of an allocation. */
  RELEASE(3),
  /** {@code PMIX_ALLOC_REAQUIRE}: take back lent resources. */
  REAQUIRE(4),
  /** {@code PMIX_ALLOC_REQ_CANCEL}: cancel an outstanding request (OpenPMIx). */
  REQ_CANCEL(5),
  /** {@code PMIX_ALLOC_ACTIVATE}: start daemons on nodes the requester holds (OpenPMIx #4190). */
  ACTIVATE(6),
  /** {@code PMIX_ALLOC_EXTERNAL}: first implementer-defined value. */
  EXTERNAL(128);

  private final int code;

  AllocDirective(int code) {
    this.code = code;
  }

  /** The numeric value on the wire. */
  public int code() {
    return code;
  }

  /** The name PMIx gives it, e.g. {@code PMIX_ALLOC_NEW}. */
  public String pmixName() {
    return "PMIX_ALLOC_" + name();
  }

  /**
   * The directive with this value.
   *
   * @param code a directive value
   * @return the directive, or empty for a value with no constant
   */
  public static Optional<AllocDirective> of(int code) {
    for (AllocDirective d : values()) {
      if (d.code == code) {
        return Optional.of(d);
      }
    }
    return Optional.empty();
  }
}
