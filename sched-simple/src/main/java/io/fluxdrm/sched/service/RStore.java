package io.fluxdrm.sched.service;

import io.fluxdrm.rset.ResourceSet;
import java.util.concurrent.CompletableFuture;

/**
 * Where the scheduler writes each running job's R and reads it back when a job manager says hello
 * (RFC 27 §4: a restarted scheduler rebuilds its allocations from the jobs the hello lists). Two
 * homes: the Flux KVS key {@code job.<dothex>.R} when attached ({@link KvsRStore}), and memory or a
 * directory when standalone ({@link StateStore}).
 *
 * <p>Both methods are called on the service's loop; the futures complete there.
 */
public interface RStore {

  /**
   * The R recorded for job {@code id}.
   *
   * @return a future that fails with an {@link io.fluxdrm.rpc.RpcException} (ENOENT when nothing is
   *     recorded, EPROTO when what is recorded is not R, or the store's own error)
   */
  CompletableFuture<ResourceSet> read(long id);

  /** Records {@code r} as job {@code id}'s R; completes once a later {@link #read} returns it. */
  CompletableFuture<Void> write(long id, ResourceSet r);

  /**
   * Records {@code r}, whose compact JSON text {@code json} (UTF-8) the caller has already made, as
   * job {@code id}'s R: a store that writes JSON writes those bytes instead of encoding {@code r}
   * again.
   */
  default CompletableFuture<Void> write(long id, ResourceSet r, byte[] json) {
    return write(id, r);
  }
}
