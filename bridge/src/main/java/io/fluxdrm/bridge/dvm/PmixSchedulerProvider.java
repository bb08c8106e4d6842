package io.fluxdrm.bridge.dvm;

import java.time.Duration;
import java.util.concurrent.Executor;

/**
 * fluxdrm as the PMIx scheduler of a real DVM (PRRTE), found with {@link java.util.ServiceLoader}
 * (decision D435): the implementation is the JDK 22+ module {@code pmix-native}, which a JDK 17
 * build does not have, so the command line looks it up at run time instead of linking it.
 */
public interface PmixSchedulerProvider {

  /**
   * Initialises this process as the PMIx scheduler, before the DVM starts, and serves the DVM's
   * forwarded requests through {@code allocator} and {@code handBack}.
   *
   * @param dvmUri the DVM's URI, or {@code file:PATH} of the file {@code prte --report-uri} writes
   * @param allocator the DVM job's allocation side
   * @param handBack gives released nodes back to the scheduler
   * @param loop the reactor
   * @param timeout how long attaching to the DVM may take
   * @return the running scheduler; closing it finalises PMIx
   * @throws Exception when libpmix is missing or its server cannot start (the message says why)
   */
  AutoCloseable start(
      String dvmUri,
      FluxScheduler.Allocator allocator,
      FluxScheduler.HandBack handBack,
      Executor loop,
      Duration timeout)
      throws Exception;
}
