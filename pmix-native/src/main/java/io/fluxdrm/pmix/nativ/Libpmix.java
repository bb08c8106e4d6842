package io.fluxdrm.pmix.nativ;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * libpmix, loaded once per process from an installation prefix ({@code PREFIX/lib/libpmix.so}), and
 * the downcall handles of the functions the binding calls. libpmix keeps one state per process (one
 * server, or one tool, initialised at a time), so this is a singleton.
 */
public final class Libpmix {
  /** The system property naming the installation prefix (default {@value #DEFAULT_PREFIX}). */
  public static final String PREFIX_PROPERTY = "fluxdrm.pmix.prefix";

  /** Where the peer build installs OpenPMIx. */
  public static final String DEFAULT_PREFIX = "/opt/pmix";

  private static Libpmix instance;

  static final Linker LINKER = Linker.nativeLinker();

  /** {@code pmix_info_cbfunc_t}. */
  static final FunctionDescriptor INFO_CBFUNC =
      FunctionDescriptor.ofVoid(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS, ADDRESS);

  /** {@code pmix_release_cbfunc_t}. */
  static final FunctionDescriptor RELEASE_CBFUNC = FunctionDescriptor.ofVoid(ADDRESS);

  /** {@code pmix_op_cbfunc_t}. */
  static final FunctionDescriptor OP_CBFUNC = FunctionDescriptor.ofVoid(JAVA_INT, ADDRESS);

  /** {@code pmix_hdlr_reg_cbfunc_t}. */
  static final FunctionDescriptor HDLR_REG_CBFUNC =
      FunctionDescriptor.ofVoid(JAVA_INT, JAVA_LONG, ADDRESS);

  /** {@code pmix_notification_fn_t}. */
  static final FunctionDescriptor NOTIFICATION_FN =
      FunctionDescriptor.ofVoid(
          JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS);

  /** {@code pmix_event_notification_cbfunc_fn_t}. */
  static final FunctionDescriptor EVENT_NOTIFICATION_CBFUNC =
      FunctionDescriptor.ofVoid(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS, ADDRESS);

  /** {@code pmix_spawn_cbfunc_t}. */
  static final FunctionDescriptor SPAWN_CBFUNC =
      FunctionDescriptor.ofVoid(JAVA_INT, ADDRESS, ADDRESS);

