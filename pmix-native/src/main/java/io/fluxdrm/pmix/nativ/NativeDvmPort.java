package io.fluxdrm.pmix.nativ;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.App;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.Event;
import io.fluxdrm.pmix.port.Registration;
import io.fluxdrm.pmix.port.SpawnResult;
import io.fluxdrm.pmix.port.StatusInfos;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DVM port over libpmix (issue 16 scope 2): each method is one non-blocking PMIx call, its
 * arguments laid out in an arena that lives until libpmix's callback (or its error return), and its
 * future completed on the given executor (the reactor) with what the callback received. Used by a
 * tool ({@link PmixTool}) and by the scheduler's way down to the DVM ({@link PmixScheduler}).
 *
 * <p>A call libpmix answers at once ({@code PMIX_OPERATION_SUCCEEDED}, or an error) never gets its
 * callback: the future completes with that status and the callback's token is withdrawn, so every
 * future completes exactly once.
 */
public final class NativeDvmPort implements DvmPort {
  private static final Logger LOG = LoggerFactory.getLogger(NativeDvmPort.class);

  private final Libpmix lib;
  private final Executor executor;
  private final Supplier<CompletionStage<Void>> ready;
  private final Supplier<CompletionStage<StatusInfos>> finalizer;
  private final Map<Long, Long> handlers = new ConcurrentHashMap<>();

  /**
   * A port.
   *
   * @param lib libpmix
   * @param executor where the futures complete and the events are delivered
   * @param ready completes once calls may be made (the scheduler's attachment to the DVM)
   * @param finalizer the client's finalize
   */
  NativeDvmPort(
      Libpmix lib,
      Executor executor,
      Supplier<CompletionStage<Void>> ready,
      Supplier<CompletionStage<StatusInfos>> finalizer) {
    this.lib = lib;
    this.executor = executor;
    this.ready = ready;
    this.finalizer = finalizer;
  }

  /** The status with this code; a code the model does not name is PMIX_ERROR (logged). */
  static PmixStatus status(int code, String what) {
    Optional<PmixStatus> s = PmixStatus.byCode(code);
    if (s.isEmpty()) {
      LOG.warn("{}: status {} has no constant here: PMIX_ERROR", what, code);
      return PmixStatus.PMIX_ERROR;
    }
    return s.get();
  }

  @FunctionalInterface
  private interface Call {
    int invoke(Arena arena, MemorySegment token) throws Throwable;
  }

  /**
   * Runs one non-blocking call with an info callback.
   *
   * @param what for logs
   * @param call lays out its arguments in the arena and calls libpmix with the token as cbdata
   */
  private CompletionStage<StatusInfos> infoCall(String what, Call call) {
    CompletableFuture<StatusInfos> f = new CompletableFuture<>();
    return ready
        .get()
        .thenCompose(
            v -> {
              CallMemory mem = new CallMemory();
              Arena arena = mem.arena();
              MemorySegment token =
                  Callbacks.register(
                      (Callbacks.InfoCallback)
                          (st, d) -> {
                            mem.done();
                            if (!d.skipped().isEmpty() || !d.invalid().isEmpty()) {
                              LOG.info(
                                  "{}: left out of the answer: {} {}",
                                  what,
                                  d.skipped(),
                                  d.invalid());
                            }
                            StatusInfos r = new StatusInfos(status(st, what), d.infos());
                            executor.execute(() -> f.complete(r));
                          });
              int rc;
              try {
                rc = call.invoke(arena, token);
              } catch (Throwable t) {
                rc = PmixStatus.PMIX_ERR_BAD_PARAM.code();
                LOG.warn("{}: {}: PMIX_ERR_BAD_PARAM", what, t.getMessage());
              } finally {
                mem.returned();
              }
              if (rc != PmixStatus.PMIX_SUCCESS.code() && Callbacks.take(token) != null) {
                mem.done();
                PmixStatus s =
                    rc == PmixStatus.PMIX_OPERATION_SUCCEEDED.code()
                        ? PmixStatus.PMIX_SUCCESS
                        : status(rc, what);
                executor.execute(() -> f.complete(StatusInfos.of(s)));
              }
              return f;
            });
  }

  @Override
  public CompletionStage<StatusInfos> allocationRequest(
      AllocDirective directive, List<Info> infos) {
    String what = "PMIx_Allocation_request " + directive.pmixName();
    return infoCall(
        what,
        (arena, token) ->
            (int)
                lib.allocationRequestNb.invokeExact(
                    (byte) directive.code(),
                    NativeInfos.write(arena, infos),
                    (long) infos.size(),
                    Callbacks.INFO_CB,
                    token));
  }

