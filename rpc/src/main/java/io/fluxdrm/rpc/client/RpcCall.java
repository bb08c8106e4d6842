package io.fluxdrm.rpc.client;

import io.fluxdrm.rpc.Message;
import java.util.concurrent.CompletableFuture;

/**
 * An RPC in progress (RFC 6): the matchtag its request carries and its response. The matchtag is
 * known once the request is sent, at once when the call was made on the handle's loop; it stays the
 * call's until the final response arrives (decision D62), so a protocol that names a request by its
 * matchtag ({@code sched.realloc_cancel}, {@code <service>.cancel}) may use it until then.
 */
public final class RpcCall {
  private final CompletableFuture<Message> response = new CompletableFuture<>();
  private final CompletableFuture<Integer> matchtag = new CompletableFuture<>();

  RpcCall() {}

  /**
   * Completes with the response; an error response completes it exceptionally with {@link
   * io.fluxdrm.rpc.RpcException} carrying its errnum and text.
   */
  public CompletableFuture<Message> response() {
    return response;
  }

  /**
   * Completes with the matchtag once the request is sent, or exceptionally with the reason it was
   * never sent (a closed handle: ECONNRESET; every matchtag in use: EIO).
   */
  public CompletableFuture<Integer> matchtag() {
    return matchtag;
  }
}
