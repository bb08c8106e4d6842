package io.fluxdrm.pmix.nativ;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.assertj.core.api.Assertions.assertThat;

import io.fluxdrm.pmix.AllocDirective;
import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixDataType;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixRegex;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.SchedulerUpcalls;
import io.fluxdrm.pmix.port.StatusInfos;
import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The scheduler's server module, called through its C function pointers exactly as libpmix calls
 * them (no libpmix needed): the upcall copies the request, hands it to the executor and returns at
 * once; libpmix's {@code cbfunc} gets the answer exactly once, also when the Java side fails or
 * throws; a request that cannot be read is refused by the return status and no {@code cbfunc}; the
 * answer's memory is released when libpmix calls our {@code release_fn}.
 */
class ServerModuleTest {
  private static final Linker LINKER = Linker.nativeLinker();
  private static final MethodHandle CALL_ALLOCATE = LINKER.downcallHandle(Libpmix.SERVER_ALLOC_FN);
  private static final MethodHandle CALL_SESSION_CONTROL =
      LINKER.downcallHandle(Libpmix.SERVER_SESSION_CONTROL_FN);
  private static final MethodHandle CALL_RELEASE = LINKER.downcallHandle(Libpmix.RELEASE_CBFUNC);

  /** What our fake libpmix cbfunc received, in order. */
  private static final List<String> CALLS = new ArrayList<>();

  private static final MemorySegment CBFUNC;

  static {
    try {
      CBFUNC =
          LINKER.upcallStub(
              MethodHandles.lookup()
                  .findStatic(
                      ServerModuleTest.class,
                      "cbfunc",
                      MethodType.methodType(
                          void.class,
                          int.class,
                          MemorySegment.class,
                          long.class,
                          MemorySegment.class,
                          MemorySegment.class,
                          MemorySegment.class)),
              Libpmix.INFO_CBFUNC,
              Arena.global());
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  @SuppressWarnings("unused") // upcall: what libpmix's cbfunc does, then its release_fn call
  private static void cbfunc(
      int status,
      MemorySegment info,
      long ninfo,
      MemorySegment cbdata,
      MemorySegment releaseFn,
      MemorySegment releaseCbdata) {
    NativeInfos.Decoded d = NativeInfos.read(info, ninfo);
    synchronized (CALLS) {
      CALLS.add(cbdata.address() + " " + status + " " + d.infos());
    }
    try {
      CALL_RELEASE.invokeExact(releaseFn, releaseCbdata);
    } catch (Throwable t) {
      throw new AssertionError(t);
    }
  }

  private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
  private final Executor loop = queue::add;
  private final List<String> seen = new ArrayList<>();

  @AfterEach
  void clear() {
    synchronized (CALLS) {
      CALLS.clear();
    }
  }

  private void runLoop() {
    while (!queue.isEmpty()) {
      queue.poll().run();
    }
  }

  private SchedulerUpcalls upcalls(Function<List<Info>, CompletionStage<StatusInfos>> allocate) {
    return new SchedulerUpcalls() {
      @Override
      public CompletionStage<StatusInfos> allocate(
          PmixProc requester, AllocDirective directive, List<Info> infos) {
        seen.add(requester.nspace() + "." + requester.rank() + " " + directive + " " + infos);
        return allocate.apply(infos);
      }

      @Override
      public CompletionStage<StatusInfos> sessionControl(
          PmixProc requester, long sessionId, List<Info> directives) {
        seen.add(requester.nspace() + "." + requester.rank() + " " + sessionId + " " + directives);
        return CompletableFuture.completedFuture(
            new StatusInfos(
                PmixStatus.PMIX_SUCCESS, List.of(Info.of(PmixKey.PMIX_SESSION_ID, sessionId))));
      }
    };
  }

  private int allocate(ServerModule m, int directive, List<Info> infos, long cbdata) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment client = NativeInfos.proc(a, new PmixProc("prte-master", 0));
      MemorySegment fn = m.struct().getAtIndex(ADDRESS, Layouts.SLOT_ALLOCATE);
      return (int)
          CALL_ALLOCATE.invokeExact(
              fn,
              client,
              (byte) directive,
              NativeInfos.write(a, infos),
              (long) infos.size(),
              CBFUNC,
              MemorySegment.ofAddress(cbdata));
    } catch (Throwable t) {
      throw new AssertionError(t);
    }
  }

  private static List<String> calls() {
    synchronized (CALLS) {
      return List.copyOf(CALLS);
    }
  }

