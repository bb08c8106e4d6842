/**
 * Flux messages as RFC 3 defines them and flux-core's local connector frames them: the {@link
 * io.fluxdrm.rpc.Message} value, its pure codec ({@link io.fluxdrm.rpc.MessageCodec}), the stream
 * framing of the local connector ({@link io.fluxdrm.rpc.LocalFraming}) and the constants of the
 * protocol.
 *
 * <p>Codecs here open no socket and start no thread; transports only move the bytes they produce.
 */
package io.fluxdrm.rpc;
