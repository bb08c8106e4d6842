package io.fluxdrm.pmix;

import java.util.List;

/** Which Java value each supported PMIx data type holds, and the check that a value fits. */
final class Values {
  private Values() {}

  static final long UINT32_MAX = 0xFFFF_FFFFL;

  /** The words used in messages: "is not a WORD". Null for a type the model does not carry. */
  static String word(PmixDataType t) {
    return switch (t) {
      case PMIX_BOOL -> "bool";
      case PMIX_STRING -> "string";
      case PMIX_REGEX -> "PMIx regex (base64 of its byte object)";
      case PMIX_REGEX2 -> "PMIx regex2 ({encoding, bytes})";
      case PMIX_BYTE -> "byte (0 to 255)";
      case PMIX_UINT8, PMIX_DATA_RANGE, PMIX_ALLOC_DIRECTIVE -> "uint8";
      case PMIX_INT8 -> "int8";
      case PMIX_INT16 -> "int16";
      case PMIX_UINT16 -> "uint16";
      case PMIX_INT, PMIX_INT32 -> "int";
      case PMIX_PID -> "pid";
      case PMIX_STATUS -> "status (int)";
      case PMIX_UINT, PMIX_UINT32, PMIX_PROC_RANK -> "uint32";
      case PMIX_INT64 -> "int64";
      case PMIX_TIME -> "time (int64 seconds)";
      case PMIX_UINT64 -> "uint64";
      case PMIX_SIZE -> "size (uint64)";
      case PMIX_FLOAT -> "float";
      case PMIX_DOUBLE -> "double";
      case PMIX_PROC -> "proc";
      case PMIX_BYTE_OBJECT -> "byte object";
      case PMIX_DATA_ARRAY -> "data array of info or of apps";
      case PMIX_ALLOC_INHERIT -> "alloc inheritance (1 to 4)";
      default -> null;
    };
  }

  /** Whether the model carries values of this type. */
  static boolean supported(PmixDataType t) {
    return word(t) != null;
  }

  /** The types the model carries, for messages. */
  static List<PmixDataType> supportedTypes() {
    return java.util.Arrays.stream(PmixDataType.values()).filter(Values::supported).toList();
  }

  /**
   * Null when {@code value} is a valid Java value of type {@code t}, else the reason (without
   * location).
   */
  static String check(String key, PmixDataType t, Object value) {
    if (!supported(t)) {
      return "type "
          + t
          + " is not carried by the info model (expected: one of "
          + supportedTypes()
          + ")";
    }
    if (value != null && fits(t, value)) {
      return null;
    }
    return render(value) + " is not a " + word(t) + " (expected: " + expected(key, t) + ")";
  }

  static String expected(String key, PmixDataType t) {
    return "key " + key + " has type " + t;
  }

  private static boolean fits(PmixDataType t, Object v) {
    return switch (t) {
      case PMIX_BOOL -> v instanceof Boolean;
      case PMIX_STRING -> v instanceof String;
      case PMIX_REGEX, PMIX_REGEX2 -> v instanceof PmixRegex r && r.dataType() == t;
      case PMIX_BYTE, PMIX_UINT8, PMIX_DATA_RANGE, PMIX_ALLOC_DIRECTIVE ->
          v instanceof Integer i && i >= 0 && i <= 255;
      case PMIX_INT8 -> v instanceof Integer i && i >= Byte.MIN_VALUE && i <= Byte.MAX_VALUE;
      case PMIX_INT16 -> v instanceof Integer i && i >= Short.MIN_VALUE && i <= Short.MAX_VALUE;
      case PMIX_UINT16 -> v instanceof Integer i && i >= 0 && i <= 0xFFFF;
      case PMIX_INT, PMIX_INT32, PMIX_STATUS -> v instanceof Integer;
      case PMIX_PID -> v instanceof Integer i && i >= 0;
      case PMIX_UINT, PMIX_UINT32, PMIX_PROC_RANK ->
          v instanceof Long l && l >= 0 && l <= UINT32_MAX;
      case PMIX_INT64, PMIX_TIME, PMIX_UINT64, PMIX_SIZE -> v instanceof Long;
      case PMIX_FLOAT -> v instanceof Float f && Float.isFinite(f);
      case PMIX_DOUBLE -> v instanceof Double d && Double.isFinite(d);
      case PMIX_PROC -> v instanceof PmixProc;
      case PMIX_BYTE_OBJECT -> v instanceof ByteObject;
      case PMIX_DATA_ARRAY ->
          v instanceof List<?> l
              && (l.stream().allMatch(Info.class::isInstance)
                  || l.stream().allMatch(App.class::isInstance));
      case PMIX_ALLOC_INHERIT -> v instanceof AllocInheritance;
      default -> false;
    };
  }

  /** A value as a message shows it: strings quoted, numbers plain, others by kind. */
  static String render(Object v) {
    if (v == null) {
      return "null";
    }
    if (v instanceof String s) {
      return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
    if (v instanceof Number || v instanceof Boolean || v instanceof PmixRegex) {
      return v.toString();
    }
    return "a " + v.getClass().getSimpleName();
  }
}
