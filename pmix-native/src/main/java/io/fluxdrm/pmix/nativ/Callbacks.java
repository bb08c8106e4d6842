package io.fluxdrm.pmix.nativ;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The C callbacks the binding hands to libpmix: one upcall stub per callback type, made once for
 * the process, and the Java side of each call identified by the {@code cbdata} token passed with
 * it. A one-shot callback's token is taken out of the table when it fires, so it completes its
 * operation exactly once (a second call with the same token is logged and ignored). Every stub
 * catches everything: an exception escaping an upcall would end the JVM.
 */
final class Callbacks {
  private static final Logger LOG = LoggerFactory.getLogger(Callbacks.class);

  private Callbacks() {}

  /** What a {@code pmix_info_cbfunc_t} delivers (the infos already copied and released). */
  @FunctionalInterface
  interface InfoCallback {
    void done(int status, NativeInfos.Decoded infos);
  }

  /** What a {@code pmix_op_cbfunc_t} delivers. */
  @FunctionalInterface
  interface OpCallback {
    void done(int status);
  }

  /** What a {@code pmix_hdlr_reg_cbfunc_t} delivers. */
  @FunctionalInterface
  interface RegCallback {
    void done(int status, long ref);
  }

  /** What a {@code pmix_spawn_cbfunc_t} delivers. */
  @FunctionalInterface
  interface SpawnCallback {
    void done(int status, String nspace);
  }

  /** An event, as {@code pmix_notification_fn_t} delivers it (already acknowledged). */
  @FunctionalInterface
  interface EventCallback {
    void event(
        long ref,
        int status,
        java.util.Optional<io.fluxdrm.pmix.PmixProc> source,
        NativeInfos.Decoded infos);
  }

  private static final AtomicLong NEXT = new AtomicLong(1);
  private static final Map<Long, Object> ONE_SHOT = new ConcurrentHashMap<>();
  private static final Map<Long, EventCallback> HANDLERS = new ConcurrentHashMap<>();

  static final MemorySegment INFO_CB;
  static final MemorySegment RELEASE_CB;
  static final MemorySegment OP_CB;
  static final MemorySegment HDLR_REG_CB;
  static final MemorySegment SPAWN_CB;
  static final MemorySegment NOTIFICATION_FN;

  private static final MethodHandle CALL_RELEASE =
      Libpmix.LINKER.downcallHandle(Libpmix.RELEASE_CBFUNC);
  private static final MethodHandle CALL_EVENT_DONE =
      Libpmix.LINKER.downcallHandle(Libpmix.EVENT_NOTIFICATION_CBFUNC);

