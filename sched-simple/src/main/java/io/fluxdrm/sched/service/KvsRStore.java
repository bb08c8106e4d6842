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
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * The R store of a scheduler attached to a Flux broker: {@code job.<dothex>.R} in the primary KVS
 * namespace (07-job-events-kvs-exec.md), written with {@code kvs.commit} and read with {@code
 * kvs.lookup}, the value base64 in a {@code val} dirent. The R written in one turn of the loop go
 * in one commit, sent at the turn's end (D586).
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
   * Queues one R's op for the turn's commit (D586). The op is written from its parts (issue 32):
   * the key and the base64 value hold no character that JSON escapes, so these are the bytes the
   * payload's tree would serialize to.
   */
  private CompletableFuture<Void> commit(long id, byte[] r) {
    byte[] key = rKey(id).getBytes(StandardCharsets.US_ASCII);
    byte[] data = Base64.getEncoder().encode(r);
    CompletableFuture<Void> f = new CompletableFuture<>();
    if (ops.isEmpty()) {
      handle.loop().execute(this::flush);
    }
    ops.add(Json.concat(OP_HEAD, key, OP_MID, data, OP_TAIL));
    waiting.add(f);
    if (ops.size() >= MAX_OPS) {
      flush();
    }
    return f;
  }

  /**
   * Sends the ops queued since the last flush as one {@code kvs.commit}, one transaction; its
   * answer completes each of their futures, or fails all of them.
   */
  void flush() {
    int n = ops.size();
    if (n == 0) {
      return;
    }
    byte[][] parts = new byte[2 * n + 1][];
    parts[0] = COMMIT_HEAD;
    for (int i = 0; i < n; i++) {
      parts[2 * i + 1] = ops.get(i);
      parts[2 * i + 2] = i == n - 1 ? COMMIT_TAIL : COMMA;
    }
    byte[] p = Json.concat(parts);
    List<CompletableFuture<Void>> done = List.copyOf(waiting);
    ops.clear();
    waiting.clear();
    commits++;
    handle
        .call(Message.request(FluxTopics.KVS_COMMIT, p), null)
        .whenComplete(
            (m, err) -> {
              for (CompletableFuture<Void> f : done) {
                if (err == null) {
                  f.complete(null);
                } else {
                  f.completeExceptionally(err);
                }
              }
            });
  }

  /** How many {@code kvs.commit} requests this store has sent (for tests). */
  long commits() {
    return commits;
  }

  /** At most this many R in one commit, so that one commit stays a small message. */
  static final int MAX_OPS = 64;

  private final List<byte[]> ops = new ArrayList<>();
  private final List<CompletableFuture<Void>> waiting = new ArrayList<>();
  private long commits;

  private static final byte[] COMMIT_HEAD =
      "{\"namespace\":\"primary\",\"flags\":0,\"ops\":[".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] OP_HEAD = "{\"key\":\"".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] OP_MID =
      "\",\"flags\":0,\"dirent\":{\"ver\":1,\"type\":\"val\",\"data\":\""
          .getBytes(StandardCharsets.US_ASCII);
  private static final byte[] OP_TAIL = "\"}}".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] COMMA = {','};
  private static final byte[] COMMIT_TAIL = "]}\0".getBytes(StandardCharsets.US_ASCII);

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
