package io.fluxdrm.pmix.nativ;

import io.fluxdrm.bridge.dvm.FluxScheduler;
import io.fluxdrm.bridge.dvm.PmixSchedulerProvider;
import io.fluxdrm.pmix.PmixProc;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * The {@link PmixSchedulerProvider} of this module ({@code fluxdrm bridge --pmix-scheduler}, D435):
 * {@link PmixScheduler} serving a {@link PrrteScheduler} with a {@link ShrinkAgent} started from
 * this JVM's class path.
 */
public final class NativeSchedulerProvider implements PmixSchedulerProvider {
  /** The scheduler's PMIx name. */
  public static final PmixProc SELF = new PmixProc("fluxdrm-sched", 0);

  /** For {@link java.util.ServiceLoader}. */
  public NativeSchedulerProvider() {}

  @Override
  public AutoCloseable start(
      String dvmUri,
      FluxScheduler.Allocator allocator,
      FluxScheduler.HandBack handBack,
      Executor loop,
      Duration timeout)
      throws Exception {
    ShrinkAgent agent = new ShrinkAgent(dvmUri, System.getProperty("java.class.path"), loop);
    PmixScheduler[] up = new PmixScheduler[1];
    PrrteScheduler sched =
        new PrrteScheduler(
            allocator, handBack, agent, () -> up[0].port(), loop, PrrteScheduler.grantTimeout());
    PmixScheduler pmix;
    try {
      pmix =
          PmixScheduler.start(SELF, sched, dvmUri, timeout, loop)
              .toCompletableFuture()
              .get(timeout.toSeconds() + 30, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new PmixNativeException(e.getCause().getMessage(), e.getCause());
    }
    up[0] = pmix;
    PmixScheduler p = pmix;
    return () -> {
      agent.close();
      p.close();
    };
  }
}
