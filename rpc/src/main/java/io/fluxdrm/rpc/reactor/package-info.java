/**
 * Event loops: the {@link io.fluxdrm.rpc.reactor.Reactor} thread that owns every socket, timer and
 * state of a process (one selector, no locks), the {@link io.fluxdrm.rpc.reactor.ManualEventLoop}
 * of deterministic tests, their shared {@link io.fluxdrm.rpc.reactor.Timers}, and {@link
 * io.fluxdrm.rpc.reactor.MemoryBudget}, the bytes a set of connections may hold. Other threads hand
 * work to a loop and get {@code CompletableFuture}s back. Nothing here knows Flux messages.
 */
package io.fluxdrm.rpc.reactor;
