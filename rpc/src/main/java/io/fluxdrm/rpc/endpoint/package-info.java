/**
 * Endpoints by URI scheme (decision D534): the one parser of the {@code unix:DIR}, {@code
 * local://PATH} and {@code tcp://HOST:PORT} forms fluxdrm's commands take, and the one place that
 * picks a connector by scheme, as flux-core's {@code flux_open(uri)} does. A new transport is a new
 * {@link io.fluxdrm.rpc.endpoint.Endpoint} case and a new branch of {@link
 * io.fluxdrm.rpc.endpoint.Connectors}.
 */
package io.fluxdrm.rpc.endpoint;
