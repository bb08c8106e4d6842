package io.fluxdrm.pmix.nativ;

import io.fluxdrm.bridge.dvm.PmixToolProvider;
import io.fluxdrm.pmix.port.DvmPort;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The {@link PmixToolProvider} of this module ({@code fluxdrm demo --prrte}, D463): {@link
 * PmixTool#connect} with a name libpmix picks.
 */
public final class NativeToolProvider implements PmixToolProvider {

  /** For {@link java.util.ServiceLoader}. */
  public NativeToolProvider() {}

  @Override
  public DvmPort connect(String dvmUri, Duration timeout, Executor executor) throws Exception {
    try {
      return PmixTool.connect(dvmUri, Optional.empty(), timeout, executor)
          .toCompletableFuture()
          .get(timeout.toSeconds() + 30, TimeUnit.SECONDS)
          .port();
    } catch (ExecutionException e) {
      throw new PmixNativeException(e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      throw new PmixNativeException(
          "PMIx_tool_init " + dvmUri + ": no answer within " + (timeout.toSeconds() + 30) + " s",
          e);
    }
  }
}
