package io.fluxdrm.pmix.nativ;

import static java.lang.foreign.ValueLayout.ADDRESS;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.SchedulerUpcalls;
import io.fluxdrm.pmix.port.StatusInfos;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code pmix_server_module_t} of fluxdrm as a PMIx scheduler: its {@code allocate} and {@code
 * session_control} slots are Java upcall stubs, every other slot NULL (libpmix then answers those
 * requests itself, mostly {@code PMIX_ERR_NOT_SUPPORTED}).
 *
 * <p>An upcall runs on libpmix's progress thread and must not block: it copies the request into
 * Java values, hands the work to the executor (the reactor) and returns {@code PMIX_SUCCESS} at
 * once; the answer goes to libpmix's {@code cbfunc} exactly once, whatever the Java side does
 * (completes, fails, throws). A request that cannot be read (a value that does not fit its key, an
 * unknown directive) is refused by the upcall's return status, a log line, and no {@code cbfunc}
 * (PMIx's contract for an error return). The infos of an answer live in an arena of their own that
 * libpmix's call of our {@code release_fn} closes. Every answer passes {@link AnswerCheck} first: a
 * status or info PRRTE cannot use becomes {@code PMIX_ERROR} and a log line (D455).
 */
public final class ServerModule {
  private static final Logger LOG = LoggerFactory.getLogger(ServerModule.class);

  private static final MethodHandle CALL_INFO_CB =
      Libpmix.LINKER.downcallHandle(Libpmix.INFO_CBFUNC);

  private static final MemorySegment ALLOCATE_FN;
  private static final MemorySegment SESSION_CONTROL_FN;

  /** The one module of the process (libpmix has one server). */
  private static volatile ServerModule current;

  static {
    try {
      MethodHandles.Lookup l = MethodHandles.lookup();
      ALLOCATE_FN =
          Libpmix.LINKER.upcallStub(
              l.findStatic(
                  ServerModule.class,
                  "allocateUpcall",
                  MethodType.methodType(
                      int.class,
                      MemorySegment.class,
                      byte.class,
                      MemorySegment.class,
                      long.class,
                      MemorySegment.class,
                      MemorySegment.class)),
              Libpmix.SERVER_ALLOC_FN,
              Arena.global());
      SESSION_CONTROL_FN =
          Libpmix.LINKER.upcallStub(
              l.findStatic(
                  ServerModule.class,
                  "sessionControlUpcall",
                  MethodType.methodType(
                      int.class,
                      MemorySegment.class,
                      int.class,
                      MemorySegment.class,
                      long.class,
                      MemorySegment.class,
                      MemorySegment.class)),
              Libpmix.SERVER_SESSION_CONTROL_FN,
              Arena.global());
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final SchedulerUpcalls upcalls;
  private final Executor executor;
  private final MemorySegment struct;
  private final AtomicLong outstanding = new AtomicLong();
  private final AtomicLong openAnswers = new AtomicLong();

  private ServerModule(SchedulerUpcalls upcalls, Executor executor) {
    this.upcalls = upcalls;
    this.executor = executor;
    this.struct = Arena.global().allocate(Layouts.SERVER_MODULE);
    struct.setAtIndex(ADDRESS, Layouts.SLOT_ALLOCATE, ALLOCATE_FN);
    struct.setAtIndex(ADDRESS, Layouts.SLOT_SESSION_CONTROL, SESSION_CONTROL_FN);
  }

  /**
   * The module of this process, serving {@code upcalls} on {@code executor} (replacing any earlier
   * one: libpmix keeps the struct's address, so a new module is a new struct).
   *
   * @param upcalls the scheduler
   * @param executor where the upcalls run (the reactor)
   * @return the module
   */
  public static ServerModule install(SchedulerUpcalls upcalls, Executor executor) {
    ServerModule m = new ServerModule(upcalls, executor);
    current = m;
    return m;
  }

  /** The {@code pmix_server_module_t} to pass to {@code PMIx_server_init}. */
  public MemorySegment struct() {
    return struct;
  }

  /** Requests handed to Java and not answered yet. */
  public long outstanding() {
    return outstanding.get();
  }

  /** Answers handed to libpmix whose memory it has not released yet. */
  public long openAnswers() {
    return openAnswers.get();
  }

  /** The answer to one request, sent to libpmix's {@code cbfunc} at most once. */
  private final class Reply {
    private final MemorySegment cbfunc;
    private final MemorySegment cbdata;
    private final String what;
    private final java.util.function.UnaryOperator<StatusInfos> check;
    private final AtomicBoolean sent = new AtomicBoolean();

    Reply(
        MemorySegment cbfunc,
        MemorySegment cbdata,
        String what,
        java.util.function.UnaryOperator<StatusInfos> check) {
      this.cbfunc = cbfunc;
      this.cbdata = cbdata;
      this.what = what;
      this.check = check;
      outstanding.incrementAndGet();
    }

    void send(StatusInfos answer, Throwable err) {
      if (!sent.compareAndSet(false, true)) {
        LOG.error("{}: a second answer ({}) dropped", what, answer == null ? err : answer.status());
        return;
      }
      outstanding.decrementAndGet();
      StatusInfos a = answer;
      if (err != null || a == null) {
        LOG.error("{}: the scheduler failed: {}", what, err);
        a = StatusInfos.of(PmixStatus.PMIX_ERROR);
      }
      try {
        a = check.apply(a);
      } catch (RuntimeException e) {
        LOG.error("{}: answer {} cannot be checked ({}): PMIX_ERROR", what, a, e.toString());
        a = StatusInfos.of(PmixStatus.PMIX_ERROR);
      }
      Arena arena = Arena.ofShared();
      MemorySegment infos;
      List<Info> list = a.infos();
      try {
        infos = NativeInfos.write(arena, list);
      } catch (RuntimeException e) {
        LOG.error("{}: answer {} cannot be laid out ({}): PMIX_ERROR", what, a, e.getMessage());
        list = List.of();
        infos = MemorySegment.NULL;
        a = StatusInfos.of(PmixStatus.PMIX_ERROR);
      }
      LOG.info("{}: answered {} {}", what, a.status(), list);
      if (cbfunc.equals(MemorySegment.NULL)) {
        arena.close();
        return;
      }
      Answer held = new Answer(arena);
      MemorySegment token = Callbacks.register((Runnable) held::released);
      try {
        CALL_INFO_CB.invokeExact(
            cbfunc,
            a.status().code(),
            infos,
            (long) list.size(),
            cbdata,
            Callbacks.RELEASE_CB,
            token);
      } catch (Throwable t) {
        LOG.error("{}: cbfunc: {}", what, t.toString(), t);
      } finally {
        held.callReturned();
      }
    }
  }

  /**
   * The memory of one answer: closed once libpmix has called our {@code release_fn} and the {@code
   * cbfunc} call that handed it over has returned (libpmix may release it from inside that call,
   * while the arena is still in use by the call).
   */
  private final class Answer {
    private final Arena arena;
    private boolean inCall = true;
    private boolean released;

    Answer(Arena arena) {
      this.arena = arena;
      openAnswers.incrementAndGet();
    }

    synchronized void released() {
      released = true;
      if (!inCall) {
        close();
      }
    }

    synchronized void callReturned() {
      inCall = false;
      if (released) {
        close();
      }
    }

    private void close() {
      arena.close();
      openAnswers.decrementAndGet();
    }
  }

  private static ServerModule current(String what) {
    ServerModule m = current;
    if (m == null) {
      LOG.error("{}: no scheduler module installed", what);
    }
    return m;
  }

  @SuppressWarnings("unused") // upcall
  private static int allocateUpcall(
      MemorySegment client,
      byte directive,
      MemorySegment data,
      long ndata,
      MemorySegment cbfunc,
      MemorySegment cbdata) {
    try {
      ServerModule m = current("allocate");
      if (m == null) {
        return PmixStatus.PMIX_ERR_NOT_SUPPORTED.code();
      }
      return m.allocate(
          NativeInfos.readProc(client), Byte.toUnsignedInt(directive), data, ndata, cbfunc, cbdata);
    } catch (Throwable t) {
      LOG.error("allocate upcall: {}", t.toString(), t);
      return PmixStatus.PMIX_ERROR.code();
    }
  }

  @SuppressWarnings("unused") // upcall
  private static int sessionControlUpcall(
      MemorySegment requestor,
      int sessionId,
      MemorySegment dirs,
      long ndirs,
      MemorySegment cbfunc,
      MemorySegment cbdata) {
    try {
      ServerModule m = current("session_control");
      if (m == null) {
        return PmixStatus.PMIX_ERR_NOT_SUPPORTED.code();
      }
      return m.sessionControl(
          NativeInfos.readProc(requestor),
          Integer.toUnsignedLong(sessionId),
          dirs,
          ndirs,
          cbfunc,
          cbdata);
    } catch (Throwable t) {
      LOG.error("session_control upcall: {}", t.toString(), t);
      return PmixStatus.PMIX_ERROR.code();
    }
  }

  private int allocate(
      Optional<PmixProc> client,
      int code,
      MemorySegment data,
      long ndata,
      MemorySegment cbfunc,
      MemorySegment cbdata) {
    NativeInfos.Decoded d = NativeInfos.read(data, ndata);
    PmixProc requester = requester(client, d.infos());
    String what = "allocate " + code + " from " + requester.nspace() + "." + requester.rank();
    Optional<AllocDirective> dir = AllocDirective.of(code);
    if (dir.isEmpty()) {
      LOG.warn("{}: unknown directive {}: PMIX_ERR_BAD_PARAM", what, code);
      return PmixStatus.PMIX_ERR_BAD_PARAM.code();
    }
    what =
        "allocate " + dir.get().pmixName() + " from " + requester.nspace() + "." + requester.rank();
    if (!accept(what, d)) {
      return PmixStatus.PMIX_ERR_BAD_PARAM.code();
    }
    LOG.info("{}: {}", what, d.infos());
    AllocDirective directive = dir.get();
    String w = what;
    Reply r = new Reply(cbfunc, cbdata, w, a -> AnswerCheck.allocate(w, directive, a));
    return dispatch(r, () -> upcalls.allocate(requester, directive, d.infos()));
  }

  private int sessionControl(
      Optional<PmixProc> client,
      long sessionId,
      MemorySegment dirs,
      long ndirs,
      MemorySegment cbfunc,
      MemorySegment cbdata) {
    NativeInfos.Decoded d = NativeInfos.read(dirs, ndirs);
    PmixProc requester = requester(client, d.infos());
    String what =
        "session_control " + sessionId + " from " + requester.nspace() + "." + requester.rank();
    if (!accept(what, d)) {
      return PmixStatus.PMIX_ERR_BAD_PARAM.code();
    }
    LOG.info("{}: {}", what, d.infos());
    Reply r = new Reply(cbfunc, cbdata, what, a -> AnswerCheck.sessionControl(what, a));
    return dispatch(r, () -> upcalls.sessionControl(requester, sessionId, d.infos()));
  }

  private static boolean accept(String what, NativeInfos.Decoded d) {
    if (!d.skipped().isEmpty()) {
      LOG.info("{}: entries of types not carried, ignored: {}", what, d.skipped());
    }
    if (!d.invalid().isEmpty()) {
      LOG.warn("{}: PMIX_ERR_BAD_PARAM: {}", what, d.invalid());
      return false;
    }
    return true;
  }

  /** PRRTE names the real requester with {@code PMIX_REQUESTOR}; else the client it came from. */
  private static PmixProc requester(Optional<PmixProc> client, List<Info> infos) {
    for (Info i : infos) {
      if (i.key().equals(PmixKey.PMIX_REQUESTOR) && i.value() instanceof PmixProc p) {
        return p;
      }
    }
    return client.orElse(new PmixProc("", PmixProc.RANK_WILDCARD));
  }

  private int dispatch(Reply r, java.util.function.Supplier<CompletionStage<StatusInfos>> work) {
    try {
      executor.execute(
          () -> {
            try {
              work.get().whenComplete(r::send);
            } catch (Throwable t) {
              r.send(null, t);
            }
          });
    } catch (RuntimeException e) {
      // not handed over: PMIx's contract for an error return is that cbfunc is not called
      r.sent.set(true);
      outstanding.decrementAndGet();
      LOG.error("{}: the scheduler's loop refused it ({}): PMIX_ERR_UNREACH", r.what, e.toString());
      return PmixStatus.PMIX_ERR_UNREACH.code();
    }
    return PmixStatus.PMIX_SUCCESS.code();
  }

  /** The upcall stub in the {@code allocate} slot (for tests that call it as libpmix would). */
  static MemorySegment allocateFn() {
    return ALLOCATE_FN;
  }

  /** The upcall stub in the {@code session_control} slot. */
  static MemorySegment sessionControlFn() {
    return SESSION_CONTROL_FN;
  }
}
