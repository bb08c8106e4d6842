package io.fluxdrm.pmix.nativ;

import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixDataType;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.SchedulerUpcalls;
import io.fluxdrm.pmix.port.StatusInfos;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This process as the PMIx scheduler of a PRRTE DVM (peers/prrte/README, "A PMIx scheduler attached
 * to the DVM"): {@code PMIx_server_init} with {@code PMIX_SERVER_SCHEDULER}, {@code
 * PMIX_SERVER_NSPACE}, {@code PMIX_SERVER_RANK} and {@code PMIX_SERVER_TOOL_SUPPORT} and the {@link
 * ServerModule}, which makes libpmix write the rendezvous file {@code pmix.sched.<host>} that PRRTE
 * looks for (once) at its first allocation request. So this must start before {@code prte}. The way
 * down ({@link #port()}) attaches to the DVM as a tool ({@code PMIx_tool_attach_to_server} with the
 * DVM's URI) on its first call, once the DVM exists.
 */
public final class PmixScheduler implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PmixScheduler.class);

  private final Libpmix lib;
  private final PmixProc self;
  private final ServerModule module;
  private final String dvmUri;
  private final Duration timeout;
  private final NativeDvmPort port;
  private CompletableFuture<Void> attached;
  private boolean closed;

  private PmixScheduler(
      Libpmix lib,
      PmixProc self,
      ServerModule module,
      String dvmUri,
      Duration timeout,
      Executor executor) {
    this.lib = lib;
    this.self = self;
    this.module = module;
    this.dvmUri = dvmUri;
    this.timeout = timeout;
    this.port =
        new NativeDvmPort(
            lib,
            executor,
            this::attachOnce,
            () -> CompletableFuture.completedFuture(StatusInfos.of(PmixStatus.PMIX_SUCCESS)));
  }

  /**
   * Initialises the PMIx server as a scheduler and serves {@code upcalls}.
   *
   * @param self the scheduler's namespace and rank
   * @param upcalls what PRRTE's forwarded requests go to
   * @param dvmUri the DVM's URI (or {@code file:PATH}) for the way down
   * @param timeout how long attaching to the DVM may take
   * @param executor the reactor: upcalls run there, the port's futures complete there
   * @return the scheduler, or a failure naming libpmix's status
   */
  public static CompletionStage<PmixScheduler> start(
      PmixProc self, SchedulerUpcalls upcalls, String dvmUri, Duration timeout, Executor executor) {
    Libpmix lib;
    try {
      lib = Libpmix.get();
    } catch (PmixNativeException e) {
      return CompletableFuture.failedFuture(e);
    }
    return PmixCalls.blocking(
        () -> {
          ServerModule module = ServerModule.install(upcalls, executor);
          List<Info> infos =
              List.of(
                  Info.of(PmixKey.PMIX_SERVER_SCHEDULER, true),
                  new Info(NativeKeys.SERVER_NSPACE, PmixDataType.PMIX_STRING, self.nspace()),
                  new Info(NativeKeys.SERVER_RANK, PmixDataType.PMIX_PROC_RANK, self.rank()),
                  new Info(NativeKeys.SERVER_TOOL_SUPPORT, PmixDataType.PMIX_BOOL, true));
          try (Arena arena = Arena.ofConfined()) {
            int rc =
                (int)
                    lib.serverInit.invokeExact(
                        module.struct(), NativeInfos.write(arena, infos), (long) infos.size());
            if (rc != PmixStatus.PMIX_SUCCESS.code()) {
              throw new PmixNativeException(
                  "PMIx_server_init as scheduler: "
                      + lib.errorString(rc)
                      + " ("
                      + rc
                      + ")"
                      + rendezvousInUse().map(f -> secondScheduler(f)).orElse(""));
            }
          } catch (PmixNativeException e) {
            throw e;
          } catch (Throwable t) {
            throw Libpmix.rethrow(t);
          }
          LOG.info(
              "PMIx scheduler {}.{} up ({}); the DVM at {} may start now",
              self.nspace(),
              self.rank(),
              lib.version(),
              dvmUri);
          return new PmixScheduler(lib, self, module, dvmUri, timeout, executor);
        });
  }

  /**
   * The scheduler rendezvous files of this host in the system temporary directory ({@code $TMPDIR},
   * else {@code /tmp}), where libpmix writes {@code pmix.sched.<host>}.
   */
  static java.util.Optional<java.nio.file.Path> rendezvousInUse() {
    String t = System.getenv("TMPDIR");
    java.nio.file.Path tmp = java.nio.file.Path.of(t == null || t.isBlank() ? "/tmp" : t);
    try (java.util.stream.Stream<java.nio.file.Path> s = java.nio.file.Files.list(tmp)) {
      return s.filter(p -> p.getFileName().toString().startsWith("pmix.sched.")).findFirst();
    } catch (java.io.IOException | RuntimeException e) {
      return java.util.Optional.empty();
    }
  }

  private static String secondScheduler(java.nio.file.Path f) {
    return ": another PMIx scheduler runs on this host, its rendezvous file "
        + f
        + " exists (libpmix's message above names its owner); one scheduler per host: stop it"
        + " (and its DVM, which keeps it) first";
  }

  /** The scheduler's name. */
  public PmixProc self() {
    return self;
  }

  /** The server module (its outstanding requests). */
  public ServerModule module() {
    return module;
  }

  /** The scheduler's way down to the DVM: session controls, its own allocation requests, events. */
  public DvmPort port() {
    return port;
  }

  /** Attaches to the DVM on first use; a failed attachment is tried again on the next call. */
  private synchronized CompletionStage<Void> attachOnce() {
    if (closed) {
      return CompletableFuture.failedFuture(new PmixNativeException("scheduler: closed"));
    }
    if (attached == null || attached.isCompletedExceptionally()) {
      attached = PmixCalls.blocking(this::attach);
    }
    return attached;
  }

  private Void attach() {
    List<Info> infos = new java.util.ArrayList<>(PmixCalls.connectInfos(dvmUri, timeout));
    // the DVM becomes the server the scheduler's own requests go to
    infos.add(Info.of(PmixKey.PMIX_PRIMARY_SERVER, true));
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment me = NativeInfos.proc(arena, self);
      MemorySegment server = arena.allocate(Layouts.PROC);
      int rc =
          (int)
              lib.toolAttachToServer.invokeExact(
                  me, server, NativeInfos.write(arena, infos), (long) infos.size());
      if (rc != PmixStatus.PMIX_SUCCESS.code()) {
        String why =
            PmixCalls.connectFailure(
                "PMIx_tool_attach_to_server",
                dvmUri,
                timeout,
                lib.errorString(rc) + " (" + rc + ")");
        LOG.warn("attaching to the DVM: {}", why);
        throw new PmixNativeException(why);
      }
      PmixProc dvm = NativeInfos.readProc(server).orElse(new PmixProc("?", 0));
      LOG.info("attached to the DVM {}.{} at {}", dvm.nspace(), dvm.rank(), dvmUri);
      return null;
    } catch (PmixNativeException e) {
      throw e;
    } catch (Throwable t) {
      throw Libpmix.rethrow(t);
    }
  }

  /** {@code PMIx_server_finalize}: the rendezvous file goes, PRRTE loses its scheduler. */
  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    try {
      PmixCalls.blocking(
              () -> {
                try {
                  return (int) lib.serverFinalize.invokeExact();
                } catch (Throwable t) {
                  throw Libpmix.rethrow(t);
                }
              })
          .get(timeout.toSeconds() + 5, java.util.concurrent.TimeUnit.SECONDS);
    } catch (Exception e) {
      LOG.warn("PMIx_server_finalize: {}", e.toString());
    }
  }
}
