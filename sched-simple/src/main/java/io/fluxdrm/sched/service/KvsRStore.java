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
    int len = COMMIT_HEAD.length + COMMIT_TAIL.length + n - 1;
    for (byte[] op : ops) {
      len += op.length;
    }
    byte[] p = new byte[len];
    System.arraycopy(COMMIT_HEAD, 0, p, 0, COMMIT_HEAD.length);
    int k = COMMIT_HEAD.length;
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        p[k++] = ',';
      }
      byte[] op = ops.get(i);
      System.arraycopy(op, 0, p, k, op.length);
      k += op.length;
    }
    System.arraycopy(COMMIT_TAIL, 0, p, k, COMMIT_TAIL.length);
    List<CompletableFuture<Void>> done = n == 1 ? List.of(waiting.get(0)) : List.copyOf(waiting);
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
