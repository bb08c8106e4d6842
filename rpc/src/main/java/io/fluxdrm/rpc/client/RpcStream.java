package io.fluxdrm.rpc.client;

import java.util.concurrent.CompletableFuture;

/**
 * A streaming RPC in progress: responses go to the consumer given when it started; {@link #done()}
 * completes at ENODATA, or exceptionally with the error that ended it.
 */
public final class RpcStream {
  private final FluxHandle handle;
  private final String topic;
  private final CompletableFuture<Void> done = new CompletableFuture<>();
  private final CompletableFuture<Integer> matchtag = new CompletableFuture<>();

  RpcStream(FluxHandle handle, String topic) {
    this.handle = handle;
    this.topic = topic;
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
   * Asks the service to cancel: sends the method's own cancel, {@code <topic>-cancel {"matchtag":
   * N}} with NORESPONSE, as flux-core's streaming RPCs have it ({@code
   * job-info.eventlog-watch-cancel}); never {@code <service>.cancel}, which a service may define
   * otherwise (RFC 27's {@code sched.cancel}). The stream then ends with the service's answer:
   * ENODATA, its normal end, by convention (D520).
   */
  public void cancel() {
    matchtag.thenAccept(tag -> handle.sendCancel(topic, tag));
  }
}
