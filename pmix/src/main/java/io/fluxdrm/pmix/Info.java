package io.fluxdrm.pmix;

import java.util.List;

/**
 * One PMIx info entry ({@code pmix_info_t}): a key string, a data type and a value that fits the
 * type. A key of the {@link PmixKey} catalog must carry one of its types; other keys may carry any
 * type the model supports.
 *
 * <p>Java values by type: {@code Boolean} (PMIX_BOOL); {@code String} (PMIX_STRING); {@link
 * PmixRegex} (PMIX_REGEX, PMIX_REGEX2: the encoded value as libpmix carries it, expanded by {@link
 * #stringValue()}); {@code Integer} (PMIX_INT, PMIX_INT8, PMIX_INT16, PMIX_INT32, PMIX_PID,
 * PMIX_STATUS, and the uint8/uint16 types PMIX_BYTE, PMIX_UINT8, PMIX_UINT16, PMIX_DATA_RANGE,
 * PMIX_ALLOC_DIRECTIVE within their range); {@code Long} (PMIX_UINT, PMIX_UINT32, PMIX_PROC_RANK
 * within 0..2^32-1; PMIX_INT64, PMIX_TIME; PMIX_UINT64 and PMIX_SIZE as unsigned 64-bit values);
 * {@code Float} and {@code Double} (finite); {@link PmixProc}; {@link ByteObject}; {@code
 * List<Info>} (PMIX_DATA_ARRAY of info, immutable) or a non-empty {@code List<App>}
 * (PMIX_DATA_ARRAY of {@code pmix_app_t}, as {@link PmixKey#PMIX_SESSION_APP} carries); {@link
 * AllocInheritance} (PMIX_ALLOC_INHERIT).
 *
 * @param key the key string, 1 to 511 characters
 * @param type the data type
 * @param value the value
 */
public record Info(String key, PmixDataType type, Object value) {
  /** Longest key ({@code PMIX_MAX_KEYLEN}). */
  public static final int MAX_KEYLEN = 511;

  /** Checks the key, that the key may carry the type, and that the value fits the type. */
  public Info {
    String keyProblem = keyProblem(key);
    if (keyProblem != null) {
      throw new PmixException("info: " + keyProblem);
    }
    if (type == null) {
      throw new PmixException("info " + key + ": type is missing");
    }
    String typeProblem = typeProblem(key, type);
    if (typeProblem != null) {
      throw new PmixException("info " + key + ": " + typeProblem);
    }
    if (value instanceof List<?> l) {
      value = List.copyOf(l);
    }
    String valueProblem = Values.check(key, type, value);
    if (valueProblem != null) {
      throw new PmixException("info " + key + ": " + valueProblem);
    }
  }

  /**
   * An entry of a catalog key with its own type; an {@code Integer} given for a type held as {@code
   * Long} is widened.
   *
   * @param key a key of {@link PmixKey}
   * @param value the value
   * @return the entry
   * @throws PmixException for a key not in the catalog or a value that does not fit
   */
  public static Info of(String key, Object value) {
    PmixDataType t =
        PmixKey.typeOf(key)
            .orElseThrow(
                () ->
                    new PmixException(
                        "info "
                            + key
                            + ": unknown key (expected: a key of the catalog, or a type)"));
    return new Info(key, t, widen(t, value));
  }

  private static Object widen(PmixDataType t, Object value) {
    if (value instanceof Integer i
        && switch (t) {
          case PMIX_UINT,
              PMIX_UINT32,
              PMIX_PROC_RANK,
              PMIX_INT64,
              PMIX_TIME,
              PMIX_UINT64,
              PMIX_SIZE ->
              true;
          default -> false;
        }) {
      return i.longValue();
    }
    return value;
  }

  /**
   * The value of a string type; for PMIX_REGEX and PMIX_REGEX2, the list the regex expands to
   * ({@link PmixRegex#text()}), so that a node list reads the same in every form.
   *
   * @return the text
   * @throws PmixException naming the key and the form, for a regex that cannot be expanded
   */
  public String stringValue() {
    if (value instanceof PmixRegex r) {
      try {
        return r.text();
      } catch (PmixException e) {
        throw new PmixException(key + ": " + e.getMessage());
      }
    }
    return (String) value;
  }

  /** The value of a type held as {@code Long} (unsigned for PMIX_UINT64 and PMIX_SIZE). */
  public long longValue() {
    return (Long) value;
  }

  /**
   * Whether the value is a data array of info entries (an empty data array counts as one).
   *
   * @return true for a PMIX_DATA_ARRAY whose elements are all {@link Info}
   */
  public boolean isInfoArray() {
    return type == PmixDataType.PMIX_DATA_ARRAY && all((List<?>) value, Info.class);
  }

  /**
   * Whether the value is a non-empty data array of apps.
   *
   * @return true for a PMIX_DATA_ARRAY whose elements are all {@link App}
   */
  public boolean isAppArray() {
    return type == PmixDataType.PMIX_DATA_ARRAY
        && !((List<?>) value).isEmpty()
        && all((List<?>) value, App.class);
  }

  /** Whether every element is a {@code c}; a loop, as every request's infos are asked this. */
  private static boolean all(List<?> l, Class<?> c) {
    for (Object o : l) {
      if (!c.isInstance(o)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The elements of a data array of info entries.
   *
   * @return the entries
   * @throws ClassCastException when {@link #isInfoArray()} is false
   */
  @SuppressWarnings("unchecked")
  public List<Info> infosValue() {
    if (!isInfoArray()) {
      throw new ClassCastException(key + " is not a data array of info");
    }
    return (List<Info>) value;
  }

  /**
   * The elements of a data array of apps.
   *
   * @return the apps
   * @throws ClassCastException when {@link #isAppArray()} is false
   */
  @SuppressWarnings("unchecked")
  public List<App> appsValue() {
    if (!isAppArray()) {
      throw new ClassCastException(key + " is not a data array of apps");
    }
    return (List<App>) value;
  }

  /** The value of PMIX_BOOL. */
  public boolean boolValue() {
    return (Boolean) value;
  }

  /** The value as text: unsigned decimal for PMIX_UINT64 and PMIX_SIZE. */
  @Override
  public String toString() {
    String v =
        (type == PmixDataType.PMIX_UINT64 || type == PmixDataType.PMIX_SIZE)
            ? Long.toUnsignedString((Long) value)
            : Values.render(value);
    return key + "(" + type + ")=" + v;
  }

  static String keyProblem(String key) {
    if (key == null || key.isEmpty()) {
      return "key is empty (expected: 1 to " + MAX_KEYLEN + " characters)";
    }
    if (key.length() > MAX_KEYLEN) {
      return "key has " + key.length() + " characters (expected: at most " + MAX_KEYLEN + ")";
    }
    return null;
  }

  /** Null when the key may carry the type. */
  static String typeProblem(String key, PmixDataType type) {
    if (PmixKey.isKnown(key) && !PmixKey.acceptedTypes(key).contains(type)) {
      List<String> names = PmixKey.acceptedTypes(key).stream().map(Enum::name).sorted().toList();
      return type
          + " is not a type of key "
          + key
          + " (expected: "
          + String.join(" or ", names)
          + ")";
    }
    return null;
  }
}