  static {
    try {
      MethodHandles.Lookup l = MethodHandles.lookup();
      INFO_CB =
          stub(
              l.findStatic(
                  Callbacks.class,
                  "infoCb",
                  MethodType.methodType(
                      void.class,
                      int.class,
                      MemorySegment.class,
                      long.class,
                      MemorySegment.class,
                      MemorySegment.class,
                      MemorySegment.class)),
              Libpmix.INFO_CBFUNC);
      RELEASE_CB =
          stub(
              l.findStatic(
                  Callbacks.class,
                  "releaseCb",
                  MethodType.methodType(void.class, MemorySegment.class)),
              Libpmix.RELEASE_CBFUNC);
      OP_CB =
          stub(
              l.findStatic(
                  Callbacks.class,
                  "opCb",
                  MethodType.methodType(void.class, int.class, MemorySegment.class)),
              Libpmix.OP_CBFUNC);
      HDLR_REG_CB =
          stub(
              l.findStatic(
                  Callbacks.class,
                  "regCb",
                  MethodType.methodType(void.class, int.class, long.class, MemorySegment.class)),
              Libpmix.HDLR_REG_CBFUNC);
      SPAWN_CB =
          stub(
              l.findStatic(
                  Callbacks.class,
                  "spawnCb",
                  MethodType.methodType(
                      void.class, int.class, MemorySegment.class, MemorySegment.class)),
              Libpmix.SPAWN_CBFUNC);
      NOTIFICATION_FN =
          stub(
              l.findStatic(
                  Callbacks.class,
                  "notificationFn",
                  MethodType.methodType(
                      void.class,
                      long.class,
                      int.class,
                      MemorySegment.class,
                      MemorySegment.class,
                      long.class,
                      MemorySegment.class,
                      long.class,
                      MemorySegment.class,
                      MemorySegment.class)),
              Libpmix.NOTIFICATION_FN);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private static MemorySegment stub(MethodHandle h, java.lang.foreign.FunctionDescriptor d) {
    return Libpmix.LINKER.upcallStub(h, d, Arena.global());
  }

  /** Registers a one-shot callback; its token goes to libpmix as {@code cbdata}. */
  static MemorySegment register(Object callback) {
    long t = NEXT.getAndIncrement();
    ONE_SHOT.put(t, callback);
    return MemorySegment.ofAddress(t);
  }

  /** Takes a one-shot callback back (its call will not come: the function returned an error). */
  static Object take(MemorySegment token) {
    return ONE_SHOT.remove(token.address());
  }

  /** Registers an event handler; its token goes to libpmix as {@code PMIX_EVENT_RETURN_OBJECT}. */
  static long registerHandler(EventCallback h) {
    long t = NEXT.getAndIncrement();
    HANDLERS.put(t, h);
    return t;
  }

  static void dropHandler(long token) {
    HANDLERS.remove(token);
  }

  /** How many one-shot callbacks are outstanding (for tests and leak checks). */
  static int outstanding() {
    return ONE_SHOT.size();
  }

  private static <T> T once(MemorySegment cbdata, Class<T> type, String what) {
    Object o = ONE_SHOT.remove(cbdata.address());
    if (o == null) {
      LOG.error("{} called with unknown or spent cbdata {}: ignored", what, cbdata.address());
      return null;
    }
    if (!type.isInstance(o)) {
      LOG.error("{} called with the cbdata of a {}: ignored", what, o.getClass().getSimpleName());
      return null;
    }
    return type.cast(o);
  }

  @SuppressWarnings("unused") // upcall
  private static void infoCb(
      int status,
      MemorySegment info,
      long ninfo,
      MemorySegment cbdata,
      MemorySegment releaseFn,
      MemorySegment releaseCbdata) {
    try {
      NativeInfos.Decoded d;
      try {
        d = NativeInfos.read(info, ninfo);
      } finally {
        // the infos are libpmix's: handed back with its release function, exactly once
        release(releaseFn, releaseCbdata);
      }
      InfoCallback cb = once(cbdata, InfoCallback.class, "pmix_info_cbfunc_t");
      if (cb != null) {
        cb.done(status, d);
      }
    } catch (Throwable t) {
      LOG.error("pmix_info_cbfunc_t: {}", t.toString(), t);
    }
  }

  static void release(MemorySegment releaseFn, MemorySegment releaseCbdata) {
    if (releaseFn.equals(MemorySegment.NULL)) {
      return;
    }
    try {
      CALL_RELEASE.invokeExact(releaseFn, releaseCbdata);
    } catch (Throwable t) {
      LOG.error("release_fn: {}", t.toString(), t);
    }
  }

  @SuppressWarnings("unused") // upcall
  private static void releaseCb(MemorySegment cbdata) {
    try {
      Runnable r = once(cbdata, Runnable.class, "pmix_release_cbfunc_t");
      if (r != null) {
        r.run();
      }
    } catch (Throwable t) {
      LOG.error("pmix_release_cbfunc_t: {}", t.toString(), t);
    }
  }

  @SuppressWarnings("unused") // upcall
  private static void opCb(int status, MemorySegment cbdata) {
    try {
      OpCallback cb = once(cbdata, OpCallback.class, "pmix_op_cbfunc_t");
      if (cb != null) {
        cb.done(status);
      }
    } catch (Throwable t) {
      LOG.error("pmix_op_cbfunc_t: {}", t.toString(), t);
    }
  }

  @SuppressWarnings("unused") // upcall
  private static void regCb(int status, long ref, MemorySegment cbdata) {
    try {
      RegCallback cb = once(cbdata, RegCallback.class, "pmix_hdlr_reg_cbfunc_t");
      if (cb != null) {
        cb.done(status, ref);
      }
    } catch (Throwable t) {
      LOG.error("pmix_hdlr_reg_cbfunc_t: {}", t.toString(), t);
    }
  }

  @SuppressWarnings("unused") // upcall
  private static void spawnCb(int status, MemorySegment nspace, MemorySegment cbdata) {
    try {
      SpawnCallback cb = once(cbdata, SpawnCallback.class, "pmix_spawn_cbfunc_t");
      if (cb != null) {
        String ns =
            nspace.equals(MemorySegment.NULL)
                ? null
                : NativeInfos.fixedString(
                    nspace.reinterpret(Layouts.MAX_NSLEN + 1), 0, Layouts.MAX_NSLEN + 1);
        cb.done(status, ns);
      }
    } catch (Throwable t) {
      LOG.error("pmix_spawn_cbfunc_t: {}", t.toString(), t);
    }
  }

  @SuppressWarnings("unused") // upcall
  private static void notificationFn(
      long ref,
      int status,
      MemorySegment source,
      MemorySegment info,
      long ninfo,
      MemorySegment results,
      long nresults,
      MemorySegment cbfunc,
      MemorySegment cbdata) {
    try {
      NativeInfos.Decoded d = NativeInfos.read(info, ninfo);
      java.util.Optional<io.fluxdrm.pmix.PmixProc> src = NativeInfos.readProc(source);
      // acknowledge first, so that libpmix's chain of handlers goes on whatever Java does
      if (!cbfunc.equals(MemorySegment.NULL)) {
        try {
          CALL_EVENT_DONE.invokeExact(
              cbfunc,
              io.fluxdrm.pmix.PmixStatus.PMIX_EVENT_ACTION_COMPLETE.code(),
              MemorySegment.NULL,
              0L,
              MemorySegment.NULL,
              MemorySegment.NULL,
              cbdata);
        } catch (Throwable t) {
          LOG.error("event {}: acknowledging: {}", status, t.toString(), t);
        }
      }
      EventCallback h = HANDLERS.get(d.returnObject());
      if (h == null) {
        LOG.warn("event {} for handler {}: no such handler (deregistered?)", status, ref);
        return;
      }
      h.event(ref, status, src, d);
    } catch (Throwable t) {
      LOG.error("pmix_notification_fn_t: {}", t.toString(), t);
    }
  }

  /** Writes a {@code PMIX_POINTER} entry (which the info model does not carry) by hand. */
  static void writePointer(MemorySegment at, String key, long address) {
    byte[] k = key.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    MemorySegment.copy(k, 0, at, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, k.length);
    at.set(java.lang.foreign.ValueLayout.JAVA_BYTE, k.length, (byte) 0);
    at.set(JAVA_INT, Layouts.INFO_FLAGS, 0);
    at.set(
        java.lang.foreign.ValueLayout.JAVA_SHORT, Layouts.INFO_VALUE, (short) Layouts.TYPE_POINTER);
    at.set(ADDRESS, Layouts.INFO_VALUE + Layouts.VALUE_DATA, MemorySegment.ofAddress(address));
  }
}