  /**
   * {@code PMIx_Query_info} of one query: {@code keys} with {@code qualifiers}. Not a call of the
   * {@link DvmPort}: only the scheduler's agent asks the DVM what it holds ({@link DvmPool}).
   *
   * @param keys the query's keys
   * @param qualifiers its qualifiers
   * @return the status and the results
   */
  public CompletionStage<StatusInfos> query(List<String> keys, List<Info> qualifiers) {
    String what = "PMIx_Query_info " + keys;
    return infoCall(
        what,
        (arena, token) -> {
          MemorySegment argv =
              arena.allocate(java.lang.foreign.ValueLayout.ADDRESS, keys.size() + 1);
          for (int i = 0; i < keys.size(); i++) {
            argv.setAtIndex(
                java.lang.foreign.ValueLayout.ADDRESS, i, arena.allocateFrom(keys.get(i)));
          }
          argv.setAtIndex(java.lang.foreign.ValueLayout.ADDRESS, keys.size(), MemorySegment.NULL);
          MemorySegment q = arena.allocate(Layouts.QUERY);
          q.set(java.lang.foreign.ValueLayout.ADDRESS, Layouts.queryOffset("keys"), argv);
          q.set(
              java.lang.foreign.ValueLayout.ADDRESS,
              Layouts.queryOffset("qualifiers"),
              qualifiers.isEmpty() ? MemorySegment.NULL : NativeInfos.write(arena, qualifiers));
          q.set(
              java.lang.foreign.ValueLayout.JAVA_LONG,
              Layouts.queryOffset("nqual"),
              (long) qualifiers.size());
          return (int) lib.queryInfoNb.invokeExact(q, 1L, Callbacks.INFO_CB, token);
        });
  }

  @Override
  public CompletionStage<StatusInfos> sessionControl(long sessionId, List<Info> directives) {
    String what = "PMIx_Session_control " + Long.toUnsignedString(sessionId);
    if (sessionId < 0 || sessionId > 0xFFFF_FFFFL) {
      LOG.warn("{}: not a uint32 session id: PMIX_ERR_BAD_PARAM", what);
      return CompletableFuture.completedFuture(StatusInfos.of(PmixStatus.PMIX_ERR_BAD_PARAM));
    }
    return infoCall(
        what,
        (arena, token) ->
            (int)
                lib.sessionControl.invokeExact(
                    (int) sessionId,
                    NativeInfos.write(arena, directives),
                    (long) directives.size(),
                    Callbacks.INFO_CB,
                    token));
  }

  @Override
  public CompletionStage<SpawnResult> spawn(List<App> apps, List<Info> jobInfos) {
    CompletableFuture<SpawnResult> f = new CompletableFuture<>();
    if (apps.isEmpty()) {
      f.complete(new SpawnResult(PmixStatus.PMIX_ERR_BAD_PARAM, Optional.empty()));
      return f;
    }
    return ready
        .get()
        .thenCompose(
            v -> {
              CallMemory mem = new CallMemory();
              Arena arena = mem.arena();
              MemorySegment token =
                  Callbacks.register(
                      (Callbacks.SpawnCallback)
                          (st, ns) -> {
                            mem.done();
                            PmixStatus s = status(st, "PMIx_Spawn");
                            SpawnResult r =
                                s == PmixStatus.PMIX_SUCCESS && ns != null && !ns.isEmpty()
                                    ? new SpawnResult(s, Optional.of(ns))
                                    : new SpawnResult(
                                        s == PmixStatus.PMIX_SUCCESS ? PmixStatus.PMIX_ERROR : s,
                                        Optional.empty());
                            executor.execute(() -> f.complete(r));
                          });
              int rc;
              try {
                rc =
                    (int)
                        lib.spawnNb.invokeExact(
                            NativeInfos.write(arena, jobInfos),
                            (long) jobInfos.size(),
                            NativeInfos.apps(arena, apps),
                            (long) apps.size(),
                            Callbacks.SPAWN_CB,
                            token);
              } catch (Throwable t) {
                LOG.warn("PMIx_Spawn: {}: PMIX_ERR_BAD_PARAM", t.getMessage());
                rc = PmixStatus.PMIX_ERR_BAD_PARAM.code();
              } finally {
                mem.returned();
              }
              if (rc != PmixStatus.PMIX_SUCCESS.code() && Callbacks.take(token) != null) {
                mem.done();
                PmixStatus s = status(rc, "PMIx_Spawn");
                executor.execute(() -> f.complete(new SpawnResult(s, Optional.empty())));
              }
              return f;
            });
  }

