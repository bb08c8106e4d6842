/**
 * RFC 6 remote procedure calls over RFC 3 messages: the {@link io.fluxdrm.rpc.net.FluxHandle} (RPCs
 * with matchtags, streaming, cancel, timeouts; requests with matchtag 0 whose responses go to
 * handlers by topic; services; events), the {@link io.fluxdrm.rpc.net.Hub} that routes requests by
 * service name as Flux's router does and tells when a service is removed, and the transports that
 * carry messages between them: in-memory, the Flux local connector over a Unix socket, and ZeroMQ
 * (ZMTP 3.1 with NULL or CURVE, ZeroMQ RFC 37 and RFC 26, spoken by the reactor itself).
 *
 * <p>Threading: one event loop (a {@link io.fluxdrm.rpc.net.Reactor} thread, or a {@link
 * io.fluxdrm.rpc.net.ManualEventLoop} in tests) owns every socket and all state; other threads hand
 * work to it and get {@code CompletableFuture}s back. Identity comes from the transport (decision
 * D16), never from a message.
 */
package io.fluxdrm.rpc.net;
