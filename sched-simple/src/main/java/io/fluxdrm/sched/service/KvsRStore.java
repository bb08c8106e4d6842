package io.fluxdrm.sched.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.protocol.FluxTopics;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.JobId;
import io.fluxdrm.rpc.Json;
import io.fluxdrm.rpc.Message;
import io.fluxdrm.rpc.RpcException;
import io.fluxdrm.rpc.client.FluxHandle;
import io.fluxdrm.rset.ResourceSet;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * The R store of a scheduler attached to a Flux broker: {@code job.<dothex>.R} in the primary KVS
 * namespace (07-job-events-kvs-exec.md), written with {@code kvs.commit} and read with {@code
 * kvs.lookup}, the value base64 in a {@code val} dirent.
 */
final class KvsRStore implements RStore {
  private final FluxHandle handle;

  KvsRStore(FluxHandle handle) {
    this.handle = Objects.requireNonNull(handle, "handle");
  }

  /** The KVS key of a job's R (07-job-events-kvs-exec.md: {@code job.<dothex id>.R}). */
  static String rKey(long id) {
    return "job." + JobId.dothex(id) + ".R";
  }

  @Override
  public CompletableFuture<Void> write(long id, ResourceSet r) {
    return commit(id, r.toString().getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public CompletableFuture<Void> write(long id, ResourceSet r, byte[] json) {
    return commit(id, json);
  }

  /**
   * The {@code kvs.commit} of one R, written from its parts (issue 32): the key and the base64
   * value hold no character that JSON escapes, so these are the bytes the payload's tree would
   * serialize to.
   */
  private CompletableFuture<Void> commit(long id, byte[] r) {
    byte[] key = rKey(id).getBytes(StandardCharsets.US_ASCII);
    byte[] data = Base64.getEncoder().encode(r);
    byte[] p = Json.concat(COMMIT_HEAD, key, COMMIT_MID, data, COMMIT_TAIL);
    return handle.call(Message.request(FluxTopics.KVS_COMMIT, p), null).thenApply(m -> null);
  }

  private static final byte[] COMMIT_HEAD =
      "{\"namespace\":\"primary\",\"flags\":0,\"ops\":[{\"key\":\""
          .getBytes(StandardCharsets.US_ASCII);
  private static final byte[] COMMIT_MID =
      "\",\"flags\":0,\"dirent\":{\"ver\":1,\"type\":\"val\",\"data\":\""
          .getBytes(StandardCharsets.US_ASCII);
  private static final byte[] COMMIT_TAIL = "\"}}]}\0".getBytes(StandardCharsets.US_ASCII);

  @Override
  public CompletableFuture<ResourceSet> read(long id) {
    ObjectNode p = Json.object();
    p.put("key", rKey(id));
    p.put("namespace", "primary");
    p.put("flags", 0);
    return handle
        .rpc(FluxTopics.KVS_LOOKUP, p)
        .thenApply(
            m -> {
              JsonNode data = m.json().path("val").path("data");
              if (!data.isTextual()) {
                throw new RpcException(
                    Errno.EPROTO,
                    FluxTopics.KVS_LOOKUP + " " + rKey(id) + ": /val/data: (expected: base64)");
              }
              try {
                return ResourceSet.parse(
                    new String(Base64.getDecoder().decode(data.asText()), StandardCharsets.UTF_8));
              } catch (IllegalArgumentException e) {
                throw new RpcException(
                    Errno.EPROTO, FluxTopics.KVS_LOOKUP + " " + rKey(id) + ": " + e.getMessage());
              }
            });
  }
}
