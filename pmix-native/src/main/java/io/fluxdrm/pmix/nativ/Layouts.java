package io.fluxdrm.pmix.nativ;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.PmixDataType;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.StructLayout;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The C layouts of the libpmix structures the binding reads and writes, written by hand for x86-64
 * Linux and OpenPMIx 7 (decision D432: hard-coded, and checked against the installed headers by
 * {@code LayoutTest}, which compiles a small C program printing {@code sizeof}/{@code offsetof} of
 * each and compares it with {@link #expected()}). Everything else in the binding takes its sizes
 * and offsets from here.
 */
public final class Layouts {
  private Layouts() {}

  /** {@code PMIX_MAX_NSLEN}. */
  public static final int MAX_NSLEN = PmixProc.MAX_NSLEN;

  /** {@code PMIX_MAX_KEYLEN}. */
  public static final int MAX_KEYLEN = 511;

  /** {@code pmix_proc_t}: {@code char nspace[256]; pmix_rank_t rank;}. */
  public static final StructLayout PROC =
      MemoryLayout.structLayout(
              MemoryLayout.sequenceLayout(MAX_NSLEN + 1, JAVA_BYTE).withName("nspace"),
              JAVA_INT.withName("rank"))
          .withName("pmix_proc_t");

  /**
   * {@code pmix_value_t}: {@code pmix_data_type_t type;} then the 24-byte, 8-aligned union {@code
   * data} (its largest member, {@code pmix_envar_t}, is two pointers and a char).
   */
  public static final StructLayout VALUE =
      MemoryLayout.structLayout(
              JAVA_SHORT.withName("type"),
              MemoryLayout.paddingLayout(6),
              MemoryLayout.sequenceLayout(3, JAVA_LONG).withName("data"))
          .withName("pmix_value_t");

  /** {@code pmix_info_t}: {@code char key[512]; uint32_t flags; pmix_value_t value;}. */
  public static final StructLayout INFO =
      MemoryLayout.structLayout(
              MemoryLayout.sequenceLayout(MAX_KEYLEN + 1, JAVA_BYTE).withName("key"),
              JAVA_INT.withName("flags"),
              MemoryLayout.paddingLayout(4),
              VALUE.withName("value"))
          .withName("pmix_info_t");

  /** {@code pmix_data_array_t}: {@code pmix_data_type_t type; size_t size; void *array;}. */
  public static final StructLayout DATA_ARRAY =
      MemoryLayout.structLayout(
              JAVA_SHORT.withName("type"),
              MemoryLayout.paddingLayout(6),
              JAVA_LONG.withName("size"),
              ADDRESS.withName("array"))
          .withName("pmix_data_array_t");

  /** {@code pmix_byte_object_t}: {@code char *bytes; size_t size;}. */
  public static final StructLayout BYTE_OBJECT =
      MemoryLayout.structLayout(ADDRESS.withName("bytes"), JAVA_LONG.withName("size"))
          .withName("pmix_byte_object_t");

  /** {@code pmix_regex2_t}: {@code char *type; uint8_t *bytes; size_t len;}. */
  public static final StructLayout REGEX2 =
      MemoryLayout.structLayout(
              ADDRESS.withName("type"), ADDRESS.withName("bytes"), JAVA_LONG.withName("len"))
          .withName("pmix_regex2_t");

  /** Offset of {@code bytes} in {@code pmix_regex2_t}. */
  public static final long REGEX2_BYTES = REGEX2.byteOffset(PathElement.groupElement("bytes"));

  /** Offset of {@code len} in {@code pmix_regex2_t}. */
  public static final long REGEX2_LEN = REGEX2.byteOffset(PathElement.groupElement("len"));

  /**
   * {@code pmix_app_t}: {@code char *cmd; char **argv; char **env; char *cwd; int maxprocs;
   * pmix_info_t *info; size_t ninfo;}.
   */
  public static final StructLayout APP =
      MemoryLayout.structLayout(
              ADDRESS.withName("cmd"),
              ADDRESS.withName("argv"),
              ADDRESS.withName("env"),
              ADDRESS.withName("cwd"),
              JAVA_INT.withName("maxprocs"),
              MemoryLayout.paddingLayout(4),
              ADDRESS.withName("info"),
              JAVA_LONG.withName("ninfo"))
          .withName("pmix_app_t");

  /**
   * {@code pmix_proc_info_t}: {@code pmix_proc_t proc; char *hostname; char *executable_name; pid_t
   * pid; int exit_code; pmix_proc_state_t state;}.
   */
  public static final StructLayout PROC_INFO =
      MemoryLayout.structLayout(
              PROC.withName("proc"),
              MemoryLayout.paddingLayout(4),
              ADDRESS.withName("hostname"),
              ADDRESS.withName("executable_name"),
              JAVA_INT.withName("pid"),
              JAVA_INT.withName("exit_code"),
              JAVA_BYTE.withName("state"),
              MemoryLayout.paddingLayout(7))
          .withName("pmix_proc_info_t");

  /** {@code PMIX_PROC_INFO}, the element type of a proc table. */
  public static final int TYPE_PROC_INFO = 38;

  /** {@code pmix_query_t}: {@code char **keys; pmix_info_t *qualifiers; size_t nqual;}. */
  public static final StructLayout QUERY =
      MemoryLayout.structLayout(
              ADDRESS.withName("keys"), ADDRESS.withName("qualifiers"), JAVA_LONG.withName("nqual"))
          .withName("pmix_query_t");

  /** The offset of a field of {@link #QUERY}. */
  static long queryOffset(String field) {
    return QUERY.byteOffset(PathElement.groupElement(field));
  }

  /** Number of function pointers in {@code pmix_server_module_t} (OpenPMIx 7: 32). */
  public static final int SERVER_MODULE_SLOTS = 32;

  /** Slot of {@code allocate} in {@code pmix_server_module_t}. */
  public static final int SLOT_ALLOCATE = 18;

  /** Slot of {@code session_control}, in the "pending" tail of {@code pmix_server_module_t}. */
  public static final int SLOT_SESSION_CONTROL = 30;

  /** {@code pmix_server_module_t}: function pointers only. */
  public static final MemoryLayout SERVER_MODULE =
      MemoryLayout.sequenceLayout(SERVER_MODULE_SLOTS, ADDRESS).withName("pmix_server_module_t");

  /** Offset of {@code rank} in {@code pmix_proc_t}. */
  public static final long PROC_RANK = PROC.byteOffset(PathElement.groupElement("rank"));

  /** Offset of {@code flags} in {@code pmix_info_t}. */
  public static final long INFO_FLAGS = INFO.byteOffset(PathElement.groupElement("flags"));

  /** Offset of {@code value} in {@code pmix_info_t}. */
  public static final long INFO_VALUE = INFO.byteOffset(PathElement.groupElement("value"));

  /** Offset of {@code data} in {@code pmix_value_t}. */
  public static final long VALUE_DATA = VALUE.byteOffset(PathElement.groupElement("data"));

  /** Offset of {@code size} in {@code pmix_data_array_t}. */
  public static final long DARRAY_SIZE = DATA_ARRAY.byteOffset(PathElement.groupElement("size"));

  /** Offset of {@code array} in {@code pmix_data_array_t}. */
  public static final long DARRAY_ARRAY = DATA_ARRAY.byteOffset(PathElement.groupElement("array"));

  /** Offset of a field of {@code pmix_app_t}. */
  static long app(String field) {
    return APP.byteOffset(PathElement.groupElement(field));
  }

  /** {@code PMIX_RANGE_CUSTOM}. */
  public static final int RANGE_CUSTOM = 6;

  /** {@code PMIX_POINTER}, a type the info model does not carry. */
  public static final int TYPE_POINTER = 31;

  /** {@code PMIX_INFO}, the element type of info data arrays. */
  public static final int TYPE_INFO = 24;

  /** {@code PMIX_APP}, the element type of app data arrays. */
  public static final int TYPE_APP = PmixDataType.PMIX_APP.code();

  /**
   * What the layout program prints for these headers, by line name: sizes and offsets, the
   * constants and the key strings the binding uses.
   *
   * @return name to value, in the program's order
   */
  public static Map<String, String> expected() {
    Map<String, String> m = new LinkedHashMap<>();
    size(m, PROC);
    off(m, PROC, "nspace");
    off(m, PROC, "rank");
    size(m, VALUE);
    off(m, VALUE, "type");
    off(m, VALUE, "data");
    size(m, INFO);
    off(m, INFO, "key");
    off(m, INFO, "flags");
    off(m, INFO, "value");
    size(m, DATA_ARRAY);
    off(m, DATA_ARRAY, "type");
    off(m, DATA_ARRAY, "size");
    off(m, DATA_ARRAY, "array");
    size(m, BYTE_OBJECT);
    off(m, BYTE_OBJECT, "bytes");
    off(m, BYTE_OBJECT, "size");
    size(m, REGEX2);
    off(m, REGEX2, "type");
    off(m, REGEX2, "bytes");
    off(m, REGEX2, "len");
    size(m, APP);
    for (String f : new String[] {"cmd", "argv", "env", "cwd", "maxprocs", "info", "ninfo"}) {
      off(m, APP, f);
    }
    size(m, PROC_INFO);
    for (String f :
        new String[] {"proc", "hostname", "executable_name", "pid", "exit_code", "state"}) {
      off(m, PROC_INFO, f);
    }
    size(m, QUERY);
    for (String f : new String[] {"keys", "qualifiers", "nqual"}) {
      off(m, QUERY, f);
    }
    m.put("sizeof.pmix_server_module_t", Long.toString(SERVER_MODULE.byteSize()));
    m.put(
        "offsetof.pmix_server_module_t.allocate",
        Long.toString(SLOT_ALLOCATE * ADDRESS.byteSize()));
    m.put(
        "offsetof.pmix_server_module_t.session_control",
        Long.toString(SLOT_SESSION_CONTROL * ADDRESS.byteSize()));
    m.put("sizeof.pmix_status_t", "4");
    m.put("sizeof.pmix_data_type_t", Long.toString(JAVA_SHORT.byteSize()));
    m.put("sizeof.pmix_rank_t", Long.toString(JAVA_INT.byteSize()));
    m.put("sizeof.pmix_alloc_directive_t", "1");
    m.put("sizeof.pmix_info_directives_t", Long.toString(JAVA_INT.byteSize()));
    m.put("sizeof.pmix_data_range_t", "1");
    m.put("sizeof.pmix_alloc_inheritance_t", "1");
    m.put("sizeof.bool", "1");
    m.put("sizeof.size_t", Long.toString(JAVA_LONG.byteSize()));
    m.put("sizeof.pid_t", "4");
    m.put("sizeof.time_t", "8");
    m.put("const.PMIX_MAX_NSLEN", Integer.toString(MAX_NSLEN));
    m.put("const.PMIX_MAX_KEYLEN", Integer.toString(MAX_KEYLEN));
    for (PmixStatus s :
        new PmixStatus[] {
          PmixStatus.PMIX_SUCCESS,
          PmixStatus.PMIX_ERROR,
          PmixStatus.PMIX_ERR_BAD_PARAM,
          PmixStatus.PMIX_ERR_NOT_SUPPORTED,
          PmixStatus.PMIX_ERR_NOT_FOUND,
          PmixStatus.PMIX_ERR_UNREACH,
          PmixStatus.PMIX_ERR_TIMEOUT,
          PmixStatus.PMIX_ERR_OUT_OF_RESOURCE,
          PmixStatus.PMIX_OPERATION_SUCCEEDED,
          PmixStatus.PMIX_EVENT_ACTION_COMPLETE,
          PmixStatus.PMIX_DVM_IS_READY,
          PmixStatus.PMIX_ERR_DVM_MOD
        }) {
      m.put("const." + s.name(), Integer.toString(s.code()));
    }
    for (PmixDataType t : NativeInfos.CARRIED) {
      m.put("const." + t.name(), Integer.toString(t.code()));
    }
    m.put("const.PMIX_APP", Integer.toString(TYPE_APP));
    m.put("const.PMIX_INFO", Integer.toString(TYPE_INFO));
    m.put("const.PMIX_POINTER", Integer.toString(TYPE_POINTER));
    m.put("const.PMIX_PROC_INFO", Integer.toString(TYPE_PROC_INFO));
    m.put("const.PMIX_PROC_STATE_RUNNING", Integer.toString(DvmPool.STATE_RUNNING));
    m.put("const.PMIX_PROC_STATE_CONNECTED", Integer.toString(DvmPool.STATE_CONNECTED));
    m.put("const.PMIX_RANGE_CUSTOM", Integer.toString(RANGE_CUSTOM));
    for (AllocDirective d :
        new AllocDirective[] {AllocDirective.NEW, AllocDirective.EXTEND, AllocDirective.RELEASE}) {
      m.put("const." + d.pmixName(), Integer.toString(d.code()));
    }
    m.put("const.PMIX_RANK_WILDCARD", Long.toString(PmixProc.RANK_WILDCARD));
    m.put("key.PMIX_SERVER_SCHEDULER", PmixKey.PMIX_SERVER_SCHEDULER);
    m.put("key.PMIX_SERVER_NSPACE", NativeKeys.SERVER_NSPACE);
    m.put("key.PMIX_SERVER_RANK", NativeKeys.SERVER_RANK);
    m.put("key.PMIX_SERVER_TOOL_SUPPORT", NativeKeys.SERVER_TOOL_SUPPORT);
    m.put("key.PMIX_SERVER_URI", PmixKey.PMIX_SERVER_URI);
    m.put("key.PMIX_TOOL_NSPACE", PmixKey.PMIX_TOOL_NSPACE);
    m.put("key.PMIX_TOOL_RANK", PmixKey.PMIX_TOOL_RANK);
    m.put("key.PMIX_TIMEOUT", PmixKey.PMIX_TIMEOUT);
    m.put("key.PMIX_CONNECT_MAX_RETRIES", NativeKeys.CONNECT_MAX_RETRIES);
    m.put("key.PMIX_CONNECT_RETRY_DELAY", NativeKeys.CONNECT_RETRY_DELAY);
    m.put("key.PMIX_EVENT_RETURN_OBJECT", NativeKeys.EVENT_RETURN_OBJECT);
    m.put("key.PMIX_EVENT_CUSTOM_RANGE", PmixKey.PMIX_EVENT_CUSTOM_RANGE);
    m.put("key.PMIX_EVENT_HDLR_NAME", NativeKeys.EVENT_HDLR_NAME);
    m.put("key.PMIX_REQUESTOR", PmixKey.PMIX_REQUESTOR);
    m.put("key.PMIX_ALLOC_ID", PmixKey.PMIX_ALLOC_ID);
    m.put("key.PMIX_ALLOC_NODE_LIST", PmixKey.PMIX_ALLOC_NODE_LIST);
    m.put("key.PMIX_ALLOC_NUM_NODES", PmixKey.PMIX_ALLOC_NUM_NODES);
    m.put("key.PMIX_ALLOC_REQ_ID", PmixKey.PMIX_ALLOC_REQ_ID);
    m.put("key.PMIX_SESSION_INSTANTIATE", PmixKey.PMIX_SESSION_INSTANTIATE);
    m.put("key.PMIX_SESSION_COMPLETE", PmixKey.PMIX_SESSION_COMPLETE);
    m.put("key.PMIX_SESSION_TERMINATE", PmixKey.PMIX_SESSION_TERMINATE);
    m.put("key.PMIX_SESSION_ID", PmixKey.PMIX_SESSION_ID);
    m.put("key.PMIX_QUERY_PROC_TABLE", NativeKeys.QUERY_PROC_TABLE);
    m.put("key.PMIX_NSPACE", PmixKey.PMIX_NSPACE);
    m.put("key.PMIX_RANK", PmixKey.PMIX_RANK);
    m.put("key.PMIX_HOSTNAME", NativeKeys.HOSTNAME);
    m.put("key.PMIX_PROC_STATE_STATUS", NativeKeys.PROC_STATE_STATUS);
    return m;
  }

  private static void size(Map<String, String> m, MemoryLayout l) {
    m.put("sizeof." + l.name().orElseThrow(), Long.toString(l.byteSize()));
  }

  private static void off(Map<String, String> m, StructLayout l, String field) {
    m.put(
        "offsetof." + l.name().orElseThrow() + "." + field,
        Long.toString(l.byteOffset(PathElement.groupElement(field))));
  }
}