  @Override
  public CompletionStage<Registration> registerEvents(List<Integer> codes, EventHandler handler) {
    CompletableFuture<Registration> f = new CompletableFuture<>();
    long hid =
        Callbacks.registerHandler(
            (ref, status, source, d) -> {
              Optional<PmixProc> target =
                  d.procs(PmixKey.PMIX_EVENT_CUSTOM_RANGE).flatMap(l -> l.stream().findFirst());
              Event e =
                  new Event(
                      status,
                      source.orElse(new PmixProc("", PmixProc.RANK_WILDCARD)),
                      d.infos(),
                      target,
                      target.isPresent()
                          ? Event.Range.PMIX_RANGE_CUSTOM
                          : Event.Range.PMIX_RANGE_UNDEF);
              LOG.info("event {} from {}: {}", status, e.source(), d.infos());
              executor.execute(() -> handler.onEvent(e));
            });
    return ready
        .get()
        .thenCompose(
            v -> {
              // the codes and infos must outlive the registration call only; the handler's token
              // stays in the table until it is deregistered
              CallMemory mem = new CallMemory();
              Arena arena = mem.arena();
              MemorySegment codesSeg =
                  codes.isEmpty() ? MemorySegment.NULL : arena.allocate(JAVA_INT, codes.size());
              for (int i = 0; i < codes.size(); i++) {
                codesSeg.setAtIndex(JAVA_INT, i, codes.get(i));
              }
              MemorySegment info = arena.allocate(Layouts.INFO, 2);
              Callbacks.writePointer(info, NativeKeys.EVENT_RETURN_OBJECT, hid);
              NativeInfos.writeInfo(
                  arena,
                  info.asSlice(Layouts.INFO.byteSize(), Layouts.INFO.byteSize()),
                  new Info(
                      NativeKeys.EVENT_HDLR_NAME,
                      io.fluxdrm.pmix.PmixDataType.PMIX_STRING,
                      "fluxdrm-" + hid));
              MemorySegment token =
                  Callbacks.register(
                      (Callbacks.RegCallback)
                          (st, ref) -> {
                            mem.done();
                            PmixStatus s = status(st, "PMIx_Register_event_handler");
                            if (s == PmixStatus.PMIX_SUCCESS) {
                              handlers.put(ref, hid);
                            } else {
                              Callbacks.dropHandler(hid);
                            }
                            executor.execute(() -> f.complete(new Registration(s, ref)));
                          });
              int rc;
              try {
                rc =
                    (int)
                        lib.registerEventHandler.invokeExact(
                            codesSeg,
                            (long) codes.size(),
                            info,
                            2L,
                            Callbacks.NOTIFICATION_FN,
                            Callbacks.HDLR_REG_CB,
                            token);
              } catch (Throwable t) {
                throw Libpmix.rethrow(t);
              } finally {
                mem.returned();
              }
              // a non-negative return is the handler's reference when no callback comes
              if (rc != PmixStatus.PMIX_SUCCESS.code() && Callbacks.take(token) != null) {
                mem.done();
                if (rc > 0) {
                  handlers.put((long) rc, hid);
                  f.complete(new Registration(PmixStatus.PMIX_SUCCESS, rc));
                } else {
                  Callbacks.dropHandler(hid);
                  f.complete(new Registration(status(rc, "PMIx_Register_event_handler"), 0));
                }
              }
              return f;
            });
  }

  @Override
  public CompletionStage<StatusInfos> deregisterEvents(long ref) {
    Long hid = handlers.remove(ref);
    if (hid == null) {
      return CompletableFuture.completedFuture(StatusInfos.of(PmixStatus.PMIX_ERR_NOT_FOUND));
    }
    CompletableFuture<StatusInfos> f = new CompletableFuture<>();
    MemorySegment token =
        Callbacks.register(
            (Callbacks.OpCallback)
                st -> {
                  Callbacks.dropHandler(hid);
                  PmixStatus s = status(st, "PMIx_Deregister_event_handler");
                  executor.execute(() -> f.complete(StatusInfos.of(s)));
                });
    int rc;
    try {
      rc = (int) lib.deregisterEventHandler.invokeExact(ref, Callbacks.OP_CB, token);
    } catch (Throwable t) {
      throw Libpmix.rethrow(t);
    }
    if (rc != PmixStatus.PMIX_SUCCESS.code() && Callbacks.take(token) != null) {
      Callbacks.dropHandler(hid);
      PmixStatus s =
          rc == PmixStatus.PMIX_OPERATION_SUCCEEDED.code()
              ? PmixStatus.PMIX_SUCCESS
              : status(rc, "PMIx_Deregister_event_handler");
      f.complete(StatusInfos.of(s));
    }
    return f;
  }

  @Override
  public CompletionStage<StatusInfos> disconnect() {
    for (Long hid : handlers.values()) {
      Callbacks.dropHandler(hid);
    }
    handlers.clear();
    return finalizer.get();
  }
}
