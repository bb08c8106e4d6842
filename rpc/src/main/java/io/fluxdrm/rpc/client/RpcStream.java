package io.fluxdrm.rpc.client;

import java.util.concurrent.CompletableFuture;

/**
 * A streaming RPC in progress: responses go to the consumer given when it started; {@link #done()}
 * completes at ENODATA, or exceptionally with the error that ended it.
 */
public final class RpcStream {
  private final FluxHandle handle;
  private final String service;
  private final CompletableFuture<Void> done = new CompletableFuture<>();
  private final CompletableFuture<Integer> matchtag = new CompletableFuture<>();

  RpcStream(FluxHandle handle, String service) {
    this.handle = handle;
    this.service = service;
  }

  /** Completes when the stream ends. */
  public CompletableFuture<Void> done() {
    return done;
  }

  /** Completes with the matchtag once the request is sent. */
  public CompletableFuture<Integer> matchtag() {
    return matchtag;
  }

  CompletableFuture<Void> doneFuture() {
    return done;
  }

  void sent(int tag) {
    matchtag.complete(tag);
  }

  /**
   * Asks the service to cancel: sends {@code <service>.cancel {"matchtag": N}} with NORESPONSE. The
   * stream then ends with the service's answer (ECANCELED by convention).
   */
  public void cancel() {
    matchtag.thenAccept(tag -> handle.sendCancel(service, tag));
  }
}
