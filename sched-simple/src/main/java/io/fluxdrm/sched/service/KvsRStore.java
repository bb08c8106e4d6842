package io.fluxdrm.sched.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxdrm.protocol.FluxTopics;
import io.fluxdrm.rpc.Errno;
import io.fluxdrm.rpc.JobId;
import io.fluxdrm.rpc.Json;
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
  public CompletableFuture<Void> write(long id, ResourceSet r, JsonNode encoded) {
    try {
      return commit(id, Json.mapper().writeValueAsBytes(encoded));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      return write(id, r);
    }
  }

  private CompletableFuture<Void> commit(long id, byte[] r) {
    ObjectNode p = Json.object();
    p.put("namespace", "primary");
    p.put("flags", 0);
    ObjectNode op = p.putArray("ops").addObject();
    op.put("key", rKey(id));
    op.put("flags", 0);
    ObjectNode dirent = op.putObject("dirent");
    dirent.put("ver", 1);
    dirent.put("type", "val");
    dirent.put("data", Base64.getEncoder().encodeToString(r));
    return handle.rpc(FluxTopics.KVS_COMMIT, p).thenApply(m -> null);
  }

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
