package io.fluxdrm.pmix;

import java.util.Optional;

/**
 * What happens to an allocation when its owner ends ({@code pmix_alloc_inheritance_t}, uint8, data
 * type {@link PmixDataType#PMIX_ALLOC_INHERIT}, attribute {@link PmixKey#PMIX_ALLOC_INHERITANCE}).
 * An allocation without the attribute behaves as {@link #DEFAULT}.
 */
public enum AllocInheritance {
  /** {@code PMIX_ALLOC_INHERIT_NONE}: released to the scheduler when the owner ends. */
  NONE(1),
  /** {@code PMIX_ALLOC_INHERIT_CHILD}: released when the last derived child ends. */
  CHILD(2),
  /**
   * {@code PMIX_ALLOC_INHERIT_DEFAULT}: nodes unreserved, kept in the session, when the owner ends.
   */
  DEFAULT(3),
  /**
   * {@code PMIX_ALLOC_INHERIT_CHILD_DEFAULT}: nodes unreserved when the last derived child ends.
   */
  CHILD_DEFAULT(4);

  private final int code;

  AllocInheritance(int code) {
    this.code = code;
  }

  /** The numeric value on the wire. */
  public int code() {
    return code;
  }

  /** The name PMIx gives it, e.g. {@code PMIX_ALLOC_INHERIT_NONE}. */
  public String pmixName() {
    return "PMIX_ALLOC_INHERIT_" + name();
  }

  /**
   * The inheritance a request asks for: its {@link PmixKey#PMIX_ALLOC_INHERITANCE}, or {@link
   * #DEFAULT} when it has none.
   *
   * @param infos the request's infos
   * @return the inheritance
   */
  public static AllocInheritance orDefault(java.util.List<Info> infos) {
    for (Info i : infos) {
      if (i.key().equals(PmixKey.PMIX_ALLOC_INHERITANCE)) {
        return (AllocInheritance) i.value();
      }
    }
    return DEFAULT;
  }

  /**
   * The inheritance with this value.
   *
   * @param code a value
   * @return the inheritance, or empty for a value outside 1..4
   */
  public static Optional<AllocInheritance> of(int code) {
    for (AllocInheritance a : values()) {
      if (a.code == code) {
        return Optional.of(a);
      }
    }
    return Optional.empty();
  }
}