  @Test
  void allocate_returnsAtOnce_answerGoesToCbfuncOnce_memoryReleased() {
    int before = Callbacks.outstanding();
    ServerModule m =
        ServerModule.install(
            upcalls(
                infos ->
                    CompletableFuture.completedFuture(
                        new StatusInfos(
                            PmixStatus.PMIX_SUCCESS,
                            List.of(
                                Info.of(PmixKey.PMIX_ALLOC_ID, "7"),
                                Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "node1:2"))))),
            loop);
    List<Info> req =
        List.of(
            Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "node1:2"),
            Info.of(PmixKey.PMIX_REQUESTOR, new PmixProc("tool-1", 0)));
    int rc = allocate(m, AllocDirective.NEW.code(), req, 41);
    assertThat(rc).isEqualTo(PmixStatus.PMIX_SUCCESS.code());
    // nothing ran on the progress thread: the work is on the loop, not answered yet
    assertThat(seen).isEmpty();
    assertThat(calls()).isEmpty();
    assertThat(m.outstanding()).isEqualTo(1);
    runLoop();
    assertThat(seen).containsExactly("tool-1.0 NEW " + req);
    assertThat(calls())
        .containsExactly(
            "41 0 [pmix.alloc.id(PMIX_STRING)=\"7\", pmix.alloc.nlist(PMIX_STRING)=\"node1:2\"]");
    assertThat(m.outstanding()).isZero();
    // our release_fn ran (libpmix's call of it), so its token is spent
    assertThat(Callbacks.outstanding()).isEqualTo(before);
    assertThat(m.openAnswers()).isZero();
  }

  @Test
  void theSchedulerFailsOrThrows_cbfuncStillGetsExactlyOneAnswer() {
    ServerModule m =
        ServerModule.install(
            upcalls(infos -> CompletableFuture.failedFuture(new IllegalStateException("boom"))),
            loop);
    assertThat(allocate(m, AllocDirective.EXTEND.code(), List.of(), 1)).isZero();
    runLoop();
    ServerModule t =
        ServerModule.install(
            upcalls(
                infos -> {
                  throw new IllegalStateException("thrown");
                }),
            loop);
    assertThat(allocate(t, AllocDirective.RELEASE.code(), List.of(), 2)).isZero();
    runLoop();
    assertThat(calls()).containsExactly("1 -1 []", "2 -1 []");
    assertThat(m.outstanding() + t.outstanding()).isZero();
  }

  @Test
  void malformedOrUnknownDirective_refusedByTheReturnStatus_noCbfunc_schedulerNotAsked() {
    try (StderrCapture log = new StderrCapture()) {
      malformedOrUnknownDirective(log);
    }
  }

  private void malformedOrUnknownDirective(StderrCapture log) {
    ServerModule m =
        ServerModule.install(
            upcalls(
                infos ->
                    CompletableFuture.completedFuture(StatusInfos.of(PmixStatus.PMIX_SUCCESS))),
            loop);
    // PMIX_ALLOC_NUM_NODES is a uint64: a string there does not fit
    try (Arena a = Arena.ofConfined()) {
      MemorySegment info = a.allocate(Layouts.INFO);
      byte[] k = PmixKey.PMIX_ALLOC_NUM_NODES.getBytes(java.nio.charset.StandardCharsets.UTF_8);
      NativeInfos.writeInfo(a, info, new Info("x", PmixDataType.PMIX_STRING, "two"));
      MemorySegment.copy(k, 0, info, JAVA_BYTE, 0, k.length);
      info.set(JAVA_BYTE, k.length, (byte) 0);
      MemorySegment fn = m.struct().getAtIndex(ADDRESS, Layouts.SLOT_ALLOCATE);
      int rc =
          (int)
              CALL_ALLOCATE.invokeExact(
                  fn,
                  NativeInfos.proc(a, new PmixProc("p", 0)),
                  (byte) 1,
                  info,
                  1L,
                  CBFUNC,
                  MemorySegment.ofAddress(5));
      assertThat(rc).isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM.code());
      // a count far beyond what a request may hold, at a bogus pointer: never dereferenced
      int huge =
          (int)
              CALL_ALLOCATE.invokeExact(
                  fn,
                  MemorySegment.NULL,
                  (byte) 1,
                  MemorySegment.NULL,
                  1L << 40,
                  CBFUNC,
                  MemorySegment.ofAddress(6));
      assertThat(huge).isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM.code());
    } catch (Throwable t) {
      throw new AssertionError(t);
    }
    assertThat(allocate(m, 99, List.of(), 7)).isEqualTo(PmixStatus.PMIX_ERR_BAD_PARAM.code());
    runLoop();
    assertThat(seen).isEmpty();
    assertThat(calls()).isEmpty();
    assertThat(m.outstanding()).isZero();
    // each refusal is a log line saying why, with the request it refused
    assertThat(log.text())
        .contains("allocate PMIX_ALLOC_NEW from p.0: PMIX_ERR_BAD_PARAM: ")
        .contains(PmixKey.PMIX_ALLOC_NUM_NODES)
        .contains(": unknown directive 99: PMIX_ERR_BAD_PARAM");
    assertThat(log.text().lines().filter(l -> l.contains("PMIX_ERR_BAD_PARAM")).count())
        .isGreaterThanOrEqualTo(3);
  }

  /**
   * D455: an answer PRRTE cannot use (a status that is not a verdict, a value of the wrong type for
   * its key, a node list that is not host names, a grant without nodes) goes to libpmix as {@code
   * PMIX_ERROR} without infos; keys outside the catalog are left out of an allocation answer.
   */
  @Test
  void answersPrrteCannotUse_becomePmixError_unknownKeysLeftOut() {
    // a value of another type than its key's cannot even be made (PRRTE reads PMIX_ALLOC_ID as a
    // string whatever its type): the model refuses it
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> new Info(PmixKey.PMIX_ALLOC_ID, PmixDataType.PMIX_INT, 7))
        .hasMessageContaining("is not a type of key pmix.alloc.id");
    ArrayDeque<StatusInfos> script = new ArrayDeque<>();
    ServerModule m =
        ServerModule.install(
            upcalls(infos -> CompletableFuture.completedFuture(script.poll())), loop);
    Info id = Info.of(PmixKey.PMIX_ALLOC_ID, "7");
    Info nodes = Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "node1:2");
    List<StatusInfos> answers =
        List.of(
            new StatusInfos(PmixStatus.PMIX_OPERATION_SUCCEEDED, List.of(id, nodes)),
            new StatusInfos(PmixStatus.PMIX_OPERATION_IN_PROGRESS, List.of(id, nodes)),
            new StatusInfos(PmixStatus.PMIX_DVM_IS_READY, List.of()),
            new StatusInfos(PmixStatus.PMIX_ERR_TAKE_NEXT_OPTION, List.of()),
            new StatusInfos(PmixStatus.PMIX_ERR_PARTIAL_SUCCESS, List.of(id, nodes)),
            new StatusInfos(
                PmixStatus.PMIX_SUCCESS,
                List.of(
                    id,
                    new Info(
                        PmixKey.PMIX_ALLOC_NODE_LIST,
                        PmixDataType.PMIX_REGEX2,
                        PmixRegex.raw("n1")))),
            new StatusInfos(
                PmixStatus.PMIX_SUCCESS,
                List.of(id, Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "node1:2;reboot"))),
            new StatusInfos(
                PmixStatus.PMIX_SUCCESS,
                List.of(id, Info.of(PmixKey.PMIX_ALLOC_NODE_LIST, "n1:0"))),
            new StatusInfos(PmixStatus.PMIX_SUCCESS, List.of(id)),
            new StatusInfos(
                PmixStatus.PMIX_SUCCESS,
                List.of(id, nodes, new Info("fluxdrm.test.answer", PmixDataType.PMIX_INT, 1))),
            new StatusInfos(
                PmixStatus.PMIX_ERR_OUT_OF_RESOURCE,
                List.of(new Info("fluxdrm.test.answer", PmixDataType.PMIX_INT, 1))),
            // a release answer needs no node list (PRRTE then answers PMIX_ERR_NOT_FOUND itself)
            StatusInfos.of(PmixStatus.PMIX_SUCCESS));
    script.addAll(answers);
    for (int i = 0; i < answers.size(); i++) {
      int dir = i == answers.size() - 1 ? AllocDirective.RELEASE.code() : AllocDirective.NEW.code();
      assertThat(allocate(m, dir, List.of(), 100 + i)).isZero();
      runLoop();
    }
    String grant = "[pmix.alloc.id(PMIX_STRING)=\"7\", pmix.alloc.nlist(PMIX_STRING)=\"node1:2\"]";
    assertThat(calls())
        .containsExactly(
            "100 -1 []",
            "101 -1 []",
            "102 -1 []",
            "103 -1 []",
            "104 -1 []",
            "105 -1 []",
            "106 -1 []",
            "107 -1 []",
            "108 -1 []",
            "109 0 " + grant,
            "110 -29 []",
            "111 0 []");
    assertThat(m.outstanding()).isZero();
    assertThat(m.openAnswers()).isZero();
  }

  @Test
  void sessionControlAnswerWithAnEventCode_becomesPmixError() throws Throwable {
    ServerModule m =
        ServerModule.install(
            new SchedulerUpcalls() {
              @Override
              public CompletionStage<StatusInfos> allocate(
                  PmixProc requester, AllocDirective directive, List<Info> infos) {
                throw new AssertionError("not asked");
              }

              @Override
              public CompletionStage<StatusInfos> sessionControl(
                  PmixProc requester, long sessionId, List<Info> directives) {
                return CompletableFuture.completedFuture(
                    new StatusInfos(
                        sessionId == 1
                            ? PmixStatus.PMIX_EVENT_SESSION_END
                            : PmixStatus.PMIX_ERR_NOT_FOUND,
                        List.of(new Info("prte.x", PmixDataType.PMIX_BOOL, true))));
              }
            },
            loop);
    try (Arena a = Arena.ofConfined()) {
      MemorySegment fn = m.struct().getAtIndex(ADDRESS, Layouts.SLOT_SESSION_CONTROL);
      for (int id = 1; id <= 2; id++) {
        int rc =
            (int)
                CALL_SESSION_CONTROL.invokeExact(
                    fn,
                    NativeInfos.proc(a, new PmixProc("prte-vm", 0)),
                    id,
                    MemorySegment.NULL,
                    0L,
                    CBFUNC,
                    MemorySegment.ofAddress(200 + id));
        assertThat(rc).isZero();
      }
    }
    runLoop();
    assertThat(calls()).containsExactly("201 -1 []", "202 -46 [prte.x(PMIX_BOOL)=true]");
  }

  @Test
  void nodeLists_hostNamesWithOptionalSlots() {
    assertThat(AnswerCheck.badNodeList("node1:2,node-2.example.org,n3:16")).isEmpty();
    assertThat(AnswerCheck.badNodeList("")).contains("empty");
    assertThat(AnswerCheck.badNodeList("node1,,node2")).isPresent();
    assertThat(AnswerCheck.badNodeList("node[1-2]:2")).isPresent();
    assertThat(AnswerCheck.badNodeList("-node")).isPresent();
    assertThat(AnswerCheck.badNodeList("node1:")).isPresent();
    assertThat(AnswerCheck.badNodeList("a".repeat(65))).isPresent();
    assertThat(AnswerCheck.badNodeList("a".repeat(64))).isEmpty();
  }

  @Test
  void loopRefusesTheWork_unreachable_noCbfunc() {
    ServerModule m =
        ServerModule.install(
            upcalls(
                infos ->
                    CompletableFuture.completedFuture(StatusInfos.of(PmixStatus.PMIX_SUCCESS))),
            r -> {
              throw new RejectedExecutionException("stopped");
            });
    assertThat(allocate(m, AllocDirective.NEW.code(), List.of(), 8))
        .isEqualTo(PmixStatus.PMIX_ERR_UNREACH.code());
    assertThat(calls()).isEmpty();
    assertThat(m.outstanding()).isZero();
  }

  @Test
  void sessionControl_requesterFromTheClient_answeredOnce() throws Throwable {
    ServerModule m =
        ServerModule.install(
            upcalls(
                infos ->
                    CompletableFuture.completedFuture(StatusInfos.of(PmixStatus.PMIX_SUCCESS))),
            loop);
    try (Arena a = Arena.ofConfined()) {
      List<Info> dirs = List.of(Info.of(PmixKey.PMIX_SESSION_COMPLETE, true));
      MemorySegment fn = m.struct().getAtIndex(ADDRESS, Layouts.SLOT_SESSION_CONTROL);
      int rc =
          (int)
              CALL_SESSION_CONTROL.invokeExact(
                  fn,
                  NativeInfos.proc(a, new PmixProc("prte-vm", 0)),
                  -2,
                  NativeInfos.write(a, dirs),
                  1L,
                  CBFUNC,
                  MemorySegment.ofAddress(9));
      assertThat(rc).isZero();
    }
    runLoop();
    assertThat(seen).containsExactly("prte-vm.0 4294967294 [pmix.ssn.complete(PMIX_BOOL)=true]");
    assertThat(calls()).containsExactly("9 0 [pmix.session.id(PMIX_UINT32)=4294967294]");
  }
}