  /** {@code pmix_server_alloc_fn_t}. */
  static final FunctionDescriptor SERVER_ALLOC_FN =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_BYTE, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS);

  /** {@code pmix_server_session_control_fn_t}. */
  static final FunctionDescriptor SERVER_SESSION_CONTROL_FN =
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS);

  private final Path library;
  final MethodHandle getVersion;
  final MethodHandle errorString;
  final MethodHandle serverInit;
  final MethodHandle serverFinalize;
  final MethodHandle toolInit;
  final MethodHandle toolAttachToServer;
  final MethodHandle toolFinalize;
  final MethodHandle allocationRequestNb;
  final MethodHandle sessionControl;
  final MethodHandle queryInfoNb;
  final MethodHandle registerEventHandler;
  final MethodHandle deregisterEventHandler;
  final MethodHandle notifyEvent;
  final MethodHandle spawnNb;

  private Libpmix(Path library) {
    this.library = library;
    SymbolLookup lib = SymbolLookup.libraryLookup(library, Arena.global());
    getVersion = down(lib, "PMIx_Get_version", FunctionDescriptor.of(ADDRESS));
    errorString = down(lib, "PMIx_Error_string", FunctionDescriptor.of(ADDRESS, JAVA_INT));
    serverInit =
        down(lib, "PMIx_server_init", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG));
    serverFinalize = down(lib, "PMIx_server_finalize", FunctionDescriptor.of(JAVA_INT));
    toolInit =
        down(lib, "PMIx_tool_init", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG));
    toolAttachToServer =
        down(
            lib,
            "PMIx_tool_attach_to_server",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG));
    toolFinalize = down(lib, "PMIx_tool_finalize", FunctionDescriptor.of(JAVA_INT));
    allocationRequestNb =
        down(
            lib,
            "PMIx_Allocation_request_nb",
            FunctionDescriptor.of(JAVA_INT, JAVA_BYTE, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS));
    sessionControl =
        down(
            lib,
            "PMIx_Session_control",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS));
    registerEventHandler =
        down(
            lib,
            "PMIx_Register_event_handler",
            FunctionDescriptor.of(
                JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS, ADDRESS));
    deregisterEventHandler =
        down(
            lib,
            "PMIx_Deregister_event_handler",
            FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS));
    notifyEvent =
        down(
            lib,
            "PMIx_Notify_event",
            FunctionDescriptor.of(
                JAVA_INT, JAVA_INT, ADDRESS, JAVA_BYTE, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS));
    queryInfoNb =
        down(
            lib,
            "PMIx_Query_info_nb",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS));
    spawnNb =
        down(
            lib,
            "PMIx_Spawn_nb",
            FunctionDescriptor.of(
                JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS));
  }

  private static MethodHandle down(SymbolLookup lib, String name, FunctionDescriptor d) {
    MemorySegment sym =
        lib.find(name)
            .orElseThrow(
                () ->
                    new PmixNativeException(
                        "libpmix: no symbol " + name + " (expected: OpenPMIx 6 or later)"));
    return LINKER.downcallHandle(sym, d);
  }

  /**
   * The installation prefix the system property {@value #PREFIX_PROPERTY} names, else {@value
   * #DEFAULT_PREFIX}.
   *
   * @return the prefix
   */
  public static Path prefix() {
    String p = System.getProperty(PREFIX_PROPERTY, "");
    return Path.of(p.isBlank() ? DEFAULT_PREFIX : p);
  }

  /**
   * Why libpmix cannot be loaded from {@code prefix}, or null when it can be.
   *
   * @param prefix an installation prefix
   * @return the reason, naming the missing file
   */
  public static String missing(Path prefix) {
    Path so = prefix.resolve("lib").resolve("libpmix.so");
    if (!Files.isRegularFile(so)) {
      return so + " is missing (build the peer: ../shared/tools/build-prrte-peer)";
    }
    return null;
  }

  /**
   * libpmix from {@link #prefix()}, loaded on first use.
   *
   * @return the library
   * @throws PmixNativeException when it is missing or lacks a function
   */
  public static synchronized Libpmix get() {
    if (instance == null) {
      Path prefix = prefix();
      String why = missing(prefix);
      if (why != null) {
        throw new PmixNativeException("libpmix: " + why);
      }
      try {
        instance = new Libpmix(prefix.resolve("lib").resolve("libpmix.so"));
      } catch (IllegalArgumentException e) {
        throw new PmixNativeException("libpmix: " + e.getMessage(), e);
      }
    }
    return instance;
  }

  /** The file loaded. */
  public Path library() {
    return library;
  }

  /**
   * {@code PMIx_Get_version()}.
   *
   * @return the version string, e.g. "OpenPMIx 7.0.0a1, ..."
   */
  public String version() {
    try {
      return cString((MemorySegment) getVersion.invokeExact());
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /**
   * {@code PMIx_Error_string(status)}.
   *
   * @param status a status code
   * @return its name, as libpmix prints it
   */
  public String errorString(int status) {
    try {
      return cString((MemorySegment) errorString.invokeExact(status));
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  static String cString(MemorySegment p) {
    if (p.equals(MemorySegment.NULL)) {
      return null;
    }
    return p.reinterpret(Long.MAX_VALUE).getString(0);
  }

  static RuntimeException rethrow(Throwable t) {
    if (t instanceof RuntimeException r) {
      return r;
    }
    if (t instanceof Error e) {
      throw e;
    }
    return new PmixNativeException("libpmix: " + t, t);
  }
}
