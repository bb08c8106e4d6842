/**
 * Flux messages as RFC 3 defines them: the {@link io.fluxdrm.rpc.Message} value, its pure codec
 * ({@link io.fluxdrm.rpc.MessageCodec}), the identity a transport vouches for ({@link
 * io.fluxdrm.rpc.Credentials}, RFC 3's userid and rolemask, here because messages, services and
 * hubs all speak of it) and the constants of the protocol.
 *
 * <p>Codecs here open no socket and start no thread; transports only move the bytes they produce.
 * The packages below it by role: {@code client} (the handle), {@code service} (the service API),
 * {@code reactor} (the event loop), {@code transport} (connectors and the shared NIO connection
 * under both framings), {@code hub} (the router and its listeners), {@code zmtp} (ZMTP 3.1) and
 * {@code curve} (CurveZMQ).
 */
package io.fluxdrm.rpc;
