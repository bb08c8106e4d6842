package io.fluxdrm.pmix.nativ;

import io.fluxdrm.pmix.Info;
import io.fluxdrm.pmix.PmixKey;
import io.fluxdrm.pmix.PmixProc;
import io.fluxdrm.pmix.PmixStatus;
import io.fluxdrm.pmix.port.DvmPort;
import io.fluxdrm.pmix.port.StatusInfos;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This process as a PMIx tool of a DVM ({@code PMIx_tool_init} with {@code PMIX_SERVER_URI}): the
 * way a command such as {@code prun} or PRRTE's examples reaches PRRTE. One tool per process
 * (libpmix's state is per process); {@link DvmPort#disconnect()} is {@code PMIx_tool_finalize}.
 */
public final class PmixTool {
  private static final Logger LOG = LoggerFactory.getLogger(PmixTool.class);

  private PmixTool() {}

  /**
   * Connects to the DVM at {@code uri}.
   *
   * @param uri the DVM's URI, or {@code file:PATH} of the file {@code prte --report-uri} wrote
   * @param self the tool's own name ({@code PMIX_TOOL_NSPACE}/{@code PMIX_TOOL_RANK}), or empty to
   *     let libpmix pick one
   * @param timeout how long to try
   * @param executor where the port's futures complete
   * @return the port and the tool's name, or a failure naming the status
   */
  public static CompletionStage<Connected> connect(
      String uri, Optional<PmixProc> self, Duration timeout, Executor executor) {
    Libpmix lib;
    try {
      lib = Libpmix.get();
    } catch (PmixNativeException e) {
      return CompletableFuture.failedFuture(e);
    }
    return PmixCalls.blocking(
        () -> {
          List<Info> infos = new ArrayList<>(PmixCalls.connectInfos(uri, timeout));
          self.ifPresent(
              p -> {
                infos.add(Info.of(PmixKey.PMIX_TOOL_NSPACE, p.nspace()));
                infos.add(Info.of(PmixKey.PMIX_TOOL_RANK, p.rank()));
              });
          PmixProc me;
          try (Arena arena = Arena.ofConfined()) {
            MemorySegment proc = arena.allocate(Layouts.PROC);
            int rc =
                (int)
                    lib.toolInit.invokeExact(
                        proc, NativeInfos.write(arena, infos), (long) infos.size());
            if (rc != PmixStatus.PMIX_SUCCESS.code()) {
              throw new PmixNativeException(
                  PmixCalls.connectFailure(
                      "PMIx_tool_init", uri, timeout, lib.errorString(rc) + " (" + rc + ")"));
            }
            me = NativeInfos.readProc(proc).orElseThrow();
          } catch (PmixNativeException e) {
            throw e;
          } catch (Throwable t) {
            throw Libpmix.rethrow(t);
          }
          LOG.info("tool {}.{} connected to {}", me.nspace(), me.rank(), uri);
          NativeDvmPort port =
              new NativeDvmPort(
                  lib,
                  executor,
                  () -> CompletableFuture.completedFuture(null),
                  () -> PmixCalls.blocking(() -> finalizeTool(lib)));
          return new Connected(port, me);
        });
  }

  private static StatusInfos finalizeTool(Libpmix lib) {
    try {
      int rc = (int) lib.toolFinalize.invokeExact();
      return StatusInfos.of(NativeDvmPort.status(rc, "PMIx_tool_finalize"));
    } catch (Throwable t) {
      throw Libpmix.rethrow(t);
    }
  }

  /**
   * A connected tool.
   *
   * @param port its port
   * @param self its name
   */
  public record Connected(DvmPort port, PmixProc self) {}
}
