/**
 * The service side of RFC 6: a {@link io.fluxdrm.rpc.service.Service} built from {@link
 * io.fluxdrm.rpc.service.RequestHandler}s by method, the {@link
 * io.fluxdrm.rpc.service.ServiceRequest} a handler answers (credentials, {@code isOwner}, {@code
 * mayActFor}), the dispatcher that runs them on a handle, and {@link
 * io.fluxdrm.rpc.service.PendingRequests}, the one helper for requests a service holds or forwards
 * (by sender and matchtag, cancel, disconnect sweep).
 */
package io.fluxdrm.rpc.service;
