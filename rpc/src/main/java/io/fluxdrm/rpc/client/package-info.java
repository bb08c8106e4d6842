/**
 * The client side of RFC 6 remote procedure calls, as libflux's {@code flux_t}: the {@link
 * io.fluxdrm.rpc.client.FluxHandle} (RPCs with matchtags from a {@link
 * io.fluxdrm.rpc.client.MatchtagPool}, streams, cancel, timeouts, requests with matchtag 0 whose
 * responses go to {@link io.fluxdrm.rpc.client.ResponseHandler}s by topic, event {@link
 * io.fluxdrm.rpc.client.Subscription}s, service registration) and the {@link
 * io.fluxdrm.rpc.client.MessageTap} through which transcripts see its traffic. A handle runs on an
 * event loop of {@code io.fluxdrm.rpc.reactor} over a connector of {@code
 * io.fluxdrm.rpc.transport}; it knows no hub.
 */
package io.fluxdrm.rpc.client;
