/**
 * The reference DVM's service (issue 13 scope 2): the pure core ({@link io.fluxdrm.dvm.core}) run
 * on one event loop, its decisions carried out by an {@link io.fluxdrm.dvm.exec.Executor}, its
 * timers on the loop's timers, and the in-process {@link io.fluxdrm.pmix.port.DvmConnector} through
 * which ports reach it (the hub's {@link io.fluxdrm.dvm.wire.DvmHubService} is one user).
 */
package io.fluxdrm.dvm.service;
