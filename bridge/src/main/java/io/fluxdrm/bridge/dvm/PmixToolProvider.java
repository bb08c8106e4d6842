package io.fluxdrm.bridge.dvm;

import io.fluxdrm.pmix.port.DvmPort;
import java.time.Duration;
import java.util.concurrent.Executor;

/**
 * This process as a PMIx tool of a real DVM (PRRTE), found with {@link java.util.ServiceLoader} as
 * {@link PmixSchedulerProvider} is (decisions D435, D463): the implementation is the JDK 22+ module
 * {@code pmix-native}, which a JDK 17 build does not have, so the command line ({@code fluxdrm demo
 * --prrte}) looks it up at run time instead of linking it. libpmix holds one role per process: a
 * process that is a tool cannot also be the scheduler.
 */
public interface PmixToolProvider {

  /**
   * Connects this process to the DVM as a tool ({@code PMIx_tool_init} with {@code
   * PMIX_SERVER_URI}).
   *
   * @param dvmUri the DVM's URI, or {@code file:PATH} of the file {@code prte --report-uri} writes
   * @param timeout how long connecting may take
   * @param executor where the port's futures complete
   * @return the port; its {@link DvmPort#disconnect()} finalises the tool
   * @throws Exception when libpmix is missing or the DVM cannot be reached (the message says why)
   */
  DvmPort connect(String dvmUri, Duration timeout, Executor executor) throws Exception;
}
