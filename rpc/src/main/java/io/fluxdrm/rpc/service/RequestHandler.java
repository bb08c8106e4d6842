package io.fluxdrm.rpc.service;

/**
 * Handles one request of a service method. It answers through the request now or later, from any
 * thread. A thrown {@link io.fluxdrm.rpc.RpcException} becomes an error response with its errnum
 * and text.
 */
@FunctionalInterface
public interface RequestHandler {
  /** Handles a request; must not block the loop. */
  void handle(ServiceRequest request);
}
