package io.fluxdrm.pmix;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The PMIx data types ({@code pmix_data_type_t}, uint16) with the codes of OpenPMIx's {@code
 * pmix_common.h}. Values above 500 are implementer-defined and have no constant here.
 */
public enum PmixDataType {
  PMIX_UNDEF(0),
  PMIX_BOOL(1),
  PMIX_BYTE(2),
  PMIX_STRING(3),
  PMIX_SIZE(4),
  PMIX_PID(5),
  PMIX_INT(6),
  PMIX_INT8(7),
  PMIX_INT16(8),
  PMIX_INT32(9),
  PMIX_INT64(10),
  PMIX_UINT(11),
  PMIX_UINT8(12),
  PMIX_UINT16(13),
  PMIX_UINT32(14),
  PMIX_UINT64(15),
  PMIX_FLOAT(16),
  PMIX_DOUBLE(17),
  PMIX_TIMEVAL(18),
  PMIX_TIME(19),
  PMIX_STATUS(20),
  PMIX_VALUE(21),
  PMIX_PROC(22),
  PMIX_APP(23),
  PMIX_INFO(24),
  PMIX_PDATA(25),
  PMIX_BYTE_OBJECT(27),
  PMIX_KVAL(28),
  PMIX_PERSIST(30),
  PMIX_POINTER(31),
  PMIX_SCOPE(32),
  PMIX_DATA_RANGE(33),
  PMIX_COMMAND(34),
  PMIX_INFO_DIRECTIVES(35),
  PMIX_DATA_TYPE(36),
  PMIX_PROC_STATE(37),
  PMIX_PROC_INFO(38),
  PMIX_DATA_ARRAY(39),
  PMIX_PROC_RANK(40),
  PMIX_QUERY(41),
  PMIX_ALLOC_DIRECTIVE(43),
  PMIX_IOF_CHANNEL(45),
  PMIX_ENVAR(46),
  PMIX_COORD(47),
  PMIX_REGATTR(48),
  PMIX_JOB_STATE(50),
  PMIX_LINK_STATE(51),
  PMIX_PROC_CPUSET(52),
  PMIX_GEOMETRY(53),
  PMIX_DEVICE_DIST(54),
  PMIX_ENDPOINT(55),
  PMIX_TOPO(56),
  PMIX_DEVTYPE(57),
  PMIX_LOCTYPE(58),
  PMIX_COMPRESSED_BYTE_OBJECT(59),
  PMIX_PROC_NSPACE(60),
  PMIX_DATA_BUFFER(65),
  PMIX_STOR_MEDIUM(66),
  PMIX_STOR_ACCESS(67),
  PMIX_STOR_PERSIST(68),
  PMIX_STOR_ACCESS_TYPE(69),
  PMIX_DEVICE(70),
  PMIX_RESBLOCK_DIRECTIVE(71),
  PMIX_RESOURCE_UNIT(72),
  PMIX_NODE_PID(73),
  PMIX_REGEX2(74),
  PMIX_ALLOC_INHERIT(75),
  PMIX_REGEX(49);
  private static final Map<Integer, PmixDataType> BY_CODE = new HashMap<>();

  static {
    for (PmixDataType t : values()) {
      BY_CODE.put(t.code, t);
    }
  }

  private final int code;

  PmixDataType(int code) {
    this.code = code;
  }

  /** The numeric code that travels on the wire. */
  public int code() {
    return code;
  }

  /**
   * The type with this code.
   *
   * @param code a {@code pmix_data_type_t} value
   * @return the type, or empty for a code with no constant
   */
  public static Optional<PmixDataType> byCode(int code) {
    return Optional.ofNullable(BY_CODE.get(code));
  }

  /**
   * The type with this name, as PMIx spells it ({@code PMIX_UINT64}).
   *
   * @param name the name
   * @return the type, or empty for an unknown name
   */
  public static Optional<PmixDataType> byName(String name) {
    if (!name.startsWith("PMIX_") || !name.equals(name.toUpperCase(Locale.ROOT))) {
      return Optional.empty();
    }
    for (PmixDataType t : values()) {
      if (t.name().equals(name)) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }
}
